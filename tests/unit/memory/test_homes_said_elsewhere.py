"""A home given with its address in another language is the user's home (migration 0044).

Found by a new user, a nurse in Madrid: "vivo en calle Alcala 215, 4B, 28028 Madrid" kept
as a fact was replaced by no move, "mi nueva dirección es calle Toledo 45 …" included (the
same move did replace it written in English); and by an adversary: "Vivo en calle Mayor 5,
Madrid" was found by no "what's my address?", "Mudei-me para o Porto" and "Ora abito in via
Garibaldi 12, Torino" left the old home in effect, and so did "My new address is 12
Garibaldi Street, Torino" after "I live in Milan".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.fact_values import new_value
from memory.postgres.schema import HOMES_ELSEWHERE_AND_DIETS_READ
from memory.protocol import Memory
from memory.read_anew import homes_elsewhere_and_diets_read
from memory.text import entry_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

HOME = "Vivo en calle Mayor 5, Madrid"


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("mi nueva dirección es calle Toledo 45, 2A, 28901 Getafe", HOME),
        ("I live at calle Toledo 45, Getafe", "vivo en calle Alcala 215, 4B, 28028 Madrid"),
        ("Mudei-me para o Porto", "I live in Lisbon"),
        ("Ora abito in via Garibaldi 12, Torino", "I live in Milan"),
        ("My new address is 12 Garibaldi Street, Torino", "I live in Milan"),
        ("My new address is 12 Garibaldi Street, 10121 Torino", "I live in Milan"),
    ],
)
def test_a_move_replaces_a_home_said_either_way(new: str, old: str) -> None:
    assert new_value(new, old)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        # An address in the same town, or naming none, is no other home than the town's.
        ("My new address is 12 Via Po, Milan", "I live in Milan"),
        ("My new address is 12 Via Po", "I live in Milan"),
        ("j'habite au 3e étage", "J'habite à Lyon"),
    ],
)
def test_an_address_that_may_be_in_the_town_replaces_nothing(new: str, old: str) -> None:
    assert not new_value(new, old)


def test_a_home_in_another_language_is_found_by_address_and_read_again() -> None:
    for said in (HOME, "vivo en calle Alcala 215, 4B, 28028 Madrid", "Ora abito in via Po 4"):
        assert {"home", "address"} <= set(entry_terms("h", said))
        assert homes_elsewhere_and_diets_read(said)
    assert not homes_elsewhere_and_diets_read("vivo en Madrid desde 2019")
    assert not homes_elsewhere_and_diets_read("I live at 12 Oak Street")


async def _storing(memory: Memory) -> None:
    await memory.store("home", HOME, "core")
    await memory.store("cat", "My cat is called Tom", "core")


async def _home_found(store: Memory) -> bool:
    return "home" in [entry.key for entry in (await store.recall("what's my address?")).entries]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the home: none of the words a home is asked with."""
    assert "address" in terms
    return [term for term in terms if term not in {"live", "resid", "home", "address", "base"}]


async def test_a_sqlite_store_indexed_before_finds_the_home(tmp_path: Path) -> None:
    migration = "0044_homes_elsewhere_and_diets_read"
    async with sqlite_as_before(tmp_path, _storing, "home", _older, migration) as again:
        assert await _home_found(again)


async def test_a_postgres_store_indexed_before_finds_the_home(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing, "home", _older, HOMES_ELSEWHERE_AND_DIETS_READ
    ) as again:
        assert await _home_found(again)
