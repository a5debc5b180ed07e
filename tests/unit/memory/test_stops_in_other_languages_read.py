"""A medicine stopped in German, Spanish, French or Portuguese (migration 0027).

Found by an adversary: "Ich nehme kein Omeprazol mehr" and "Ya no tomo omeprazole" left the
dose in effect, and "what medication am I on?" did not find them beside it.
"""

from __future__ import annotations

from pathlib import Path

from memory.health_values import DOSE_WORDINGS
from memory.postgres.schema import STOPS_IN_OTHER_LANGUAGES_READ
from memory.protocol import Memory
from memory.read_anew import stops_in_other_languages
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
        tmp_path, _store, "stop", _older, "0027_stops_in_other_languages_read"
    ) as again:
        assert await _stop_found(again)


async def test_a_postgres_store_indexed_before_finds_the_stop(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "stop", _older, STOPS_IN_OTHER_LANGUAGES_READ
    ) as again:
        assert await _stop_found(again)
