"""Bringing over a store that qdrant-client's local mode kept, before qdrant-edge served it.

The old folder (`qdrant/` in the data directory) is only read, and left as it was. The copy
marks the new store while it runs, so a copy cut short (a kill, a full disk) is done again
at the next open: points are upserted by id, so copying twice changes nothing.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from memory.qdrant.points import PointStore

COPYING = ".copying-from-qdrant-client"
_BATCH = 256


def needs_copy(legacy: Path, target: Path, fresh: bool) -> bool:
    """Whether the old store should be copied into `target` (new, or a copy cut short)."""
    return legacy.is_dir() and (fresh or (target / COPYING).exists())


def mark_copying(target: Path) -> None:
    """Say, before anything is copied, that `target` is being filled from the old store."""
    target.mkdir(parents=True, exist_ok=True, mode=0o700)
    (target / COPYING).touch()


def _holds(legacy: Path, collection: str) -> str | None:
    """Why the old folder cannot be read as a store holding `collection` (None: it can).

    Asked before qdrant-client opens it: the client writes an empty store into a folder
    that lacks one, which would change the folder we promise to leave as it was.
    """
    try:
        meta = json.loads((legacy / "meta.json").read_text(encoding="utf-8"))
        collections = meta["collections"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"its meta.json cannot be read ({exc})"
    if collection not in collections:
        known = ", ".join(repr(name) for name in collections) or "none"
        return f"it holds no collection {collection!r} (it has: {known})"
    return None


def copy_old_store(legacy: Path, collection: str, target: Path, points: PointStore) -> int | str:
    """Copy every point of `collection` in the old local store; returns how many.

    Returns a warning instead when the old folder cannot be read as such a store: the
    copy stays marked as not done, so the next open tries again (and says so again).
    """
    from qdrant_client import QdrantClient

    from memory.qdrant.client_engine import ClientPoints

    mark_copying(target)
    problem = _holds(legacy, collection)
    if problem is not None:
        return (
            f"{legacy} looks like a Qdrant store from an older memchat, but nothing was "
            f"copied from it: {problem}. It is left as it was"
        )
    with warnings.catch_warnings():
        # The client's advice to run a server for large collections is not the user's.
        warnings.simplefilter("ignore")
        client = QdrantClient(path=str(legacy))
        try:
            found = ClientPoints(client, collection, str(legacy), indexed=False).scroll(
                None, vectors=True
            )
        finally:
            client.close()
    for start in range(0, len(found), _BATCH):
        points.upsert(found[start : start + _BATCH])
    (target / COPYING).unlink()
    return len(found)
