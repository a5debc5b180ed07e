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

from agent.config import Config
from agent.events import TextDelta, ToolCallFinished, ToolCallStarted, TurnEvent, TurnFinished
from agent.messages import ChatMessage, ToolCall
from agent.runtime import open_runtime
from agent.structured_tools import INVALID_REPLY
from tests.live.test_live_model import live_config

pytestmark = pytest.mark.live

# (what the user said, the tool called, its arguments, its result, the answer after it)
Example = tuple[str, str, dict[str, object], str, str]

STORE_EXAMPLES: list[Example] = [
    (
        "Remember that I like tea.",
        "memory_store",
        {"key": "drink", "content": "The user likes tea"},
        '{"stored": {"key": "drink"}}',
        "Stored.",
    ),
    (
        "Remember that my dog is called Rex.",
        "memory_store",
        {"key": "dog", "content": "The user's dog is called Rex"},
        '{"stored": {"key": "dog"}}',
        "Stored.",
    ),
]
RECALL_EXAMPLES: list[Example] = [
    (
        "What do I like to drink?",
        "memory_recall",
        {"query": "drink"},
        '{"memories": [{"key": "drink", "content": "The user likes tea"}]}',
        "You like tea.",
    ),
    (
        "What is my dog called?",
        "memory_recall",
        {"query": "dog"},
        '{"memories": [{"key": "dog", "content": "The user\'s dog is called Rex"}]}',
        "Your dog is called Rex.",
    ),
]


def earlier_turns(examples: list[Example]) -> list[ChatMessage]:
    """Turns in which the model called the tool the request asked for, then answered.

    A 135M model copies the layout of its history. The schema makes every reply a valid
    answer or call; these make it pick the call. Measured: with store and recall examples
    mixed in one history it answered "What is my cat called?" with memory_store every time
    (four wordings), so each session shows only the kind of call it is about.
    """
    turns: list[ChatMessage] = []
    for number, (said, tool, arguments, result, answer) in enumerate(examples):
        call = ToolCall(id=f"example_{number}", name=tool, arguments=arguments)
        turns += [
            ChatMessage(role="user", content=said),
            ChatMessage(role="assistant", tool_calls=[call]),
            ChatMessage(role="tool", content=result, tool_name=tool, tool_call_id=call.id),
            ChatMessage(role="assistant", content=answer),
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
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path / "data"))
    config = live_config(live_url, tool_mode="structured")
    # Nothing is placed before the message: the model has to look the fact up itself.
    config.agent.inject_max_entries = 0
    runtime = await open_runtime(config)
    try:
        assert runtime.agent.tool_mode == "structured"
        runtime.sessions.append(runtime.session, earlier_turns(STORE_EXAMPLES))
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

        # A new chat: the conversation is gone, only long-term memory holds the name.
        session = runtime.new_session()
        runtime.sessions.append(session, earlier_turns(RECALL_EXAMPLES))
        recalled = [e async for e in runtime.agent.turn("What is my cat called?", session)]
        counts = figures(recalled)
        print("recall turn:", json.dumps(counts))
        print("answer:", "".join(e.text for e in recalled if isinstance(e, TextDelta)))
        recall = next(e for e in recalled if isinstance(e, ToolCallFinished))
        assert recall.name == "memory_recall" and not recall.error
        assert entry.content in recall.result
        # Its result went back, and the model answered from the conversation that holds it.
        assert isinstance(recalled[-1], TurnFinished)
        transcript = runtime.sessions.load(session.id).messages
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
        app.runtime.sessions.append(app.runtime.session, earlier_turns(STORE_EXAMPLES))
        app.prompt.text = "Remember that my cat is called Miso."
        await pilot.press("enter")
        await settle(pilot)
        entries = list(app.query(ToolCallEntry))
        assert entries, "the model made no tool call"
        stored = await app.runtime.memory.list(category="core")
        assert any(e.source == "tool" for e in stored), "the call did not land in memory"


async def test_the_demo_has_a_real_model_store_a_memory_with_its_tool(
    live_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`memchat demo` as the CLI plays it, against the real model, with no history to copy."""
    from agent.runtime import Runtime
    from tests.tui.conftest import settle
    from tui.app import MemchatApp
    from tui.demo import CAT

    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path / "data"))
    config = live_config(live_url, tool_mode="structured")
    # The model's own turns at 135M take a while; keep its replies short.
    config.generation.max_reply_tokens = 160

    async def demo_runtime(config: Config) -> Runtime:
        return await open_runtime(config, namespace="demo-live")

    app = MemchatApp(config, runtime_factory=demo_runtime, demo_pause=0.0, blink=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await app.ready.wait()
        while any(w.group == "demo" and not w.is_finished for w in app.workers):
            await pilot.pause(0.5)
        await settle(pilot)
        assert app.runtime is not None
        session = app.runtime.sessions.load(app.runtime.session.id).messages
        asked = next(i for i, m in enumerate(session) if m.content == CAT)
        calls = [c for m in session[asked:] if m.role == "assistant" for c in m.tool_calls]
        print("demo store step:", [(c.name, c.arguments) for c in calls])
        assert any(c.name == "memory_store" for c in calls), "the model did not call the tool"
        stored = await app.runtime.memory.list(namespace="demo-live", category="core")
        assert any(e.source == "tool" for e in stored), "the call did not land in memory"
        assert any("Demo finished" in n.message for n in app._notifications)
