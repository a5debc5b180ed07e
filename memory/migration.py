"""Copy every entry from one backend to another, losslessly, and prove it.

The copy is resumable rather than all-or-nothing: entries go over in batches through the
target's `import_`, which upserts by id with imported rows winning, so a run that stops part
way (Ctrl-C, a full disk) is finished by running it again, and a second full run changes
nothing. The source is only ever read. After the copy, every source entry is read back from
the target and compared field by field; any difference is reported, not hidden.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError, UnsupportedOperationError
from memory.upsert import stored_fields

if TYPE_CHECKING:
    from memory.protocol import Memory, ProgressCallback


class MigrationError(MemoryStoreError):
    """The migration cannot start, or the copy does not match its source."""


@dataclass
class MigrationReport:
    """What a migration did (or, dry, would do)."""

    source: str
    target: str
    dry_run: bool
    total: int
    """Entries in the source, every namespace, superseded ones included."""
    already_present: int = 0
    """Source entries the target held before the run (a resumed or repeated migration)."""
    copied: int = 0
    """Entries handed to the target (those it already held exactly are in `unchanged`)."""
    unchanged: int = 0
    """Copied entries the target already held exactly, so nothing was written for them."""
    replaced: int = 0
    """Copied entries that replaced another version the target held (kept as its history)."""
    older_than_replaced: int = 0
    """Of those, entries older (by `updated_at`) than what they replaced: migrating into a
    store that was used since, the older text is in effect again."""
    mismatched: list[str] = field(default_factory=list)
    """Ids whose copy differs from the source (empty after a successful run)."""
    left_out: int = 0
    """Source entries not copied: erased for good since (`leave_out`)."""
    only_in_target: int = 0
    """Entries the target held that the source does not: an earlier copy's, forgotten in
    the source since (a secret, say), or added in the target. Kept, and said."""


def check_migratable(source: Memory, target: Memory) -> None:
    """Refuse a migration that could not be lossless, naming the backend and the gap."""
    if not source.capabilities.supports_export:
        raise UnsupportedOperationError(source.name, "export (needed to migrate from it)")
    if not target.capabilities.persistent:
        raise MigrationError(f"the {target.name!r} backend keeps nothing; refusing to migrate")
    if not target.capabilities.supports_export:
        raise UnsupportedOperationError(target.name, "export (needed to verify the copy)")
    if source is target:
        raise MigrationError(f"source and target are the same {source.name!r} store")
    shared = source.location
    if shared is not None and shared == target.location:
        raise MigrationError(
            f"{source.name!r} and {target.name!r} keep their memories in the same file "
            f"({shared}); switching memory.backend is enough, nothing needs copying"
        )


async def migrate(
    source: Memory,
    target: Memory,
    *,
    batch_size: int = 500,
    dry_run: bool = False,
    progress: ProgressCallback | None = None,
    leave_out: Collection[str] = frozenset(),
) -> MigrationReport:
    """Copy every entry of `source` into `target`, then verify the copy field by field.

    The ids in `leave_out` (erased for good) are neither copied nor verified: a new user's
    NIF, erased with `forget --erase`, came back into effect from a markdown store's copy.
    """
    check_migratable(source, target)
    if batch_size < 1:
        raise MigrationError("batch size must be at least 1")
    held = {entry.id: entry async for entry in target.export()}
    holders = {(e.namespace, e.key): e for e in held.values() if e.superseded_by is None}
    await _refuse_history_the_target_cannot_keep(source, target)
    await _refuse_ids_of_other_namespaces(source, target, held)
    total = await source.count(include_superseded=True)
    report = MigrationReport(source.name, target.name, dry_run, total)
    batch: list[MemoryEntry] = []
    seen = 0

    async def flush() -> None:
        if not dry_run and batch:
            summary = await target.import_(batch)
            report.unchanged += summary.unchanged
            report.replaced += summary.replaced
            report.older_than_replaced += summary.older_than_replaced
        report.copied += 0 if dry_run else len(batch)
        batch.clear()
        if progress is not None:
            progress(seen, total)

    in_source: set[str] = set()
    async for entry in source.export():
        seen += 1
        in_source.add(entry.id)
        if entry.id in leave_out:
            report.left_out += 1
            continue
        if entry.id in held:
            report.already_present += 1
        if dry_run and _would_put_older_back(entry, held, holders):
            report.older_than_replaced += 1
        batch.append(entry)
        if len(batch) >= batch_size:
            await flush()
    await flush()
    report.only_in_target = len(held.keys() - in_source)
    if not dry_run:
        report.mismatched = await _verify(source, target, leave_out)
    return report


async def _refuse_history_the_target_cannot_keep(source: Memory, target: Memory) -> None:
    """Refuse superseded entries for a target that keeps no history."""
    if not target.capabilities.supports_supersede:
        superseded = await source.count(include_superseded=True) - await source.count(
            include_superseded=False
        )
        if superseded:
            raise UnsupportedOperationError(
                target.name, f"superseded entries ({superseded} in the source)"
            )


async def _refuse_ids_of_other_namespaces(
    source: Memory, target: Memory, held: dict[str, MemoryEntry]
) -> None:
    """Refuse, before anything is written, ids the target keeps in another namespace.

    Such a record is given a new id there, so the copy never matches its source: found by
    an adversary, every run said "1 differ" and added another copy under a new id.
    """
    async for entry in source.export():
        other = held.get(entry.id)
        if other is not None and other.namespace != entry.namespace:
            raise MigrationError(
                f"the id {entry.id} is namespace {entry.namespace!r}'s in {source.name} but "
                f"{other.namespace!r}'s in {target.name} (key {other.key!r}): a copy would "
                "need a new id there and could not be verified; nothing was copied. Forget "
                f"one of the two, or copy into an empty {target.name} store"
            )


def _would_put_older_back(
    entry: MemoryEntry,
    held: dict[str, MemoryEntry],
    holders: dict[tuple[str, str], MemoryEntry],
) -> bool:
    """Whether copying `entry` would replace a newer version the target holds (dry runs).

    As an import counts `older_than_replaced`: the same id stored differently, or, for an
    entry in effect, another entry holding its key, either updated later.
    """
    same = held.get(entry.id)
    if same is not None:
        return stored_fields(same) != stored_fields(entry) and same.updated_at > entry.updated_at
    holder = holders.get((entry.namespace, entry.key)) if entry.superseded_by is None else None
    return holder is not None and holder.updated_at > entry.updated_at


async def _verify(source: Memory, target: Memory, leave_out: Collection[str]) -> list[str]:
    copies = {entry.id: stored_fields(entry) async for entry in target.export()}
    return [
        entry.id
        async for entry in source.export()
        if entry.id not in leave_out and copies.get(entry.id) != stored_fields(entry)
    ]
