"""Turns in structured mode: tool calls as schema-constrained JSON replies."""

from __future__ import annotations

import json
from typing import Any

from agent.events import Notice, TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished
from agent.model import ToolsUnsupportedError
from agent.structured_tools import INVALID_REPLY
from agent.testing import Reply, ScriptedModel
from tests.unit.agent.conftest import Harness, kinds


def store_call(key: str, content: str) -> str:
    return json.dumps({"tool": "memory_store", "arguments": {"key": key, "content": content}})


def answer(text: str) -> str:
    return json.dumps({"answer": text})


async def structured(make_harness: Any, *replies: Reply | str, **settings: Any) -> Harness:
    # A model without native tools: `auto` (the default) takes the structured protocol.
    h: Harness = await make_harness(ScriptedModel(replies, supports_tools=False), **settings)
    return h


async def test_auto_mode_gives_a_model_without_native_tools_json_tool_calls(
    make_harness: Any,
) -> None:
    h = await structured(
        make_harness, store_call("user_city", "The user lives in Lisbon"), answer("Noted, Lisbon!")
    )
    assert h.agent.tool_mode == "structured"
    events = await h.turn("Remember that I live in Lisbon")
    first, second = h.model.requests
    # No native tools: the schema constrains the reply, the prompt lists the tools.
    assert first.tools == [] and first.options.format is not None
    variants = first.options.format["anyOf"]
    assert {"answer"} == set(variants[0]["properties"])
    assert [v["properties"]["tool"]["enum"][0] for v in variants[1:]] == [
        "memory_store",
        "memory_recall",
        "memory_forget",
        "memory_list",
    ]
    system = first.messages[0].content
    assert '{"answer":' in system and "memory_store" in system
    assert "key (string, required)" in system
    # The call runs like a native one and lands in memory.
    started = next(e for e in events if isinstance(e, ToolCallStarted))
    assert started.name == "memory_store" and started.arguments == {
        "key": "user_city",
        "content": "The user lives in Lisbon",
    }
    assert not next(e for e in events if isinstance(e, ToolCallFinished)).error
    stored = await h.memory.get("user_city")
    assert stored is not None and stored.content == "The user lives in Lisbon"
    # Its result goes back as the user's next message (no tool role for such templates).
    assert [m.role for m in second.messages][-2:] == ["assistant", "user"]
    assert json.loads(second.messages[-2].content)["tool"] == "memory_store"
    assert second.messages[-1].content.startswith("Tool result (memory_store): ")
    # The answer streams as text, without its JSON wrapping.
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Noted, Lisbon!"
    assert isinstance(events[-1], TurnFinished)
    on_disk = h.sessions.load(h.session.id).messages
    assert [m.role for m in on_disk] == ["user", "assistant", "tool", "assistant"]
    assert on_disk[-1].content == "Noted, Lisbon!"


async def test_the_answer_streams_in_pieces(make_harness: Any) -> None:
    h = await structured(make_harness, Reply(answer("One, two, three, four."), chunk_chars=3))
    events = await h.turn("count to four please")
    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    assert len(deltas) > 3 and "".join(deltas) == "One, two, three, four."


async def test_history_goes_out_as_the_model_wrote_it(make_harness: Any) -> None:
    h = await structured(
        make_harness, store_call("pet", "The user has a cat"), answer("Stored."), answer("A cat.")
    )
    await h.turn("Remember I have a cat")
    await h.turn("What pet do I have?")
    sent = h.model.requests[-1].messages
    assert all(m.role != "tool" and not m.tool_calls for m in sent)
    roles = [m.role for m in sent]
    assert roles[0] == "system" and all(a != b for a, b in zip(roles[1:], roles[2:], strict=False))
    assistant = [m.content for m in sent if m.role == "assistant"]
    assert json.loads(assistant[0])["tool"] == "memory_store"
    assert json.loads(assistant[-1]) == {"answer": "Stored."}


async def test_malformed_json_goes_back_to_the_model_as_an_error(make_harness: Any) -> None:
    h = await structured(
        make_harness, '{"tool": "memory_store", "arguments": {"key": ', answer("Sorry, done now.")
    )
    events = await h.turn("remember my birthday is in May")
    started = next(e for e in events if isinstance(e, ToolCallStarted))
    finished = next(e for e in events if isinstance(e, ToolCallFinished))
    assert started.name == INVALID_REPLY and finished.error
    assert "not valid JSON" in finished.result
    error_back = h.model.requests[1].messages[-1].content
    assert error_back.startswith("Tool error (invalid_reply): ") and "not valid JSON" in error_back
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Sorry, done now."


