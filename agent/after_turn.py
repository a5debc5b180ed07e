"""What happens once a reply is saved: procedural memory, consolidation, the turn's figures."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Coroutine
from functools import cache
from typing import TYPE_CHECKING, Any

from agent.events import TurnStats
from agent.model import ChunkStats
from agent.redact import redact
from agent.tools import WRITING_TOOLS
from agent.turn_state import key_stored
from memory.errors import MemoryStoreError
from memory.lazy_patterns import lazy_compile
from memory.procedures import ProcedureStep
from memory.questions import only_asks
from memory.text import analyze, distinct_terms

if TYPE_CHECKING:
    from agent.config import Config
    from agent.messages import ChatMessage
    from agent.sessions import Session
    from memory.entry import MemoryEntry
    from memory.protocol import Memory


_ASKS_TO_FORGET = lazy_compile(
    r"(?i)\b(?:forget|delete|remove|erase|wipe|unlearn|esquece|esque[çc]a|esquecer|apaga|"
    r"olvida|olv[ií]date|borra|vergiss|l(?:ö|oe)sch|oublie|efface|dimentica|cancella)\w*\b"
    r"|\bshould(?:n['\u2019]?t| not)\s+have\s+(?:told|shared|said|sent|given)\b"
    r"|\b(?:don['\u2019]?t|do\s+not)\s+(?:remember|keep|save|store)\b"
    # "pretend I never said that about Tom", "I regret telling you my salary", "scratch what
    # I said about the vet" (a second adversary: each kept as a procedure).
    r"|\bnever\s+(?:said|told|mentioned)\b|\bregret\s+(?:telling|saying|sharing|mentioning)\b"
    r"|\b(?:scratch|disregard|ignore|unsay|take\s+back)\s+(?:that|this|it|what\s+i)\b"
)
"""A request to forget: its procedure would keep in recall the words of what the user wanted
gone ("esquece what i said about the -80 alarm panel, i shouldn't have shared that" was kept
as a procedure when the model only searched: a new user, a biologist)."""


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
    or forgets it (found by a new user). Nor when the request asks to forget, whatever the
    model did (`_ASKS_TO_FORGET`).
    """
    lifecycle = memory.lifecycle
    calls = [call for m in produced if m.role == "assistant" for call in m.tool_calls]
    results = [m for m in produced if m.role == "tool"]
    if (
        lifecycle is None
        or not calls
        or _ASKS_TO_FORGET.search(user_text)
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


_ASKING = ("remember", "note", "save", "store", "keep", "mind", "know", "please", "that", "this")


@cache
def _asking_terms() -> frozenset[str]:
    return frozenset(term for word in _ASKING for term in analyze(word))


_REDACTED = lazy_compile(r"\[REDACTED:[^\]]*\]")


def _unredacted(text: str) -> str:
    """The message without its `[REDACTED:kind]` marks, which stand for what was hidden.

    Auto-save hides a secret the model's fact may hold as said: "my PIN is [REDACTED:pin]"
    never folded into "My PIN is 4321", so it was still recalled after the fact was
    forgotten (found by an adversary).
    """
    return _REDACTED.sub(" ", text)


def _own_words(text: str) -> list[str]:
    return [term for term in distinct_terms(_unredacted(text)) if term not in _asking_terms()]


def _digits(text: str) -> set[str]:
    """The numbers a text says, however written ("9am" and "9 AM", "1,000" and "1000")."""
    return set(re.findall(r"\d+", re.sub(r"(?<=\d)[,.'\u2009\u202f](?=\d{3}\b)", "", text)))


def _holds(fact: MemoryEntry, message: str, words: list[str]) -> bool:
    """Whether `fact` says everything `message` says: each of its words, each number.

    Every word, not most: "allergic to peanuts and shellfish" stored as "allergic to
    peanuts" hid "shellfish" from recall (found by an adversary).
    """
    said = f"{fact.key} {fact.content}"
    held = set(distinct_terms(said))
    # A word with a digit is judged with the message's numbers, read whole: word by
    # word, "1,250" is "1" and "250", which a fact's "1250" does not hold.
    return all(term in held or any(c.isdigit() for c in term) for term in words) and (
        _digits(_unredacted(message)) <= _digits(said)
    )


async def _said_before(
    memory: Memory, message: MemoryEntry | None, session_id: str, namespace: str
) -> MemoryEntry | None:
    """The last message auto-saved in the session before `message`, if still in effect."""
    recent = await memory.list(
        namespace=namespace,
        session_id=session_id,
        prefix=f"conversation/{session_id}/",
        order="recent",
        limit=2,
    )
    skip = None if message is None else message.id
    return next((entry for entry in recent if entry.id != skip), None)


async def fold_into_facts(
    memory: Memory,
    message: MemoryEntry | None,
    facts: list[MemoryEntry],
    *,
    session_id: str,
    namespace: str,
) -> MemoryEntry | None:
    """Make the auto-saved `message` history of the fact its turn stored from it.

    "Remember my dentist is on Thursday at 9" stored twice, as the message and as the model's
    fact, kept the old day in recall after the fact was corrected, and after it was
    forgotten. Superseded by the fact, the message is recalled no more, stays restorable
    in the fact's history, and goes when the fact is forgotten. A message saying anything
    one fact does not (a word, a number) stays as it is. "Please remember that" says
    nothing of its own (and "remember it" is too short to be saved): the message before it
    is the one the fact was made from. Returns the fact, if any.
    """
    if not facts:
        return None
    try:
        words = [] if message is None else _own_words(message.content)
        source = message if words else None
        if source is None:  # "remember that" (too short to be saved, or saying nothing)
            source = await _said_before(memory, message, session_id, namespace)
            words = [] if source is None else _own_words(source.content)
        if source is None or source.superseded_by is not None:
            return None
        fact = next(
            (
                f
                for f in reversed(facts)
                if f.namespace == source.namespace and _holds(f, source.content, words)
            ),
            None,
        )
        if not words or fact is None:
            return None
        await memory.supersede([source.id], fact.id)
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


async def fold_the_message_remembered(
    memory: Memory, result: str, *, session_id: str, namespace: str
) -> MemoryEntry | None:
    """After "/remember …", the message before it, if the fact stored holds all it said.

    "I'm vegetarian", then "/remember I'm vegetarian", stayed two memories: the message was
    recalled at 1.000 beside the fact, and forgetting or editing the fact left it (a new
    user). As a fact the model stores from a message (`fold_into_facts`). `result`: the
    memory_store call's result, which names the key stored.
    """
    key = key_stored(result)
    if key is None:
        return None
    try:
        fact = await memory.get(key, namespace)
    except MemoryStoreError:
        return None
    if fact is None:
        return None
    try:
        said = await _said_before(memory, None, session_id, namespace)
    except MemoryStoreError:
        return None
    if said is None or only_asks(said.content):
        # A question is no history of the fact that answers it: "Which drink is my
        # favourite?", then "/remember My favourite drink is coffee".
        return None
    return await fold_into_facts(memory, said, [fact], session_id=session_id, namespace=namespace)
