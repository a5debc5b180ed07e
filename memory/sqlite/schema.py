"""Named, ordered schema migrations, each applied once and recorded in a table."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from memory.date_term_names import saved_day_apart, with_implied_terms
from memory.date_terms import date_terms_of
from memory.entry import utc_now
from memory.errors import MemoryStoreError
from memory.health_values import names_a_dose
from memory.numbers import names_dotted_thousands
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
from memory.sqlite.rows import format_time, pad_year, time_or_none
from memory.sqlite.transaction import rollback_quietly
from memory.text import (
    has_letter_without_mark,
    has_terms_added,
    index_text,
    names_a_condition,
    reads_numbers_anew,
    umlauts_spelt_out,
)
from memory.weekly_days import names_a_weekly_day


@dataclass(frozen=True)
class Migration:
    """One schema step; `apply` runs inside the migration's transaction."""

    name: str
    apply: Callable[[sqlite3.Connection], None]


def _statements(sql: str) -> list[str]:
    """Split a script into statements, keeping trigger bodies whole."""
    statements: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        statements.append(pending.strip())
    return statements


def _script(sql: str) -> Callable[[sqlite3.Connection], None]:
    def run(conn: sqlite3.Connection) -> None:
        for statement in _statements(sql):
            conn.execute(statement)

    return run


# A key names the *active* entry: superseded versions keep their key as history, so the
# uniqueness is a partial index over active rows, not a table constraint.
# Vectors live beside the entries, not in them: a 3 KB BLOB per row would spread the
# entries over many pages and slow every keyword search that joins them.
_CREATE_MEMORIES = """
CREATE TABLE memories (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    namespace TEXT NOT NULL DEFAULT 'default',
    key TEXT NOT NULL,
    content TEXT NOT NULL,
    category TEXT NOT NULL,
    session_id TEXT,
    importance REAL NOT NULL DEFAULT 0.5,
    pinned INTEGER NOT NULL DEFAULT 0,
    source TEXT NOT NULL DEFAULT 'user',
    superseded_by TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    terms TEXT NOT NULL,
    content_hash TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX memories_active_key ON memories (namespace, key)
    WHERE superseded_by IS NULL;
CREATE INDEX memories_key ON memories (namespace, key);
CREATE INDEX memories_content_hash ON memories (namespace, category, content_hash);
CREATE TABLE memory_vectors (
    seq INTEGER PRIMARY KEY REFERENCES memories (seq) ON DELETE CASCADE,
    embedding BLOB NOT NULL,
    dims INTEGER NOT NULL,
    model TEXT NOT NULL
);
CREATE INDEX memories_recent ON memories (namespace, updated_at DESC);
CREATE INDEX memories_category ON memories (category, namespace);
CREATE INDEX memories_session ON memories (session_id, created_at, seq);
CREATE INDEX memories_created ON memories (created_at);
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

# `terms` holds the analysed text (see memory.text): stemming and CJK bigrams happen in
# Python so index and query sides agree exactly, and the FTS tokenizer only splits on space.
_CREATE_FTS = """
CREATE VIRTUAL TABLE memories_fts USING fts5(
    terms, content='memories', content_rowid='seq',
    tokenize='unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, 'row');
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, terms) VALUES (new.seq, new.terms);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, terms) VALUES ('delete', old.seq, old.terms);
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE OF terms ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, terms) VALUES ('delete', old.seq, old.terms);
    INSERT INTO memories_fts (rowid, terms) VALUES (new.seq, new.terms);
END;
"""

# Every committed change leaves its row id here, so each process can bring its in-memory
# vector index up to date with writes made by other processes without a full rebuild.
_CREATE_CHANGES = """
CREATE TABLE memory_changes (change_id INTEGER PRIMARY KEY AUTOINCREMENT, seq INTEGER NOT NULL);
CREATE TRIGGER memories_changed_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memory_changes (seq) VALUES (new.seq);
END;
CREATE TRIGGER memories_changed_update AFTER UPDATE ON memories BEGIN
    INSERT INTO memory_changes (seq) VALUES (new.seq);
END;
CREATE TRIGGER memories_changed_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memory_changes (seq) VALUES (old.seq);
END;
CREATE TRIGGER vectors_changed_insert AFTER INSERT ON memory_vectors BEGIN
    INSERT INTO memory_changes (seq) VALUES (new.seq);
