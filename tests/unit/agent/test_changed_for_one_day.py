"""A change for one day of what comes again is said as such, and said no more after it.

Found by a new user, a taxi dispatcher: "farda Reza pickup 8:00 not 7:30" ("farda":
tomorrow) marked "Reza's pickup is every weekday at 7:30" since changed, for good; months
later the model was still told the regular pickup had moved to 8:00.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from agent.since_changed import since_changed
from memory.entry import utc_now
from tests.unit.agent.conftest import Harness

FACT = "Reza's pickup is every weekday at 7:30 from his house"


@pytest.mark.parametrize(
    "said", ["farda Reza pickup 8:00 not 7:30", "tomorrow Reza pickup 8:00 not 7:30"]
)
async def test_the_note_names_the_day_and_goes_after_it(harness: Harness, said: str) -> None:
    fact = await harness.memory.store_with_metadata("reza_pickup", FACT, "core", None)
    harness.session = harness.sessions.new()
    harness.model.add("ok")
    await harness.turn(said)
    recalled = (await harness.memory.recall("Reza pickup", limit=5)).entries
    notes = await since_changed(harness.memory, recalled, "default")
    assert notes[fact.id].startswith("changed for ")
    assert " only: a later message says" in notes[fact.id]
    later = await since_changed(harness.memory, recalled, "default", utc_now() + timedelta(days=3))
    assert fact.id not in later


async def test_a_change_for_good_is_since_changed(harness: Harness) -> None:
    fact = await harness.memory.store_with_metadata("reza_pickup", FACT, "core", None)
    harness.session = harness.sessions.new()
    harness.model.add("ok")
    await harness.turn("Reza pickup is 8:00 now, not 7:30")
    recalled = (await harness.memory.recall("Reza pickup", limit=5)).entries
    notes = await since_changed(harness.memory, recalled, "default")
    assert notes[fact.id].startswith("since changed: ")
