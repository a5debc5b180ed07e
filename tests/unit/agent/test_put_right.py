"""A recalled memory a later correction puts right is shown with it (`agent.put_right`)."""

from __future__ import annotations

from tests.unit.agent.conftest import Harness


def _shown(harness: Harness) -> str:
    return harness.model.requests[-1].messages[-1].content


async def _said(harness: Harness, *messages: str) -> None:
    for message in messages:
        harness.model.add("ok")
        await harness.turn(message)


async def test_a_fact_put_right_by_its_value_alone_is_shown_changed(harness: Harness) -> None:
    """Found by an adversary: "no wait, it's 24" after "/remember My gym locker is number
    42" left 42 recalled alone, unmarked."""
    await harness.turn("/remember My gym locker is number 42")
    await _said(harness, "no wait, it's 24")
    harness.session = harness.sessions.new()
    await _said(harness, "what's my gym locker number?")
    assert 'since changed: a later message says "no wait, it\'s 24"): My gym locker' in (
        _shown(harness)
    )


async def test_a_dose_or_a_place_put_right_is_shown_changed(
    harness: Harness,
) -> None:
    await _said(harness, "I take metoprolol 50mg every morning", "actually it's 100mg, not 50")
    harness.session = harness.sessions.new()
    await _said(harness, "what's my metoprolol dose?")
    shown = _shown(harness)
    assert 'says "actually it\'s 100mg, not 50"): I take metoprolol 50mg' in shown
    # A few words of what it is put right: "no wait, it's under the red pot".
    await harness.turn("/remember The spare key is under the blue pot")
    await _said(harness, "no wait, it's under the red pot")
    harness.session = harness.sessions.new()
    await _said(harness, "where is the spare key?")
    assert 'says "no wait, it\'s under the red pot"): The spare key' in _shown(harness)


async def test_a_correction_naming_a_value_the_message_before_lacks_puts_it_not_right(
    harness: Harness,
) -> None:
    """Found by a new user: "correction: the B1 exam is on the 19th of May, not the 12th",
    said after "sorry, the flat handover is on the 29th not the 30th", showed the handover
    "since changed" to the 19th of May."""
    await _said(
        harness,
        "the flat handover is on the 30th",
        "sorry, the flat handover is on the 29th not the 30th",
        "correction: the B1 exam is on the 19th of May, not the 12th",
    )
    harness.session = harness.sessions.new()
    await _said(harness, "when is the flat handover?")
    shown = _shown(harness)
    assert "29th not the 30th'): the flat handover is on the 30th" in shown
    assert "the 12th'): sorry" not in shown and 'the 12th"): sorry' not in shown


async def test_a_correction_sharing_only_a_day_is_not_shown_alone(harness: Harness) -> None:
    """Found by an adversary: "Flight to Oslo is SK4021 on the 19th of April" was shown "no
    wait, it's the 14th not the 19th", a correction of a parents' evening in another chat."""
    await _said(harness, "parents' evening is on the 19th", "no wait, it's the 14th not the 19th")
    harness.session = harness.sessions.new()
    harness.model.add("ok")
    events = await harness.turn("the Oslo flight, no wait, it is the 19th")
    [recalled] = [event for event in events if event.kind == "memory_recalled"]
    assert not any("14th" in entry.content for entry in recalled.injected)
    assert any(
        cut.reason == "a correction of something else" and "14th" in cut.entry.content
        for cut in recalled.cut
    )
    # Asked of what it puts right, it is shown with it.
    await _said(harness, "when is the parents' evening?")
    assert "since changed" in _shown(harness) and "the 14th not the 19th" in _shown(harness)
