"""The PostgreSQL store's migrations: SQL steps, and the steps that need the analyser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql

from memory.date_term_names import with_implied_terms
from memory.date_terms import date_terms_of
from memory.errors import MemoryStoreError
from memory.health_values import names_a_dose
from memory.postgres.schema import (
    CLAIMS_AND_CONDITIONS_READ_ANEW,
    CLAIMS_READ_ANEW,
    CLAIMS_STOPS_AND_DAYS_READ,
    CONTENT_HASHES,
    CZECH_DAYS_AND_OTHER_SCRIPTS_READ,
    DATE_TERMS,
    DATES_AND_MEDICINES_READ,
    DAY_FIRST_BESIDE_READ,
    DAYS_AFTER_WORDS_ELSEWHERE_READ,
    DAYS_AND_KIN_ELSEWHERE_READ,
    DAYS_ELSEWHERE_READ,
    DAYS_READ_ANEW,
    DOSES_READ_ANEW,
    DOTTED_DAYS_READ,
    DOTTED_MONTHS_ALIKE_READ,
    DUTCH_AND_PUFFS_READ,
    EVENTS_SAID_ON_READ,
    HOMES_ELSEWHERE_AND_DIETS_READ,
    IMPLIED_DATE_TERMS,
    KIN_AND_ROTAS_READ,
    KOREAN_AND_CJK_DATES_READ,
    LEFT_FOR_THE_NEW,
    LETTERS_WITHOUT_MARKS,
    MAY_AND_PLURALS_READ,
    MEDICINES_OF_MORE_ENDINGS_READ,
    MONTHS_TO_COME_READ,
    MOVES_SAID_OTHERWISE_READ,
    NEW_ADDRESSES_READ,
    NUMBERS_IN_DOTS,
    NUMBERS_WRITTEN_ALIKE,
    OTHER_LANGUAGES_READ,
    PEOPLE_BY_TRADE_READ,
    PLACES_IN_LOWER_CASE_READ,
    POLISH_DAYS_READ,
    RANGES_AND_WORDS_READ,
    SAVED_DAYS_APART,
    SHORT_WORDS_READ,
    STOPS_AND_SHIFTS_READ,
    STOPS_IN_OTHER_LANGUAGES_READ,
    STREETS_IN_LOWER_CASE_READ,
    STREETS_NAMED_FIRST_READ,
    SUMS_IN_MILLIONS_READ,
    SUMS_IN_THOUSANDS_READ,
    TERMS_ADDED,
    VIETNAMESE_AND_WELSH_DAYS_READ,
    WEEKDAYS_AT_A_TIME_READ,
    WEEKDAYS_WITH_THEIR_DAYS_READ,
    lexemes,
    migrations,
    unescape,
)
from memory.predicates import states_a_predicate, tells_of_leaving
from memory.read_anew import (
    claims_stops_or_days,
    czech_days_and_other_scripts_read,
    dates_or_medicines,
    day_first_beside_read,
    days_after_words_elsewhere_read,
    days_and_kin_elsewhere_read,
    days_elsewhere_read,
    dotted_days_read,
    dotted_months_alike_read,
    dutch_and_puffs_read,
    events_said_on_read,
    homes_elsewhere_and_diets_read,
    kin_and_rotas_read,
    korean_and_cjk_dates_read,
    may_and_plurals_read,
    medicines_of_more_endings_read,
    months_to_come_read,
    moves_said_otherwise_read,
    new_addresses_read,
    other_languages_read,
    people_by_trade_read,
    places_in_lower_case_read,
    polish_days_read,
    ranges_or_words,
    short_words_or_markers,
    stops_in_other_languages,
    stops_or_shifts,
    streets_in_lower_case_read,
    streets_named_first_read,
    sums_in_millions_read,
    sums_in_thousands_read,
    vietnamese_and_welsh_days_read,
    weekdays_at_a_time_read,
    weekdays_with_their_days_read,
)
from memory.relative_dates import names_a_relative_day, names_days_ahead
from memory.settings import MemorySettings
from memory.text import (
    entry_terms,
    has_letter_without_mark,
    has_terms_added,
    names_a_condition,
    reads_numbers_anew,
    umlauts_spelt_out,
)
from memory.weekly_days import names_a_weekly_day
from memory.write_policy import content_hash


async def _rewrite_terms(
    conn: psycopg.AsyncConnection[Any], updates: list[tuple[list[str], str]]
) -> None:
    """Give rows new terms (lexemes, id), the full-text vector made from them too."""
    async with conn.cursor() as cur:
        await cur.executemany(
            "UPDATE memories SET terms = %s, tsv = array_to_tsvector(%s::text[]) WHERE id = %s",
            [(terms, terms, entry_id) for terms, entry_id in updates],
        )


async def _add_date_terms(conn: psycopg.AsyncConnection[Any]) -> None:
    """Index every row under its dates too (`memory.date_terms`), keeping its words."""
    cursor = await conn.execute("SELECT id, content, ts, terms FROM memories")
    updates = []
    for entry_id, content, ts, terms in await cursor.fetchall():
        updates.append((lexemes([*terms, *date_terms_of(unescape(content), ts)]), entry_id))
    await _rewrite_terms(conn, updates)


async def _add_implied_date_terms(conn: psycopg.AsyncConnection[Any]) -> None:
    """Index the dates a row mentions under their months and years too."""
    cursor = await conn.execute("SELECT id, terms FROM memories")
    updates = []
    for entry_id, terms in await cursor.fetchall():
        completed = with_implied_terms(list(terms))
        if len(completed) != len(terms):
            updates.append((lexemes(completed), entry_id))
    await _rewrite_terms(conn, updates)


async def _index_again_where(
    conn: psycopg.AsyncConnection[Any], changed: Callable[[str], bool]
) -> None:
    """Index again the rows whose key or content the analysis now reads differently."""
    cursor = await conn.execute("SELECT id, key, content, ts FROM memories")
    updates = []
    for entry_id, key, content, ts in await cursor.fetchall():
        key, content = unescape(key), unescape(content)
        if changed(key) or changed(content):
            updates.append((lexemes(entry_terms(key, content, ts)), entry_id))
    await _rewrite_terms(conn, updates)


def _claims_conditions_or_umlauts(text: str) -> bool:
    return states_a_predicate(text) or names_a_condition(text) or bool(umlauts_spelt_out(text))


_READ_ANEW: dict[str, Callable[[str], bool]] = {
    # ø, ł, ß and the like, now written as people type them without the key.
    LETTERS_WITHOUT_MARKS: has_letter_without_mark,
    NUMBERS_WRITTEN_ALIKE: reads_numbers_anew,
    TERMS_ADDED: has_terms_added,
    NUMBERS_IN_DOTS: has_terms_added,
    CLAIMS_READ_ANEW: states_a_predicate,
    CLAIMS_AND_CONDITIONS_READ_ANEW: _claims_conditions_or_umlauts,
    DOSES_READ_ANEW: names_a_dose,
    SAVED_DAYS_APART: lambda _text: True,  # every row has a saving day
    LEFT_FOR_THE_NEW: lambda text: tells_of_leaving(text) or names_days_ahead(text),
    DAYS_READ_ANEW: lambda text: names_a_relative_day(text) or names_a_weekly_day(text),
    SHORT_WORDS_READ: short_words_or_markers,
    DATES_AND_MEDICINES_READ: dates_or_medicines,
    RANGES_AND_WORDS_READ: ranges_or_words,
    CLAIMS_STOPS_AND_DAYS_READ: claims_stops_or_days,
    STOPS_AND_SHIFTS_READ: stops_or_shifts,
    STOPS_IN_OTHER_LANGUAGES_READ: stops_in_other_languages,
    OTHER_LANGUAGES_READ: other_languages_read,
    MONTHS_TO_COME_READ: months_to_come_read,
    PLACES_IN_LOWER_CASE_READ: places_in_lower_case_read,
    STREETS_NAMED_FIRST_READ: streets_named_first_read,
    PEOPLE_BY_TRADE_READ: people_by_trade_read,
    MAY_AND_PLURALS_READ: may_and_plurals_read,
    KOREAN_AND_CJK_DATES_READ: korean_and_cjk_dates_read,
    WEEKDAYS_AT_A_TIME_READ: weekdays_at_a_time_read,
    WEEKDAYS_WITH_THEIR_DAYS_READ: weekdays_with_their_days_read,
    DAYS_ELSEWHERE_READ: days_elsewhere_read,
    DOTTED_DAYS_READ: dotted_days_read,
    NEW_ADDRESSES_READ: new_addresses_read,
    DAYS_AFTER_WORDS_ELSEWHERE_READ: days_after_words_elsewhere_read,
    MOVES_SAID_OTHERWISE_READ: moves_said_otherwise_read,
    STREETS_IN_LOWER_CASE_READ: streets_in_lower_case_read,
    MEDICINES_OF_MORE_ENDINGS_READ: medicines_of_more_endings_read,
    HOMES_ELSEWHERE_AND_DIETS_READ: homes_elsewhere_and_diets_read,
    DOTTED_MONTHS_ALIKE_READ: dotted_months_alike_read,
    EVENTS_SAID_ON_READ: events_said_on_read,
    DUTCH_AND_PUFFS_READ: dutch_and_puffs_read,
    KIN_AND_ROTAS_READ: kin_and_rotas_read,
    SUMS_IN_THOUSANDS_READ: sums_in_thousands_read,
    DAYS_AND_KIN_ELSEWHERE_READ: days_and_kin_elsewhere_read,
    SUMS_IN_MILLIONS_READ: sums_in_millions_read,
    DAY_FIRST_BESIDE_READ: day_first_beside_read,
    POLISH_DAYS_READ: polish_days_read,
    CZECH_DAYS_AND_OTHER_SCRIPTS_READ: czech_days_and_other_scripts_read,
    VIETNAMESE_AND_WELSH_DAYS_READ: vietnamese_and_welsh_days_read,
}
"""The steps that index again the rows whose key or content a new analysis reads anew."""


async def migrate(conn: psycopg.AsyncConnection[Any], settings: MemorySettings) -> None:
    """Create the schema if needed and apply the steps not yet applied, one migrator at a time."""
    schema = sql.Identifier(settings.postgres_schema)
    async with conn.transaction():
        await conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        await conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema))
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS memchat_schema_version (version int NOT NULL)"
        )
        # One migrator at a time, even with several machines opening the store at once.
        await conn.execute("LOCK TABLE memchat_schema_version IN EXCLUSIVE MODE")
        row = await (
            await conn.execute("SELECT max(version) FROM memchat_schema_version")
        ).fetchone()
        applied = (row[0] if row else None) or 0
        steps = migrations(settings.embedding_dimensions)
        for version, step in enumerate(steps[applied:], start=applied + 1):
            if step == DATE_TERMS:
                await _add_date_terms(conn)
            elif step == IMPLIED_DATE_TERMS:
                await _add_implied_date_terms(conn)
            elif step in _READ_ANEW:
                await _index_again_where(conn, _READ_ANEW[step])
            elif step == CONTENT_HASHES:
                await _add_content_hashes(conn)
            else:
                await conn.execute(step)
            await conn.execute(
                "INSERT INTO memchat_schema_version (version) VALUES (%s)", (version,)
            )
        dims = await (
            await conn.execute(
                "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'memories'::regclass "
                "AND attname = 'embedding'"
            )
        ).fetchone()
        if dims and dims[0] != settings.embedding_dimensions:
            raise MemoryStoreError(
                f"the PostgreSQL store holds vectors of size {dims[0]}, but "
                f"memory.embedding_dimensions is {settings.embedding_dimensions}"
            )


async def _add_content_hashes(conn: psycopg.AsyncConnection[Any]) -> None:
    """Give every row the hash its exact-duplicate check looks up (`write_policy`)."""
    await conn.execute("ALTER TABLE memories ADD COLUMN IF NOT EXISTS content_hash text")
    cursor = await conn.execute("SELECT id, content FROM memories")
    rows = [(content_hash(unescape(text)), entry_id) for entry_id, text in await cursor.fetchall()]
    async with conn.cursor() as cur:
        await cur.executemany("UPDATE memories SET content_hash = %s WHERE id = %s", rows)
    await conn.execute("ALTER TABLE memories ALTER COLUMN content_hash SET NOT NULL")
    await conn.execute(
        "CREATE INDEX IF NOT EXISTS memories_content_hash "
        "ON memories (namespace, category, content_hash) "
        "WHERE superseded_by IS NULL"
    )
