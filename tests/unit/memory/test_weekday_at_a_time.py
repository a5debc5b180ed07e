"""A weekday alone before "at" and an hour, or a part of the day, is the day to come (0035).

Found by a new user, a retired nurse: "dentist with Dr Byrne tuesday at 3", said on a
Sunday, was found on Monday by neither "what have I on tomorrow" nor the date, and "the ESB
man is coming to read the meter friday morning" by no question about that week.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.postgres.schema import WEEKDAYS_AT_A_TIME_READ
from memory.read_anew import weekdays_at_a_time_read
from memory.text import entry_terms
from tests.helpers.older_index import DatedMessage, postgres_finds_again, sqlite_finds_again
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

SUNDAY = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DENTIST = "dentist with Dr Byrne tuesday at 3"


@pytest.mark.parametrize(
    ("said", "day"),
    [
        (DENTIST, "dtd20261201"),
        ("the ESB man is coming to read the meter friday morning", "dtd20261204"),
        ("lunch with Rose friday at 12:30", "dtd20261204"),
        ("bingo thursday evening at the hall", "dtd20261203"),
        ("we met tuesday at 3", "dtd20261124"),  # the past: the Tuesday before
        ("Sunday mornings are lovely", None),  # a habit
        ("Sunday morning was lovely", None),
        ("the rate tuesday at 3 percent", None),
    ],
)
def test_a_weekday_before_a_time_of_day_is_a_day(said: str, day: str | None) -> None:
    days = [term for term in entry_terms("k", said, SUNDAY) if term.startswith("dtd")]
    assert days == ([day] if day else [])


def test_the_migration_reads_a_weekday_before_a_time_again() -> None:
    assert weekdays_at_a_time_read(DENTIST)
    assert weekdays_at_a_time_read("meter reading Friday morning")
    assert not weekdays_at_a_time_read("dentist on 1 December at 3")


MESSAGE = DatedMessage("dentist", DENTIST, SUNDAY, "what have I on 1 December 2026?")


async def test_a_sqlite_store_indexed_before_finds_the_weekday_by_its_date(tmp_path: Path) -> None:
    assert await sqlite_finds_again(tmp_path, MESSAGE, "0035_weekdays_at_a_time_read")


async def test_a_postgres_store_indexed_before_finds_the_weekday_by_its_date(
    postgres_url: str, tmp_path: Path
) -> None:
    assert await postgres_finds_again(postgres_url, tmp_path, MESSAGE, WEEKDAYS_AT_A_TIME_READ)
