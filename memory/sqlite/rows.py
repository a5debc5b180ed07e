"""Conversions between SQLite rows and `MemoryEntry`, times and vector BLOBs."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

import numpy as np
import numpy.typing as npt

from memory.entry import MemoryEntry
from memory.errors import EmbeddingDimensionError
from memory.lazy_patterns import lazy_compile
from memory.write_rules import utc_time

ENTRY_COLUMNS = (
    "seq, id, namespace, key, content, category, session_id, importance, pinned, source, "
    "superseded_by, created_at, updated_at"
)

# A year of one to three digits: what `strftime("%Y")` wrote for years before 1000 (it
# does not pad), before times were always stored as four digits.
_SHORT_YEAR = lazy_compile(r"^(\d{1,3})-")


class BadRowError(ValueError):
    """A stored row that cannot be read back as an entry (damaged, or written by a bug)."""

    def __init__(self, entry_id: object, problem: str) -> None:
        super().__init__(f"entry {entry_id!s}: {problem}")
        self.entry_id = str(entry_id)
        self.problem = problem


def format_time(value: datetime, field: str = "time") -> str:
    """A datetime as the stored UTC text; naive values are taken as UTC.

    Fixed width (the year always four digits), so lexical order is time order and SQL
    compares times as strings. A time that has no UTC equivalent (before year 1 or after
    9999 once converted) is refused with an error naming `field`.
    """
    utc = utc_time(value, field)
    # isoformat pads the year to four digits; strftime("%Y") does not on every platform.
    return utc.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def pad_year(text: str) -> str:
    """Stored time text with a short year (`999-01-01…`) zero-padded to four digits."""
    short = _SHORT_YEAR.match(text)
    return text if short is None else short.group(1).zfill(4) + text[short.end() - 1 :]


def parse_time(text: str) -> datetime:
    """The stored UTC text back as an aware datetime (ValueError if it is not a time)."""
    value = datetime.fromisoformat(pad_year(text))
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def time_or_none(text: object) -> datetime | None:
    """A stored time, or None where a damaged row holds something else."""
    try:
        return parse_time(text) if isinstance(text, str) else None
    except ValueError:
        return None


def epoch(text: str) -> float:
    """Stored UTC text as seconds since the epoch (for the vector index filters)."""
    return parse_time(text).timestamp()


def encode_vector(vector: npt.NDArray[np.float32]) -> bytes:
    """Little-endian float32 bytes, the on-disk vector format."""
    return np.asarray(vector, dtype="<f4").tobytes()


UNIT_TOLERANCE = 1e-3


def decode_vector(blob: bytes, dims: int, *, unit: bool = False) -> npt.NDArray[np.float32]:
    """Read a vector BLOB, rejecting one whose size or values are not a usable vector.

    With `unit`, also one that is not of length 1 (or 0): a memory's stored vector.
    """
    if len(blob) != dims * 4:
        raise EmbeddingDimensionError(
            f"stored vector has {len(blob)} bytes but records {dims} dimensions ({dims * 4} bytes)"
        )
    vector = np.frombuffer(blob, dtype="<f4").astype(np.float32)
    if not np.isfinite(vector).all():
        raise EmbeddingDimensionError("stored vector holds values that are not finite numbers")
    length = float(np.linalg.norm(vector.astype(np.float64)))
    if unit and length != 0.0 and abs(length - 1.0) > UNIT_TOLERANCE:
        # Every vector is stored at unit length (zero: matches nothing); another length
        # means changed bytes, and would score far above or below what it should.
        raise EmbeddingDimensionError(f"stored vector has length {length:.3g}, not 1")
    return vector


def _text(entry_id: object, name: str, value: object, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise BadRowError(entry_id, f"{name} is stored as {type(value).__name__}, not text")
    return value


def _time(entry_id: object, name: str, value: object) -> datetime:
    try:
        return parse_time(str(_text(entry_id, name, value)))
    except ValueError:
        raise BadRowError(entry_id, f"{name} {value!r} is not a readable time") from None


def entry_from_row(row: sqlite3.Row | tuple[object, ...]) -> MemoryEntry:
    """Build an entry from a row selected with `ENTRY_COLUMNS` (seq first).

    Raises `BadRowError` (naming the entry and the problem) for a row that cannot be an
    entry; readers skip such a row and report it instead of failing the whole store.
    """
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
    if not isinstance(importance, int | float) or not math.isfinite(importance):
        raise BadRowError(entry_id, f"importance {importance!r} is not a number")
    return MemoryEntry.model_construct(
        id=_text(entry_id, "id", entry_id),
        key=_text(entry_id, "key", key),
        content=_text(entry_id, "content", content),
        category=_text(entry_id, "category", category),
        timestamp=_time(entry_id, "created_at", created_at),
        updated_at=_time(entry_id, "updated_at", updated_at),
        session_id=_text(entry_id, "session_id", session_id, optional=True),
        namespace=_text(entry_id, "namespace", namespace),
        importance=float(importance),
        superseded_by=_text(entry_id, "superseded_by", superseded_by, optional=True),
        pinned=bool(pinned),
        source=_text(entry_id, "source", source),
        score=None,
        scores=None,
        # Given, not defaulted: model_construct would inspect the factory on every row.
        supersedes=[],
    )


def readable_entries(
    rows: Iterable[sqlite3.Row | tuple[object, ...]], warn: Callable[[str], None]
) -> list[MemoryEntry]:
    """Entries for the rows that can be read; each damaged row is reported and skipped.

    One bad row must never make a list, an export or a recall fail: the rest of the
    store stays usable, and `warn` tells the user which entry is damaged and how.
    """
    entries = []
    for row in rows:
        try:
            entries.append(entry_from_row(row))
        except BadRowError as exc:
            warn(f"{exc}; it was skipped (the row is still in the file)")
    return entries
