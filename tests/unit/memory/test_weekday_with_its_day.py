"""A weekday before "at" and an hour of two digits, or before its day of the month, names
that day (0036).

Found by a new user, a contractor: "call with Ferran thursday at 10", said on a Monday, was
found on Thursday by no "what do I have on today?" ("at 3" was read, "at 10" was not);
"the Ferran call moved to friday 29 at 11:00" named no day, so it moved nothing; and "el
jueves 28 a las 16:00" was missed by "what do I have on this week?".
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.event_days import moves_it
from memory.postgres.schema import WEEKDAYS_WITH_THEIR_DAYS_READ
from memory.read_anew import weekdays_with_their_days_read
from memory.text import entry_terms
from tests.helpers.older_index import DatedMessage, postgres_finds_again, sqlite_finds_again
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

MONDAY = datetime(2027, 1, 11, 9, 0, tzinfo=UTC)
A_MONDAY_GONE = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)
"""A store takes in no time to come (`memory.record_checks`)."""
CALL = "call with Ferran thursday at 10 about the Bitlab API migration"


@pytest.mark.parametrize(
    ("said", "day"),
    [
        (CALL, "dtd20270114"),
        ("the Ferran call moved to friday 29 at 11:00", "dtd20270129"),
        ("tutoría el jueves 28 a las 16:00 con la profe Marta", "dtd20270128"),
        ("lunch sunday 14 at the park", "dtd20270214"),  # the next 14th on a Sunday
        ("dentist friday 9", None),  # nine o'clock: no day of the month
        ("friday 20 people came", None),
    ],
)
def test_a_weekday_before_its_day_or_a_two_digit_hour_is_a_day(said: str, day: str | None) -> None:
    days = [term for term in entry_terms("k", said, MONDAY) if term.startswith("dtd")]
    assert (day in days) if day else not days


def test_the_move_to_a_weekday_and_its_day_moves_the_call() -> None:
    assert moves_it("the Ferran call moved to friday 29 at 11:00", CALL)


def test_the_migration_reads_these_again() -> None:
    assert weekdays_with_their_days_read(CALL)
    assert weekdays_with_their_days_read("tutoría el jueves 28 a las 16:00")
    assert not weekdays_with_their_days_read("dentist on 1 December at 3")


MESSAGE = DatedMessage("call", CALL, A_MONDAY_GONE, "what have I on 15 January 2026?")


async def test_a_sqlite_store_indexed_before_finds_the_call_by_its_date(tmp_path: Path) -> None:
    assert await sqlite_finds_again(tmp_path, MESSAGE, "0036_weekdays_with_their_days_read")


async def test_a_postgres_store_indexed_before_finds_the_call_by_its_date(
    postgres_url: str, tmp_path: Path
) -> None:
    assert await postgres_finds_again(
        postgres_url, tmp_path, MESSAGE, WEEKDAYS_WITH_THEIR_DAYS_READ
    )
