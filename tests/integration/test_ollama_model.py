"""`OllamaChatModel` through the real `ollama` client against a fake Ollama server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from agent.messages import ChatMessage, ToolCall
from agent.model import (
    BlockedModelRequestError,
    ChatOptions,
    ModelChunk,
    ModelError,
    ModelNotFoundError,
    ModelTimeoutError,
    ServerUnavailableError,
    StreamCutError,
    ToolsUnsupportedError,
)
from agent.ollama_model import OllamaChatModel
from agent.tools import MemoryTools
from memory.none_backend import NoneMemory
from tests.helpers import network_guard
from tests.helpers.fake_ollama import FakeOllama, Reply, StreamReply, chat_lines, show_body

pytestmark = pytest.mark.usefixtures("allow_model_requests")


@pytest.fixture
def server(fake_ollama: FakeOllama) -> Iterator[FakeOllama]:
    fake_ollama.routes["/api/show"] = lambda body: Reply(
        body=show_body(["completion", "tools", "thinking"], 40960)
    )
    yield fake_ollama


def model(server: FakeOllama, **kwargs: float) -> OllamaChatModel:
    return OllamaChatModel("qwen3:8b", server.url, **kwargs)


async def collect(chat: OllamaChatModel, **kwargs: object) -> list[ModelChunk]:
    messages = [
        ChatMessage(role="system", content="be brief"),
        ChatMessage(role="user", content="hi"),
    ]
    return [chunk async for chunk in chat.chat(messages, **kwargs)]  # type: ignore[arg-type]


async def test_describe_reads_capabilities_and_context(server: FakeOllama) -> None:
    chat = model(server)
    info = await chat.describe()
    assert info.supports_tools and info.supports_thinking and info.context_length == 40960
    assert chat.supports_thinking
    assert server.requests[-1] == ("/api/show", {"model": "qwen3:8b"})


async def test_streaming_text_and_thinking_with_stats(server: FakeOllama) -> None:
    server.routes["/api/chat"] = lambda body: StreamReply(
        chat_lines("Hello from the fake server!", thinking="Hmm, greet back.")
    )
    chat = model(server)
    await chat.describe()
    chunks = await collect(
        chat,
        options=ChatOptions(num_ctx=4096, temperature=0.2, seed=7, keep_alive="30m", think=True),
    )
    assert "".join(c.text for c in chunks) == "Hello from the fake server!"
    assert "".join(c.thinking for c in chunks) == "Hmm, greet back."
    final = chunks[-1]
    assert final.done and final.stats is not None
    assert final.stats.prompt_tokens == 812 and final.stats.completion_tokens == 42
    assert final.stats.eval_seconds == pytest.approx(0.7)
    assert final.stats.load_seconds == pytest.approx(0.12)
    path, sent = server.requests[-1]
    assert path == "/api/chat"
    assert sent["model"] == "qwen3:8b" and sent["stream"] is True
    assert sent["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hi"},
    ]
    assert sent["options"] == {"num_ctx": 4096, "temperature": 0.2, "seed": 7}
    assert sent["keep_alive"] == "30m" and sent["think"] is True


async def test_think_is_not_sent_to_models_that_cannot_think(fake_ollama: FakeOllama) -> None:
    fake_ollama.routes["/api/show"] = lambda body: Reply(body=show_body(["completion", "tools"]))
    fake_ollama.routes["/api/chat"] = lambda body: StreamReply(chat_lines("ok"))
    chat = model(fake_ollama)
    await chat.describe()
    await collect(chat, options=ChatOptions(think=True))
    assert "think" not in fake_ollama.requests[-1][1]


async def test_tool_calls_arrive_with_object_arguments_and_tools_are_sent(
    server: FakeOllama,
) -> None:
    server.routes["/api/chat"] = lambda body: StreamReply(
        chat_lines(
            tool_calls=[
                {"name": "memory_store", "arguments": {"key": "city", "content": "Lisbon"}},
                {"name": "memory_recall", "arguments": {"query": "city"}},
            ]
        )
    )
    chat = model(server)
    tools = MemoryTools(NoneMemory()).specs()
    chunks = await collect(chat, tools=tools)
    calls = [call for chunk in chunks for call in chunk.tool_calls]
    assert [(c.name, c.arguments) for c in calls] == [
        ("memory_store", {"key": "city", "content": "Lisbon"}),
        ("memory_recall", {"query": "city"}),
    ]
    assert len({c.id for c in calls}) == 2
    sent_tools = server.requests[-1][1]["tools"]
    assert [t["function"]["name"] for t in sent_tools] == [
        "memory_store",
        "memory_recall",
        "memory_forget",
        "memory_list",
    ]
    store = sent_tools[0]["function"]["parameters"]
    assert store["required"] == ["key", "content"]
    assert set(store["properties"]) == {"key", "content", "category", "importance"}


async def test_tool_results_and_calls_are_sent_back_in_ollamas_format(
    server: FakeOllama,
) -> None:
    server.routes["/api/chat"] = lambda body: StreamReply(chat_lines("done"))
    chat = model(server)
    history = [
        ChatMessage(role="user", content="remember Lisbon"),
        ChatMessage(
            role="assistant",
            tool_calls=[
                ToolCall(
                    id="c1", name="memory_store", arguments={"key": "city", "content": "Lisbon"}
                ),
                ToolCall(id="c2", name="memory_recall", arguments="not an object"),
            ],
        ),
        ChatMessage(
            role="tool", content='{"stored": {}}', tool_name="memory_store", tool_call_id="c1"
        ),
    ]
    [chunk async for chunk in chat.chat(history)]
    sent = server.requests[-1][1]["messages"]
    assert sent[1]["tool_calls"] == [
        {"function": {"name": "memory_store", "arguments": {"key": "city", "content": "Lisbon"}}},
        {"function": {"name": "memory_recall", "arguments": {"_raw": "not an object"}}},
    ]
    assert sent[2] == {"role": "tool", "content": '{"stored": {}}', "tool_name": "memory_store"}


async def test_model_not_found(server: FakeOllama) -> None:
    server.routes["/api/chat"] = lambda body: Reply(
        404, {"error": 'model "qwen3:8b" not found, try pulling it first'}
    )
    with pytest.raises(ModelNotFoundError, match="ollama pull qwen3:8b"):
        await collect(model(server))


async def test_model_without_tool_support(server: FakeOllama) -> None:
    server.routes["/api/chat"] = lambda body: Reply(
        400, {"error": "registry.ollama.ai/library/gemma:2b does not support tools"}
    )
    with pytest.raises(ToolsUnsupportedError):
        await collect(model(server), tools=MemoryTools(NoneMemory()).specs())


async def test_other_server_errors_keep_their_message(server: FakeOllama) -> None:
    server.routes["/api/chat"] = lambda body: Reply(500, {"error": "out of memory"})
    with pytest.raises(ModelError, match="out of memory"):
        await collect(model(server))


async def test_tool_arguments_that_are_no_object_are_a_readable_error(
    server: FakeOllama,
) -> None:
    """Found by an adversary: arguments sent as a JSON string (an OpenAI-style server)
    failed the turn with the library's whole validation text."""
    server.routes["/api/chat"] = lambda body: StreamReply(
        chat_lines(tool_calls=[{"name": "memory_recall", "arguments": '{"query": "city"}'}])
    )
    with pytest.raises(ModelError) as info:
        await collect(model(server), tools=MemoryTools(NoneMemory()).specs())
    said = str(info.value)
    assert "is not in Ollama's format" in said and "arguments" in said
    assert "pydantic" not in said and "model.provider" in said


