"""The export record: an entry plus its stored vector, so a round trip loses nothing."""

from __future__ import annotations

import base64

from pydantic import BaseModel, ConfigDict

from memory.entry import MemoryEntry


class StoredEmbedding(BaseModel):
    """A vector exactly as stored: little-endian float32, base64 in JSON."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str
    """Embedding identity (provider:model:dimensions) that made the vector."""
    dims: int
    data: str
    """Base64 of the little-endian float32 bytes."""

    def to_bytes(self) -> bytes:
        """The raw BLOB."""
        return base64.b64decode(self.data)

    @classmethod
    def from_bytes(cls, model: str, dims: int, blob: bytes) -> StoredEmbedding:
        """Wrap a raw BLOB."""
        return cls(model=model, dims=dims, data=base64.b64encode(blob).decode("ascii"))


class MemoryRecord(MemoryEntry):
    """What `export` yields and `import_` accepts: every field, the vector included."""

    embedding: StoredEmbedding | None = None
