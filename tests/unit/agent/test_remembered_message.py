"""A message, then "/remember" of its words: the message becomes the fact's history.

Found by a new user demoing memchat: "I'm vegetarian", then "/remember I'm vegetarian",
stayed two memories; the message was recalled at 1.000 beside the fact, and forgetting or
editing the fact left it.
"""

from __future__ import annotations

from agent.events import MemorySaved
from tests.unit.agent.conftest import Harness


async def test_the_message_remembered_is_the_facts_history(harness: Harness) -> None:
    harness.model.add("Noted.")
    await harness.turn("I'm vegetarian")
    events = await harness.turn("/remember I'm vegetarian")
    saved = [e for e in events if isinstance(e, MemorySaved)]
    assert saved and saved[-1].entry.category == "core"
    assert await harness.memory.list(category="conversation") == []
    fact = saved[-1].entry
    every = await harness.memory.list(include_superseded=True)
    message = next(entry for entry in every if entry.category == "conversation")
    assert message.content == "I'm vegetarian" and message.superseded_by == fact.id


async def test_a_message_saying_more_stays_a_memory_of_its_own(harness: Harness) -> None:
    harness.model.add("Noted.")
    await harness.turn("I'm vegetarian and my sister is vegan")
    await harness.turn("/remember I'm vegetarian")
    said = [entry.content for entry in await harness.memory.list(category="conversation")]
    assert said == ["I'm vegetarian and my sister is vegan"]


async def test_a_question_is_no_history_of_the_fact_remembered_after_it(
    harness: Harness,
) -> None:
    """The demo's own turn: "Which drink is my favourite?", then "/remember My favourite
    drink is coffee", folded the question into the fact, and forgetting the fact forgot it."""
    harness.model.add("I don't know yet.")
    await harness.turn("Which drink is my favourite?")
    await harness.turn("/remember My favourite drink is coffee")
    said = [entry.content for entry in await harness.memory.list(category="conversation")]
    assert said == ["Which drink is my favourite?"]


async def test_remember_that_keeps_the_message_before_as_typed(harness: Harness) -> None:
    """Found by an adversary: told the code was redacted and to ask to remember it,
    "/remember that" kept a fact reading "that", and no code."""
    harness.model.add("Noted.")
    await harness.turn("the gym door code is 2468")
    await harness.turn("/remember that")
    facts = await harness.memory.list(category="core")
    assert [fact.content for fact in facts] == ["the gym door code is 2468"]
    assert "2468" not in facts[0].key
    assert await harness.memory.list(category="conversation") == []


async def test_remember_that_after_a_question_or_nothing_says_so(harness: Harness) -> None:
    events = await harness.turn("/remember it")
    assert any("nothing said before" in getattr(e, "text", "") for e in events)
    harness.model.add("It's 8.")
    await harness.turn("what time is the gym open?")
    events = await harness.turn("/remember that")
    assert any("was a question" in getattr(e, "text", "") for e in events)
    assert await harness.memory.list(category="core") == []


async def test_remember_what_i_just_said_keeps_the_message_before(harness: Harness) -> None:
    """Found by an adversary: "/remember what I just said" kept those words as a fact."""
    harness.model.add("Noted.", "Noted.")
    await harness.turn("the boiler service is every October")
    await harness.turn("/remember what I just said")
    facts = await harness.memory.list(category="core")
    assert [fact.content for fact in facts] == ["the boiler service is every October"]
