"""A change for one day of what comes again is said as such, and said no more after it.

Found by a new user, a taxi dispatcher: "farda Reza pickup 8:00 not 7:30" ("farda":
tomorrow) marked "Reza's pickup is every weekday at 7:30" since changed, for good; months
later the model was still told the regular pickup had moved to 8:00.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from agent.since_changed import since_changed
from memory.entry import MemoryEntry, utc_now
from memory.lifecycle import plan_hygiene
from memory.one_day_changes import one_day_of_change
from memory.settings import MemorySettings
from tests.helpers.entries import one_chat
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


def _said(text: str, when: datetime) -> MemoryEntry:
    return MemoryEntry(
        id=text[:12], key=text[:12], content=text, category="conversation",
        timestamp=when, updated_at=when, session_id="s1",
    )  # fmt: skip


FACTS = {
    "dose": "I take lisinopril 10mg every morning",
    "standup": "My standup is every weekday at 9:30",
    "concor": "Mom takes Concor 2.5mg every morning",
    "pickup": "Reza's pickup is every weekday at 7:30",
}
MONDAY = datetime(2027, 3, 1, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("fact", "said", "day"),
    [
        # A later adversary: a change for good, whatever other day it names.
        ("dose", "from tomorrow my lisinopril is 20mg, the GP said so on Friday", None),
        ("dose", "on Friday the GP said: from tomorrow lisinopril 20mg", None),
        ("standup", "starting tomorrow my standup is at 10 not 9:30", None),
        ("standup", "tmrw standup 10 not 9:30 permanently", None),
        ("standup", "today the team agreed standup is at 10 not 9:30 going forward", None),
        ("standup", "after today standup is at 10 not 9:30", None),
        ("standup", "from now on standup is at 10 not 9:30, starting today", None),
        ("pickup", "az farda Reza pickup 8:00 not 7:30", None),
        # The day its word of one day names, never another number ("2.5" as 2 May).
        ("concor", "mom's concor 5mg tomorrow only, then back to 2.5", date(2027, 3, 2)),
        ("pickup", "فردا Reza pickup 8:00 not 7:30", date(2027, 3, 2)),
        ("standup", "tomorrow's standup is at 10 not 9:30", date(2027, 3, 2)),
        ("standup", "mañana el standup es a las 10, no a las 9:30", date(2027, 3, 2)),
        ("standup", "yesterday standup was at 10 not 9:30", date(2027, 2, 28)),
    ],
)
def test_a_change_for_one_day_or_for_good(fact: str, said: str, day: date | None) -> None:
    assert one_day_of_change(FACTS[fact], _said(said, MONDAY)) == day


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("tomorrow my standup is at 10 not 9:30", False),
        ("from tomorrow my standup is at 10 not 9:30", True),
    ],
)
def test_a_change_for_one_day_is_no_last_word_on_the_fact(said: str, kept: bool) -> None:
    """A later adversary: "farda Reza pickup 8:00 not 7:30" was kept for years beside the fact."""
    fact = MemoryEntry(
        id="f", key="standup", content=FACTS["standup"], category="core",
        timestamp=datetime(2027, 2, 1, tzinfo=UTC), updated_at=datetime(2027, 2, 1, tzinfo=UTC),
    )  # fmt: skip
    messages = one_chat(MONDAY, said)
    gone = {
        d.entry.content
        for d in plan_hygiene([fact, *messages], MemorySettings(), datetime(2029, 6, 1, tzinfo=UTC))
    }
    assert (said not in gone) == kept


STANDUP = "My standup is every weekday at 9:30"


@pytest.mark.parametrize(
    ("said", "note"),
    [
        ("tomorrow my standup is at 10 not 9:30", "changed for "),
        # An adversary: each read for one day, then no more.
        ("as of tmrw standup is at 10 not 9:30", "since changed: "),
        ("tomorrow onwards standup is at 10 not 9:30", "since changed: "),
        ("standup is at 10 now not 9:30, I told Tom yesterday", "since changed: "),
        # And a date read for good.
        ("on 14/12 standup is at 10 not 9:30", "changed for Mon 2026-12-14 only"),
        # A later adversary: each read for one day, then no more.
        ("tomorrow standup is at 10 not 9:30 forever", "since changed: "),
        ("yesterday they moved standup to 10 not 9:30", "since changed: "),
    ],
)
@pytest.mark.parametrize("told_as", ["core", "conversation"])
async def test_a_change_of_what_comes_again_said_in_a_fact_or_a_message(
    harness: Harness, said: str, note: str, told_as: str
) -> None:
    """A message telling what comes again is read as a fact is: an adversary saw "standup
    every weekday at 9:30", said in a chat, marked "since changed" for good by a change for
    tomorrow."""
    told_on = datetime(2026, 12, 7, 9, tzinfo=UTC)
    told = _said(STANDUP, told_on).model_copy(update={"category": told_as, "id": "told"})
    change = _said(said, told_on + timedelta(hours=9)).model_copy(update={"id": "change"})
    await harness.memory.import_([told, change])
    # Recalled together, as "when is my standup" recalls both.
    recalled = await harness.memory.list(limit=10)
    now = told_on + timedelta(hours=10)
    notes = await since_changed(harness.memory, recalled, "default", now)
    assert notes["told"].startswith(note)
    weeks_on = await since_changed(harness.memory, recalled, "default", now + timedelta(days=14))
    assert ("told" in weeks_on) is note.startswith("since changed")


@pytest.mark.parametrize(
    "said",
    ["my lisinopril goes up to 20mg tomorrow", "on Friday lisinopril goes to 20mg"],
)
def test_a_dose_changes_for_good_unless_said_not_to(said: str) -> None:
    """A later adversary: "my lisinopril goes up to 20mg tomorrow" was noted for one day,
    then the 10mg was in effect again."""
    when = datetime(2027, 3, 1, 18, tzinfo=UTC)
    fact = "I take lisinopril 10mg every morning"
    assert one_day_of_change(fact, _said(said, when)) is None
    assert one_day_of_change(fact, _said("just for tomorrow take lisinopril 20mg", when))
