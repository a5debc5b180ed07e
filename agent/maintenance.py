"""Hygiene and the snapshot after it, shared by the app's timer and the CLI."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from memory.protocol import HygieneReport, Memory
from memory.records import MemoryRecord
from memory.settings import MemorySettings


async def maintain(
    memory: Memory,
    settings: MemorySettings,
    *,
    dry_run: bool = False,
    now: datetime | None = None,
    namespace: str | None = None,
) -> tuple[HygieneReport | None, Path | None]:
    """Run hygiene (and write the snapshot unless dry); None where the backend has none.

    `namespace` limits hygiene to one namespace (all when None); the snapshot written after
    it always holds every namespace, since the store is rebuilt from it.
    """
    lifecycle = memory.lifecycle
    if lifecycle is None:
        return None, None
    report = await lifecycle.hygiene(dry_run=dry_run, now=now, namespace=namespace)
    snapshot: Path | None = None
    if not dry_run and settings.snapshot_after_hygiene and lifecycle.snapshot_path is not None:
        snapshot = await lifecycle.write_snapshot(now=now)
    return report, snapshot


async def past_retention(
    memory: Memory,
    records: Iterable[MemoryRecord],
    settings: MemorySettings,
    now: datetime | None = None,
) -> dict[str, int]:
    """How many of `records`, once imported, the next hygiene removes for their age.

    An import of old conversations would otherwise vanish at the app's next start. Asked
    of hygiene itself (a dry run): found by a new user, a translator, an import said four
    messages would go that hygiene keeps, since each names a day still to come.
    """
    report, _ = await maintain(memory, settings, dry_run=True, now=now)
    if report is None:
        return {}
    # By where each landed and what it says, not by id: an id taken in another namespace is
    # given anew, and the copy under the old id is another import's (an adversary saw a
    # second import count the first's four memories with its own).
    said = {(record.namespace, record.key, record.content) for record in records}
    due: Counter[str] = Counter(
        entry.category
        for entry, reason in report.removed
        if reason.startswith("retention") and (entry.namespace, entry.key, entry.content) in said
    )
    return dict(due)
