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


async def test_a_recall_says_this_chats_own_messages_are_left_out(harness: Harness) -> None:
    """Found by a new user, an allotment's secretary: "has Declan paid?", asked in the chat
    where she had said he paid, showed "no memories recalled" and nothing said why."""
    harness.model.add("Noted.", "Yes.")
    first = await harness.turn("Declan paid his €40 fee today")
    alone = next(e for e in first if isinstance(e, MemoryRecalled))
    assert alone.in_this_chat == 0 and "in front of it" not in describe(alone).plain
    events = await harness.turn("has Declan paid?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert recalled.injected == [] and recalled.in_this_chat == 1
    said = describe(recalled).plain
    assert "this chat's own 1 earlier message(s) are not recalled" in said
    assert "nothing else relevant found" in said


async def test_this_chats_own_message_holding_a_secret_is_not_recalled(harness: Harness) -> None:
    """Found by a new user: "my gym locker password is Blau#77" was recalled into the chat
    it was said in (saved redacted, it was unlike the chat's own words)."""
    harness.model.add("Noted.", "Kept.")
    await harness.turn("my gym locker password is Blau#77")
    events = await harness.turn("ok fine, keep it: gym locker password is Blau#77")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert recalled.injected == [] and recalled.in_this_chat == 1
