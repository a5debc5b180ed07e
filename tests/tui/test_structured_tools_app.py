"""The app with a model that has no native tool calling: JSON tool calls, shown as native."""

from __future__ import annotations

import json

from agent.testing import ScriptedModel
from tests.tui.conftest import MakeApp, settle
from tests.tui.test_chat import send
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.tool_call_entry import ToolCallEntry


async def test_a_model_without_tools_stores_memories_through_json(make_app: MakeApp) -> None:
    call = {"tool": "memory_store", "arguments": {"key": "pet", "content": "A cat called Miso"}}
    model = ScriptedModel(
        [json.dumps(call), json.dumps({"answer": "I'll remember Miso."})],
        name="gemma3:4b",
        supports_tools=False,
    )
    h = make_app(model)
    async with h.app.run_test(size=(140, 36)) as pilot:
        await h.app.ready.wait()
        assert "tools: structured" in str(h.app.status.render())
        await send(pilot, "My cat is called Miso, remember that")
        await settle(pilot)
        entries = list(h.app.query(ToolCallEntry))
        assert len(entries) == 1
        replies = list(h.app.query(AssistantMessage))
        assert replies[-1].text == "I'll remember Miso."  # the answer, not its JSON
        stored = await h.runtime.memory.get("pet")
        assert stored is not None and stored.content == "A cat called Miso"
        assert h.model.requests[0].options.format is not None


async def test_the_status_bar_says_tools_are_off(make_app: MakeApp) -> None:
    h = make_app(ScriptedModel(name="qwen3:8b"))
    h.app.config = h.app.config.model_copy(
        update={"model": h.app.config.model.model_copy(update={"tool_mode": "off"})}
    )
    async with h.app.run_test(size=(140, 36)) as pilot:
        await h.app.ready.wait()
        await settle(pilot)
        assert "tools: off" in str(h.app.status.render())


async def test_native_mode_on_a_model_without_tools_says_they_are_off(make_app: MakeApp) -> None:
    h = make_app(ScriptedModel(name="gemma3:4b", supports_tools=False))
    h.app.config = h.app.config.model_copy(
        update={"model": h.app.config.model.model_copy(update={"tool_mode": "native"})}
    )
    async with h.app.run_test(size=(140, 36)) as pilot:
        await h.app.ready.wait()
        await settle(pilot)
        assert "tools: off" in str(h.app.status.render())
        notes = [n for n in h.app._notifications if n.title == "Memory tools are off"]
        assert len(notes) == 1 and "/remember" in notes[0].message
        assert 'tool_mode = "auto"' in notes[0].message
