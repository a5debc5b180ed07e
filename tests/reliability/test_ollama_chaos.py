"""200 turns against a server that refuses, stalls, cuts streams and garbles tool calls."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

from agent.config import Config
from agent.events import TurnFailed, TurnFinished
from agent.ollama_model import OllamaChatModel
from agent.sessions import SessionStore
from agent.turn import Agent
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from tests.helpers.fake_ollama import FakeOllama, Reply, StreamReply, chat_lines, show_body

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("allow_model_requests")]

TURNS = 200
BEHAVIOURS = [
    "ok",
    "ok",
    "refuse",
    "stall",
    "cut",
    "garbage",
    "error_line",
    "bad_tool",
    "tool_as_string",
    "unknown_tool",
]


def chaotic(rng: random.Random, seen: dict[str, int]) -> Any:
    def route(body: dict[str, Any]) -> Reply | StreamReply:
        if body["messages"][-1]["role"] == "tool":
            return StreamReply(chat_lines("Handled the tool result."))
        behaviour = rng.choice(BEHAVIOURS)
        seen[behaviour] = seen.get(behaviour, 0) + 1
        if behaviour == "refuse":
            return Reply(503, {"error": "server overloaded"})
        if behaviour == "stall":
            return StreamReply(chat_lines("too late"), delay_s=0.5)
        if behaviour == "cut":
            return StreamReply(chat_lines("this reply is cut off early"), cut_after=2)
        if behaviour == "garbage":
            return StreamReply(raw_lines=['{"message": {"content": "unterminated'])
        if behaviour == "error_line":
            return StreamReply(chat_lines("x")[:1] + [{"error": "runner crashed"}])
        if behaviour == "bad_tool":
            return StreamReply(
                chat_lines(tool_calls=[{"name": "memory_store", "arguments": {"key": 5}}])
            )
        if behaviour == "tool_as_string":
            return StreamReply(
                chat_lines(
                    tool_calls=[
                        {"name": "memory_recall", "arguments": {"query": {"nested": ["junk"]}}}
                    ]
                )
            )
        if behaviour == "unknown_tool":
            return StreamReply(chat_lines(tool_calls=[{"name": "rm_rf", "arguments": {}}]))
        return StreamReply(chat_lines("A normal, complete answer."))

    return route


async def test_two_hundred_chaotic_turns(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    rng = random.Random(2026)
    seen: dict[str, int] = {}
    fake_ollama.routes["/api/show"] = lambda body: Reply(body=show_body(["completion", "tools"]))
    fake_ollama.routes["/api/chat"] = chaotic(rng, seen)
    settings = MemorySettings(embedding_provider="none")
    memory = await SqliteMemory.open(tmp_path / "brain.db", settings)
    sessions = SessionStore(tmp_path / "sessions")
    model = OllamaChatModel("qwen3:8b", fake_ollama.url, read_timeout_s=0.15)
    agent = Agent(model, memory, Config(memory=settings), sessions)
    session = sessions.new()

    lag = 0.0
    ticks = 0
    running = True

    async def watch_loop() -> None:
        nonlocal lag, ticks
        while running:
            started = time.monotonic()
            await asyncio.sleep(0.01)
            ticks += 1
            lag = max(lag, time.monotonic() - started - 0.01)

    watcher = asyncio.create_task(watch_loop())
    endings: dict[str, int] = {}
    blocked_timeouts = 0
    try:
        for number in range(TURNS):
            ticks_before = ticks
            events = [e async for e in agent.turn(f"chaos message number {number}", session)]
            last = events[-1]
            assert isinstance(last, TurnFinished | TurnFailed), last
            key = last.error if isinstance(last, TurnFailed) else last.stopped_reason
            endings[key] = endings.get(key, 0) + 1
            # A turn that waited out the 0.15 s read timeout on the loop let the watcher's
            # 0.01 s timer fire first (asyncio runs timers in deadline order): no tick means
            # the wait blocked the thread. An order, not a time: it holds on a busy machine.
            if key == "timeout" and ticks == ticks_before:
                blocked_timeouts += 1
    finally:
        running = False
        await watcher
        await memory.close()

    transcript = [m.content for m in sessions.load(session.id).messages if m.role == "user"]
    assert transcript == [f"chaos message number {n}" for n in range(TURNS)]
    reopened = await SqliteMemory.open(tmp_path / "brain.db", settings)
    try:
        saved = await reopened.list(category="conversation", limit=1000)
        assert sorted(e.content for e in saved) == sorted(transcript)
    finally:
        await reopened.close()
    assert set(seen) == set(BEHAVIOURS)
    assert {"done", "timeout", "stream_cut", "model_error"} <= set(endings)
    assert blocked_timeouts == 0, f"{blocked_timeouts} timed-out turns blocked the event loop"
    print(f"\nchaos: behaviours {seen}, endings {endings}, worst loop lag {lag * 1000:.0f} ms")
