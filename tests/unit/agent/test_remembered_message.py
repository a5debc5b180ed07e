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
