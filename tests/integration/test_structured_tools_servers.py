"""Structured-mode turns through the real clients against the fake Ollama and OpenAI servers."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from agent.config import Config, ModelSettings
from agent.events import TextDelta, ToolCallFinished, ToolCallStarted, TurnEvent, TurnFinished
from agent.model import ChatModel
from agent.ollama_model import OllamaChatModel
from agent.openai_model import OpenAIChatModel
from agent.sessions import SessionStore
from agent.turn import Agent
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from tests.helpers.fake_ollama import (
    FakeOllama,
    Reply,
    StreamReply,
    chat_lines,
    completion_events,
    show_body,
)

pytestmark = pytest.mark.usefixtures("allow_model_requests")

STORE = json.dumps(
    {"tool": "memory_store", "arguments": {"key": "user_city", "content": "Ana lives in Lisbon"}}
)
ANSWER = json.dumps({"answer": "Noted: you live in Lisbon \u2014 I'll remember."})


def reply_for(messages: list[dict[str, Any]]) -> str:
    """A tool call first; once its result is in the conversation, the answer."""
    return ANSWER if "Tool result (memory_store)" in messages[-1]["content"] else STORE


def openai_model(server: FakeOllama) -> OpenAIChatModel:
    server.routes["/v1/models"] = lambda body: Reply(
        body={"object": "list", "data": [{"id": "smollm2", "object": "model"}]}
    )
    return OpenAIChatModel("smollm2", f"{server.url}/v1")


@pytest.fixture
async def memory(tmp_path: Path) -> AsyncIterator[SqliteMemory]:
    store = await SqliteMemory.open(
        tmp_path / "brain.db", MemorySettings(embedding_provider="none")
    )
    yield store
    await store.close()


async def run_turn(
    model: ChatModel, memory: SqliteMemory, tmp_path: Path, **model_settings: Any
) -> list[TurnEvent]:
    config = Config(
        memory=MemorySettings(embedding_provider="none"), model=ModelSettings(**model_settings)
    )
    agent = Agent(model, memory, config, SessionStore(tmp_path / "sessions"))
    session = agent.sessions.new()
    return [e async for e in agent.turn("Remember that I live in Lisbon", session)]


def check_turn(events: list[TurnEvent], bodies: list[dict[str, Any]]) -> None:
    started = next(e for e in events if isinstance(e, ToolCallStarted))
    assert started.name == "memory_store"
    assert not next(e for e in events if isinstance(e, ToolCallFinished)).error
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text == "Noted: you live in Lisbon \u2014 I'll remember."
    assert isinstance(events[-1], TurnFinished)
    assert len(bodies) == 2
    for body in bodies:
        assert not body.get("tools")
        assert all(m["role"] in ("system", "user", "assistant") for m in body["messages"])


async def test_ollama_structured_turn(
    fake_ollama: FakeOllama, memory: SqliteMemory, tmp_path: Path
) -> None:
    # gemma3 lists no "tools" capability: auto mode goes structured with no configuration.
    fake_ollama.routes["/api/show"] = lambda body: Reply(body=show_body(["completion", "vision"]))
    fake_ollama.routes["/api/chat"] = lambda body: StreamReply(
        chat_lines(reply_for(body["messages"]), model="gemma3:4b")
    )
    model = OllamaChatModel("gemma3:4b", fake_ollama.url)
    events = await run_turn(model, memory, tmp_path)
    bodies = [body for path, body in fake_ollama.requests if path == "/api/chat"]
    check_turn(events, bodies)
    schema = bodies[0]["format"]
    assert schema["anyOf"][1]["properties"]["tool"] == {"enum": ["memory_store"]}
    assert (await memory.get("user_city")) is not None


async def test_openai_structured_turn(
    fake_ollama: FakeOllama, memory: SqliteMemory, tmp_path: Path
) -> None:
    fake_ollama.routes["/v1/chat/completions"] = lambda body: StreamReply(
        completion_events(reply_for(body["messages"])), sse=True
    )
    model = openai_model(fake_ollama)
    events = await run_turn(model, memory, tmp_path, tool_mode="structured")
    bodies = [body for path, body in fake_ollama.requests if path == "/v1/chat/completions"]
    check_turn(events, bodies)
    response_format = bodies[0]["response_format"]
    assert response_format["type"] == "json_schema"
    assert len(response_format["json_schema"]["schema"]["anyOf"]) == 5
    assert (await memory.get("user_city")) is not None


@pytest.mark.parametrize(
    ("first", "error"),
    [
        ('{"tool": "memory_store", "arguments": {"key": "user_ci', "not valid JSON"),
        ('{"tool": "memory_store" "arguments"}', "not valid JSON"),
        (json.dumps({"tool": "send_email", "arguments": {"to": "x"}}), "unknown tool"),
    ],
    ids=["cut mid-JSON", "malformed", "unknown tool"],
)
async def test_openai_broken_replies_go_back_as_errors(
    fake_ollama: FakeOllama, memory: SqliteMemory, tmp_path: Path, first: str, error: str
) -> None:
    def route(body: dict[str, Any]) -> StreamReply:
        last = body["messages"][-1]["content"]
        text = ANSWER if last.startswith("Tool error") else first
        return StreamReply(completion_events(text), sse=True)

    fake_ollama.routes["/v1/chat/completions"] = route
    model = openai_model(fake_ollama)
    events = await run_turn(model, memory, tmp_path, tool_mode="structured")
    finished = next(e for e in events if isinstance(e, ToolCallFinished))
    assert finished.error and error in finished.result
    assert "I'll remember" in "".join(e.text for e in events if isinstance(e, TextDelta))
    assert await memory.get("user_city") is None