async def test_error_line_inside_the_stream(server: FakeOllama) -> None:
    server.routes["/api/chat"] = lambda body: StreamReply(
        chat_lines("partial")[:1] + [{"error": "model runner crashed"}]
    )
    with pytest.raises(ModelError, match="model runner crashed"):
        await collect(model(server))


async def test_connection_refused(unused_tcp_port: int) -> None:
    network_guard.allowed_ports.add(unused_tcp_port)
    try:
        chat = OllamaChatModel("qwen3:8b", f"http://127.0.0.1:{unused_tcp_port}")
        with pytest.raises(ServerUnavailableError, match=f"127.0.0.1:{unused_tcp_port}") as info:
            await collect(chat)
        assert "ollama serve" in str(info.value)
    finally:
        network_guard.allowed_ports.discard(unused_tcp_port)


async def test_stream_cut_mid_reply(server: FakeOllama) -> None:
    server.routes["/api/chat"] = lambda body: StreamReply(
        chat_lines("a long reply that is cut"), cut_after=2
    )
    chat = model(server)
    received: list[str] = []
    with pytest.raises(StreamCutError):
        async for chunk in chat.chat([ChatMessage(role="user", content="hi")]):
            received.append(chunk.text)
    assert "".join(received) == "a long reply"


async def test_stream_that_ends_without_done(server: FakeOllama) -> None:
    server.routes["/api/chat"] = lambda body: StreamReply(chat_lines("unfinished")[:-1])
    with pytest.raises(StreamCutError, match="ended before the model finished"):
        await collect(model(server))


