"""Hygiene and the snapshot after it, shared by the app's timer and the CLI."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from memory.protocol import HygieneReport, Memory
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
    if not memory.capabilities.supports_lifecycle:
        return None, None
    hygiene = getattr(memory, "hygiene", None)
    write_snapshot = getattr(memory, "write_snapshot", None)
    report: HygieneReport | None = None
    if hygiene is not None:
        report = await hygiene(dry_run=dry_run, now=now, namespace=namespace)
    snapshot: Path | None = None
    if not dry_run and settings.snapshot_after_hygiene and write_snapshot is not None:
        snapshot = await write_snapshot(now=now)
    return report, snapshot
