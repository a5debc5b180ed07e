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
from memory.errors import EmbeddingError

DEFAULT_HOST = "http://127.0.0.1:11434"

# The cosine band [unrelated, full match] of models we know. These are estimates from the
# models' published behaviour, not measurements (no Ollama server runs where memchat is
# developed): memory.vector_baseline and memory.vector_ceiling override them.
KNOWN_BANDS: dict[str, tuple[float, float]] = {"nomic-embed-text": (0.45, 0.80)}


class OllamaEmbedder:
    """Embedder backed by `ollama.AsyncClient.embed` (provider "ollama")."""

    provider = "ollama"

    def __init__(
        self,
        model: str = "nomic-embed-text",
        dimensions: int = 768,
        host: str | None = None,
        timeout_s: float = 10.0,
    ) -> None:
        self.model = model
        self.dimensions = dimensions
        self.host = host or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST
        self.timeout_s = timeout_s
        self._client: Any = None
        self.baseline, self.ceiling = KNOWN_BANDS.get(model.split(":")[0], (0.0, 1.0))

    @property
    def identity(self) -> str:
        """See `Embedder.identity`."""
        return embedder_identity(self.provider, self.model, self.dimensions)

    def _get_client(self) -> Any:
        if self._client is None:
            import ollama

            self._client = ollama.AsyncClient(host=self.host, timeout=self.timeout_s)
        return self._client

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """See `Embedder.embed`; every failure becomes `EmbeddingError`."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        try:
            response = await asyncio.wait_for(
                self._get_client().embed(model=self.model, input=list(texts)),
                timeout=self.timeout_s,
            )
        except TimeoutError as exc:
            raise EmbeddingError(
                f"embedding model {self.model!r} at {self.host} did not answer within "
                f"{self.timeout_s:g} s"
            ) from exc
        except Exception as exc:  # noqa: BLE001 - the client raises many transport types
            raise EmbeddingError(
                f"embedding with {self.model!r} at {self.host} failed: {exc}"
            ) from exc
        rows = list(response.embeddings)
        if len(rows) != len(texts):
            raise EmbeddingError(
                f"embedding model {self.model!r} returned {len(rows)} vectors "
                f"for {len(texts)} texts"
            )
        return unit_vectors(rows, self.dimensions, f"Ollama model {self.model!r}")
