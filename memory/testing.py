"""Embedder doubles for tests and demos, shipped in the package like the agent's models."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from memory.embedding.base import FloatMatrix
from memory.embedding.hashing import HashingEmbedder
from memory.errors import EmbeddingError


class CountingEmbedder(HashingEmbedder):
    """A hashing embedder that records every batch it was asked to embed."""

    __test__ = False

    def __init__(self, dimensions: int = 64) -> None:
        super().__init__(dimensions)
        self.calls: list[list[str]] = []

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Record the call, then embed."""
        self.calls.append(list(texts))
        return await super().embed(texts)


class FailingEmbedder(HashingEmbedder):
    """Fails (or stalls, then fails) while `failing` is set; works like hashing otherwise."""

    __test__ = False

    def __init__(self, dimensions: int = 64, *, stall_s: float = 0.0) -> None:
        super().__init__(dimensions)
        self.failing = True
        self.stall_s = stall_s
        self.attempts = 0

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Raise `EmbeddingError` while failing."""
        self.attempts += 1
        if self.failing:
            if self.stall_s:
                await asyncio.sleep(self.stall_s)
            raise EmbeddingError("embedding server unreachable (test double)")
        return await super().embed(texts)
