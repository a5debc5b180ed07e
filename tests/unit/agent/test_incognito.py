"""Incognito saves nothing to disk, keeps the conversation in RAM, and still recalls."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent.events import MemoryRecalled, MemorySaved, Notice, ToolCallFinished, TurnFinished
from agent.messages import ChatMessage
from agent.testing import Reply, ScriptedModel, call
from tests.unit.agent.conftest import Harness, kinds


@pytest.fixture
def h(harness: Harness) -> Harness:
    return harness


def _session_files(h: Harness) -> list[str]:
    return sorted(p.name for p in h.sessions.directory.glob("*"))


async def test_a_conversation_leaves_no_session_file_and_goes_on_in_ram(h: Harness) -> None:
    h.session.incognito = True
    h.model.add("Noted.", "You said surprise party.")
    await h.turn("Secret plans for the surprise party")
    events = await h.turn("What did I just tell you?")
    assert isinstance(events[-1], TurnFinished)
    assert _session_files(h) == []
    assert [m.content for m in h.session.messages] == [
        "Secret plans for the surprise party",
        "Noted.",
        "What did I just tell you?",
        "You said surprise party.",
    ]
    # The second request carries the first exchange: the conversation continues.
    second = [m.content for m in h.model.requests[1].messages]
    assert "Secret plans for the surprise party" in second and "Noted." in second


async def test_a_resumed_session_file_is_not_written_while_incognito(h: Harness) -> None:
    h.model.add("First.", "Second.")
    await h.turn("Something I said before incognito")
    path = h.sessions.directory / f"{h.session.id}.jsonl"
    before = path.read_bytes()
    h.session.incognito = True
    await h.turn("Something said in incognito")
    assert path.read_bytes() == before
    assert len(h.session.messages) == 4


async def test_nothing_is_auto_saved_or_remembered_as_a_procedure(h: Harness) -> None:
    await h.memory.store("user_city", "The user lives in Lisbon", "core")
    h.session.incognito = True
    h.model.add(
        Reply(tool_calls=[call("memory_recall", query="where does the user live")]),
        Reply("In Lisbon."),
    )
    events = await h.turn("Where do I live, according to my notes?")
    assert not any(isinstance(e, MemorySaved) for e in events)
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert [(e.name, e.error) for e in finished] == [("memory_recall", False)]
    assert "Lisbon" in finished[0].result
    assert [e.key for e in await h.memory.list(include_superseded=True)] == ["user_city"]


async def test_recall_still_injects_memories(h: Harness) -> None:
    await h.memory.store("user_editor", "The user edits code in Helix", "core")
    h.session.incognito = True
    h.model.add("Helix.")
    events = await h.turn("Which editor do I use for code?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert [e.key for e in recalled.injected] == ["user_editor"]
    assert "Helix" in h.model.requests[0].messages[-1].content


async def test_the_model_cannot_store_or_forget(h: Harness) -> None:
    await h.memory.store("user_city", "The user lives in Lisbon", "core")
    h.session.incognito = True
    h.model.add(
        Reply(
            tool_calls=[
                call("memory_store", key="user_pet", content="The user has a cat"),
                call("memory_forget", key="user_city"),
            ]
        ),
        Reply("I cannot remember that while incognito."),
    )
    events = await h.turn("Remember my cat and forget my city")
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert [(e.name, e.error) for e in finished] == [
        ("memory_store", True),
        ("memory_forget", True),
    ]
    for event in finished:
        assert "read-only in incognito" in json.loads(event.result)["error"]
    assert [e.key for e in await h.memory.list()] == ["user_city"]
    # The refusal went back to the model, which could then answer.
    tool_messages = [m for m in h.model.requests[1].messages if m.role == "tool"]
    assert all("read-only in incognito" in m.content for m in tool_messages)
    assert isinstance(events[-1], TurnFinished)


async def test_remember_and_forget_commands_say_memory_is_read_only(h: Harness) -> None:
    await h.memory.store("user_city", "The user lives in Lisbon", "core")
    h.session.incognito = True
    for command in ("/remember I take the train to work", "/forget user_city"):
        events = await h.turn(command)
        assert kinds(events) == ["notice", "turn_finished"]
        notice = events[0]
        assert isinstance(notice, Notice) and "read-only" in notice.text
        assert command.split()[0] in notice.text
    assert [e.key for e in await h.memory.list()] == ["user_city"]
    assert h.model.requests == []


async def test_the_recall_command_still_works(h: Harness) -> None:
    await h.memory.store("user_city", "The user lives in Lisbon", "core")
    h.session.incognito = True
    events = await h.turn("/recall where do I live")
    finished = next(e for e in events if isinstance(e, ToolCallFinished))
    assert not finished.error and "Lisbon" in finished.result


async def test_consolidation_does_not_run(make_harness: Any) -> None:
    h: Harness = await make_harness(ScriptedModel(["Hi."]), memory__consolidation=True)
    h.session.incognito = True
    await h.turn("I moved to Lisbon last month")
    await h.agent.drain()
    assert len(h.model.requests) == 1
    assert await h.memory.count() == 0


async def test_a_failed_save_before_incognito_is_not_written_by_incognito(h: Harness) -> None:
    """Incognito keeps its own messages off the disk even when older ones wait there."""
    h.session.unsaved.append(ChatMessage(role="user", content="waiting from before"))
    h.session.incognito = True
    h.model.add("Ok.")
    await h.turn("said in incognito")
    assert _session_files(h) == []
    assert [m.content for m in h.session.unsaved] == ["waiting from before"]
