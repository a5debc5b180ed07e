"""What the user eats is one value: a new diet replaces the old (migration 0044 for the index).

Found by a new user demoing memchat: "I eat fish now", and then "/remember I eat fish now,
I'm pescatarian (no longer strictly vegetarian)", left "I'm vegetarian" in effect and
unmarked; both were shown to the model, and "am I vegetarian?" did not find the change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.diets import DIET_WORDINGS, diet_of
from memory.fact_values import new_value
from memory.postgres.schema import HOMES_ELSEWHERE_AND_DIETS_READ
from memory.protocol import Memory
from memory.read_anew import homes_elsewhere_and_diets_read
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.text import analyze
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]


@pytest.mark.parametrize(
    ("said", "diet"),
    [
        ("I'm vegetarian", {"vegetarian"}),
        ("I am a vegan", {"vegan"}),
        ("I've gone vegan", {"vegan"}),
        ("I eat fish now", {"pescatarian"}),
        ("I eat fish now, I'm pescatarian (no longer strictly vegetarian)", {"pescatarian"}),
        ("I'm no longer vegetarian", {"not vegetarian"}),
        ("I eat meat again", {"not vegetarian"}),
        ("I don't eat meat", {"vegetarian"}),
        # A second adversary: in other languages.
        ("Ya no soy vegana, ahora como de todo", {"not vegan"}),
        ("soy vegetariana", {"vegetarian"}),
        ("Ich bin kein Veganer mehr", {"not vegan"}),
        ("je suis végétarienne", {"vegetarian"}),
        # Not the user's diet: a cook, someone else's, a question, a meal.
        ("I'm a vegetarian cook", set()),
        ("my partner is vegan", set()),
        ("am I vegetarian?", set()),
        ("I eat fish for dinner on Fridays", set()),
    ],
)
def test_what_the_user_eats_is_read(said: str, diet: set[str]) -> None:
    assert diet_of(said) == diet
    assert homes_elsewhere_and_diets_read(said) == bool(diet)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("I eat fish now", "I'm vegetarian"),
        ("I eat fish now, I'm pescatarian (no longer strictly vegetarian)", "I'm vegetarian"),
        ("I eat meat again", "I'm vegan"),
        ("I've gone vegan", "I'm vegetarian"),
        ("Ya no soy vegana, ahora como de todo", "I'm vegan"),
    ],
)
def test_a_new_diet_replaces_the_old(new: str, old: str) -> None:
    assert new_value(new, old)
    assert not new_value(old, old)


async def test_a_diet_stored_replaces_the_old_and_is_found_by_its_words(tmp_path: Path) -> None:
    store = await SqliteMemory.open(
        tmp_path / "brain.db", MemorySettings(embedding_provider="none")
    )
    try:
        await store.store("diet", "I'm vegetarian", "core")
        await store.store("fish", "I eat fish now", "core")
        in_effect = [entry.content for entry in await store.list(category="core")]
        assert in_effect == ["I eat fish now"]
        found = await store.recall("am I vegetarian?")
        assert [entry.content for entry in found.entries] == ["I eat fish now"]
    finally:
        await store.close()


async def _storing(memory: Memory) -> None:
    await memory.store("diet", "I eat fish now", "core")
    await memory.store("cat", "My cat is called Tom", "core")


async def _diet_found(store: Memory) -> bool:
    return "diet" in [entry.key for entry in (await store.recall("am I vegetarian?")).entries]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the diet: none of the words a diet is asked with."""
    wordings = set(analyze(DIET_WORDINGS)) - set(analyze("I eat fish now"))
    assert wordings & set(terms)
    return [term for term in terms if term not in wordings]


async def test_a_sqlite_store_indexed_before_finds_the_diet(tmp_path: Path) -> None:
    migration = "0044_homes_elsewhere_and_diets_read"
    async with sqlite_as_before(tmp_path, _storing, "diet", _older, migration) as again:
        assert await _diet_found(again)


async def test_a_postgres_store_indexed_before_finds_the_diet(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing, "diet", _older, HOMES_ELSEWHERE_AND_DIETS_READ
    ) as again:
        assert await _diet_found(again)