async def test_a_call_to_an_unknown_tool_is_an_error_for_the_model(make_harness: Any) -> None:
    unknown = json.dumps({"tool": "web_search", "arguments": {"q": "weather"}})
    h = await structured(make_harness, unknown, answer("I cannot search the web."))
    events = await h.turn("what's the weather")
    finished = next(e for e in events if isinstance(e, ToolCallFinished))
    assert finished.error and "unknown tool 'web_search'" in finished.result
    assert isinstance(events[-1], TurnFinished) and events[-1].stopped_reason == "done"


async def test_invalid_arguments_are_an_error_for_the_model(make_harness: Any) -> None:
    bad = json.dumps({"tool": "memory_store", "arguments": {"key": "x"}})
    h = await structured(make_harness, bad, answer("ok"))
    events = await h.turn("remember something")
    finished = next(e for e in events if isinstance(e, ToolCallFinished))
    assert finished.error and "invalid arguments for memory_store" in finished.result
    assert await h.memory.get("x") is None


async def test_a_reply_cut_mid_answer_keeps_what_arrived(make_harness: Any) -> None:
    h = await structured(make_harness, Reply('{"answer": "Paris is the capi', done_reason="length"))
    events = await h.turn("what is the capital of France")
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Paris is the capi"
    assert isinstance(events[-1], TurnFinished) and events[-1].stopped_reason == "length"


async def test_the_tool_limit_forces_an_answer_in_the_same_protocol(make_harness: Any) -> None:
    looping = [store_call(f"k{i}", f"fact number {i}") for i in range(2)]
    h = await structured(
        make_harness, *looping, answer("Here is my answer."), agent__max_tool_iterations=2
    )
    events = await h.turn("store things forever")
    assert kinds(events).count("tool_call_started") == 2
    final = h.model.requests[-1]
    assert final.options.format == {
        "type": "object",
        "properties": {"answer": {"type": "string"}},
        "required": ["answer"],
        "additionalProperties": False,
    }
    assert any(isinstance(e, Notice) and "rounds of tool calls" in e.text for e in events)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Here is my answer."


async def test_a_repeated_call_is_answered_again_not_run_again(make_harness: Any) -> None:
    same = store_call("tea", "The user likes tea")
    h = await structured(make_harness, same, same, answer("Done."))
    events = await h.turn("remember I like tea")
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert [f.repeated for f in finished] == [False, True]


async def test_auto_falls_back_to_structured_when_the_server_refuses_tools(
    make_harness: Any,
) -> None:
    refusal = ToolsUnsupportedError("registry.ollama.ai/library/gemma3 does not support tools")
    h: Harness = await make_harness(
        ScriptedModel([Reply(error=refusal), store_call("a", "fact a"), answer("ok")])
    )
    before = h.agent.tool_mode
    events = await h.turn("remember fact a")
    notice = next(e for e in events if isinstance(e, Notice))
    assert "as JSON" in notice.text and "does not support tools" in notice.text
    assert (before, h.agent.tool_mode) == ("native", "structured")
    assert h.model.requests[1].tools == [] and h.model.requests[1].options.format is not None
    assert await h.memory.get("a") is not None


async def test_tool_mode_settings(make_harness: Any) -> None:
    native_model = ScriptedModel(["plain"])
    h: Harness = await make_harness(native_model, model__tool_mode="structured")
    assert h.agent.tool_mode == "structured"
    off: Harness = await make_harness(ScriptedModel(["plain"]), model__tool_mode="off")
    await off.turn("hello there friend")
    request = off.model.requests[0]
    assert off.agent.tool_mode == "off" and request.tools == [] and request.options.format is None
    assert "/remember" in request.messages[0].content


