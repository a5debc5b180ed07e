"""What happens once a reply is saved: procedural memory, consolidation, the turn's figures."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from agent.events import TurnStats
from agent.model import ChunkStats
from agent.redact import redact
from agent.tools import WRITING_TOOLS
from memory.errors import MemoryStoreError
from memory.procedures import ProcedureStep
from memory.text import analyze, distinct_terms

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
    """After tool calls that all succeeded, remember how the request was handled.

    Not when a call stored or forgot a memory: the request then states the fact (or names
    it), and a procedure quoting it would keep the fact in recall after the user corrects
    or forgets it (found by a new user).
    """
    lifecycle = memory.lifecycle
    calls = [call for m in produced if m.role == "assistant" for call in m.tool_calls]
    results = [m for m in produced if m.role == "tool"]
    if (
        lifecycle is None
        or not calls
        or session.incognito
        or not config.memory.procedural_memory
        or any(r.error for r in results)
        or any(call.name in WRITING_TOOLS for call in calls)
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


FOLDED_SHARE = 0.6
"""A message is kept as the history of facts its turn stored when they hold this share of
its words (the words that only ask to remember left out)."""

_ASKING = ("remember", "note", "save", "store", "keep", "mind", "know", "please", "that")


async def fold_into_facts(
    memory: Memory, message: MemoryEntry | None, facts: list[MemoryEntry]
) -> MemoryEntry | None:
    """Make the auto-saved `message` history of the fact its turn stored from it.

    "Remember my dentist is on Thursday" stored twice, as the message and as the model's
    fact, kept the old day in recall after the fact was corrected, and after it was
    forgotten. Superseded by the fact, the message is recalled no more, stays restorable
    in the fact's history, and goes when the fact is forgotten. A message saying more than
    its facts hold stays as it is. Returns the fact it now belongs to, if any.
    """
    if message is None or not facts or message.superseded_by is not None:
        return None
    asking = {term for word in _ASKING for term in analyze(word)}
    words = [term for term in distinct_terms(message.content) if term not in asking]
    if not words:
        return None
    held = [set(distinct_terms(f"{fact.key} {fact.content}")) for fact in facts]
    covered = sum(any(term in terms for terms in held) for term in words)
    if covered < FOLDED_SHARE * len(words):
        return None
    best = max(range(len(facts)), key=lambda i: sum(term in held[i] for term in words))
    fact = facts[best]
    if fact.namespace != message.namespace:
        return None
    try:
        await memory.supersede([message.id], fact.id)
    except MemoryStoreError:
        return None  # the fact was forgotten again in the same turn, or the store refused
    return fact


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
