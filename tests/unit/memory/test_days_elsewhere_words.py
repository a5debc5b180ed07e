"""A day and month after a word of another language that names a day is that day (0040).

Found by an adversary: "la cena con Marco è spostata al 22.02" did not mark "cena con Marco
il 20.02" changed: neither was read as a day ("il", "al" named none), and "la" was read as
a word of what moved.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memory.date_terms import mentioned_date_terms
from memory.event_days import moves_it
from memory.postgres.schema import DAYS_AFTER_WORDS_ELSEWHERE_READ
from memory.read_anew import days_after_words_elsewhere_read
from tests.helpers.older_index import DatedMessage, postgres_finds_again, sqlite_finds_again
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

SAID = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("cena con Marco il 20.02", ["dtmd0220"]),
        ("la cena è spostata al 22.02", ["dtmd0222"]),
        ("cena el 20/02 a las 21", ["dtmd0220"]),
        # Not a fraction: half a litre.
        ("il 1/2 litro di latte", []),
    ],
)
def test_a_day_after_such_a_word_is_that_day(text: str, days: list[str]) -> None:
    terms = mentioned_date_terms(text, date(2027, 1, 12))
    assert sorted(term for term in terms if term.startswith("dtmd")) == days


def test_the_move_marks_the_dinner_it_moves() -> None:
    dinner = "cena con Marco il 20.02"
    assert moves_it("la cena con Marco è spostata al 22.02", dinner)
    assert not moves_it("la cena con Luca è spostata al 22.02", dinner)


MESSAGE = DatedMessage("cena", "cena con Marco il 20.02", SAID, "what have I on 20 February 2026?")


def test_the_migration_reads_these_again() -> None:
    assert days_after_words_elsewhere_read(MESSAGE.content)
    assert not days_after_words_elsewhere_read("cena con Marco")


async def test_a_sqlite_store_indexed_before_finds_it_by_its_day(tmp_path: Path) -> None:
    assert await sqlite_finds_again(tmp_path, MESSAGE, "0040_days_after_words_elsewhere_read")


async def test_a_postgres_store_indexed_before_finds_it_by_its_day(
    postgres_url: str, tmp_path: Path
) -> None:
    assert await postgres_finds_again(
        postgres_url, tmp_path, MESSAGE, DAYS_AFTER_WORDS_ELSEWHERE_READ
    )
