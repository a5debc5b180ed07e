"""A day named relative to now in another language is that day (0037).

Found by a new user, a contractor in Valencia: "qué tengo esta semana?" found nothing,
where "what do I have on this week?" found her dentist.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.days_elsewhere import days_in_english
from memory.postgres.schema import DAYS_ELSEWHERE_READ
from memory.read_anew import days_elsewhere_read
from memory.text import entry_terms
from tests.helpers.older_index import DatedMessage, postgres_finds_again, sqlite_finds_again
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


MESSAGE = DatedMessage("dentista", "dentista mañana a las 5", SAID, "what have I on 11 March 2026?")


def test_the_migration_reads_these_again() -> None:
    assert days_elsewhere_read("dentista mañana a las 5")
    assert not days_elsewhere_read("esta mañana fui al médico")


async def test_a_sqlite_store_indexed_before_finds_it_by_its_date(tmp_path: Path) -> None:
    assert await sqlite_finds_again(tmp_path, MESSAGE, "0037_days_elsewhere_read")


async def test_a_postgres_store_indexed_before_finds_it_by_its_date(
    postgres_url: str, tmp_path: Path
) -> None:
    assert await postgres_finds_again(postgres_url, tmp_path, MESSAGE, DAYS_ELSEWHERE_READ)
