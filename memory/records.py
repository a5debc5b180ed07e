"""The export record: an entry plus its stored vector, so a round trip loses nothing."""

from __future__ import annotations

import base64
import binascii

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from memory.entry import MAX_EMBEDDING_DIMENSIONS, MemoryEntry

"""The largest vector a store accepts (the same bound as `embedding_dimensions`)."""


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
    """What `export` yields and `import_` accepts: every field, the vector included."""

    embedding: StoredEmbedding | None = None
