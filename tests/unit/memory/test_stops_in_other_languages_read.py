"""A medicine stopped in German, Spanish, French or Portuguese (migration 0027), or of more
endings (0043).

Found by an adversary: "Ich nehme kein Omeprazol mehr" and "Ya no tomo omeprazole" left the
dose in effect, and "what medication am I on?" did not find them beside it; a new user, a
carer: "Manny stopped donepezil on 28/1" left his 10mg dose in effect (donepezil was read as
no medicine).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from memory.fact_values import new_value
from memory.health_values import DOSE_WORDINGS
from memory.postgres.schema import MEDICINES_OF_MORE_ENDINGS_READ, STOPS_IN_OTHER_LANGUAGES_READ
from memory.protocol import Memory
from memory.read_anew import medicines_of_more_endings_read, stops_in_other_languages
from memory.text import analyze, entry_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

STOP = "Ich nehme kein Omeprazol mehr"
ASKED = "what medication am I on?"


def test_a_stop_in_another_language_is_found_by_a_medicine_word() -> None:
    for said in (STOP, "Ya no tomo omeprazole", "Je ne prends plus d'oméprazole"):
        assert "medic" in entry_terms("s", said) and stops_in_other_languages(said)
    assert not stops_in_other_languages("Ich nehme mehr Wasser")
    assert not stops_in_other_languages("Ya no tomo café")


@pytest.mark.parametrize(
    "stopped",
    ["Manny stopped donepezil on 28/1", "Dad stopped memantine", "GP stopped Mum's clopidogrel"],
)
def test_a_stop_of_a_medicine_of_more_endings_is_read(stopped: str) -> None:
    assert "medic" in entry_terms("s", stopped) and medicines_of_more_endings_read(stopped)
    assert not medicines_of_more_endings_read("Manny takes donepezil 5mg")
    assert new_value(stopped, "Manny's donepezil dose went up to 10mg") or "Manny" not in stopped


READ_AGAIN = [
    (STOP, ASKED, "0027_stops_in_other_languages_read", STOPS_IN_OTHER_LANGUAGES_READ),
    # A new user, a carer: a medicine of more endings stopped (0043).
    (
        "Manny stopped donepezil on 28/1",
        "what medication is manny on?",
        "0043_medicines_of_more_endings_read",
        MEDICINES_OF_MORE_ENDINGS_READ,
    ),
]


def _storing(stop: str) -> Callable[[Memory], Awaitable[None]]:
    async def store(memory: Memory) -> None:
        await memory.store("stop", stop, "core")
        await memory.store("cat", "My cat is called Tom", "core")

    return store


async def _stop_found(store: Memory, asked: str) -> bool:
    return "stop" in [entry.key for entry in (await store.recall(asked)).entries]


def _older(stop: str) -> Callable[[list[str]], list[str]]:
    """The terms an older memchat gave the stop: none of the words a dose is asked with."""

    def terms_before(terms: list[str]) -> list[str]:
        wordings = set(analyze(DOSE_WORDINGS)) - set(analyze(stop))
        assert wordings & set(terms)
        return [term for term in terms if term not in wordings]

    return terms_before


@pytest.mark.parametrize(("stop", "asked", "migration", "step"), READ_AGAIN)
async def test_a_sqlite_store_indexed_before_finds_the_stop(
    tmp_path: Path, stop: str, asked: str, migration: str, step: str
) -> None:
    async with sqlite_as_before(tmp_path, _storing(stop), "stop", _older(stop), migration) as again:
        assert await _stop_found(again, asked)


@pytest.mark.parametrize(("stop", "asked", "migration", "step"), READ_AGAIN)
async def test_a_postgres_store_indexed_before_finds_the_stop(
    postgres_url: str, tmp_path: Path, stop: str, asked: str, migration: str, step: str
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing(stop), "stop", _older(stop), step
    ) as again:
        assert await _stop_found(again, asked)
