"""Embeddings from an OpenAI-compatible `/v1/embeddings` endpoint (llama-server, vLLM …)."""

from __future__ import annotations

from collections.abc import Sequence

import httpx
import numpy as np

from memory.embedding.base import FloatMatrix, embedder_identity, unit_vectors
from memory.embedding.prefixes import prefixes_for
from memory.errors import EmbeddingError


class OpenAIEmbedder:
    """Provider "openai": any server that answers POST /embeddings."""

    provider = "openai"

    def __init__(
        self,
        model: str,
        dimensions: int,
        base_url: str,
        *,
        api_key: str = "",
        timeout_s: float = 10.0,
        task_prefixes: bool = True,
    ) -> None:
        self.model = model
        self.dimensions = dimensions
        self.base_url = base_url.rstrip("/")
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.timeout_s = timeout_s
        self.prefixes = prefixes_for(model) if task_prefixes else None

    @property
    def identity(self) -> str:
        """See `Embedder.identity`."""
        scheme = "" if self.prefixes is None else self.prefixes.scheme
        return embedder_identity(self.provider, self.model, self.dimensions, scheme)

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
            async with httpx.AsyncClient(timeout=self.timeout_s, headers=self._headers) as client:
                reply = await client.post(
                    f"{self.base_url}/embeddings", json={"model": self.model, "input": texts}
                )
                reply.raise_for_status()
                data = sorted(reply.json()["data"], key=lambda item: item.get("index", 0))
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            raise EmbeddingError(f"embedding at {self.base_url} failed: {exc}") from exc
        if len(data) != len(texts):
            raise EmbeddingError(
                f"{self.base_url} returned {len(data)} vectors for {len(texts)} texts"
            )
        return unit_vectors(
            [item["embedding"] for item in data],
            self.dimensions,
            f"{self.base_url} model {self.model!r}",
        )
