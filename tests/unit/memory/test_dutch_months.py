"""A day of a Dutch month names that day (migration 0047).

Found by a new user, a teacher in Utrecht: "schoolreisje vrijdag 4 juni 2027" named no day
(Dutch writes months in lower case, and "juni" was read only after a day's dot), so "what's
on June 4?" and "what do I have in June?" missed the school trip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.days_to_keep import last_day_said
from memory.event_days import days_named
from memory.postgres.schema import DUTCH_MONTHS_READ
from memory.protocol import Memory
from memory.read_anew import dutch_months_read
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

TRIP = "schoolreisje vrijdag 4 juni 2027"


@pytest.mark.parametrize(
    ("text", "day"),
    [(TRIP, "dtmd0604"), ("tandarts op 12 maart", "dtmd0312"), ("3 mei om 10 uur", "dtmd0503")],
)
def test_the_day_is_named(text: str, day: str) -> None:
    assert day in days_named(text) and dutch_months_read(text)


def test_a_name_is_no_month() -> None:
    from datetime import date

    assert not days_named("Mei is my friend") and not days_named("3 Mei")
    assert last_day_said("Mei said hi", date(2027, 1, 5)) is None


async def _storing(memory: Memory) -> None:
    await memory.store("trip", TRIP, "core")
    await memory.store("cat", "My cat is called Tom", "core")


async def _found(store: Memory) -> bool:
    return "trip" in [entry.key for entry in (await store.recall("what is on 4/6?")).entries]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the trip: no day."""
    assert "dtmd0604" in terms
    return [term for term in terms if not term.startswith(("dtm", "dtd", "dsm", "dsd", "dty"))]


async def test_a_sqlite_store_indexed_before_finds_the_day(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _storing, "trip", _older, "0047_dutch_months_read"
    ) as again:
        assert await _found(again)


async def test_a_postgres_store_indexed_before_finds_the_day(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing, "trip", _older, DUTCH_MONTHS_READ
    ) as again:
        assert await _found(again)
