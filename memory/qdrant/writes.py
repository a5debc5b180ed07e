"""The shared write rules (`memory.write_rules`) over a Qdrant point store."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from memory.entry import MemoryEntry
from memory.qdrant.payload import TERMS_MADE, from_payload, point_id, to_payload
from memory.qdrant.points import TERMS_RULE, PointFilter, PointStore, StoredPoint
from memory.write_policy import SIMILAR_LIMIT, content_hash, lookup_terms
from memory.write_rules import Vector

Call = Callable[..., Awaitable[Any]]
"""The backend's way to run a point-store method on its worker thread."""


class QdrantRules:
    """`RuleEngine` over a point store; the backend holds its write lock around a write."""

    def __init__(
        self,
        points: PointStore,
        call: Call,
        point: Callable[[MemoryEntry, Vector | None], StoredPoint],
    ) -> None:
        self.points = points
        self.call = call
        self.point = point

    async def _entries(self, flt: PointFilter) -> list[MemoryEntry]:
        found: list[StoredPoint] = await self.call(self.points.scroll, flt)
        return [from_payload(p.payload) for p in found]

    async def key_holder(self, namespace: str, key: str) -> MemoryEntry | None:
        """See `RuleEngine.key_holder`."""
        found = await self._entries(PointFilter(namespace=namespace, key=key))
        found.sort(key=lambda e: (e.superseded_by is not None, -e.updated_at.timestamp(), e.id))
        return found[0] if found else None

    async def exact_duplicate(
        self, namespace: str, category: str, digest: str
    ) -> MemoryEntry | None:
        """See `RuleEngine.exact_duplicate`."""
        flt = PointFilter(
            namespace=namespace, category=category, content_hash=digest, include_superseded=False
        )
        found = sorted(await self._entries(flt), key=lambda e: (e.timestamp, e.id))
        return found[0] if found else None

    async def sharing_words(
        self, namespace: str, category: str, content: str, exclude_key: str
    ) -> list[MemoryEntry]:
        """See `RuleEngine.sharing_words`: most shared terms first (the sparse lane's score)."""
        terms = dict.fromkeys(lookup_terms(content), 1.0)
        if not terms:
            return []
        flt = PointFilter(namespace=namespace, category=category, include_superseded=False)
        # One active entry holds `exclude_key` at most: one more hit makes up for it.
        hits = await self.call(self.points.keyword_hits, terms, flt, SIMILAR_LIMIT + 1)
        order = [point for point, _ in hits]
        stored = await self.call(self.points.retrieve, order)
        by_id = {p.id: from_payload(p.payload) for p in stored}
        found = [by_id[i] for i in order if i in by_id and by_id[i].key != exclude_key]
        return found[:SIMILAR_LIMIT]

    async def put(self, entry: MemoryEntry, vector: Vector | None, *, keep_vector: bool) -> None:
        """See `RuleEngine.put`."""
        point = self.point(entry, vector)
        if keep_vector:
            stored = await self.call(self.points.retrieve, [point.id], vectors=True)
            if stored:
                model = stored[0].payload.get("embedding_model")
                point = StoredPoint(point.id, to_payload(entry, model), stored[0].vector)
        await self.call(self.points.upsert, [point])

    async def mark_superseded(self, entries: list[MemoryEntry], successor: str) -> None:
        """See `RuleEngine.mark_superseded`."""
        ids = [point_id(entry.id) for entry in entries]
        await self.call(self.points.set_payload, ids, {"superseded_by": successor})


def add_missing_hashes(points: PointStore) -> int:
    """Give the points an older version wrote their content hash; how many needed one."""
    found = points.scroll(PointFilter(lacking=("content_hash",)), fields=["content"])
    by_hash: dict[str, list[str]] = {}
    for point in found:
        digest = content_hash(str(point.payload.get("content", "")))
        by_hash.setdefault(digest, []).append(point.id)
    for digest, ids in by_hash.items():
        points.set_payload(ids, {"content_hash": digest})
    return len(found)


def index_again_read_differently(points: PointStore) -> int:
    """Make again the terms of points written before `TERMS_MADE`; how many changed.

    Every such point gets new terms (and so a new sparse vector): since "8" every point's
    saving day has terms of its own. Marked, so this runs once.
    """
    earlier = PointFilter(differing=((TERMS_RULE, TERMS_MADE),))
    found = points.scroll(earlier, fields=["key"])
    changed = {point.id for point in found}
    if changed:
        stored = points.retrieve(sorted(changed), vectors=True)
        points.upsert(
            [
                StoredPoint(
                    point.id,
                    to_payload(from_payload(point.payload), point.payload.get("embedding_model")),
                    point.vector,
                )
                for point in stored
            ]
        )
    return len(changed)
