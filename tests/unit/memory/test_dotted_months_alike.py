"""A German day before a month written as the English one names that day (migration 0045).

Found by a new user, an electrician in Hamburg: "Lenas Mathe-Klausur wurde auf den 29. April
verschoben" named no day ("29. Mai" did: "April", "August", "September" and "November" are
English too, and were not read after the day's dot), and with German's verb last, moved
nothing: the 24 April exam stood unmarked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.change_notes import read_together
from memory.event_days import days_named, moves_it
from memory.postgres.schema import DOTTED_MONTHS_ALIKE_READ
from memory.protocol import Memory
from memory.read_anew import dotted_months_alike_read
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

EXAM = "Lenas Mathe-Klausur am 29. April"


@pytest.mark.parametrize(
    ("text", "day"),
    [(EXAM, "dtmd0429"), ("am 3. August um 10", "dtmd0803"), ("bis 30. November", "dtmd1130")],
)
def test_the_day_is_named(text: str, day: str) -> None:
    assert day in days_named(text) and dotted_months_alike_read(text)


def test_a_move_said_with_the_verb_last_marks_the_event() -> None:
    moved = "Lenas Mathe-Klausur wurde auf den 29. April verschoben"
    old = "Lena Mathe-Klausur am 24.04.2027"
    assert moves_it(*read_together(moved, old))
    assert not moves_it("Das Auto wurde auf Montag verschoben", old)
    assert not dotted_months_alike_read("see April 29")


async def _storing(memory: Memory) -> None:
    await memory.store("exam", EXAM, "core")
    await memory.store("cat", "My cat is called Tom", "core")


async def _found(store: Memory) -> bool:
    # Asked by the day alone: "29/4" is only its date terms, no word the exam says.
    return "exam" in [entry.key for entry in (await store.recall("what is on 29/4?")).entries]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the exam: no day of 29 April."""
    assert "dtmd0429" in terms
    return [term for term in terms if not term.startswith(("dtm", "dtd", "dsm", "dsd"))]


async def test_a_sqlite_store_indexed_before_finds_the_day(tmp_path: Path) -> None:
    migration = "0045_dotted_months_alike_read"
    async with sqlite_as_before(tmp_path, _storing, "exam", _older, migration) as again:
        assert await _found(again)


async def test_a_postgres_store_indexed_before_finds_the_day(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing, "exam", _older, DOTTED_MONTHS_ALIKE_READ
    ) as again:
        assert await _found(again)
