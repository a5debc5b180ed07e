"""What migration 0031 reads anew: a street named before its number.

Found by a new user in Lisbon: "I live at Rua do Ouro 10, 1100-060 Lisboa" was read as no
home, so it never replaced "I live at Rua da Graça 42, 1170-165 Lisboa", and "what's my
address?" found only the old one; nor did "my new address is Rua Morais Soares 88, Lisboa"
replace it, a street's address (`memory.predicates`, `memory.fact_values`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.postgres.schema import STREETS_NAMED_FIRST_READ
from memory.predicates import claim_of
from memory.protocol import Memory
from memory.read_anew import streets_named_first_read
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

HOME = "I live at Rua do Ouro 10, 1100-060 Lisboa"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (HOME, "Rua do Ouro 10, 1100-060 Lisboa"),
        ("i live at rua da graça 42", "rua da graça 42"),
        ("I live at Calle Mayor 5, 28013 Madrid", "Calle Mayor 5, 28013 Madrid"),
        ("I live at Hauptstraße 12, Berlin", "Hauptstraße 12, Berlin"),
    ],
)
def test_a_street_named_first_or_an_address_given_is_a_home(text: str, value: str) -> None:
    claim = claim_of(text)
    assert claim is not None and claim[:2] == ("user", "home") and claim[2].strip() == value
    assert streets_named_first_read(text)


@pytest.mark.parametrize(
    "text",
    [
        "I live at the moment in a flat",
        "I live at home",
        "my address is the same",
        "My email address is bob@example.com",
        "The office address is 5 Main St",
    ],
)
def test_no_home_is_read_in_other_wordings(text: str) -> None:
    claim = claim_of(text)
    assert claim is None or claim[:2] != ("user", "home")


async def test_a_new_address_replaces_the_old_one(tmp_path: Path) -> None:
    from memory.settings import MemorySettings
    from memory.sqlite.store import SqliteMemory

    store = await SqliteMemory.open(
        tmp_path / "brain.db", MemorySettings(embedding_provider="none"), None
    )
    try:
        await store.store("home_address", "I live at Rua da Graça 42, 1170-165 Lisboa", "core")
        await store.store("i_live_at", HOME, "core")
        await store.store("tom", "Tom lives at 4 Elm Rd", "core")
        in_effect = {entry.key for entry in await store.list(limit=10)}
        assert in_effect == {"i_live_at", "tom"}
        await store.store("addr", "my new address is Rua Morais Soares 88, Lisboa", "core")
        assert {entry.key for entry in await store.list(limit=10)} == {"addr", "tom"}
    finally:
        await store.close()


async def _store(store: Memory) -> None:
    await store.store("home", HOME, "core")
    await store.store("cat", "My cat is called Tom", "core")


async def _found_by_where_i_live(store: Memory) -> bool:
    found = (await store.recall("where do I live?")).entries
    return any(entry.key == "home" for entry in found)


_HOME_WORDS = frozenset({"live", "home", "resid", "base", "reloc", "move"})


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the home: its words alone."""
    return [term for term in terms if term not in _HOME_WORDS and not term.startswith("mc")]


async def test_a_sqlite_store_indexed_before_finds_the_home(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _store, "home", _older, "0031_streets_named_first_read"
    ) as again:
        assert await _found_by_where_i_live(again)


async def test_a_postgres_store_indexed_before_finds_the_home(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "home", _older, STREETS_NAMED_FIRST_READ
    ) as again:
        assert await _found_by_where_i_live(again)
