"""A medicine stopped in other words, a stop only asked about, and rosters found by "shift"
(migration 0026).

Found by an adversary: "GP discontinued my omeprazole" was not read as a stop, and "Should
I stop the warfarin?" replaced the dose. Found by a new user, a nurse: "when's my next
night shift" kept out the rosters that answer it (they hold "night", not "shift").
"""

from __future__ import annotations

from pathlib import Path

from memory.health_values import DOSE_WORDINGS
from memory.postgres.schema import STOPS_AND_SHIFTS_READ
from memory.protocol import Memory
from memory.read_anew import stops_or_shifts
from memory.shift_words import SHIFT_WORDINGS
from memory.text import analyze, entry_terms
from memory.write_rules import NewMemory
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

ROSTER = "Roster next week: mon 14/12 day, tue 15/12 night, sat 19/12 night"
INTRO = "hi im sinead, nurse in cork. rotating shifts days nights some weekends"


def test_a_roster_is_found_by_shift_and_a_stop_asked_about_by_no_medicine_word() -> None:
    assert "shift" in entry_terms("r", ROSTER)
    asked = "Should I stop the warfarin?"
    assert not set(analyze(DOSE_WORDINGS)) - set(analyze(asked)) <= set(entry_terms("q", asked))
    assert "medic" in entry_terms("s", "GP discontinued my omeprazole")
    assert stops_or_shifts(asked) and stops_or_shifts(ROSTER)
    assert not stops_or_shifts("My cat is called Tom")


async def _store(store: Memory) -> None:
    await store.write(NewMemory(key="hi", content=INTRO, category="conversation"))
    await store.store("roster", ROSTER, "core")
    await store.store("cat", "My cat is called Tom", "core")


async def _roster_as_good_as_the_intro(store: Memory) -> bool:
    """Whether the roster matches "when's my next night shift" as well as the first message
    ("rotating shifts days nights") does: before, it matched only "night"."""
    scores = {
        entry.key: entry.scores.fused
        for entry in (await store.recall("when's my next night shift")).entries
        if entry.scores is not None
    }
    return scores.get("roster", 0.0) >= scores["hi"]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the roster: not "shift", "rota"."""
    wordings = set(analyze(SHIFT_WORDINGS)) - set(analyze(ROSTER))
    assert wordings <= set(terms)
    return [term for term in terms if term not in wordings]


async def test_a_sqlite_store_indexed_before_finds_the_roster_by_shift(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _store, "roster", _older, "0026_stops_and_shifts_read"
    ) as again:
        assert await _roster_as_good_as_the_intro(again)


async def test_a_postgres_store_indexed_before_finds_the_roster_by_shift(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "roster", _older, STOPS_AND_SHIFTS_READ
    ) as again:
        assert await _roster_as_good_as_the_intro(again)
