"""A deterministic, offline embedder: feature hashing of analysed terms and their trigrams.

It captures word overlap, not meaning, so it is a stand-in for tests, benchmarks and
machines with no embedding model; its vectors are stable across runs and processes.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from memory.embedding.base import FloatMatrix, embedder_identity, unit_vectors
from memory.text import analyze

_EMBEDDED_IN_PLACE = 20_000
"""Characters embedded on the caller's event loop; more are embedded in a worker thread."""


@lru_cache(maxsize=131_072)
def _bucket(feature: str, dimensions: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dimensions, 1.0 if value >> 63 else -1.0


class HashingEmbedder:
    """Feature-hashing embedder (provider "hashing")."""

    provider = "hashing"
    model = "blake2b-terms"

    def __init__(self, dimensions: int = 256) -> None:
        self.dimensions = dimensions

    @property
    def identity(self) -> str:
        """See `Embedder.identity`."""
        return embedder_identity(self.provider, self.model, self.dimensions)

    def embed_sync(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed without awaiting (the work is CPU-only and fast)."""
        matrix = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for term in analyze(text):
                index, sign = _bucket(term, self.dimensions)
                matrix[row, index] += sign
                # Trigrams make "prefer" and "preference" land near each other.
                padded = f"#{term}#"
                for start in range(len(padded) - 2):
                    index, sign = _bucket(padded[start : start + 3], self.dimensions)
                    matrix[row, index] += 0.25 * sign
        return unit_vectors(matrix, self.dimensions, "hashing embedder", allow_zero=True)

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """See `Embedder.embed`.

        A long text is embedded off the event loop: a pasted log of 350 KB held the app
        for a fifth of a second while its terms were hashed.
        """
        if sum(len(text) for text in texts) > _EMBEDDED_IN_PLACE:
            return await asyncio.to_thread(self.embed_sync, texts)
        return self.embed_sync(texts)
