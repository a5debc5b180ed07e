"""Writes shared by the non-SQLite backends.

The next version of an entry, what an imported record is (its stored fields, nothing
recall added), and the vectors an import can reuse instead of re-embedding.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import numpy as np

from memory.entry import MemoryEntry, utc_now, valid_category
from memory.errors import MemoryStoreError
from memory.records import StoredEmbedding

RECORD_FIELDS = frozenset(MemoryEntry.model_fields) - {"score", "scores", "supersedes"}
"""The fields a store keeps: what an export carries and a migration compares."""


def stored_fields(entry: MemoryEntry) -> dict[str, Any]:
    """The fields of `entry` that a store keeps, for comparing two versions."""
    return entry.model_dump(include=set(RECORD_FIELDS))


def plain_entry(entry: MemoryEntry) -> MemoryEntry:
    """`entry` as a plain `MemoryEntry`: no recall scores, no vector, no store result."""
    return MemoryEntry.model_validate(stored_fields(entry))


def upserted_entry(
    existing: MemoryEntry | None,
    *,
    key: str,
    content: str,
    category: str,
    session_id: str | None,
    namespace: str,
    importance: float | None,
    pinned: bool | None,
    source: str,
) -> MemoryEntry:
    """The entry a store call writes.

    An existing key keeps its id, creation time and, when not given, importance and pin.
    """
    if not key.strip():
        raise MemoryStoreError("key must not be empty")
    now = utc_now()
    if importance is None:
        importance = existing.importance if existing else 0.5
    return MemoryEntry(
        id=existing.id if existing else uuid.uuid4().hex,
        key=key,
        content=content,
        category=valid_category(category),
        session_id=session_id,
        namespace=namespace,
        source=source,
        importance=importance,
        pinned=pinned if pinned is not None else bool(existing and existing.pinned),
        timestamp=existing.timestamp if existing else now,
        updated_at=now,
    )


async def import_vectors(
    batch: Sequence[MemoryEntry],
    identity: str | None,
    embed: Callable[[list[str]], Awaitable[Any]],
) -> dict[str, Any]:
    """Vectors by entry id for an import.

    An exported vector of our embedding identity is kept; the rest are embedded (and are
    simply missing when embedding fails).
    """
    vectors: dict[str, Any] = {}
    sizes = set()
    for item in batch:
        stored = getattr(item, "embedding", None)
        if isinstance(stored, StoredEmbedding) and stored.model == identity:
            vector = np.frombuffer(stored.to_bytes(), dtype="<f4")
            vectors[item.id] = vector
            sizes.add(vector.size)
    if len(sizes) > 1:
        # One identity makes one size: a record whose size differs from the rest was
        # edited by hand; its vector is made again rather than stop the import.
        common = max(sizes, key=lambda size: sum(v.size == size for v in vectors.values()))
        vectors = {key: v for key, v in vectors.items() if v.size == common}
    missing = [item for item in batch if item.id not in vectors]
    fresh = await embed([item.content for item in missing])
    if fresh is not None:
        vectors.update({item.id: row for item, row in zip(missing, fresh, strict=True)})
    return vectors
