"""A medicine of more endings stopped, said of someone named (migration 0043).

Found by a new user, a carer: "Manny stopped donepezil on 28/1" left "Manny's donepezil dose
went up to 10mg every night at bedtime" in effect (donepezil was read as no medicine), and
"what medication is he on?" showed the old dose beside the new one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.fact_values import new_value
from memory.health_values import DOSE_WORDINGS
from memory.postgres.schema import MEDICINES_OF_MORE_ENDINGS_READ
from memory.protocol import Memory
from memory.read_anew import medicines_of_more_endings_read
from memory.text import analyze, entry_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

STOP = "Manny stopped donepezil on 28/1"
ASKED = "what medication is manny on?"


@pytest.mark.parametrize(
    "stopped",
    [STOP, "Dad stopped memantine", "I stopped gabapentin", "GP stopped Mum's clopidogrel"],
)
def test_a_stop_of_a_medicine_of_more_endings_is_read(stopped: str) -> None:
    assert "medic" in entry_terms("s", stopped) and medicines_of_more_endings_read(stopped)
    assert not medicines_of_more_endings_read("Manny takes donepezil 5mg")


def test_the_stop_ends_the_dose() -> None:
    assert new_value(STOP, "Manny's donepezil dose went up to 10mg every night at bedtime")


async def _store(store: Memory) -> None:
    await store.store("stop", STOP, "core")
    await store.store("cat", "My cat is called Tom", "core")


async def _stop_found(store: Memory) -> bool:
    return "stop" in [entry.key for entry in (await store.recall(ASKED)).entries]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the stop: none of the words a dose is asked with."""
    wordings = set(analyze(DOSE_WORDINGS)) - set(analyze(STOP))
    assert wordings & set(terms)
    return [term for term in terms if term not in wordings]


async def test_a_sqlite_store_indexed_before_finds_the_stop(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _store, "stop", _older, "0043_medicines_of_more_endings_read"
    ) as again:
        assert await _stop_found(again)


async def test_a_postgres_store_indexed_before_finds_the_stop(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "stop", _older, MEDICINES_OF_MORE_ENDINGS_READ
    ) as again:
        assert await _stop_found(again)
