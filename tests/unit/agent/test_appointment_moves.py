"""A moved appointment marks the appointment it moves, not a fact naming the same people.

Found by a new user, a night-shift nurse in Melbourne: "Dr Pham's clinic rang, mum's
appointment moved to Fri 5/3 at 2pm" marked her mum's metformin dose (from 22/12, "— Dr
Pham") changed, and left "Mum's next GP appt with Dr Pham is Thu 4/3 at 9:15am" unmarked:
with the dose taken for a second event of another day, the move named neither.
"""

from __future__ import annotations

from datetime import UTC, datetime

from agent.since_changed import since_changed
from memory.write_rules import NewMemory
from tests.unit.agent.conftest import Harness

DOSE = "Mum's metformin is now 1000mg twice a day (from 22/12) — Dr Pham, mẹ's GP"
APPOINTMENT = "Mum's next GP appt with Dr Pham is Thu 4/3 at 9:15am, for her diabetes review"
MOVE = "Dr Pham's clinic rang, mum's appointment moved to Fri 5/3 at 2pm"
RESULTS = "my blood test results came back, cholesterol a bit high, GP wants a retest in 3 months"


async def test_the_move_marks_the_appointment_and_not_the_dose(harness: Harness) -> None:
    rows = [
        ("metformin", DOSE, "core", datetime(2026, 12, 22, 9, tzinfo=UTC)),
        ("results", RESULTS, "conversation", datetime(2027, 2, 10, 9, tzinfo=UTC)),
        ("appointment", APPOINTMENT, "conversation", datetime(2027, 2, 17, 9, tzinfo=UTC)),
        ("move", MOVE, "conversation", datetime(2027, 2, 24, 9, tzinfo=UTC)),
    ]
    written = {
        key: await harness.memory.write(
            NewMemory(key=key, content=text, category=category, created_at=at)
        )
        for key, text, category, at in rows
    }
    now = datetime(2027, 3, 1, 9, tzinfo=UTC)
    notes = await since_changed(harness.memory, list(written.values()), "default", now)
    marked = {key for key, entry in written.items() if entry.id in notes}
    assert marked == {"appointment"}
    assert MOVE in notes[written["appointment"].id]
