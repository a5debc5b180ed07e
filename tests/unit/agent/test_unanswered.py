"""A message the model never answered (server down, Esc before any text) and what follows it."""

from __future__ import annotations

from agent.events import MemoryRecalled, MemorySaved, TurnFailed, TurnFinished
from agent.injection import FENCE_OPEN
from agent.model import ServerUnavailableError
from agent.testing import Reply
from tests.unit.agent.conftest import Harness

QUESTION = "What did I decide about the garden fence colour?"


async def fail_once(harness: Harness, text: str) -> None:
    harness.model.add(Reply(error=ServerUnavailableError("http://127.0.0.1:11434")))
    events = await harness.turn(text)
    assert isinstance(events[-1], TurnFailed)


async def test_sending_the_same_message_again_retries_it_once(harness: Harness) -> None:
    assert not harness.agent.is_retry(QUESTION, harness.session)
    await fail_once(harness, QUESTION)
    # The agent tells the UI, which keeps the one bubble the message already has.
    assert harness.agent.is_retry(QUESTION, harness.session)
    assert not harness.agent.is_retry("Something else entirely", harness.session)
    harness.model.add("Sage green.")
    events = await harness.turn(QUESTION)
    assert isinstance(events[-1], TurnFinished)
    assert not any(isinstance(e, MemorySaved) for e in events)
    request = harness.model.requests[-1].messages
    assert [m.role for m in request] == ["system", "user"]
    assert request[-1].content == QUESTION
    transcript = harness.sessions.load(harness.session.id).messages
    assert [(m.role, m.content) for m in transcript] == [
        ("user", QUESTION),
        ("assistant", "Sage green."),
    ]
    assert await harness.memory.count() == 1


async def test_a_retried_message_is_not_recalled_as_a_memory_of_itself(harness: Harness) -> None:
    await fail_once(harness, QUESTION)
    harness.model.add("Sage green.")
    events = await harness.turn(QUESTION)
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert recalled.injected == []
    assert FENCE_OPEN not in harness.model.requests[-1].messages[-1].content


async def test_regenerate_does_not_recall_the_message_it_answers(harness: Harness) -> None:
    harness.model.add("First answer.", "Second answer.")
    await harness.turn(QUESTION)
    events = [e async for e in harness.agent.turn(QUESTION, harness.session, resend=True)]
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert recalled.injected == []


async def test_a_new_message_after_an_unanswered_one_keeps_roles_alternating(
    harness: Harness,
) -> None:
    await fail_once(harness, QUESTION)
    harness.model.add("Both noted.")
    await harness.turn("Also, remind me to buy seeds for the vegetable patch.")
    request = harness.model.requests[-1].messages
    roles = [m.role for m in request]
    assert roles == ["system", "user"]
    assert QUESTION in request[-1].content
    assert request[-1].content.endswith("Also, remind me to buy seeds for the vegetable patch.")
    transcript = harness.sessions.load(harness.session.id).messages
    assert [m.role for m in transcript] == ["user", "user", "assistant"]
