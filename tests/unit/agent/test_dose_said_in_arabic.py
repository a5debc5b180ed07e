"""A parent's new dose said in Egyptian Arabic marks the English fact it changes.

Found by a new user, a pharmacist in Cairo: after "الدكتور قال ماما تاخد Concor ٥ مجم بدل ١٠"
no line said the fact still held 10 mg, and "what dose for mama" was shown the 10 mg alone.
"""

from __future__ import annotations

from agent.events import Notice
from tests.unit.agent.conftest import Harness

FACT = "mama takes Concor 10mg every morning and Glucophage 500mg twice a day"
SAID = "الدكتور قال ماما تاخد Concor ٥ مجم بدل ١٠ من النهاردة"


async def test_the_fact_is_marked_since_changed(harness: Harness) -> None:
    await harness.memory.store_with_metadata("mama_takes_concor", FACT, "core", None)
    harness.session = harness.sessions.new()
    harness.model.add("ok")
    events = await harness.turn(SAID)
    notices = [event.text for event in events if isinstance(event, Notice)]
    assert any("'mama_takes_concor'" in text and "still says otherwise" in text for text in notices)
    harness.session = harness.sessions.new()
    harness.model.add("ok")
    await harness.turn("what dose for mama")
    shown = harness.model.requests[-1].messages[-1].content
    assert f"since changed: a later message says '{SAID}'" in shown
