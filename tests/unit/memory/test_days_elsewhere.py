"""A day named relative to now in another language is that day (0037).

Found by a new user, a contractor in Valencia: "qué tengo esta semana?" found nothing,
where "what do I have on this week?" found her dentist.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.days_elsewhere import days_in_english
from memory.entry import MemoryEntry
from memory.postgres.schema import DAYS_ELSEWHERE_READ
from memory.protocol import Memory
from memory.read_anew import days_elsewhere_read
from memory.text import entry_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

SAID = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)  # a Tuesday gone by: a store takes no future


@pytest.mark.parametrize(
    ("said", "english"),
    [
        ("qué tengo esta semana?", "qué tengo this week?"),
        ("dentista mañana a las 5", "dentista tomorrow a las 5"),
        ("mañana por la mañana tengo reunión", "tomorrow por la mañana tengo reunión"),
        ("esta mañana fui al médico", "esta mañana fui al médico"),  # this morning
        ("Zahnarzt morgen um 10", "Zahnarzt tomorrow um 10"),
        ("Guten Morgen!", "Guten Morgen!"),
        ("réunion demain à 9h", "réunion tomorrow à 9h"),
        ("la semana que viene viene mi madre", "next week viene mi madre"),
        ("pasado mañana examen", "the day after tomorrow examen"),
        ("Hoyos is a surname", "Hoyos is a surname"),
    ],
)
def test_a_relative_day_in_another_language_reads_in_english(said: str, english: str) -> None:
    assert days_in_english(said) == english


def test_it_is_indexed_as_that_day() -> None:
    days = [t for t in entry_terms("k", "dentista mañana a las 5", SAID) if t.startswith("dtd")]
    assert days == ["dtd20260311"]


async def _store(store: Memory) -> None:
    said = MemoryEntry(
        id="d1",
        key="dentista",
        content="dentista mañana a las 5",
        category="conversation",
        timestamp=SAID,
        updated_at=SAID,
        session_id="s1",
    )
    await store.import_([said])


async def _found_by_its_day(store: Memory) -> bool:
    found = (await store.recall("what have I on 11 March 2026?")).entries
    return [entry.key for entry in found] == ["dentista"]


def _older(terms: list[str]) -> list[str]:
    return [term for term in terms if not term.startswith("dt")]


def test_the_migration_reads_these_again() -> None:
    assert days_elsewhere_read("dentista mañana a las 5")
    assert not days_elsewhere_read("esta mañana fui al médico")


async def test_a_sqlite_store_indexed_before_finds_it_by_its_date(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _store, "dentista", _older, "0037_days_elsewhere_read"
    ) as again:
        assert await _found_by_its_day(again)


async def test_a_postgres_store_indexed_before_finds_it_by_its_date(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "dentista", _older, DAYS_ELSEWHERE_READ
    ) as again:
        assert await _found_by_its_day(again)