END;
CREATE TRIGGER vectors_changed_update AFTER UPDATE ON memory_vectors BEGIN
    INSERT INTO memory_changes (seq) VALUES (new.seq);
END;
CREATE TRIGGER vectors_changed_delete AFTER DELETE ON memory_vectors BEGIN
    INSERT INTO memory_changes (seq) VALUES (old.seq);
END;
"""

_CREATE_EMBEDDING_CACHE = """
CREATE TABLE embedding_cache (
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    embedding BLOB NOT NULL,
    last_used REAL NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
CREATE INDEX embedding_cache_lru ON embedding_cache (last_used);
"""

# Every deletion (hygiene, forget) leaves a row here: what, when and why.
_CREATE_AUDIT = """
CREATE TABLE memory_audit (
    audit_id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    entry_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    category TEXT NOT NULL,
    content TEXT NOT NULL
);
CREATE INDEX memory_audit_at ON memory_audit (at);
"""

# The calibration anchors' vectors per embedding model: read at every start, never evicted.
_CREATE_ANCHORS_TABLE = """
CREATE TABLE calibration_anchors (
    model TEXT PRIMARY KEY,
    anchors_digest TEXT NOT NULL,
    vectors BLOB NOT NULL
) WITHOUT ROWID;
"""

# Matches a stored time whose year has fewer than four digits.
_SHORT_YEAR_GLOB = " OR ".join(
    f"{column} GLOB '{'[0-9]' * digits}-*'"
    for column in ("created_at", "updated_at")
    for digits in (1, 2, 3)
)


def _pad_short_years(conn: sqlite3.Connection) -> None:
    """Zero-pad years before 1000, which strftime once stored unpadded (`999-01-01…`).

    Unpadded, such a time sorts after every four-digit year, so time filters and ordering
    were wrong for it, and older readers could not parse it at all.
    """
    rows = conn.execute(
        f"SELECT seq, created_at, updated_at FROM memories WHERE {_SHORT_YEAR_GLOB}"
    ).fetchall()
    conn.executemany(
        "UPDATE memories SET created_at = ?, updated_at = ? WHERE seq = ?",
        [(pad_year(created), pad_year(updated), seq) for seq, created, updated in rows],
    )


def _add_date_terms(conn: sqlite3.Connection) -> None:
    """Index every entry under its dates too (`memory.date_terms`).

    Only the date terms are appended: the words were analysed when the entry was written.
    """
    rows = conn.execute("SELECT seq, content, created_at, terms FROM memories").fetchall()
    updates = []
    for seq, content, created, terms in rows:
        # A damaged row keeps what it has: the migration must not stop the store opening.
        readable = content if isinstance(content, str) else ""
        dates = date_terms_of(readable, time_or_none(created))
        if dates and isinstance(terms, str):
            updates.append((" ".join([terms, *dates]).strip(), seq))
    conn.executemany("UPDATE memories SET terms = ? WHERE seq = ?", updates)


def _add_implied_date_terms(conn: sqlite3.Connection) -> None:
    """Index the dates an entry mentions under their months and years too.

    "On 21 June 2023" was found by that day alone, not by "my notes from June 2023".
    """
    updates = []
    for seq, terms in conn.execute("SELECT seq, terms FROM memories").fetchall():
        if not isinstance(terms, str):
            continue  # a damaged row keeps what it has
        words = terms.split()
        completed = with_implied_terms(words)
        if len(completed) != len(words):
            updates.append((" ".join(completed), seq))
    conn.executemany("UPDATE memories SET terms = ? WHERE seq = ?", updates)


def _index_again_where(conn: sqlite3.Connection, changed: Callable[[str], bool]) -> None:
    """Index again the entries whose key or content the analysis now reads differently."""
    rows = conn.execute("SELECT seq, key, content, created_at FROM memories").fetchall()
    updates = []
    for seq, key, content, created in rows:
        if not (isinstance(key, str) and isinstance(content, str)):
            continue  # a damaged row keeps what it has
        if changed(key) or changed(content):
            updates.append((index_text(key, content, time_or_none(created)), seq))
    conn.executemany("UPDATE memories SET terms = ? WHERE seq = ?", updates)


def _fold_letters_without_marks(conn: sqlite3.Connection) -> None:
    """Index again the entries whose words hold ø, ł, ß and the like.

    `memory.text.fold` now writes them as people type them without the key ("Soren",
    "strasse"); only such entries' terms change.
    """
    _index_again_where(conn, has_letter_without_mark)


def _write_numbers_alike(conn: sqlite3.Connection) -> None:
    """Index again the entries with "1,250" or "9 AM" in them (`memory.numbers.written_alike`)."""
    _index_again_where(conn, reads_numbers_anew)


def _add_terms(conn: sqlite3.Connection) -> None:
    """Index again the entries with a grouped number or a one-valued predicate.

    "0176 8888888" is found joined too, "I moved to Lisbon" by "live" too.
    """
    _index_again_where(conn, has_terms_added)


def _add_numbers_in_dots(conn: sqlite3.Connection) -> None:
    """Index again the entries with a number in groups.

    "555.123.4567" and "030/1234567" are found joined too (0013 joined only spaces and
    hyphens).
    """
    _index_again_where(conn, has_terms_added)


def _read_claims_anew(conn: sqlite3.Connection) -> None:
    """Index again the entries stating a home or an employer.

    "I live in fear", "I moved to Slack" and dated or ended stays are no longer claims of
    a home (so no longer found as one), and "My wife and I live in …" is.
    """
    _index_again_where(conn, states_a_predicate)


def _read_claims_and_conditions_anew(conn: sqlite3.Connection) -> None:
    """Index again the entries a claim, a condition or an umlaut is read in anew.

    A home or an employer stated, a health condition named, a word with an umlaut
    (indexed spelt out too: `memory.text.umlauts_spelt_out`).
    """
    _index_again_where(
        conn,
        lambda text: (
            states_a_predicate(text) or names_a_condition(text) or bool(umlauts_spelt_out(text))
        ),
    )


def _read_doses_anew(conn: sqlite3.Connection) -> None:
    """Index again the entries saying what dose the user takes (found by the words asking)."""
    _index_again_where(conn, names_a_dose)


def _saved_days_apart(conn: sqlite3.Connection) -> None:
    """Index the day each entry was saved under terms of its own (`memory.date_terms`).

    "what do I have on today?" found everything saved today at 1.0: a date named and the
    day saved were one term. Only the terms' text changes, but for the entries naming a
    day from the day they were saved ("due next Friday"), indexed again.
    """
    updates = []
    for seq, terms in conn.execute("SELECT seq, terms FROM memories").fetchall():
        if not isinstance(terms, str):
            continue  # a damaged row keeps what it has
        apart = saved_day_apart(terms)
        if apart != terms:
            updates.append((apart, seq))
    conn.executemany("UPDATE memories SET terms = ? WHERE seq = ?", updates)
    # "due next Friday" is found by the day it names from the day it was saved, and
    # "1.200 €" by "1200".
    _index_again_where(
        conn, lambda text: names_a_relative_day(text) or names_dotted_thousands(text)
    )


def _left_for_the_new_days_ahead(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, lambda text: tells_of_leaving(text) or names_days_ahead(text))


def _days_read_anew(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, lambda text: names_a_relative_day(text) or names_a_weekly_day(text))


def _short_words_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, short_words_or_markers)


def _dates_and_medicines_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, dates_or_medicines)


def _ranges_and_words_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, ranges_or_words)


def _claims_stops_and_days_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, claims_stops_or_days)


def _stops_and_shifts_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, stops_or_shifts)


def _stops_in_other_languages_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, stops_in_other_languages)


def _other_languages_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, other_languages_read)


def _months_to_come_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, months_to_come_read)


def _places_in_lower_case_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, places_in_lower_case_read)


def _streets_named_first_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, streets_named_first_read)


def _people_by_trade_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, people_by_trade_read)


def _may_and_plurals_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, may_and_plurals_read)


def _korean_and_cjk_dates_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, korean_and_cjk_dates_read)


def _weekdays_at_a_time_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, weekdays_at_a_time_read)


def _weekdays_with_their_days_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, weekdays_with_their_days_read)


def _days_elsewhere_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, days_elsewhere_read)


def _dotted_days_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, dotted_days_read)


def _new_addresses_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, new_addresses_read)


def _days_after_words_elsewhere_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, days_after_words_elsewhere_read)


def _moves_said_otherwise_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, moves_said_otherwise_read)


def _streets_in_lower_case_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, streets_in_lower_case_read)


def _medicines_of_more_endings_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, medicines_of_more_endings_read)


def _homes_elsewhere_and_diets_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, homes_elsewhere_and_diets_read)


def _dotted_months_alike_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, dotted_months_alike_read)


def _events_said_on_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, events_said_on_read)


def _dutch_and_puffs_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, dutch_and_puffs_read)


def _kin_and_rotas_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, kin_and_rotas_read)


def _sums_in_thousands_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, sums_in_thousands_read)


def _days_and_kin_elsewhere_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, days_and_kin_elsewhere_read)


def _sums_in_millions_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, sums_in_millions_read)


def _day_first_beside_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, day_first_beside_read)


def _polish_days_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, polish_days_read)


def _czech_days_and_other_scripts_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, czech_days_and_other_scripts_read)


def _vietnamese_and_welsh_days_read(conn: sqlite3.Connection) -> None:
    _index_again_where(conn, vietnamese_and_welsh_days_read)


MIGRATIONS: tuple[Migration, ...] = (
    Migration("0001_memories", _script(_CREATE_MEMORIES)),
    Migration("0002_fulltext", _script(_CREATE_FTS)),
    Migration("0003_change_log", _script(_CREATE_CHANGES)),
    Migration("0004_embedding_cache", _script(_CREATE_EMBEDDING_CACHE)),
    Migration("0005_audit", _script(_CREATE_AUDIT)),
    Migration("0006_pad_short_years", _pad_short_years),
    Migration("0007_calibration_anchors", _script(_CREATE_ANCHORS_TABLE)),
    # Counting the vectors of one model without reading every vector (`stats`).
    Migration(
        "0008_vectors_by_model",
        _script("CREATE INDEX memory_vectors_model ON memory_vectors (model, dims);"),
    ),
    Migration("0009_date_terms", _add_date_terms),
    Migration("0010_implied_date_terms", _add_implied_date_terms),
    Migration("0011_letters_without_marks", _fold_letters_without_marks),
    Migration("0012_numbers_written_alike", _write_numbers_alike),
    Migration("0013_joined_numbers_and_wordings", _add_terms),
    Migration("0014_numbers_in_dots_and_slashes", _add_numbers_in_dots),
    Migration("0015_claims_read_anew", _read_claims_anew),
    # A deleted memory brought back from the log keeps its first time and its chat.
    Migration(
        "0016_audit_keeps_times",
        _script(
            "ALTER TABLE memory_audit ADD COLUMN created_at TEXT;\n"
            "ALTER TABLE memory_audit ADD COLUMN session_id TEXT;\n"
        ),
    ),
    # "I live in Porto since I lost my job" states a home now (`memory.predicates`), and
    # "allergic" is read as "allergies" (`memory.text.SAME_CONDITION`).
    Migration("0017_claims_and_conditions_read", _read_claims_and_conditions_anew),
    # "what's my current dose?" finds "I take 10mg of lisinopril" (`memory.health_values`).
    Migration("0018_doses_by_the_words_asking", _read_doses_anew),
    # "what do I have on today?" asks of what memories name, not of when they were saved.
    # "due next Friday" is found by that Friday's date.
    Migration("0019_saved_days_apart", _saved_days_apart),
    # "I left Fintrack, I've been hired by Revolut" says where the user works now; "Rent
    # due in two weeks" and "at the end of the month" name days.
    Migration("0020_left_for_the_new_days_ahead", _left_for_the_new_days_ahead),
    # "day after tomorrow", "a week tomorrow", "the deadline is Friday" name days; "on
    # Friday 18 December" is that date, not the weekday's next; a past tense in another
    # clause makes "it arrives in two weeks" no time it took; "every Monday" is Mondays.
    Migration("0021_days_read_anew", _days_read_anew),
    # "tmrw", "thurs", "appt", "on sat" are read as the words they stand for; "on Friday
    # the 18th" is the 18th, not the coming Friday too; "[REDACTED:pin]" is no word.
    Migration("0022_short_words_read", _short_words_read),
    # "rego due 14/1", "Night shift Mon 7/12 21:00" and "am 14.1." name days without the
    # year; "Mon" before a day and month is Monday, "dentist fri 9am" that Friday;
    # "Ventolin for my asthma" is found by "meds", "My GP is …" by "doctor", "€38 a sack"
    # by "price".
    Migration("0023_dates_and_medicines_read", _dates_and_medicines_read),
    # "Away 20/12 to 2/1" is away on 24/12 too; "Passed 12/12 tests" names no day; "$135/hr"
    # is found by "charge", "weighs" by "weight".
    Migration("0024_ranges_and_words_read", _ranges_and_words_read),
    # "Hi! My name is Sam and I live in Porto. I work at Acme." is found by "address" and
    # "employer": a home or employer said in one sentence or clause of several. "I'm off
    # lisinopril now" is found by "medication", a dose by "tablets"; "Sat 16th" is the next
    # 16th on a Saturday; "20-23/1" holds the 21st and 22nd.
    Migration("0025_claims_stops_and_days_read", _claims_stops_and_days_read),
    # "GP discontinued my omeprazole" is found by "medication", "Should I stop the
    # warfarin?" is no stop; a roster is found by "shift" and a shift by "roster".
    Migration("0026_stops_and_shifts_read", _stops_and_shifts_read),
    Migration("0027_stops_in_other_languages_read", _stops_in_other_languages_read),
    # "Non prendo più l'omeprazolo" is found by "medication", "omeprazolo" by "omeprazole",
    # "20 de diciembre" by "December 20", "el jueves" by "Thursday".
    Migration("0028_other_languages_read", _other_languages_read),
    # "the fee goes up to €45 from January", said in December, is found by "next year";
    # "wk" and "tomoz" are read as "week" and "tomorrow".
    Migration("0029_months_to_come_read", _months_to_come_read),
    # "I moved to portobello" is found by "where do I live?".
    Migration("0030_places_in_lower_case_read", _places_in_lower_case_read),
    # "I live at Rua do Ouro 10" is a home.
    Migration("0031_streets_named_first_read", _streets_named_first_read),
    # "accountant" is no "account" ("what's my accountant's name?" found a bank account).
    Migration("0032_people_by_trade_read", _people_by_trade_read),
    # "8 may be too many" is no 8 May; "loaves" is "loaf".
    Migration("0033_may_and_plurals_read", _may_and_plurals_read),
    # "월세가 얼마였지?" finds "월세 120만원" (a Korean word without its particles); "December
    # 18" finds "치과 예약 12월 18일".
    Migration("0034_korean_and_cjk_dates_read", _korean_and_cjk_dates_read),
    Migration("0035_weekdays_at_a_time_read", _weekdays_at_a_time_read),
    # "call with Ferran thursday at 10" and "friday 29 at 11:00" name their days.
    Migration("0036_weekdays_with_their_days_read", _weekdays_with_their_days_read),
    # "dentista mañana a las 5" is tomorrow; "esta semana" this week.
    Migration("0037_days_elsewhere_read", _days_elsewhere_read),
    Migration("0038_dotted_days_read", _dotted_days_read),
    # "New address is 14 Wattle Ave" is where the user lives.
    Migration("0039_new_addresses_read", _new_addresses_read),
    # "cena con Marco il 20.02" is 20 February.
    Migration("0040_days_after_words_elsewhere_read", _days_after_words_elsewhere_read),
    # "We just moved into 4 Elm Road" is where the user lives.
    Migration("0041_moves_said_otherwise_read", _moves_said_otherwise_read),
    # "I live at 4521 rue Fabre" is where the user lives.
    Migration("0042_streets_in_lower_case_read", _streets_in_lower_case_read),
    # "Manny stopped donepezil" stops a medicine.
    Migration("0043_medicines_of_more_endings_read", _medicines_of_more_endings_read),
    # "Vivo en calle Mayor 5, Madrid" is where the user lives; "I eat fish now" a diet.
    Migration("0044_homes_elsewhere_and_diets_read", _homes_elsewhere_and_diets_read),
    # "Klausur am 29. April" names 29 April.
    Migration("0045_dotted_months_alike_read", _dotted_months_alike_read),
    # "Dentist is 10/9" names 10 September (or 9 October).
    Migration("0046_events_said_on_read", _events_said_on_read),
    # "vrijdag 4 juni 2027" names 4 June; "ik woon op de Oudegracht 112" a home; "2 puffs" a dose.
    Migration("0047_dutch_and_puffs_read", _dutch_and_puffs_read),
    # "Mãe's birthday" is found by "mother"; "Saturday shift: …" by a Saturday asked about.
    Migration("0048_kin_and_rotas_read", _kin_and_rotas_read),
    # "my ajo is 50k" and "N50,000" are found by 50000.
    Migration("0049_sums_in_thousands_read", _sums_in_thousands_read),
    # "明日は歯医者" names tomorrow; "お母さんの誕生日" is found by "mother", not "mother-in-law";
    # "sábado 9/1" names 9 January.
    Migration("0050_days_and_kin_elsewhere_read", _days_and_kin_elsewhere_read),
    # "₦1.2m", "Rs 1.2 lakh" and "N50k" are found by 1200000, 120000 and 50000.
    Migration("0051_sums_in_millions_read", _sums_in_millions_read),
    # "DSA 10/03, DBMS 12/03, OS 15/03" names 10 and 12 March too.
    Migration("0052_day_first_beside_read", _day_first_beside_read),
    # "12 czerwca" names 12 June, "w piątek" Friday, "jutro" tomorrow.
    Migration("0053_polish_days_read", _polish_days_read),
    # "15. července" names 15 July, "١٥/٢" 15 February, "مُهِمّ" is found by "مهم".
    Migration("0054_czech_days_and_other_scripts_read", _czech_days_and_other_scripts_read),
    # A message deleted between two of a chat's is found by its chat and time.
    Migration(
        "0055_audit_by_chat",
        _script(
            "CREATE INDEX IF NOT EXISTS memory_audit_by_chat "
            "ON memory_audit (session_id, namespace, created_at);"
        ),
    ),
    # "thứ Sáu 5/3" names Friday 5 March, "yfory" tomorrow, "20fed o Fehefin" 20 June.
    Migration("0056_vietnamese_and_welsh_days_read", _vietnamese_and_welsh_days_read),
)

REQUIRED_MIGRATIONS = frozenset(m.name for m in MIGRATIONS[:5])
"""The migrations that make the tables; without them even a read-only store cannot work.
Later ones only repair data, so a store that cannot be written can still be read."""

APPLICATION_ID = 0x4D454D43  # "MEMC": marks the file as ours for `file` and for us.


def applied_migrations(conn: sqlite3.Connection) -> set[str]:
    """Names already applied; empty for a fresh file."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    if not exists:
        return set()
    return {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}


def unknown_migrations(applied: set[str]) -> list[str]:
    """Applied migrations this version does not know: the store is from a newer memchat."""
    known = {migration.name for migration in MIGRATIONS}
    return sorted(applied - known)


def newer_store_error(path: object, unknown: list[str]) -> MemoryStoreError:
    """The error for a store written by a newer memchat (the file is left untouched)."""
    return MemoryStoreError(
        f"{path} was written by a newer version of memchat: it has schema changes this "
        f"version does not know ({', '.join(unknown)}). The file was left untouched; "
        "upgrade memchat to open it."
    )


def pending_migrations(conn: sqlite3.Connection) -> list[str]:
    """Names of the known migrations not yet applied, in order."""
    done = applied_migrations(conn)
    return [migration.name for migration in MIGRATIONS if migration.name not in done]


def migrate(conn: sqlite3.Connection, path: object = "the store") -> list[str]:
    """Apply pending migrations in order, each in its own transaction; return their names.

    A store that records migrations this version does not know is refused before any
    change (it was written by a newer memchat).
    """
    done = applied_migrations(conn)
    if unknown := unknown_migrations(done):
        raise newer_store_error(path, unknown)
    applied: list[str] = []
    for migration in MIGRATIONS:
        if migration.name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated (perhaps a newer memchat) while we waited
            # for the write lock.
            now_done = applied_migrations(conn)
            if unknown := unknown_migrations(now_done):
                raise newer_store_error(path, unknown)
            if migration.name in now_done:
                conn.execute("ROLLBACK")
                continue
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            migration.apply(conn)
            conn.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                (migration.name, format_time(utc_now())),
            )
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute("COMMIT")
        except BaseException:
            rollback_quietly(conn)
            raise
        applied.append(migration.name)
    return applied
