"""Hygiene and the snapshot after it, shared by the app's timer and the CLI."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path

from memory.entry import utc_now
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


def past_retention(
    records: Iterable[MemoryRecord], settings: MemorySettings, now: datetime | None = None
) -> dict[str, int]:
    """How many of `records` the next hygiene removes for their age, per category.

    An import of old conversations would otherwise vanish at the app's next start.
    """
    now = now or utc_now()
    days = settings.retention_days.model_dump()
    due: Counter[str] = Counter()
    for record in records:
        keep_for = days.get(record.category, 0)
        if keep_for <= 0 or record.pinned:
            continue
        try:
            cutoff = now - timedelta(days=keep_for)
        except OverflowError:
            continue  # longer than the calendar: nothing is that old
        if record.updated_at < cutoff:
            due[record.category] += 1
    return dict(due)