async def test_malformed_line_is_a_cut_stream(server: FakeOllama) -> None:
    server.routes["/api/chat"] = lambda body: StreamReply(raw_lines=['{"message": {broken'])
    with pytest.raises(StreamCutError):
        await collect(model(server))


async def test_slow_server_times_out(server: FakeOllama) -> None:
    server.routes["/api/chat"] = lambda body: StreamReply(chat_lines("late"), delay_s=1.0)
    with pytest.raises(ModelTimeoutError, match="timed out"):
        await collect(model(server, read_timeout_s=0.2))


async def test_list_models_and_running_models(server: FakeOllama) -> None:
    server.routes["/api/tags"] = lambda body: Reply(
        body={
            "models": [
                {"model": "qwen3:8b", "name": "qwen3:8b", "size": 5_200_000_000},
                {"model": "llama3.1:8b", "name": "llama3.1:8b", "size": 4_900_000_000},
            ]
        }
    )
    server.routes["/api/ps"] = lambda body: Reply(
        body={
            "models": [
                {
                    "model": "qwen3:8b",
                    "name": "qwen3:8b",
                    "size": 6_000_000_000,
                    "size_vram": 4_500_000_000,
                    "expires_at": "2026-11-30T10:00:00Z",
                },
            ]
        }
    )
    chat = model(server)
    assert await chat.list_models() == ["llama3.1:8b", "qwen3:8b"]
    [running] = await chat.running()
    assert running.name == "qwen3:8b" and running.gpu_share == pytest.approx(0.75)


async def test_installed_models_with_their_capabilities(server: FakeOllama) -> None:
    server.routes["/api/tags"] = lambda body: Reply(
        body={
            "models": [
                {"model": "qwen3:8b", "name": "qwen3:8b", "size": 5_200_000_000},
                {"model": "gemma3:4b", "name": "gemma3:4b", "size": 3_300_000_000},
                {"model": "gone:1b", "name": "gone:1b", "size": 800_000_000},
            ]
        }
    )
    shown = {
        "qwen3:8b": show_body(["completion", "tools", "thinking"], 40960),
        "gemma3:4b": show_body(["completion", "vision"], 131072),
    }

    def show(body: dict[str, Any]) -> Reply:
        name = body.get("model") or body.get("name")
        if name not in shown:
            return Reply(404, {"error": f"model '{name}' not found"})
        return Reply(body=shown[name])

    server.routes["/api/show"] = show
    described = await model(server).describe_installed()
    assert [m.label() for m in described] == [
        "gemma3:4b  (3.3 GB, vision, tools by JSON, not native, up to 128k context)",
        "gone:1b  (800 MB)",
        "qwen3:8b  (5.2 GB, tools, thinking, up to 40k context)",
    ]
    assert described[2].capabilities == frozenset({"completion", "tools", "thinking"})


async def test_a_pull_of_a_name_the_server_does_not_know_says_so(server: FakeOllama) -> None:
    """Found by a new user: a failed pull said "not installed, pull it"."""
    server.routes["/api/pull"] = lambda body: Reply(404, {"error": "model not found"})
    chat = model(server)
    with pytest.raises(ModelError) as failed:
        [p async for p in chat.pull("no-such-model:1b")]
    assert not isinstance(failed.value, ModelNotFoundError)
    assert "found nothing to download under the name 'no-such-model:1b'" in str(failed.value)


async def test_pull_streams_progress(server: FakeOllama) -> None:
    server.routes["/api/pull"] = lambda body: StreamReply(
        [
            {"status": "pulling manifest"},
            {
                "status": "pulling 6a0746a1ec1a",
                "digest": "sha256:6a07",
                "total": 1000,
                "completed": 250,
            },
            {
                "status": "pulling 6a0746a1ec1a",
                "digest": "sha256:6a07",
                "total": 1000,
                "completed": 1000,
            },
            {"status": "success"},
        ]
    )
    chat = model(server)
    progress = [p async for p in chat.pull("llama3.1:8b")]
    assert [p.status for p in progress][0] == "pulling manifest"
    assert [(p.completed, p.total) for p in progress[1:3]] == [(250, 1000), (1000, 1000)]
    assert progress[-1].status == "success"
    assert server.requests[-1] == (
        "/api/pull",
        {"model": "llama3.1:8b", "insecure": False, "stream": True},
    )


async def test_requests_are_blocked_unless_a_test_opts_in(
    server: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    import agent.model

    monkeypatch.setattr(agent.model, "ALLOW_MODEL_REQUESTS", False)
    with pytest.raises(BlockedModelRequestError):
        await collect(model(server))
    assert server.requests == []
