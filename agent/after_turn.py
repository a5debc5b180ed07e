"""What happens once a reply is saved: procedural memory, consolidation, the turn's figures."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from agent.events import TurnStats
from agent.model import ChunkStats
from agent.redact import redact
from memory.errors import MemoryStoreError
from memory.procedures import ProcedureStep

if TYPE_CHECKING:
    from agent.config import Config
    from agent.messages import ChatMessage
    from agent.sessions import Session
    from memory.entry import MemoryEntry
    from memory.protocol import Memory


async def remember_procedure(
    memory: Memory,
    config: Config,
    user_text: str,
    produced: list[ChatMessage],
    session: Session,
    namespace: str,
) -> MemoryEntry | None:
    """After tool calls that all succeeded, remember how the request was handled."""
    lifecycle = memory.lifecycle
    calls = [call for m in produced if m.role == "assistant" for call in m.tool_calls]
    results = [m for m in produced if m.role == "tool"]
    if (
        lifecycle is None
        or not calls
        or session.incognito
        or not config.memory.procedural_memory
        or any(r.error for r in results)
    ):
        return None
    steps = [
        ProcedureStep(c.name, c.arguments if isinstance(c.arguments, dict) else {}) for c in calls
    ]
    try:
        entry: MemoryEntry | None = await lifecycle.store_procedural(
            redact(user_text)[0], steps, session.id, namespace
        )
    except MemoryStoreError:
        return None
    return entry


class BackgroundConsolidation:
    """Consolidation runs started after replies, and the entries they stored."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[list[MemoryEntry]]] = set()
        self.consolidated: list[MemoryEntry] = []
        """Entries stored by consolidation since the agent started (for the UI)."""

    def start(self, work: Coroutine[Any, Any, list[MemoryEntry]]) -> None:
        """Run `work` in the background; the reply is never kept waiting for it."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[list[MemoryEntry]]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is None:
            self.consolidated.extend(task.result())

    async def drain(self) -> None:
        """Wait until every run has finished (a failed run stores nothing, raises nothing)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def turn_stats(last: ChunkStats | None, rounds: int, started: float, num_ctx: int) -> TurnStats:
    """The figures the status bar shows for a turn, from its last model call."""
    last = last or ChunkStats()
    speed = (
        last.completion_tokens / last.eval_seconds
        if last.eval_seconds and last.completion_tokens
        else None
    )
    return TurnStats(
        prompt_tokens=last.prompt_tokens,
        completion_tokens=last.completion_tokens,
        tokens_per_second=speed,
        context_used=last.prompt_tokens + last.completion_tokens,
        num_ctx=num_ctx,
        duration_s=time.monotonic() - started,
        load_duration_s=last.load_seconds,
        done_reason=last.done_reason,
        tool_rounds=rounds,
    )
