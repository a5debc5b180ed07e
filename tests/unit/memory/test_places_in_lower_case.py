"""What migration 0030 reads anew: a home typed in lower case beside the capital "I", and
a move to what one drinks ("moved to oat milk"), which is none.

Found by a new user who types fast: "I moved to portobello" was found by no "where do I
live?" and left "I live in Leith" in effect (`memory.predicates`: a word in lower case
where the text has capitals was taken for a state, as "fear" in "I live in fear").
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.postgres.schema import PLACES_IN_LOWER_CASE_READ
from memory.protocol import Memory
from memory.read_anew import places_in_lower_case_read
from memory.text import entry_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

MOVED = "I moved to portobello"
NOW = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)
_HOME_WORDS = frozenset({"live", "home", "resid", "address", "base", "reloc"})


def test_a_home_typed_in_lower_case_is_found_by_where_one_lives() -> None:
    assert _HOME_WORDS <= set(entry_terms("k", MOVED, NOW))
    assert "resid" not in entry_terms("k", "I live in fear", NOW)
    assert places_in_lower_case_read(MOVED)
    assert "resid" not in entry_terms("k", "moved to oat milk", NOW)
    assert places_in_lower_case_read("moved to oat milk")
    assert not places_in_lower_case_read("My cat is called Tom")


async def _store(store: Memory) -> None:
    await store.store("home", MOVED, "core")
    await store.store("cat", "My cat is called Tom", "core")


async def _found_by_where_i_live(store: Memory) -> bool:
    found = (await store.recall("where do I live?")).entries
    return any(entry.key == "home" for entry in found)


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the move: its words alone."""
    assert _HOME_WORDS <= set(terms)
    return [term for term in terms if term not in _HOME_WORDS and not term.startswith("mc")]


async def test_a_sqlite_store_indexed_before_finds_the_home(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _store, "home", _older, "0030_places_in_lower_case_read"
    ) as again:
        assert await _found_by_where_i_live(again)


async def test_a_postgres_store_indexed_before_finds_the_home(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "home", _older, PLACES_IN_LOWER_CASE_READ
    ) as again:
        assert await _found_by_where_i_live(again)
