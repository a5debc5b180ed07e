"""A fact's weekday said changed marks it, as a number said changed does.

Found by a new user, a retired librarian in Wales: "The council has changed the black bin to
every other Wednesday from now on" left "The black bin goes out every other Tuesday" in
effect, unmarked, beside it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agent.since_changed import since_changed
from memory.entry import MemoryEntry
from tests.unit.agent.conftest import Harness

FACT = "The black bin goes out every other Tuesday"
TOLD = datetime(2026, 3, 1, 9, tzinfo=UTC)


def _entry(id_: str, text: str, category: str, when: datetime) -> MemoryEntry:
    return MemoryEntry(
        id=id_, key=id_, content=text, category=category, timestamp=when, updated_at=when,
        session_id="s1",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("said", "changed"),
    [
        ("The council has changed the black bin to every other Wednesday from now on.", True),
        ("the black bin was late on Wednesday, annoying", False),
        ("Megan is coming on Wednesday", False),
    ],
)
async def test_a_weekday_said_changed(harness: Harness, said: str, changed: bool) -> None:
    fact = _entry("bin", FACT, "core", TOLD)
    message = _entry("said", said, "conversation", TOLD + timedelta(days=30))
    await harness.memory.import_([fact, message])
    recalled = await harness.memory.list(limit=10)
    notes = await since_changed(harness.memory, recalled, "default", TOLD + timedelta(days=31))
    assert ("bin" in notes and notes["bin"].startswith("since changed: ")) is changed
