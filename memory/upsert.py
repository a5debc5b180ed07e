"""Imports shared by the non-SQLite backends.

What an imported record is (its stored fields, nothing recall added), and the vectors an
import can reuse instead of re-embedding. Ordinary writes follow `memory.write_rules`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from memory.entry import MemoryEntry
from memory.records import StoredEmbedding

RECORD_FIELDS = frozenset(MemoryEntry.model_fields) - {"score", "scores", "supersedes"}
"""The fields a store keeps: what an export carries and a migration compares."""


def stored_fields(entry: MemoryEntry) -> dict[str, Any]:
    """The fields of `entry` that a store keeps, for comparing two versions."""
    return entry.model_dump(include=set(RECORD_FIELDS))


def plain_entry(entry: MemoryEntry) -> MemoryEntry:
    """`entry` as a plain `MemoryEntry`: no recall scores, no vector, no store result."""
    return MemoryEntry.model_validate(stored_fields(entry))


UNIT_TOLERANCE = 1e-3
"""How far from 1 a vector's length may be and still count as unit length (float32
rounding leaves models' own vectors a few parts in a million off)."""


def usable_vector(
    vector: npt.NDArray[np.float32], dimensions: int | None
) -> npt.NDArray[np.float32] | None:
    """An exported vector of our model at unit length, or None when it cannot be one.

    None for a size other than `dimensions` (when given) and for a length float32 cannot
    normalise (all zeros, or values so large the length overflows): such a record was
    edited by hand, and its vector is made again rather than searched wrongly.
    """
    if dimensions is not None and vector.size != dimensions:
        return None
    with np.errstate(over="ignore"):
        length = float(np.linalg.norm(vector))  # float32: overflow means not a model's
    if not 0.0 < length < float("inf"):
        return None
    if abs(length - 1.0) <= UNIT_TOLERANCE:
        return vector  # as given, to the bit: an export imported again is the same
    unit: npt.NDArray[np.float32] = (vector / length).astype(np.float32)
    return unit


async def import_vectors(
    batch: Sequence[MemoryEntry],
    identity: str | None,
    embed: Callable[[list[str]], Awaitable[Any]],
    dimensions: int | None = None,
) -> dict[str, Any]:
    """Vectors by entry id for an import.

    An exported vector of our embedding identity is kept, if it has `dimensions` values
    (when given) and a length that float32 can hold; the rest are embedded (and are
    simply missing when embedding fails). A record edited by hand to claim our model
    for a vector of another size, or one too large to normalise, is made again rather
    than stop the import halfway or be stored as zeros.
    """
    vectors: dict[str, Any] = {}
    sizes = set()
    for item in batch:
        stored = getattr(item, "embedding", None)
        if isinstance(stored, StoredEmbedding) and stored.model == identity:
            vector = usable_vector(np.frombuffer(stored.to_bytes(), dtype="<f4"), dimensions)
            if vector is None:
                continue
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
