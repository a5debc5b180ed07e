"""`lucid`: the SQLite store as the source of truth, bridged to the `lucid` CLI.

Every write lands in SQLite first and is then handed to lucid in the background (a slow or
broken lucid never slows a turn beyond its timeout, and never loses a write). Recall asks
lucid only when SQLite finds fewer than `lucid_recall_threshold` memories, and appends what
lucid offers after the local hits, marked with lane "lucid" so the inspector shows where
each came from. Lucid's extras are not stored locally: they stay lucid's.
"""

from __future__ import annotations

import hashlib

from memory.embedding.base import Embedder
from memory.entry import (
    MemoryEntry,
    MemorySource,
    RecallResult,
    RecallScores,
    normalize_category,
    utc_now,
)
from memory.lucid_bridge import LucidBridge, LucidHit
from memory.retrieval import RecallQuery, clamp_limit
from memory.sqlite.core import SqliteCore
from memory.sqlite.database import DatabaseThread
from memory.sqlite.store import SqliteMemory
from memory.write_rules import NewMemory


class LucidMemory(SqliteMemory):
    """SQLite plus the lucid command-line memory as a second opinion."""

    name = "lucid"

    def __init__(self, db: DatabaseThread, core: SqliteCore, embedder: Embedder | None) -> None:
        super().__init__(db, core, embedder)
        self.bridge = LucidBridge(
            self.settings.lucid_command,
            timeout_s=self.settings.lucid_timeout_s,
            cooldown_s=self.settings.lucid_cooldown_s,
        )

    async def write(self, item: NewMemory) -> MemoryEntry:
        """Store in SQLite, then hand the memory to lucid in the background."""
        entry = await super().write(item)
        self.bridge.store_in_background(entry.key, entry.content, entry.category)
        return entry

    async def search(self, query: RecallQuery) -> RecallResult:
        """SQLite's recall; lucid fills in when SQLite finds too little."""
        result = await super().search(query)
        limit = clamp_limit(query.limit)
        wanted = min(limit, self.settings.lucid_recall_threshold) - len(result.entries)
        if wanted <= 0 or not query.text.strip() or self.bridge.cooling_down():
            return result
        hits = await self.bridge.context(query.text, limit)
        if self.bridge.last_error is not None:
            note = f"{self.bridge.last_error}; local memories only"
            degraded = f"{result.degraded}; {note}" if result.degraded else note
            return result.model_copy(update={"degraded": degraded})
        local = {entry.content.casefold() for entry in result.entries}
        category = query.filters.category
        extra = [
            self._entry_for(hit, query.filters.namespace)
            for hit in hits
            if hit.text.casefold() not in local and (category is None or category == _kind(hit))
        ][: limit - len(result.entries)]
        return result.model_copy(update={"entries": [*result.entries, *extra]})

    def _entry_for(self, hit: LucidHit, namespace: str | None) -> MemoryEntry:
        digest = hashlib.sha256(hit.text.encode("utf-8")).hexdigest()
        now = utc_now()
        return MemoryEntry(
            id=f"lucid-{digest[:24]}",
            key=f"lucid:{digest[:8]}",
            content=hit.text,
            category=_kind(hit),
            timestamp=now,
            updated_at=now,
            namespace=namespace or "default",
            source=MemorySource.LUCID.value,
            score=self.settings.min_relevance_score,
            scores=RecallScores(fused=self.settings.min_relevance_score, lane="lucid"),
        )

    async def close(self) -> None:
        """Let background lucid stores finish (bounded by the timeout), then close SQLite."""
        await self.bridge.drain()
        await super().close()


def _kind(hit: LucidHit) -> str:
    """Lucid's own type tag as the category; untagged hits are filed under "lucid"."""
    return normalize_category(hit.kind) if hit.kind else "lucid"
