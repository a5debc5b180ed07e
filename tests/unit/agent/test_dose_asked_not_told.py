"""A question or a musing about a dose changes no dose; a dose told before a request does.

Found by an adversary: "should mom take Concor 5mg?", "can mom take Concor 5mg with food?" and
"does mom take Concor 5mg now" each replaced "mom takes Concor 10mg every morning" as the fact;
"maybe mom should take Concor 5mg instead" marked it "since changed"; "dose of concor for mom
went up to 20mg, can you remind her tomorrow?" changed nothing.
"""

from __future__ import annotations

import pytest

from agent.events import Notice
from tests.unit.agent.conftest import Harness

KEY = "mom_takes_concor"
FACT = "mom takes Concor 10mg every morning"


async def _said_then_asked(harness: Harness, said: str) -> tuple[list[str], str]:
    await harness.memory.store_with_metadata(KEY, FACT, "core", None)
    harness.session = harness.sessions.new()
    harness.model.add("ok")
    events = await harness.turn(said)
    notices = [event.text for event in events if isinstance(event, Notice)]
    harness.session = harness.sessions.new()
    harness.model.add("ok")
    await harness.turn("what dose is mom on")
    return notices, harness.model.requests[-1].messages[-1].content


@pytest.mark.parametrize(
    "said",
    [
        "should mom take Concor 5mg?",
        "should mom take Concor 5mg instead",
        "can mom take Concor 5mg with food?",
        "does mom take Concor 5mg now",
        "maybe mom should take Concor 5mg instead",
        "perhaps mom could take Concor 5mg",
        # Tag questions and unsure endings (a later adversary: each replaced the dose).
        "Mom takes Concor 5mg, right?",
        "mom takes Concor 5mg, doesn't she?",
        "mom takes Concor 5mg, or was it 10?",
        "hopefully mom can go down to Concor 5mg soon",
    ],
)
async def test_a_dose_asked_or_mused_on_changes_nothing(harness: Harness, said: str) -> None:
    notices, shown = await _said_then_asked(harness, said)
    assert not any(KEY in text for text in notices)
    assert f'"{KEY}" (' in shown
    assert f"): {FACT}" in shown
    assert "since changed" not in shown


async def test_a_dose_told_before_a_request_updates_the_fact(harness: Harness) -> None:
    said = "dose of concor for mom went up to 20mg, can you remind her tomorrow?"
    notices, shown = await _said_then_asked(harness, said)
    assert any(f"updated the memory '{KEY}'" in text for text in notices)
    fact = await harness.memory.get(KEY)
    assert fact is not None
    assert "20mg" in fact.content
    assert "remind" not in fact.content
    assert FACT not in shown.split("[conversation]")[0]


async def test_a_dose_fact_left_as_it_is_is_said_so(harness: Harness) -> None:
    """Found by a new user, a nurse: "Dr Tran cut my sertraline back to 75mg" beside "I take
    sertraline 100mg every morning (Dr Tran, from 10/3)" changed nothing, and nothing said
    so; the inspector showed 100mg as her fact."""
    fact = "I take sertraline 100mg every morning (Dr Tran, from 10/3)"
    await harness.memory.store_with_metadata("i_take_sertraline", fact, "core", None)
    harness.session = harness.sessions.new()
    harness.model.add("ok")
    events = await harness.turn("Dr Tran cut my sertraline back to 75mg")
    notices = [event.text for event in events if isinstance(event, Notice)]
    assert any(
        "'i_take_sertraline'" in text and "still says otherwise" in text and "F2" in text
        for text in notices
    )
    kept = await harness.memory.get("i_take_sertraline")
    assert kept is not None and kept.content == fact


async def test_another_ones_dose_says_nothing_of_the_users(harness: Harness) -> None:
    await harness.memory.store_with_metadata(
        "omeprazole", "I take 20mg of omeprazole", "core", None
    )
    harness.session = harness.sessions.new()
    harness.model.add("ok")
    events = await harness.turn("My husband stopped taking omeprazole")
    assert not any("'omeprazole'" in e.text for e in events if isinstance(e, Notice))


async def test_a_dose_said_unsure_replaces_no_fact(harness: Harness) -> None:
    """ "mom takes Concor 5mg I think" replaced the 10 mg fact (a later adversary); it may
    still be shown beside it as said since."""
    await harness.memory.store_with_metadata(KEY, FACT, "core", None)
    harness.session = harness.sessions.new()
    harness.model.add("ok")
    events = await harness.turn("mom takes Concor 5mg I think")
    assert not any("updated the memory" in e.text for e in events if isinstance(e, Notice))
    kept = await harness.memory.get(KEY)
    assert kept is not None and kept.content == FACT
