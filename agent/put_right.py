"""A recalled memory that a later correction puts right is shown so, whatever it gives.

Found by an adversary: "My gym locker is number 42", then "no wait, it's 24"; "I take
metoprolol 50mg every morning", then "actually it's 100mg, not 50". The correction names
nothing of what it corrects, so no rule of values or of days read it, and "what's my
locker number?" gave 42 alone, unmarked. A correction that names nothing is read against
the message said just before it, or a fact kept between (`memory.corrections`); a day put
right is the events' own (`agent.events_moved`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent.change_notes import kept_as_is, saying, written
from memory.corrections import the_ones_corrected
from memory.errors import MemoryStoreError

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from memory.protocol import Memory

READ = 200
"""The newest memories looked through for a correction of a recalled one."""


async def newest_memories(memory: Memory, namespace: str) -> list[MemoryEntry]:
    """The newest memories, history too (a message made a fact is corrected in the fact)."""
    try:
        return await memory.list(namespace=namespace, limit=READ, include_superseded=True)
    except MemoryStoreError:
        return []


def put_right(recalled: list[MemoryEntry], newest: list[MemoryEntry]) -> dict[str, str]:
    """Each recalled memory's id → a note naming the later correction that puts it right."""
    corrects = the_ones_corrected(newest)
    if not corrects:
        return {}
    by_id = {entry.id: entry for entry in newest}
    notes: dict[str, str] = {}
    for correction_id, corrected_id in corrects.items():
        correction = by_id.get(correction_id)
        corrected = next((e for e in recalled if e.id == corrected_id), None)
        if correction is None or corrected is None or corrected.pinned or kept_as_is(corrected):
            continue
        if written(correction) <= written(corrected):
            continue
        latest = notes.get(corrected.id)
        if latest is None or written(by_id[latest]) < written(correction):
            notes[corrected.id] = correction.id
    contents = {entry.id: entry.content for entry in recalled}
    return {
        entry_id: f"since changed: {saying(by_id[correction_id], contents[entry_id])}"
        for entry_id, correction_id in notes.items()
    }
