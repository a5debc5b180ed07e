"""The user's move said in other words is their home (0041).

Found by a third adversary: "We moved house, new address is 4 Elm Road", "Finally moved!
We're now at 4 Elm Road" and "We just moved into 4 Elm Road" each left "I live at 12 Oak
Street" in effect; "We moved house! New address is …" did not.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.fact_values import new_value
from memory.postgres.schema import MOVES_SAID_OTHERWISE_READ
from memory.read_anew import moves_said_otherwise_read
from tests.helpers.older_index import DatedMessage, postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

HOME = "I live at 12 Oak Street, Bristol"


@pytest.mark.parametrize(
    ("moved", "replaces"),
    [
        ("We moved house, new address is 4 Elm Road, Leeds", True),
        ("Moved house last week, new address: 4 Elm Road, Leeds", True),
        ("Finally moved! We're now at 4 Elm Road, Leeds", True),
        ("We've moved house, we now live at 4 Elm Road, Leeds", True),
        ("We just moved into 4 Elm Road, Leeds", True),
        # Not the user's home.
        ("We moved the office, new address is 100 Collins St", False),
        ("We just moved into a bigger room at work", False),
    ],
)
def test_a_move_said_otherwise_gives_the_new_home(moved: str, replaces: bool) -> None:
    assert new_value(moved, HOME) is replaces


MESSAGE = DatedMessage(
    "moved",
    "We just moved into 4 Elm Road, Leeds",
    datetime(2026, 1, 12, 9, 0, tzinfo=UTC),
    "where do I live?",
)


def _without_home_words(terms: list[str]) -> list[str]:
    """The terms an older memchat gave such a move: its words, no home's wordings."""
    return [t for t in terms if t not in {"live", "resid", "reloc", "base", "home", "address"}]


def test_the_migration_reads_these_again() -> None:
    assert moves_said_otherwise_read(MESSAGE.content)
    assert not moves_said_otherwise_read("We moved the office, new address is 100 Collins St")


async def test_a_sqlite_store_indexed_before_finds_it_by_where_i_live(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, MESSAGE.fill, MESSAGE.key, _without_home_words, "0041_moves_said_otherwise_read"
    ) as again:
        assert await MESSAGE.found_alone(again)


async def test_a_postgres_store_indexed_before_finds_it_by_where_i_live(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url,
        tmp_path,
        MESSAGE.fill,
        MESSAGE.key,
        _without_home_words,
        MOVES_SAID_OTHERWISE_READ,
    ) as again:
        assert await MESSAGE.found_alone(again)
