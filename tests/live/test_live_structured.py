"""Structured-mode tool calls by a real model (SmolLM2-135M on llama-server).

The JSON schema does the work a 135M model cannot: every reply is a valid answer or a
valid call. Which of the two it picks is still the model's choice, so, as in the native
live tests, earlier turns of the session show it the layout. The figures (calls attempted,
valid, executed) are printed for the notes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.events import ToolCallFinished, ToolCallStarted, TurnEvent, TurnFinished
from agent.messages import ChatMessage, ToolCall
from agent.structured_tools import INVALID_REPLY
from tests.live.test_live_model import live_config, live_runtime

pytestmark = pytest.mark.live

EXAMPLES = [
    (
        "Remember that I like tea.",
        "memory_store",
        {"key": "drink", "content": "The user likes tea"},
    ),
    ("What do I like to drink?", "memory_recall", {"query": "drink"}),
    (
        "Remember that I live in Lisbon.",
        "memory_store",
        {"key": "city", "content": "The user lives in Lisbon"},
    ),
    ("Where do I live?", "memory_recall", {"query": "live city"}),
]


def earlier_turns() -> list[ChatMessage]:
    """Turns in which the model called the tool the request asked for, then answered."""
    turns: list[ChatMessage] = []
    for number, (said, tool, arguments) in enumerate(EXAMPLES):
        call = ToolCall(id=f"example_{number}", name=tool, arguments=arguments)
        turns += [
            ChatMessage(role="user", content=said),
            ChatMessage(role="assistant", tool_calls=[call]),
            ChatMessage(role="tool", content='{"ok": true}', tool_name=tool, tool_call_id=call.id),
            ChatMessage(role="assistant", content="Done."),
        ]
    return turns


def figures(events: list[TurnEvent]) -> dict[str, int]:
    started = [e for e in events if isinstance(e, ToolCallStarted)]
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    return {
        "attempted": len(started),
        "valid": sum(1 for e in started if e.name != INVALID_REPLY),
        "executed": sum(1 for e in finished if not e.error),
    }


async def test_a_real_model_stores_and_recalls_through_structured_output(
    live_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = await live_runtime(live_url, tmp_path, monkeypatch, tool_mode="structured")
    try:
        assert runtime.agent.tool_mode == "structured"
        runtime.sessions.append(runtime.session, earlier_turns())
        stored = [
            e
            async for e in runtime.agent.turn(
                "Remember that my cat is called Miso.", runtime.session
            )
        ]
        counts = figures(stored)
        print("store turn:", json.dumps(counts))
        call = next(e for e in stored if isinstance(e, ToolCallStarted))
        assert call.name == "memory_store" and isinstance(call.arguments, dict)
        assert counts["executed"] >= 1
        entry = await runtime.memory.get(call.arguments["key"])
        assert entry is not None and entry.content == call.arguments["content"]
        assert isinstance(stored[-1], TurnFinished)

        recalled = [e async for e in runtime.agent.turn("What is my cat called?", runtime.session)]
        counts = figures(recalled)
        print("recall turn:", json.dumps(counts))
        recall = next(e for e in recalled if isinstance(e, ToolCallFinished))
        assert recall.name == "memory_recall" and not recall.error
        assert entry.content in recall.result
        # Its result went back, and the model answered from the conversation that holds it.
        assert isinstance(recalled[-1], TurnFinished)
        transcript = runtime.sessions.load(runtime.session.id).messages
        assert transcript[-1].role == "assistant" and transcript[-2].role == "tool"
    finally:
        await runtime.memory.close()


async def test_the_app_shows_a_real_structured_tool_call(
    live_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.tui.conftest import settle
    from tui.app import MemchatApp
    from tui.widgets.tool_call_entry import ToolCallEntry

    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path / "data"))
    app = MemchatApp(live_config(live_url, tool_mode="structured"), blink=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await app.ready.wait()
        assert "tools: structured" in str(app.status.render())
        assert app.runtime is not None
        app.runtime.sessions.append(app.runtime.session, earlier_turns())
        app.prompt.text = "Remember that my cat is called Miso."
        await pilot.press("enter")
        await settle(pilot)
        entries = list(app.query(ToolCallEntry))
        assert entries, "the model made no tool call"
        stored = await app.runtime.memory.list(category="core")
        assert any(e.source == "tool" for e in stored), "the call did not land in memory"
