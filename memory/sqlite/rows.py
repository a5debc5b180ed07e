"""Conversions between SQLite rows and `MemoryEntry`, times and vector BLOBs."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import numpy as np
import numpy.typing as npt

from memory.entry import MemoryEntry
from memory.errors import EmbeddingDimensionError

# Fixed-width UTC text: lexical order is time order, so SQL compares times as strings.
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"

ENTRY_COLUMNS = (
    "seq, id, namespace, key, content, category, session_id, importance, pinned, source, "
    "superseded_by, created_at, updated_at"
)


def format_time(value: datetime) -> str:
    """A datetime as the stored UTC text; naive values are taken as UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime(_TIME_FORMAT)


def parse_time(text: str) -> datetime:
    """The stored UTC text back as an aware datetime."""
    return datetime.fromisoformat(text)


def epoch(text: str) -> float:
    """Stored UTC text as seconds since the epoch (for the vector index filters)."""
    return parse_time(text).timestamp()


def encode_vector(vector: npt.NDArray[np.float32]) -> bytes:
    """Little-endian float32 bytes, the on-disk vector format."""
    return np.asarray(vector, dtype="<f4").tobytes()


def decode_vector(blob: bytes, dims: int) -> npt.NDArray[np.float32]:
    """Read a vector BLOB, rejecting one whose size disagrees with its recorded dimension."""
    if len(blob) != dims * 4:
        raise EmbeddingDimensionError(
            f"stored vector has {len(blob)} bytes but records {dims} dimensions"
        )
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)


def entry_from_row(row: sqlite3.Row | tuple[object, ...]) -> MemoryEntry:
    """Build an entry from a row selected with `ENTRY_COLUMNS` (seq first)."""
    (
        _seq,
        entry_id,
        namespace,
        key,
        content,
        category,
        session_id,
        importance,
        pinned,
        source,
        superseded_by,
        created_at,
        updated_at,
    ) = tuple(row)[:13]
    return MemoryEntry.model_construct(
        id=entry_id,
        key=key,
        content=content,
        category=category,
        timestamp=parse_time(str(created_at)),
        updated_at=parse_time(str(updated_at)),
        session_id=session_id,
        namespace=namespace,
        importance=float(importance),
        superseded_by=superseded_by,
        pinned=bool(pinned),
        source=source,
        score=None,
        scores=None,
        # Given, not defaulted: model_construct would inspect the factory on every row.
        supersedes=[],
    )
