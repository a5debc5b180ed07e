"""What memory contributed to each turn, kept in the session file by reference.

Found by a new user: a reopened chat showed none of the ◆ lines that say which memories a
reply was given, and why. The file keeps each memory's id, key and scores, not its text:
the text is read from the store when the chat is shown, so a forgotten memory does not
live on in chat files (it shows as forgotten).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from agent.events import CutMemory, CutReason, MemoryRecalled
from agent.messages import RecalledItem, RecallNote
from memory.entry import MemoryEntry, utc_now
from memory.errors import MemoryStoreError

if TYPE_CHECKING:
    from memory.protocol import Memory

FORGOTTEN = "(forgotten since)"
"""What a reopened chat shows for a memory no longer stored."""
_REASONS: dict[str, CutReason] = {
    "below floor": "below floor",
    "held back": "held back",
    "budget": "budget",
    "already in conversation": "already in conversation",
    "low confidence": "low confidence",
    "same text as another": "same text as another",
    "a correction of something else": "a correction of something else",
    "secret not asked for": "secret not asked for",
}
"""The reasons a note may give, as `CutMemory` takes them (a hand-edited file: others)."""


def recall_note(event: MemoryRecalled) -> RecallNote:
    """What a recall contributed, by reference, for the session file."""
    items = [
        RecalledItem(id=e.id, key=e.key, category=e.category, scores=e.scores)
        for e in event.injected
    ]
    items += [
        RecalledItem(
            id=c.entry.id,
            key=c.entry.key,
            category=c.entry.category,
            scores=c.entry.scores,
            reason=c.reason,
        )
        for c in event.cut
    ]
    return RecallNote(mode=event.mode, degraded=event.degraded, items=items)


async def recalled_events(
    memory: Memory, notes: Mapping[int, RecallNote]
) -> dict[int, MemoryRecalled]:
    """The notes as the chat shows them, each memory's text read from the store now."""
    wanted = {item.id for note in notes.values() for item in note.items}
    stored: dict[str, MemoryEntry | None] = {}
    for entry_id in wanted:
        try:
            stored[entry_id] = await memory.get_by_id(entry_id)
        except MemoryStoreError:
            stored[entry_id] = None
    return {at: _event(note, stored) for at, note in notes.items()}


def _event(note: RecallNote, stored: Mapping[str, MemoryEntry | None]) -> MemoryRecalled:
    injected: list[MemoryEntry] = []
    cut: list[CutMemory] = []
    now = utc_now()
    for item in note.items:
        found = stored.get(item.id)
        entry = MemoryEntry(
            id=item.id,
            key=item.key,
            content=FORGOTTEN if found is None else found.content,
            category=item.category or (found.category if found else "core"),
            timestamp=now if found is None else found.timestamp,
            updated_at=now if found is None else found.updated_at,
            score=None if item.scores is None else item.scores.fused,
            scores=item.scores,
        )
        reason = None if item.reason is None else _REASONS.get(item.reason)
        if item.reason is None:
            injected.append(entry)
        elif reason is not None:
            cut.append(CutMemory(entry, reason))
    return MemoryRecalled(injected=injected, cut=cut, mode=note.mode, degraded=note.degraded)


def in_shown_order(entries: list[MemoryEntry], changed: Mapping[str, str]) -> list[MemoryEntry]:
    """`entries` as a person reads them: what holds first, then the best match first.

    An older message a later memory changed stood above that memory (a new user); in the
    order the model reads them, "1.000, 0.409, 0.311, 0.311, 1.000" read as no order at all
    (two later new users). The model's own order is left as it is.
    """
    return sorted(entries, key=lambda entry: (entry.id in changed, -(entry.score or 0.0)))