async def test_stopping_the_stream_early_ends_the_inner_stream_at_once() -> None:
    from collections.abc import AsyncIterator, Sequence

    from agent.messages import ChatMessage, ToolSpec
    from agent.model import DEFAULT_OPTIONS, ChatOptions, ModelChunk
    from agent.structured_tools import StructuredToolModel

    class Endless(ScriptedModel):
        closed = False

        async def chat(
            self,
            messages: Sequence[ChatMessage],
            *,
            tools: Sequence[ToolSpec] = (),
            options: ChatOptions = DEFAULT_OPTIONS,
        ) -> AsyncIterator[ModelChunk]:
            try:
                yield ModelChunk(text='{"answer": "')
                while True:
                    yield ModelChunk(text="more ")
            finally:
                Endless.closed = True

    stream = StructuredToolModel(Endless(supports_tools=False)).chat([])
    assert (await anext(stream)).text == "more "  # the JSON opening gives no text
    await stream.aclose()  # type: ignore[attr-defined]
    assert Endless.closed


async def test_the_format_guide_shows_each_example_as_a_valid_call() -> None:
    from pydantic import BaseModel

    from agent.structured_tools import format_guide, reply_schema
    from agent.tools import MemoryTools, RecallArgs, StoreArgs
    from memory.none_backend import NoneMemory

    tools = MemoryTools(NoneMemory())
    specs = tools.specs()
    guide = format_guide(specs)
    with_examples = [spec for spec in specs if spec.example is not None]
    assert {spec.name for spec in with_examples} == {"memory_store", "memory_recall"}
    branches = reply_schema(specs)["anyOf"]
    for spec in with_examples:
        assert spec.example is not None
        written = json.dumps({"tool": spec.name, "arguments": spec.example.arguments})
        assert written in guide
        # The example is a call the tool itself accepts, and a branch of the reply schema.
        accepts: dict[str, type[BaseModel]] = {
            "memory_store": StoreArgs,
            "memory_recall": RecallArgs,
        }
        accepts[spec.name].model_validate(spec.example.arguments)
        branch = next(b for b in branches if b["properties"].get("tool") == {"enum": [spec.name]})
        assert set(spec.example.arguments) <= set(branch["properties"]["arguments"]["properties"])
    assert '{"answer": "Hello! How can I help?"}' in guide
    assert "For example" not in format_guide([])


async def test_a_runaway_reply_is_stopped_and_becomes_an_invalid_reply() -> None:
    from collections.abc import AsyncIterator, Sequence

    from agent.messages import ChatMessage, ToolSpec
    from agent.model import DEFAULT_OPTIONS, ChatOptions, ModelChunk
    from agent.structured_tools import StructuredToolModel

    class Padding(ScriptedModel):
        sent = 0
        closed = False

        async def chat(
            self,
            messages: Sequence[ChatMessage],
            *,
            tools: Sequence[ToolSpec] = (),
            options: ChatOptions = DEFAULT_OPTIONS,
        ) -> AsyncIterator[ModelChunk]:
            try:
                yield ModelChunk(text="{")
                while True:  # a model stuck writing whitespace inside the JSON
                    Padding.sent += 1
                    yield ModelChunk(text="\n  ")
            finally:
                Padding.closed = True

    chunks = [c async for c in StructuredToolModel(Padding(supports_tools=False)).chat([])]
    assert Padding.closed and Padding.sent < 5_000
    (call,) = chunks[-1].tool_calls
    assert call.name == INVALID_REPLY and "only whitespace" in call.arguments["error"]


def test_a_lone_surrogate_never_reaches_the_wire_and_never_comes_from_it() -> None:
    from agent.messages import ChatMessage
    from agent.model import ModelChunk
    from agent.ollama_model import _wire_message
    from agent.openai_model import wire_message
    from agent.testing import call

    chunk = ModelChunk(text="raw lone \ud800 here", thinking="\udc00")
    assert chunk.text == "raw lone \ufffd here" and chunk.thinking == "\ufffd"
    # What the user wrote is kept as written (the chat file round-trips it) ...
    said = ChatMessage(role="user", content="a \ud83d b")
    assert said.content == "a \ud83d b"
    # ... and goes to either server as text that encodes.
    asked = ChatMessage(role="assistant", tool_calls=[call("memory_store", key="k\udfff")])
    for wire in (_wire_message, wire_message):
        json.dumps(wire(said), ensure_ascii=False).encode("utf-8")
        json.dumps(wire(asked), ensure_ascii=False).encode("utf-8")
        assert "\ufffd" in wire(said)["content"]
