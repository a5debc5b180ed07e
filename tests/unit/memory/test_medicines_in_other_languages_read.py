"""A medicine stopped in Italian, or named in its Italian or Spanish form (migration 0028).

Found by a translator's chat: "Non prendo più l'omeprazolo" left "I take 20mg of omeprazole"
in effect, and neither "what medication am I on?" nor "omeprazole" found the stop.
"""

from __future__ import annotations

from pathlib import Path

from memory.health_values import DOSE_WORDINGS
from memory.postgres.schema import MEDICINES_IN_OTHER_LANGUAGES_READ
from memory.protocol import Memory
from memory.read_anew import medicines_in_other_languages
from memory.text import analyze, entry_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

STOP = "Non prendo più l'omeprazolo"
ASKED = "what medication am I on?"


def test_an_italian_stop_is_found_by_a_medicine_word_and_the_english_name() -> None:
    for said in (STOP, "Ho smesso di prendere l'omeprazolo", "Ho sospeso la metformina"):
        assert "medic" in entry_terms("s", said) and medicines_in_other_languages(said)
    assert "omeprazol" in entry_terms("s", "Prendo 20mg di omeprazolo ogni mattina")
    assert "metformin" in entry_terms("s", "Tomo 850 mg de metformina")
    assert not medicines_in_other_languages("Non prendo più il treno")
    assert not medicines_in_other_languages("Tomo un café con leche")


async def _store(store: Memory) -> None:
    await store.store("stop", STOP, "core")
    await store.store("cat", "My cat is called Tom", "core")


async def _stop_found(store: Memory) -> bool:
    return "stop" in [entry.key for entry in (await store.recall(ASKED)).entries]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the stop: none of the words a dose is asked with."""
    wordings = {*analyze(DOSE_WORDINGS), "omeprazol"} - set(analyze(STOP))
    assert wordings & set(terms)
    return [term for term in terms if term not in wordings]


async def test_a_sqlite_store_indexed_before_finds_the_stop(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _store, "stop", _older, "0028_medicines_in_other_languages_read"
    ) as again:
        assert await _stop_found(again)


async def test_a_postgres_store_indexed_before_finds_the_stop(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "stop", _older, MEDICINES_IN_OTHER_LANGUAGES_READ
    ) as again:
        assert await _stop_found(again)
