"""A number or a clock time is found however it was written: "1,250" and "1250", "9 AM",
"9am" and "9 a.m."; stores indexed before are indexed again, on every backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory import text as analysis
from memory.factory import open_memory
from memory.numbers import written_alike
from memory.postgres.schema import NUMBERS_WRITTEN_ALIKE
from memory.postgres.store import PostgresMemory
from memory.qdrant.points import TERMS, TERMS_RULE, PointFilter, StoredPoint
from memory.qdrant.store import QdrantMemory
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from tests.helpers.older_index import (
    keyword_only,
    postgres_indexed_before,
    postgres_keyword_only,
    qdrant_hashing,
)
from tests.helpers.postgres import postgres_url
from tests.unit.memory.conftest import as_before

__all__ = ["postgres_url"]  # the fixture, used by name

ALIKE = [
    ("meeting at 9 AM", "meeting at 9am"),
    ("9 a.m. sharp", "9AM sharp"),
    ("call at 9:30 PM.", "call at 9:30pm"),
    ("It costs 1,250 dollars", "It costs 1250 dollars"),
    ("a budget of 1,234,567", "a budget of 1234567"),
    ("ran 5km", "ran 5 km"),
    ("12.5kg of flour", "12.5 kg of flour"),
]
# A 24-hour time and its 12-hour spelling share the term of the hour ("9pm").
SAME_HOUR = [
    ("9 a.m. sharp", "09:00 sharp", "9am"),
    ("call at 9.30pm", "call at 21:30", "9pm"),
    ("lunch at 12pm", "lunch at 12:00", "12pm"),
    ("snack at 12am", "snack at 00:00", "12am"),
    ("lunch at noon", "lunch at 12pm", "12pm"),
]
LEFT_AS_THEY_WERE = [
    "items 1,2,3",
    "code x9am",
    "2 amps",
    "I am 9",
    "v1.2,345",
    "LH1234",
    "factor x^2 - 5x + 6",
    "a split of 14:32 per lap",  # not on the five minutes: not read as a time
    "aspect ratio 21:09",
    "flat 3B",
    "the 1990s",
]
# Written alike, but not to anything else: "9:00" may be morning or evening, and "14.00"
# may be a price.
AMBIGUOUS = [("at 9:00", ["9", "00"]), ("14.00 euros", ["14", "00", "euro"])]


@pytest.mark.parametrize(("one", "other"), ALIKE)
def test_the_same_number_or_time_written_two_ways_has_the_same_terms(one: str, other: str) -> None:
    assert analysis.analyze(one) == analysis.analyze(other)
    assert analysis.reads_numbers_anew(one)  # a store indexed before is indexed again


@pytest.mark.parametrize(("one", "other", "hour"), SAME_HOUR)
def test_a_time_written_two_ways_shares_its_hour(one: str, other: str, hour: str) -> None:
    assert hour in analysis.analyze(one) and hour in analysis.analyze(other)
    assert hour in analysis.query_terms(f"what is at {other}?")


@pytest.mark.parametrize("text", LEFT_AS_THEY_WERE)
def test_what_is_not_a_grouped_number_or_a_time_keeps_its_terms(text: str) -> None:
    assert not analysis.reads_numbers_anew(text)
    assert written_alike(analysis.fold(text)) == analysis.fold(text)


@pytest.mark.parametrize(("text", "terms"), AMBIGUOUS)
def test_a_time_that_may_be_morning_or_evening_gets_no_half_of_the_day(
    text: str, terms: list[str]
) -> None:
    assert analysis.analyze(text) == terms


def test_noon_and_midnight_are_found_by_their_hours() -> None:
    assert "12pm" in analysis.analyze("lunch at noon")
    assert "12am" in analysis.analyze("a midnight snack")


def test_a_time_keeps_its_digits_as_terms_too() -> None:
    # "9:30" asked without am/pm still shares the hour and minutes with "9:30 PM".
    assert analysis.analyze("call at 9:30 PM") == ["call", "9", "30", "9pm"]
    assert set(analysis.query_terms("what is at 9:30?")) <= {"9", "30"}


async def test_a_store_finds_a_time_or_number_however_it_is_asked(tmp_path: Path) -> None:
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        await store.store("dentist", "Dentist appointment at 9 AM on Friday", "core")
        await store.store("budget", "The trip budget is 1,250 euros", "core")
        await store.store("tea", "Tea with milk, no sugar", "core")
        for question, key in [
            ("when is the 9am appointment?", "dentist"),
            ("what is at 9 a.m.", "dentist"),
            ("anything at 09:00?", "dentist"),
            ("1250 euros", "budget"),
        ]:
            found = await store.recall(question)
            assert [e.key for e in found.entries][:1] == [key], question
    finally:
        await store.close()


def _old_terms(key: str, content: str) -> str:
    """The terms memchat indexed before numbers and times were written alike."""
    return " ".join(
        [*_without_alike(key), *_without_alike(content)]
        + [t for t in analysis.entry_terms(key, content) if t.startswith("dt")]
    )


def _without_alike(text: str) -> list[str]:
    tokens = analysis._TOKEN.findall(analysis.fold(text))  # noqa: SLF001 - the old analysis
    return [t for token in tokens for t in analysis._token_terms(token, False)]  # noqa: SLF001


async def test_a_sqlite_store_indexed_before_is_indexed_again(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await store.store("dentist", "Dentist appointment at 9 AM", "core")
    await store.store("invoice", "Invoice due 3/3/2026", "core")
    await store.store("tea", "Tea with milk", "core")
    await store.close()
    with as_before(path, "0012_numbers_written_alike") as conn:
        old = _old_terms("dentist", "Dentist appointment at 9 AM")
        assert "9am" not in old.split()
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'dentist'", (old,))
        # Before numeric dates were dates: the digits, and the day it was saved.
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'invoice'").fetchone()
        saved_on = [t for t in terms.split() if t.startswith("dt") and "0303" not in t]
        conn.execute(
            "UPDATE memories SET terms = ? WHERE key = 'invoice'",
            (" ".join(["invoic", "invoic", "due", "3", "3", "2026", *saved_on]),),
        )
    store = await SqliteMemory.open(path, keyword_only())
    try:
        found = await store.recall("the 9am appointment")
        assert [e.key for e in found.entries] == ["dentist"]
        assert found.entries[0].scores is not None and found.entries[0].scores.keyword == 1.0
        dated = await store.recall("what is due on 3 March 2026?")
        assert [e.key for e in dated.entries][:1] == ["invoice"]
        assert dated.entries[0].scores is not None and dated.entries[0].scores.keyword == 1.0
    finally:
        await store.close()


async def test_qdrant_points_indexed_before_are_indexed_again_once(tmp_path: Path) -> None:
    store = await open_memory(qdrant_hashing(), tmp_path, CountingEmbedder(64))
    assert isinstance(store, QdrantMemory)
    dentist = await store.store("dentist", "Dentist appointment at 9 AM", "core")
    await store.store("tea", "Tea with milk", "core")
    points = store._points  # noqa: SLF001 - the test writes points as an older memchat did
    for point in points.retrieve([p.id for p in points.scroll(None)], vectors=True):
        payload = {k: v for k, v in point.payload.items() if k != TERMS_RULE}
        if point.payload["key"] == "dentist":
            payload[TERMS] = sorted(
                set(_old_terms("dentist", "Dentist appointment at 9 AM").split())
            )
        points.upsert([StoredPoint(point.id, payload, point.vector)])
    assert points.count(PointFilter(lacking=(TERMS_RULE,))) == 2
    await store.close()

    again = await open_memory(qdrant_hashing(), tmp_path, CountingEmbedder(64))
    assert isinstance(again, QdrantMemory)
    try:
        assert again._points.count(PointFilter(lacking=(TERMS_RULE,))) == 0  # noqa: SLF001
        found = await again.recall("the 9am appointment")
        assert found.entries[0].id == dentist.id
        assert found.entries[0].scores is not None and found.entries[0].scores.keyword == 1.0
    finally:
        await again.close()


async def test_a_postgres_store_indexed_before_is_indexed_again(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = postgres_keyword_only(postgres_url)
    store = await open_memory(settings, tmp_path, None)
    assert isinstance(store, PostgresMemory)
    await store.store("dentist", "Dentist appointment at 9 AM", "core")
    await store.store("tea", "Tea with milk", "core")
    await store.close()
    old = _old_terms("dentist", "Dentist appointment at 9 AM").split()
    await postgres_indexed_before(settings, "dentist", lambda _: old, NUMBERS_WRITTEN_ALIKE)
    again = await open_memory(settings, tmp_path, None)
    try:
        found = await again.recall("the 9am appointment")
        assert [e.key for e in found.entries] == ["dentist"]
        assert found.entries[0].scores is not None and found.entries[0].scores.keyword == 1.0
    finally:
        await again.close()


async def test_found_by_adversaries_numbers_and_hours_do_not_answer_for_each_other(
    tmp_path: Path,
) -> None:
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        await store.store("rooms", "Rooms 101,102,103 are booked", "core")
        await store.store("cats", "The kids have 2 cats", "core")
        await store.store("goals", "Our team scored 12 goals", "core")
        await store.store("call", "Call with Ana at 2pm", "core")
        rooms = (await store.recall("room 102")).entries
        assert [e.key for e in rooms] == ["rooms"]
        assert rooms[0].scores is not None and rooms[0].scores.keyword == 1.0
        # Asked for, "2pm" is the hour of the day, not any memory holding a 2.
        assert [e.key for e in (await store.recall("what is at 2pm?")).entries] == ["call"]
        assert [e.key for e in (await store.recall("12pm")).entries] == []
    finally:
        await store.close()


async def test_a_query_too_long_for_a_substring_search_is_still_answered(tmp_path: Path) -> None:
    # SQLite refuses LIKE patterns over 50,000 bytes: such a query stopped search with
    # "LIKE or GLOB pattern too complex" (found by an adversary).
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        await store.store("population", "Population 1,000,000 people", "core")
        found = await store.recall("1" + ",000" * 15_000 + "0")
        assert found.entries == [] or found.entries[0].key == "population"
        assert await store.list(prefix="p" * 60_000) == []
        assert [e.key for e in await store.list(prefix="POP")] == ["population"]
    finally:
        await store.close()
