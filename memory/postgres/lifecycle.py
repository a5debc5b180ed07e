"""Hygiene and its audit log over PostgreSQL (the rules: `memory.lifecycle`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memory.entry import MemoryEntry
from memory.lifecycle import HYGIENE_CATEGORIES, Doomed
from memory.postgres.schema import COLUMNS, to_entry, unescape
from memory.postgres.writes import WRITE_LOCK
from memory.protocol import AuditRecord

if TYPE_CHECKING:
    from memory.postgres.store import PostgresMemory

REMOVE_AUDITED = """
WITH gone AS (
    DELETE FROM memories USING unnest(%s::text[], %s::timestamptz[], %s::text[])
        AS d (id, updated, reason)
    WHERE memories.id = d.id AND memories.updated_at = d.updated
        AND NOT (memories.pinned AND memories.superseded_by IS NULL)
    RETURNING memories.id, memories.namespace, memories.key, memories.category,
        memories.content, memories.ts, memories.session_id, d.reason
)
INSERT INTO memory_audit (at, action, reason, entry_id, namespace, key, category, content,
    created, session_id)
SELECT now(), %s, reason, id, namespace, key, category, content, ts, session_id FROM gone
RETURNING entry_id
"""
"""Deletes what is still as planned (not pinned in effect, not changed since), audited."""


class PostgresHousekeeping:
    """`LifecycleEngine` over a `PostgresMemory`."""

    def __init__(self, memory: PostgresMemory) -> None:
        self.memory = memory

    async def _entries(self, clause: str, params: list[Any]) -> list[MemoryEntry]:
        rows = await self.memory.fetch(
            f"SELECT {COLUMNS} FROM memories WHERE {clause} ORDER BY ts, id", params
        )
        return [to_entry(row) for row in rows]

    async def hygiene_entries(self, namespace: str | None) -> list[MemoryEntry]:
        """See `LifecycleEngine.hygiene_entries`."""
        clause, params = "category = ANY(%s)", [list(HYGIENE_CATEGORIES)]
        if namespace is None:
            return await self._entries(clause, params)
        return await self._entries(f"{clause} AND namespace = %s", [*params, namespace])

    async def core_entries(self, namespace: str | None) -> list[MemoryEntry]:
        """See `LifecycleEngine.core_entries`."""
        if namespace is None:
            return await self._entries("category = 'core'", [])
        return await self._entries("category = 'core' AND namespace = %s", [namespace])

    async def remove_audited(self, doomed: Sequence[Doomed], action: str) -> list[Doomed]:
        """See `LifecycleEngine.remove_audited`: one statement, in one transaction."""
        async with self.memory.pool.connection() as conn, conn.transaction():
            await conn.execute(WRITE_LOCK)
            cursor = await conn.execute(
                REMOVE_AUDITED,
                (
                    [d.entry.id for d in doomed],
                    [d.entry.updated_at for d in doomed],
                    [d.reason for d in doomed],
                    action,
                ),
            )
            removed = {row[0] for row in await cursor.fetchall()}
        return [d for d in doomed if d.entry.id in removed]

    async def erase_audit(self, entry_ids: Sequence[str]) -> int:
        """See `LifecycleEngine.erase_audit`.

        PostgreSQL keeps a deleted row's old version until the table is vacuumed, which
        its autovacuum does on its own schedule.
        """
        async with self.memory.pool.connection() as conn, conn.transaction():
            cursor = await conn.execute(
                "DELETE FROM memory_audit WHERE entry_id = ANY(%s)", (list(entry_ids),)
            )
            return cursor.rowcount

    async def read_audit(self, limit: int, offset: int, namespace: str | None) -> list[AuditRecord]:
        """See `LifecycleEngine.read_audit`."""
        clause, params = (
            ("WHERE namespace = %s", [namespace]) if namespace is not None else ("", [])
        )
        rows = await self.memory.fetch(
            "SELECT at, action, reason, entry_id, namespace, key, category, content, created, "
            f"session_id FROM memory_audit {clause} ORDER BY audit_id DESC LIMIT %s OFFSET %s",
            [*params, limit, offset],
        )
        return [
            AuditRecord(
                at=at,
                action=action,
                reason=reason,
                entry_id=entry_id,
                namespace=space,
                key=unescape(key),
                category=category,
                content=unescape(content),
                created=created,
                session_id=session,
            )
            for (at, action, reason, entry_id, space, key, category, content, created, session) in (
                rows
            )
        ]
