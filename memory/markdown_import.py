"""What an import into the markdown store appends: only the versions that change something.

The files are append-only history, so an import must not append what the store already
holds: a record identical to an entry's newest version is `unchanged` (a repeated or
resumed migration appends nothing). Otherwise SQLite's import rules hold
(`memory.import_rules`): a record whose id belongs to an entry in another namespace is
added under a fresh id; the version a record replaces is kept as a superseded entry of its
own (restorable); an active record takes its key from the active entry holding it, which
is superseded, never deleted.
"""

from __future__ import annotations

from collections.abc import Iterable

from memory.entry import MemoryEntry, utc_now
from memory.import_rules import plan_import, repeated_ids
from memory.protocol import ImportSummary
from memory.upsert import plain_entry


def revised(entry: MemoryEntry, superseded_by: str | None) -> MemoryEntry:
    """The next version of `entry`, superseded by another entry (or active again)."""
    return entry.model_copy(update={"superseded_by": superseded_by, "updated_at": utc_now()})


def versions_to_append(
    known: dict[str, MemoryEntry], records: Iterable[MemoryEntry]
) -> tuple[list[MemoryEntry], ImportSummary]:
    """The versions to append for `records`, in order, and what the import did.

    `known` (every entry's newest version by id) is updated to the state after the import.
    """
    summary = ImportSummary()
    batch = [plain_entry(r) for r in records]
    repeated = set(repeated_ids(batch))
    history = [e for e in known.values() if repeated and e.superseded_by in repeated]
    plan = plan_import(batch, known, summary, history, known)
    written: list[MemoryEntry] = []
    for copy in plan.copies:
        kept = known[copy.stored_id].model_copy(
            update={"id": copy.fresh_id, "superseded_by": copy.successor}
        )
        written.append(kept)
        known[kept.id] = kept
    for entry in plan.entries:
        written.append(entry)
        known[entry.id] = entry
    writing = {entry.id for entry in plan.entries}
    if not plan.holders:
        return written, summary
    # Each key's active entries, found in one pass (not one pass per key).
    active: dict[tuple[str, str], list[MemoryEntry]] = {}
    for entry in known.values():
        if entry.superseded_by is None and entry.id not in writing:
            active.setdefault((entry.namespace, entry.key), []).append(entry)
    for place, winner in plan.holders.items():
        holders = active.get(place, [])
        for entry in holders:
            set_aside = revised(entry, winner)
            written.append(set_aside)
            known[entry.id] = set_aside
        newer = any(entry.updated_at > known[winner].updated_at for entry in holders)
        plan.set_aside(winner, len(holders), summary, newer=newer)
    return written, summary
