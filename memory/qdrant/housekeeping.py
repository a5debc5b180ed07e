"""Hygiene and its audit log over a Qdrant store (the rules: `memory.lifecycle`).

Qdrant has no table for the audit log: it is a JSON-lines file beside the local store (or
in the data directory for a server), 0600, each record written and synced before the
entry it records is deleted, so no deletion goes unrecorded.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from memory.entry import MemoryEntry, utc_now
from memory.files import write_private
from memory.lifecycle import HYGIENE_CATEGORIES, Doomed, audit_records
from memory.protocol import AuditRecord
from memory.qdrant.payload import from_payload, point_id
from memory.qdrant.points import PointFilter

if TYPE_CHECKING:
    from memory.qdrant.store import QdrantMemory


def append_audit(path: Path, records: Sequence[AuditRecord]) -> None:
    """Add `records` to the audit file, synced to disk before this returns."""
    if not records:
        return
    text = "".join(record.model_dump_json() + "\n" for record in records)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(descriptor, text.encode("utf-8", "surrogatepass"))
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def read_audit_file(path: Path) -> tuple[list[AuditRecord], list[str]]:
    """Every record of the audit file, oldest first, and a problem per line not read."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], []
    records, problems = [], []
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(AuditRecord.model_validate(json.loads(line)))
        except (ValueError, ValidationError):
            problems.append(f"{path}: line {number} is not an audit record; it was skipped")
    return records, problems


ChatDeletions = dict[tuple[str, str], list[datetime]]
"""(namespace, chat) → the save times of its deleted messages, in order."""


def chat_deletions(path: Path | None) -> ChatDeletions:
    """The deleted messages of each chat, read from the audit file (read again when it changes).

    Asked at each recall that brings a follow-up, so the file is parsed once per change.
    """
    if path is None:
        return {}
    try:
        seen = path.stat()
    except OSError:
        return {}
    return _chat_deletions(path, seen.st_mtime_ns, seen.st_size)


@lru_cache(maxsize=4)
def _chat_deletions(path: Path, modified: int, size: int) -> ChatDeletions:
    del modified, size  # only a cache key
    found: ChatDeletions = {}
    for record in read_audit_file(path)[0]:
        if record.session_id is not None and record.created is not None:
            found.setdefault((record.namespace, record.session_id), []).append(record.created)
    for times in found.values():
        times.sort()
    return found


def erase_from_audit_file(path: Path, entry_ids: Sequence[str]) -> int:
    """Write the audit file anew (atomically) without the records of `entry_ids`.

    Lines that are no audit record are kept as they were: erasing must not lose them.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return 0
    doomed = set(entry_ids)
    kept: list[bytes] = []
    erased = 0
    for line in data.splitlines():
        try:
            record = AuditRecord.model_validate(json.loads(line))
        except (ValueError, ValidationError):
            kept.append(line)
            continue
        if record.entry_id in doomed:
            erased += 1
        else:
            kept.append(line)
    if erased:
        text = b"".join(line + b"\n" for line in kept).decode("utf-8", "surrogatepass")
        write_private(path, text)
    return erased


class QdrantHousekeeping:
    """`LifecycleEngine` over a `QdrantMemory`."""

    def __init__(self, memory: QdrantMemory, audit_file: Path) -> None:
        self.memory = memory
        self.audit_file = audit_file

    async def _entries(self, flt: PointFilter) -> list[MemoryEntry]:
        found = await self.memory.call(self.memory.points.scroll, flt)
        return sorted((from_payload(p.payload) for p in found), key=lambda e: (e.timestamp, e.id))

    async def hygiene_entries(self, namespace: str | None) -> list[MemoryEntry]:
        """See `LifecycleEngine.hygiene_entries`."""
        found = await self._entries(PointFilter(namespace=namespace))
        return [e for e in found if e.category in HYGIENE_CATEGORIES]

    async def core_entries(self, namespace: str | None) -> list[MemoryEntry]:
        """See `LifecycleEngine.core_entries`."""
        return await self._entries(PointFilter(namespace=namespace, category="core"))

    async def remove_audited(self, doomed: Sequence[Doomed], action: str) -> list[Doomed]:
        """See `LifecycleEngine.remove_audited`: recorded first, then deleted."""
        async with self.memory.write_lock:
            stored = await self.memory.call(
                self.memory.points.retrieve, [point_id(d.entry.id) for d in doomed]
            )
            now = {e.id: e for e in (from_payload(p.payload) for p in stored)}
            still = [
                d
                for d in doomed
                if (current := now.get(d.entry.id)) is not None
                and not (current.pinned and current.superseded_by is None)
                and current.updated_at == d.entry.updated_at
            ]
            await self.remove_recorded(still, action)
        return still

    async def remove_recorded(self, doomed: Sequence[Doomed], action: str) -> None:
        """Record, then delete (the caller holds the write lock)."""
        records = audit_records(doomed, action, utc_now())
        await self.memory.call(append_audit, self.audit_file, records)
        await self.memory.call(self.memory.points.delete, [point_id(d.entry.id) for d in doomed])

    async def erase_audit(self, entry_ids: Sequence[str]) -> int:
        """See `LifecycleEngine.erase_audit`: the audit file is written anew without them."""
        async with self.memory.write_lock:
            return await self.memory.call(erase_from_audit_file, self.audit_file, entry_ids)

    async def read_audit(self, limit: int, offset: int, namespace: str | None) -> list[AuditRecord]:
        """See `LifecycleEngine.read_audit`."""
        records, problems = await self.memory.call(read_audit_file, self.audit_file)
        for problem in problems:
            if problem not in self.memory.warnings:
                self.memory.warnings.append(problem)
        newest = [r for r in reversed(records) if namespace is None or r.namespace == namespace]
        return newest[offset : offset + limit]
