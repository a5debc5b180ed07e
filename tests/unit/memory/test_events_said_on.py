"""An event, then its day in a fraction's shape, names that day (migration 0046).

Left by an adversary: "Dentist is 10/9" named no day ("Dentist on 10/9" did), so "what's
on 10/9?" did not find it, and a move of the dentist to another day replaced nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.event_days import days_named
from memory.postgres.schema import EVENTS_SAID_ON_READ
from memory.protocol import Memory
from memory.read_anew import events_said_on_read
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

DENTIST = "Dentist is 10/9"


@pytest.mark.parametrize(
    "text", [DENTIST, "dentist appt is now 10/9", "Interview: 10/9 at the office"]
)
def test_the_day_is_named(text: str) -> None:
    assert "dtmd0910" in days_named(text) and events_said_on_read(text)


@pytest.mark.parametrize(
    "text",
    [
        "the score was 10/9",
        "my visit was 1/2 an hour",
        "the flight is 3/4 full",
        "it is 1/2",
        "Interview was 7/10, they liked me",
    ],
)
def test_a_fraction_is_no_day(text: str) -> None:
    assert not days_named(text)


async def _storing(memory: Memory) -> None:
    await memory.store("dentist", DENTIST, "core")
    await memory.store("cat", "My cat is called Tom", "core")


async def _found(store: Memory) -> bool:
    # Asked by the day alone: "10/9" is only its date terms, no word the fact says.
    return "dentist" in [entry.key for entry in (await store.recall("what is on 10/9?")).entries]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the dentist: no day."""
    assert "dtmd0910" in terms
    return [term for term in terms if not term.startswith(("dtm", "dtd", "dsm", "dsd"))]


async def test_a_sqlite_store_indexed_before_finds_the_day(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _storing, "dentist", _older, "0046_events_said_on_read"
    ) as again:
        assert await _found(again)


async def test_a_postgres_store_indexed_before_finds_the_day(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing, "dentist", _older, EVENTS_SAID_ON_READ
    ) as again:
        assert await _found(again)
