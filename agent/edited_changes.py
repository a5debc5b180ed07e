"""The facts an edited message had changed by what it said: back as they were.

A message saying a fact changed updates it (`agent.said_changes`). Found by an adversary:
"I moved to Lisbon", edited into "What if I moved to Lisbon?", left the home fact saying
Lisbon; the edit replaces the message, so what it alone changed is undone, and the new
text says anew what it changes. An edit nothing answered can be undone (`reapply`).
"""

from __future__ import annotations

import contextlib

from agent.said_changes import as_a_fact, claimed
from agent.sessions import Session
from memory.entry import MemoryEntry, MemorySource
from memory.errors import MemoryStoreError
from memory.protocol import Memory

_FACTS_READ = 500


async def undo_said_changes(
    memory: Memory, namespace: str, session: Session, old_text: str, *, taken_back: bool = False
) -> list[MemoryEntry]:
    """Put back the facts `old_text` updated; the updates, now history.

    Only an update made from that message (its words, written by the auto-save) and said
    by no message the conversation still holds: but for the message `taken_back` by the
    next one (`agent.taken_back`), which the conversation holds all the same.
    """
    still_said = " ".join(m.content for m in session.messages if m.role == "user")
    made = {as_a_fact(clause) for _predicate, clause in claimed(old_text)}
    if not taken_back:
        made = {text for text in made if text.casefold() not in still_said.casefold()}
    if not made:
        return []
    undone: list[MemoryEntry] = []
    with contextlib.suppress(MemoryStoreError):
        facts = await memory.list(namespace=namespace, category="core", limit=_FACTS_READ)
        for fact in facts:
            if fact.source != MemorySource.AUTOSAVE.value or fact.content not in made:
                continue
            before = await _replaced_by(memory, fact)
            if before is not None:
                await memory.restore(before.id)
                undone.append(fact)
    return undone


async def _replaced_by(memory: Memory, fact: MemoryEntry) -> MemoryEntry | None:
    """The newest fact `fact` replaced (not a message it was made of)."""
    history = await memory.list(
        namespace=fact.namespace, category="core", include_superseded=True, limit=_FACTS_READ
    )
    replaced = [e for e in history if e.superseded_by == fact.id]
    return max(replaced, key=lambda e: e.timestamp, default=None)


async def reapply(memory: Memory, undone: list[MemoryEntry]) -> None:
    """The updates `undo_said_changes` undid, in effect again (the edit was undone)."""
    for fact in undone:
        with contextlib.suppress(MemoryStoreError):
            await memory.restore(fact.id)
