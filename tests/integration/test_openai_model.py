"""`OpenAIChatModel` and `OpenAIEmbedder` against a fake OpenAI-compatible server (SSE)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agent.config import Config, ModelSettings
from agent.events import TextDelta, ToolCallFinished, TurnFinished
from agent.messages import ChatMessage, ToolCall
from agent.model import (
    ChatOptions,
    ModelChunk,
    ModelError,
    ModelNotFoundError,
    ModelTimeoutError,
    ServerUnavailableError,
    StreamCutError,
    ToolsUnsupportedError,
)
from agent.openai_model import OpenAIChatModel
from agent.runtime import make_model, open_runtime
from agent.tools import MemoryTools
from memory.embedding.openai import OpenAIEmbedder
from memory.none_backend import NoneMemory
from memory.settings import MemorySettings
from tests.helpers import network_guard
from tests.helpers.fake_ollama import FakeOllama, Reply, StreamReply, completion_events

pytestmark = pytest.mark.usefixtures("allow_model_requests")


def models_route(body: dict[str, Any]) -> Reply:
    return Reply(body={"object": "list", "data": [{"id": "smollm2", "object": "model"}]})


@pytest.fixture
def server(fake_ollama: FakeOllama) -> FakeOllama:
    fake_ollama.routes["/v1/models"] = models_route
    fake_ollama.routes["/props"] = lambda body: Reply(
        body={"default_generation_settings": {"n_ctx": 4096}}
    )
    return fake_ollama


def model(server: FakeOllama, **kwargs: Any) -> OpenAIChatModel:
    return OpenAIChatModel("smollm2", f"{server.url}/v1", **kwargs)


async def collect(chat: OpenAIChatModel, **kwargs: Any) -> list[ModelChunk]:
    return [c async for c in chat.chat([ChatMessage(role="user", content="hi")], **kwargs)]


async def test_streams_text_and_reasoning_with_stats(server: FakeOllama) -> None:
    server.routes["/v1/chat/completions"] = lambda body: StreamReply(
        completion_events("Hello from llama-server!", reasoning="think first"), sse=True
    )
    chat = model(server, api_key="secret-token")
    chunks = await collect(chat, options=ChatOptions(temperature=0.1, seed=3))
    assert "".join(c.text for c in chunks) == "Hello from llama-server!"
    assert "".join(c.thinking for c in chunks) == "think first"
    stats = chunks[-1].stats
    assert chunks[-1].done and stats is not None
    assert (stats.prompt_tokens, stats.completion_tokens) == (640, 32)
    assert stats.eval_seconds == pytest.approx(0.4) and stats.done_reason == "stop"
    path, sent = server.requests[-1]
    assert path == "/v1/chat/completions"
    assert sent == {
        "model": "smollm2",
        "stream": True,
        "temperature": 0.1,
        "seed": 3,
        "messages": [{"role": "user", "content": "hi"}],
        "stream_options": {"include_usage": True},
    }


async def test_tool_calls_are_assembled_from_fragments(server: FakeOllama) -> None:
    server.routes["/v1/chat/completions"] = lambda body: StreamReply(
        completion_events(
            tool_calls=[
                {"name": "memory_store", "arguments": {"key": "city", "content": "Lisbon"}},
                {"name": "memory_recall", "arguments": '{"query": broken'},
            ]
        ),
        sse=True,
    )
    chat = model(server)
    chunks = await collect(chat, tools=MemoryTools(NoneMemory()).specs())
    calls = [call for c in chunks for call in c.tool_calls]
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("call_0", "memory_store", {"key": "city", "content": "Lisbon"}),
        ("call_1", "memory_recall", '{"query": broken'),
    ]
    sent_tools = server.requests[-1][1]["tools"]
    assert sent_tools[0]["type"] == "function"
    assert sent_tools[0]["function"]["name"] == "memory_store"
    assert sent_tools[0]["function"]["parameters"]["required"] == ["key", "content"]


async def test_one_call_per_reply_is_asked_for_only_when_configured(server: FakeOllama) -> None:
    server.routes["/v1/chat/completions"] = lambda body: StreamReply(
        completion_events("ok"), sse=True
    )
    tools = MemoryTools(NoneMemory()).specs()
    await collect(model(server), tools=tools)
    assert "parallel_tool_calls" not in server.requests[-1][1]
    single = make_model(
        Config(
            model=ModelSettings(
                provider="openai", base_url=f"{server.url}/v1", parallel_tool_calls=False
            )
        )
    )
    assert isinstance(single, OpenAIChatModel)
    await collect(single, tools=tools)
    assert server.requests[-1][1]["parallel_tool_calls"] is False
    await collect(single)
    assert "parallel_tool_calls" not in server.requests[-1][1]


async def test_history_with_tool_calls_goes_out_in_openai_format(server: FakeOllama) -> None:
    server.routes["/v1/chat/completions"] = lambda body: StreamReply(
        completion_events("ok"), sse=True
    )
    history = [
        ChatMessage(
            role="assistant",
            tool_calls=[
                ToolCall(id="call_0", name="memory_store", arguments={"key": "k", "content": "c"})
            ],
        ),
        ChatMessage(
            role="tool", content='{"stored": {}}', tool_name="memory_store", tool_call_id="call_0"
        ),
    ]
    [c async for c in model(server).chat(history)]
    sent = server.requests[-1][1]["messages"]
    assert sent[0]["tool_calls"] == [
        {
            "id": "call_0",
            "type": "function",
            "function": {"name": "memory_store", "arguments": '{"key": "k", "content": "c"}'},
        }
    ]
    assert sent[1] == {"role": "tool", "content": '{"stored": {}}', "tool_call_id": "call_0"}


async def test_describe_checks_the_model_and_reads_the_context(server: FakeOllama) -> None:
    info = await model(server).describe()
    assert info.name == "smollm2" and info.context_length == 4096 and info.supports_tools
    anonymous = OpenAIChatModel("", f"{server.url}/v1")
    assert (await anonymous.describe()).name == "smollm2"
    with pytest.raises(ModelNotFoundError, match="serves smollm2"):
        await OpenAIChatModel("qwen3:8b", f"{server.url}/v1").describe()


@pytest.mark.parametrize(
    ("routes", "expected"),
    [
        pytest.param(
            {"/v1/models": {"data": [{"id": "qwen", "max_model_len": 32768}]}}, 32768, id="vllm"
        ),
        pytest.param(
            {
                "/v1/models": {"data": [{"id": "qwen"}]},
                "/api/v0/models/qwen": {"loaded_context_length": 8192, "max_context_length": 32768},
            },
            8192,
            id="lm-studio",
        ),
        pytest.param(
            {
                "/v1/models": {"data": [{"id": "qwen"}]},
                "/props": {"default_generation_settings": {"n_ctx": 2048}},
            },
            2048,
            id="llama-server",
        ),
        pytest.param({"/v1/models": {"data": [{"id": "qwen"}]}}, None, id="unknown"),
        pytest.param(
            {"/v1/models": {"data": [{"id": "qwen", "max_model_len": True}]}}, None, id="not-a-size"
        ),
    ],
)
async def test_the_context_window_is_found_on_each_kind_of_server(
    fake_ollama: FakeOllama, routes: dict[str, dict[str, Any]], expected: int | None
) -> None:
    def answer(body: dict[str, Any]) -> Callable[[dict[str, Any]], Reply]:
        return lambda _request: Reply(body=body)

    for path, body in routes.items():
        fake_ollama.routes[path] = answer(body)
    info = await OpenAIChatModel("qwen", f"{fake_ollama.url}/v1").describe()
    assert info.context_length == expected


@pytest.mark.parametrize(
    ("status", "error", "kind"),
    [
        (404, {"error": {"message": "model 'x' not found"}}, ModelNotFoundError),
        # llama-server's and vLLM's own words when tools are off.
        (500, {"error": {"message": "tools param requires --jinja flag"}}, ToolsUnsupportedError),
        (
            400,
            {
                "error": {
                    "message": '"auto" tool choice requires --enable-auto-tool-choice and '
                    "--tool-call-parser to be set"
                }
            },
            ToolsUnsupportedError,
        ),
        (500, {"error": {"message": "out of memory"}}, ModelError),
    ],
)
async def test_error_answers(server: FakeOllama, status: int, error: Any, kind: type) -> None:
    server.routes["/v1/chat/completions"] = lambda body: Reply(status, error)
    with pytest.raises(kind):
        await collect(model(server))


async def test_error_event_mid_stream(server: FakeOllama) -> None:
    server.routes["/v1/chat/completions"] = lambda body: StreamReply(
        completion_events("partial")[:2] + [{"error": {"message": "slot crashed"}}], sse=True
    )
    with pytest.raises(ModelError, match="slot crashed"):
        await collect(model(server))


async def test_cut_stream_and_missing_finish(server: FakeOllama) -> None:
    server.routes["/v1/chat/completions"] = lambda body: StreamReply(
        completion_events("a long answer"), sse=True, cut_after=2
    )
    with pytest.raises(StreamCutError):
        await collect(model(server))
    server.routes["/v1/chat/completions"] = lambda body: StreamReply(
        completion_events("no finish")[:3], sse=True
    )
    with pytest.raises(StreamCutError, match="ended before"):
        await collect(model(server))


async def test_slow_server_times_out(server: FakeOllama) -> None:
    server.routes["/v1/chat/completions"] = lambda body: StreamReply(
        completion_events("late"), sse=True, delay_s=1.0
    )
    with pytest.raises(ModelTimeoutError):
        await collect(model(server, read_timeout_s=0.2))


async def test_connection_refused_names_the_server(unused_tcp_port: int) -> None:
    network_guard.allowed_ports.add(unused_tcp_port)
    try:
        chat = OpenAIChatModel("m", f"http://127.0.0.1:{unused_tcp_port}/v1")
        with pytest.raises(ServerUnavailableError, match="model server is not running") as info:
            await collect(chat)
        assert "llama-server" in str(info.value)
    finally:
        network_guard.allowed_ports.discard(unused_tcp_port)


async def test_listing_works_and_ollama_only_features_say_so(server: FakeOllama) -> None:
    chat = model(server)
    assert await chat.list_models() == ["smollm2"]
    assert await chat.running() == []
    with pytest.raises(ModelError, match="Ollama feature"):
        [p async for p in chat.pull("x")]
    with pytest.raises(ModelError, match="Ollama feature"):
        await chat.unload()
    assert chat.with_model("other").name == "other"


async def test_a_whole_turn_through_the_openai_provider(
    server: FakeOllama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def chat(body: dict[str, Any]) -> StreamReply:
        if body["messages"][-1]["role"] == "tool":
            return StreamReply(completion_events("Stored: you live in Lisbon."), sse=True)
        return StreamReply(
            completion_events(
                tool_calls=[
                    {
                        "name": "memory_store",
                        "arguments": {"key": "user_city", "content": "The user lives in Lisbon"},
                    }
                ]
            ),
            sse=True,
        )

    server.routes["/v1/chat/completions"] = chat
    server.routes["/v1/embeddings"] = lambda body: Reply(
        body={
            "data": [
                {"index": i, "embedding": [float(len(t) % 5), 1.0, 0.5, 0.25]}
                for i, t in enumerate(body["input"])
            ]
        }
    )
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path / "data"))
    config = Config(
        model=ModelSettings(provider="openai", base_url=f"{server.url}/v1", api_key="sk-app"),
        memory=MemorySettings(
            embedding_provider="openai", embedding_model="e5", embedding_dimensions=4
        ),
    )
    assert isinstance(make_model(config), OpenAIChatModel)
    runtime = await open_runtime(config)
    try:
        events = [
            e async for e in runtime.agent.turn("Remember that I live in Lisbon", runtime.session)
        ]
        assert isinstance(events[-1], TurnFinished)
        assert events[-1].stats.num_ctx == 4096  # the server's context, smaller than ours
        assert not next(e for e in events if isinstance(e, ToolCallFinished)).error
        assert "Lisbon" in "".join(e.text for e in events if isinstance(e, TextDelta))
        assert (await runtime.memory.get("user_city")) is not None
        assert runtime.embeddings == "embeddings: e5"
        keys = {h.get("Authorization") for path, h in server.headers if path.startswith("/v1/")}
        assert keys == {"Bearer sk-app"}
    finally:
        await runtime.memory.close()


async def test_openai_embedder(server: FakeOllama) -> None:
    server.routes["/v1/embeddings"] = lambda body: Reply(
        body={
            "data": [{"index": 1, "embedding": [0.0, 2.0]}, {"index": 0, "embedding": [3.0, 4.0]}]
        }
    )
    embedder = OpenAIEmbedder("e5", 2, f"{server.url}/v1", api_key="k")
    vectors = await embedder.embed(["first", "second"])
    assert np.allclose(vectors, [[0.6, 0.8], [0.0, 1.0]])
    # e5 expects "passage: " before stored texts and "query: " before questions.
    sent = {"model": "e5", "input": ["passage: first", "passage: second"]}
    assert server.requests[-1] == ("/v1/embeddings", sent)


def test_memory_commands_embed_through_the_openai_server(server: FakeOllama) -> None:
    # The CLI used to build the embedder without model.base_url: nothing could be embedded.
    import json
    import os

    from tests.unit.agent.cli_harness import record, run_cli

    server.routes["/v1/embeddings"] = lambda body: Reply(
        body={
            "data": [
                {"index": i, "embedding": [1.0, float(len(text) % 7)]}
                for i, text in enumerate(body["input"])
            ]
        }
    )
    config = Path(os.environ["MEMCHAT_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        f'[model]\nprovider = "openai"\nbase_url = "{server.url}/v1"\napi_key = "sk-test"\n'
        '[memory]\nembedding_provider = "openai"\nembedding_model = "e5"\n'
        "embedding_dimensions = 2\n",
        encoding="utf-8",
    )
    source = config.parent / "in.jsonl"
    rows = [record("trip", "Kyoto in November"), record("pet", "The dog is Biscuit")]
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    run_cli("memory", "import", str(source)).clean()
    run_cli("memory", "reindex").clean()
    sent = [body["input"] for path, body in server.requests if path == "/v1/embeddings"]
    assert ["passage: Kyoto in November", "passage: The dog is Biscuit"] in sent
    found = run_cli("memory", "search", "Biscuit the dog").clean()
    assert "keyword-only" not in found.out and "pet" in found.out
    # model.api_key reaches the embedder of every command, not only the chat model's.
    sent_keys = {h.get("Authorization") for path, h in server.headers if path == "/v1/embeddings"}
    assert sent_keys == {"Bearer sk-test"}
