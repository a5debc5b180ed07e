"""One real turn: the agent, the Ollama client, a fake server and a real store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.config import Config
from agent.events import MemoryRecalled, TextDelta, ToolCallFinished, TurnFailed, TurnFinished
from agent.ollama_model import OllamaChatModel
from agent.sessions import SessionStore
from agent.turn import Agent
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from tests.helpers.fake_ollama import FakeOllama, Reply, StreamReply, chat_lines, show_body

pytestmark = pytest.mark.usefixtures("allow_model_requests")


def scripted_chat(body: dict[str, Any]) -> StreamReply:
    if body["messages"][-1]["role"] == "tool":
        return StreamReply(chat_lines("Got it: you live in Lisbon, and I'll remember that."))
    return StreamReply(
        chat_lines(
            tool_calls=[
                {
                    "name": "memory_store",
                    "arguments": {"key": "user_city", "content": "The user lives in Lisbon"},
                }
            ]
        )
    )


async def test_a_turn_with_a_tool_call_end_to_end(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    fake_ollama.routes["/api/show"] = lambda body: Reply(body=show_body(["completion", "tools"]))
    fake_ollama.routes["/api/chat"] = scripted_chat
    memory = await SqliteMemory.open(
        tmp_path / "brain.db", MemorySettings(embedding_provider="none")
    )
    try:
        await memory.store("user_home", "Ana moved to Lisbon in 2020", "core")
        config = Config(memory=MemorySettings(embedding_provider="none"))
        sessions = SessionStore(tmp_path / "sessions")
        agent = Agent(OllamaChatModel("qwen3:8b", fake_ollama.url), memory, config, sessions)
        session = sessions.new()
        events = [
            e async for e in agent.turn("Hi, it's Ana. Remember that I live in Lisbon.", session)
        ]
        kinds = [e.kind for e in events]
        assert kinds[:5] == [
            "memory_saved",
            "memory_recalled",
            "tool_call_started",
            "memory_saved",
            "tool_call_finished",
        ]
        assert kinds[-1] == "turn_finished"
        recalled = next(e for e in events if isinstance(e, MemoryRecalled))
        assert [e.key for e in recalled.injected] == ["user_home"]
        assert not next(e for e in events if isinstance(e, ToolCallFinished)).error
        assert "Lisbon" in "".join(e.text for e in events if isinstance(e, TextDelta))
        finished = events[-1]
        assert isinstance(finished, TurnFinished)
        assert finished.stats.tokens_per_second == pytest.approx(60.0)
        assert finished.stats.context_used == 854 and finished.stats.num_ctx == 8192
        first, second = [body for path, body in fake_ollama.requests if path == "/api/chat"]
        assert "<memory-context>" in first["messages"][-1]["content"]
        assert second["messages"][-1]["role"] == "tool"
        assert (await memory.get("user_city")) is not None
        on_disk = sessions.load(session.id).messages
        assert [m.role for m in on_disk] == ["user", "assistant", "tool", "assistant"]
        assert "<memory-context>" not in on_disk[0].content
    finally:
        await memory.close()


async def test_dead_ollama_leaves_the_message_saved(tmp_path: Path, unused_tcp_port: int) -> None:
    from tests.helpers import network_guard

    network_guard.allowed_ports.add(unused_tcp_port)
    memory = await SqliteMemory.open(
        tmp_path / "brain.db", MemorySettings(embedding_provider="none")
    )
    try:
        sessions = SessionStore(tmp_path / "sessions")
        agent = Agent(
            OllamaChatModel("qwen3:8b", f"http://127.0.0.1:{unused_tcp_port}"),
            memory,
            Config(),
            sessions,
        )
        session = sessions.new()
        events = [e async for e in agent.turn("Please keep this message safe", session)]
        failed = events[-1]
        assert isinstance(failed, TurnFailed) and failed.error == "server_unavailable"
        assert "ollama serve" in failed.message
        assert sessions.load(session.id).messages[0].content == "Please keep this message safe"
        assert (await memory.count()) == 1
    finally:
        network_guard.allowed_ports.discard(unused_tcp_port)
        await memory.close()
