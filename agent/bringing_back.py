"""A deleted memory brought back from the audit log, after the app that forgot it closed.

Undo forget in the inspector puts back exactly what went (times, history, vectors), but
only until the app closes. The audit log keeps each deleted memory's key, category and
text: enough to bring that one memory back later (found by an adversary: a forget made by
mistake could not be undone after a restart, though the log had the text).
"""

from __future__ import annotations

from dataclasses import dataclass

from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError
from memory.protocol import AuditRecord, Memory

DELETIONS = ("forget", "hygiene")
"""The audit actions that deleted a memory (a merge or an import keeps what it sets aside)."""
_PAGE = 500


@dataclass(frozen=True)
class BroughtBack:
    """The memory back in the store, and what holds its key now (it is that one's history)."""

    entry: MemoryEntry
    holder: MemoryEntry | None


async def deleted_record(memory: Memory, entry_id: str) -> AuditRecord | None:
    """The newest deletion of the memory with id `entry_id` the log holds, or None."""
    lifecycle = memory.lifecycle
    if lifecycle is None:
        return None
    offset = 0
    while True:
        page = await lifecycle.audit_log(limit=_PAGE, offset=offset)
        for record in page:
            if record.entry_id == entry_id and record.action in DELETIONS:
                return record
        if len(page) < _PAGE:
            return None
        offset += _PAGE


async def bring_back(memory: Memory, record: AuditRecord) -> BroughtBack:
    """Put the memory `record` deleted back under its own id, key, category and text.

    Its times are the deletion's: the log keeps no others. When its key is held again, it
    comes back as the holder's history (the holder stays in effect, as after Undo forget).
    """
    if record.action not in DELETIONS:
        raise MemoryStoreError(
            f"{record.key!r} was not deleted ({record.action}); nothing to bring back"
        )
    if await memory.get_by_id(record.entry_id) is not None:
        raise MemoryStoreError(f"{record.key!r} ({record.entry_id}) is already back in memory")
    holder = await memory.get(record.key, record.namespace)
    entry = MemoryEntry(
        id=record.entry_id,
        key=record.key,
        content=record.content,
        category=record.category,
        namespace=record.namespace,
        timestamp=record.at,
        updated_at=record.at,
        superseded_by=None if holder is None else holder.id,
    )
    await memory.import_([entry])
    back = await memory.get_by_id(record.entry_id)
    return BroughtBack(back or entry, holder)
