"""Bringing over a store that qdrant-client's local mode kept, before qdrant-edge served it.

The old folder (`qdrant/` in the data directory) is only read, and left as it was. The copy
marks the new store while it runs, so a copy cut short (a kill, a full disk) is done again
at the next open: points are upserted by id, so copying twice changes nothing.
"""

from __future__ import annotations

from pathlib import Path

from memory.qdrant.points import PointStore

COPYING = ".copying-from-qdrant-client"
_BATCH = 256


def needs_copy(legacy: Path, target: Path, fresh: bool) -> bool:
    """Whether the old store should be copied into `target` (new, or a copy cut short)."""
    return legacy.is_dir() and (fresh or (target / COPYING).exists())


def copy_old_store(legacy: Path, collection: str, target: Path, points: PointStore) -> int:
    """Copy every point of `collection` in the old local store; returns how many."""
    from qdrant_client import QdrantClient

    from memory.qdrant.client_engine import ClientPoints

    marker = target / COPYING
    marker.touch()
    client = QdrantClient(path=str(legacy))
    try:
        if not client.collection_exists(collection):
            marker.unlink()
            return 0
        found = ClientPoints(client, collection, str(legacy), indexed=False).scroll(
            None, vectors=True
        )
    finally:
        client.close()
    for start in range(0, len(found), _BATCH):
        points.upsert(found[start : start + _BATCH])
    marker.unlink()
    return len(found)
