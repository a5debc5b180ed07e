"""The recall line says when the recall limit was reached: more memories may match."""

from __future__ import annotations

from agent.events import MemoryRecalled
from tests.unit.agent.conftest import Harness
from tui.widgets.recalled_entry import describe


async def test_a_recall_that_reached_its_limit_says_more_may_match(harness: Harness) -> None:
    """Found by a new user: "what did I tell you today?" showed 5 of about 20 messages tied
    at 0.48, and nothing said that others matched as well."""
    limit = harness.agent.config.memory.recall_limit
    for number in range(limit + 3):
        await harness.memory.store(f"pet{number}", f"My hamster number {number} eats carrots")
    harness.model.add("Carrots.", "Fine.")
    events = await harness.turn("what do my hamsters eat?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert recalled.limit_reached == limit
    assert f"at most {limit} (memory.recall_limit)" in describe(recalled).plain
    await harness.memory.store("fish", "My goldfish is called Bubbles")
    few = await harness.turn("what is my goldfish called?")
    one = next(e for e in few if isinstance(e, MemoryRecalled))
    assert [e.key for e in one.injected] == ["fish"] and one.limit_reached == 0
    quiet = describe(MemoryRecalled([], [], "keyword"))
    assert "recall_limit" not in quiet.plain
