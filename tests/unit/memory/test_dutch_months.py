"""A day of a Dutch month names that day (migration 0047).

Found by a new user, a teacher in Utrecht: "schoolreisje vrijdag 4 juni 2027" named no day
(Dutch writes months in lower case, and "juni" was read only after a day's dot), so "what's
on June 4?" and "what do I have in June?" missed the school trip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.claims_elsewhere import move_said_in_english
from memory.days_to_keep import last_day_said
from memory.event_days import days_named
from memory.postgres.schema import DUTCH_AND_PUFFS_READ
from memory.protocol import Memory
from memory.read_anew import dutch_and_puffs_read
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

TRIP = "schoolreisje vrijdag 4 juni 2027"


@pytest.mark.parametrize(
    ("text", "day"),
    [(TRIP, "dtmd0604"), ("tandarts op 12 maart", "dtmd0312"), ("3 mei om 10 uur", "dtmd0503")],
)
def test_the_day_is_named(text: str, day: str) -> None:
    assert day in days_named(text) and dutch_and_puffs_read(text)


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
        tmp_path, _storing, "trip", _older, "0047_dutch_and_puffs_read"
    ) as again:
        assert await _found(again)


async def test_a_postgres_store_indexed_before_finds_the_day(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing, "trip", _older, DUTCH_AND_PUFFS_READ
    ) as again:
        assert await _found(again)


HOME = "ik woon op de Oudegracht 112, 3511 AZ Utrecht"


@pytest.mark.parametrize(
    "text",
    [
        HOME,
        "We zijn verhuisd naar Amersfoort! Mijn nieuwe adres is Langestraat 45, Amersfoort",
        "Ik woon nu op de Langestraat 45, 3811 AB Amersfoort",
    ],
)
def test_a_home_in_dutch_is_a_home(text: str) -> None:
    assert dutch_and_puffs_read(text)
    assert move_said_in_english(text).startswith("We moved house, new address is ")


def test_a_town_and_a_year_are_no_address() -> None:
    assert not dutch_and_puffs_read("we wonen in Utrecht sinds 2019")


async def _storing_home(memory: Memory) -> None:
    await memory.store("home", HOME, "core")
    await memory.store("cat", "My cat is called Tom", "core")


async def test_a_store_indexed_before_finds_the_home(tmp_path: Path) -> None:
    def older(terms: list[str]) -> list[str]:
        return [term for term in terms if term not in ("address", "live", "home")]

    async with sqlite_as_before(
        tmp_path, _storing_home, "home", older, "0047_dutch_and_puffs_read"
    ) as again:
        found = await again.recall("what's my address?")
        assert "home" in [entry.key for entry in found.entries]


async def _storing_puffs(memory: Memory) -> None:
    await memory.store("inhaler", "I take Ventolin, 2 puffs when needed", "core")
    await memory.store("cat", "My cat is called Tom", "core")


async def test_a_store_indexed_before_finds_an_inhalers_dose(tmp_path: Path) -> None:
    """Found by a new user, a teacher with asthma: "2 puffs" was no dose, so "what
    medication am I on?" did not find the inhaler."""

    def older(terms: list[str]) -> list[str]:
        return [term for term in terms if term in ("inhaler", "take", "ventolin", "2", "puff")]

    assert dutch_and_puffs_read("I take Ventolin, 2 puffs when needed")
    async with sqlite_as_before(
        tmp_path, _storing_puffs, "inhaler", older, "0047_dutch_and_puffs_read"
    ) as again:
        found = await again.recall("what medication am I on?")
        assert "inhaler" in [entry.key for entry in found.entries]
