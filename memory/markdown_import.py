"""What an import into the markdown store writes: only the versions that change something.

The files are append-only history, so an import must not append what the store already
holds: a record identical to an entry's newest version is `unchanged` (a repeated or
resumed migration appends nothing); a changed record appends its new version, the old one
staying in the file as history. As in SQLite, a record whose id belongs to an entry in
another namespace is added under a fresh id, and an active record takes its key from the
active entry holding it, which is superseded (kept, restorable), never deleted.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from memory.entry import MemoryEntry, utc_now
from memory.protocol import ImportSummary
from memory.upsert import plain_entry, stored_fields


def revised(entry: MemoryEntry, superseded_by: str | None) -> MemoryEntry:
    """The next version of `entry`, superseded by another entry (or active again)."""
    return entry.model_copy(update={"superseded_by": superseded_by, "updated_at": utc_now()})


def plan_import(
    known: dict[str, MemoryEntry], records: Iterable[MemoryEntry]
) -> tuple[list[MemoryEntry], ImportSummary]:
    """The versions to append for `records`, in order, and what the import did.

    `known` (every entry's newest version by id) is updated to the state after the import.
    """
    summary = ImportSummary()
    holders = {(e.namespace, e.key): e.id for e in known.values() if e.superseded_by is None}
    written: list[MemoryEntry] = []
    for record in map(plain_entry, records):
        current = known.get(record.id)
        if current is not None and current.namespace != record.namespace:
            record = record.model_copy(update={"id": uuid.uuid4().hex})
            current = None
            summary.renumbered += 1
        elif current is None:
            summary.added += 1
        elif stored_fields(current) == stored_fields(record):
            summary.unchanged += 1
            continue
        else:
            summary.replaced += 1
            if holders.get((current.namespace, current.key)) == current.id:
                # The earlier version gives up its key (the new one may hold another).
                del holders[(current.namespace, current.key)]
        holder = holders.get((record.namespace, record.key))
        if record.superseded_by is None:
            if holder is not None and holder != record.id:
                set_aside = revised(known[holder], record.id)
                written.append(set_aside)
                known[holder] = set_aside
                summary.kept_as_history += 1
            holders[(record.namespace, record.key)] = record.id
        written.append(record)
        known[record.id] = record
    return written, summary
