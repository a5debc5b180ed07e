"""Embeddings from an Ollama server's native batch endpoint (/api/embed).

The memory layer cannot import the agent's model module, so this is the second (and
last) module that imports `ollama`; it does so lazily to keep `import memory` fast.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from memory.embedding.base import FloatMatrix, embedder_identity, unit_vectors
from memory.embedding.prefixes import prefixes_for
from memory.errors import EmbeddingError
from memory.wording import without_password

DEFAULT_HOST = "http://127.0.0.1:11434"


class OllamaEmbedder:
    """Embedder backed by `ollama.AsyncClient.embed` (provider "ollama")."""

    provider = "ollama"

    def __init__(
        self,
        model: str = "nomic-embed-text",
        dimensions: int = 768,
        host: str | None = None,
        timeout_s: float = 10.0,
        task_prefixes: bool = True,
    ) -> None:
        self.model = model
        self.dimensions = dimensions
        self.host = host or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST
        self.timeout_s = timeout_s
        self._client: Any = None
        self.prefixes = prefixes_for(model) if task_prefixes else None

    @property
    def identity(self) -> str:
        """See `Embedder.identity`."""
        scheme = "" if self.prefixes is None else self.prefixes.scheme
        return embedder_identity(self.provider, self.model, self.dimensions, scheme)

    def _get_client(self) -> Any:
        if self._client is None:
            import ollama

            self._client = ollama.AsyncClient(host=self.host, timeout=self.timeout_s)
        return self._client

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed stored texts; see `Embedder.embed`."""
        prefixes = self.prefixes
        return await self._embed(
            list(texts) if prefixes is None else prefixes.documents(list(texts))
        )

    async def embed_queries(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed search queries (with the family's query instruction, if any)."""
        prefixes = self.prefixes
        return await self._embed(list(texts) if prefixes is None else prefixes.queries(list(texts)))

    async def _embed(self, texts: list[str]) -> FloatMatrix:
        """Every failure becomes `EmbeddingError`."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        try:
            response = await asyncio.wait_for(
                self._get_client().embed(model=self.model, input=texts),
                timeout=self.timeout_s,
            )
        except TimeoutError as exc:
            raise EmbeddingError(
                f"embedding model {self.model!r} at {without_password(self.host)} did not "
                f"answer within {self.timeout_s:g} s"
            ) from exc
        except Exception as exc:  # noqa: BLE001 - the client raises many transport types
            raise EmbeddingError(
                f"embedding with {self.model!r} at {without_password(self.host)} failed: {exc}"
            ) from exc
        rows = list(response.embeddings)
        if len(rows) != len(texts):
            raise EmbeddingError(
                f"embedding model {self.model!r} returned {len(rows)} vectors "
                f"for {len(texts)} texts"
            )
        return unit_vectors(rows, self.dimensions, f"Ollama model {self.model!r}")
