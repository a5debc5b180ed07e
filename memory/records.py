"""The export record: an entry plus its stored vector, so a round trip loses nothing."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from datetime import datetime

import numpy as np
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from memory.entry import MAX_EMBEDDING_DIMENSIONS, MemoryEntry, valid_category
from memory.errors import RecordFieldError

"""The largest vector a store accepts (the same bound as `embedding_dimensions`)."""

_ISO_EXAMPLE = "like 2026-01-31T09:30:00Z"


def vector_problem(blob: bytes, dims: int) -> str | None:
    """Why `blob` is not a usable float32 vector of `dims` dimensions, or None if it is."""
    if not 1 <= dims <= MAX_EMBEDDING_DIMENSIONS:
        return f"dims must be between 1 and {MAX_EMBEDDING_DIMENSIONS}, got {dims}"
    if len(blob) != dims * 4:
        return (
            f"data holds {len(blob)} bytes, but {dims} dimensions of float32 take {dims * 4} bytes"
        )
    if not np.isfinite(np.frombuffer(blob, dtype="<f4")).all():
        return "data holds values that are not finite numbers (NaN or infinity)"
    return None


class StoredEmbedding(BaseModel):
    """A vector exactly as stored: little-endian float32, base64 in JSON.

    Checked when built: valid base64, exactly `dims * 4` bytes, `dims` within range, every
    value finite. A vector that fails would be stored and then break every read.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str = Field(min_length=1)
    """Embedding identity (provider:model:dimensions) that made the vector."""
    dims: int
    data: str
    """Base64 of the little-endian float32 bytes."""

    @field_validator("dims")
    @classmethod
    def _dims_in_range(cls, value: int) -> int:
        if not 1 <= value <= MAX_EMBEDDING_DIMENSIONS:
            raise ValueError(f"dims must be between 1 and {MAX_EMBEDDING_DIMENSIONS}")
        return value

    @field_validator("data")
    @classmethod
    def _base64(cls, value: str) -> str:
        try:
            base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("data is not valid base64") from None
        return value

    @model_validator(mode="after")
    def _usable_vector(self) -> StoredEmbedding:
        problem = vector_problem(base64.b64decode(self.data), self.dims)
        if problem is not None:
            raise ValueError(f"embedding {problem}")
        return self

    def to_bytes(self) -> bytes:
        """The raw BLOB."""
        return base64.b64decode(self.data)

    @classmethod
    def from_bytes(cls, model: str, dims: int, blob: bytes) -> StoredEmbedding:
        """Wrap a raw BLOB (validated: a damaged vector raises `ValueError`)."""
        return cls(model=model, dims=dims, data=base64.b64encode(blob).decode("ascii"))

    @classmethod
    def trusted(cls, model: str, dims: int, blob: bytes) -> StoredEmbedding:
        """Wrap a BLOB already checked with `vector_problem` (no second decode)."""
        return cls.model_construct(
            model=model, dims=dims, data=base64.b64encode(blob).decode("ascii")
        )


class MemoryRecord(MemoryEntry):
    """What `export` yields and `import_` accepts: every field, the vector included.

    Stricter than an entry read from a store, since a file can hold anything: times are
    ISO 8601 text (a number is ambiguous: seconds or milliseconds?), the category is a
    name a person can read, and an entry is never superseded by itself.
    """

    embedding: StoredEmbedding | None = None

    @field_validator("timestamp", "updated_at", mode="before")
    @classmethod
    def _iso_text(cls, value: object) -> object:
        if isinstance(value, datetime):
            return value  # built in Python (an export), not read from a file
        if not isinstance(value, str):
            raise ValueError(
                f"expected an ISO 8601 date-time ({_ISO_EXAMPLE}) as text; a number is "
                "refused, since it could be seconds or milliseconds"
            )
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"expected an ISO 8601 date-time ({_ISO_EXAMPLE})") from None
        return value

    @field_validator("importance", mode="before")
    @classmethod
    def _a_number(cls, value: object) -> object:
        # Lax parsing took true for 1.0 and "0.5" for 0.5 (found by an adversary).
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError("expected a number from 0 to 1")
        return value

    @field_validator("pinned", mode="before")
    @classmethod
    def _true_or_false(cls, value: object) -> object:
        # Lax parsing took "yes", "no", 0 or "off" for a pin (found by an adversary).
        if not isinstance(value, bool):
            raise ValueError("expected true or false")
        return value

    @field_validator("category")
    @classmethod
    def _readable_category(cls, value: str) -> str:
        return valid_category(value)

    @field_validator("superseded_by")
    @classmethod
    def _not_itself(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and value == info.data.get("id"):
            raise ValueError(
                "names the record's own id: an entry superseded by itself could never be "
                "active again (use null for an active entry)"
            )
        return value


def check_record_set(records: Sequence[MemoryEntry], lines: Sequence[int] = ()) -> None:
    """Refuse records that are each valid but wrong together, naming the line and field.

    One id under two keys is two different memories claiming one identity; `superseded_by`
    links that loop (A by B, B by A) leave every entry of the loop superseded, never active
    again. `lines` gives each record's line (the record's position when empty).

    Raises:
        RecordFieldError: The first such record.
    """
    line = list(lines) or list(range(1, len(records) + 1))
    first: dict[tuple[str, str], int] = {}
    successor: dict[str, str | None] = {}
    where: dict[str, int] = {}
    for index, record in enumerate(records):
        # Another namespace's record with the same id is renumbered on import, not refused.
        seen = first.setdefault((record.id, record.namespace), index)
        if records[seen].key != record.key:
            raise RecordFieldError(
                line[index],
                "id",
                f"id {record.id!r} is already used by line {line[seen]} for key "
                f"{records[seen].key!r}; one id cannot name two different memories",
            )
        successor[record.id] = record.superseded_by  # the last version is what is stored
        where.setdefault(record.id, index)
    done: set[str] = set()
    for start in successor:
        path: dict[str, None] = {}  # the current walk, in order
        node: str | None = start
        while node is not None and node in successor and node not in done and node not in path:
            path[node] = None
            node = successor[node]
        if node is not None and node in path:
            loop = list(path)[list(path).index(node) :]
            index = min(where[member] for member in loop)
            raise RecordFieldError(
                line[index],
                "superseded_by",
                f"the superseded_by links form a loop ({' -> '.join([*loop, node])}), so "
                "none of these entries could ever be active; set superseded_by to null on "
                "the one to keep",
            )
        done.update(path)
