"""Ranking shared by the server backends (Qdrant, PostgreSQL): SQLite's scores, elsewhere.

A backend gathers candidates from its keyword and vector lanes; this module embeds the query,
fuses both components for every candidate with the shared weights and model band, applies
the relevance floor, and explains each score, so every backend answers alike.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from memory.embedding.base import Embedder
from memory.entry import MemoryEntry, RecallResult
from memory.errors import EmbeddingError
from memory.retrieval import Candidate, explain, fused_score, keyword_coverage
from memory.settings import MemorySettings


class RankingStore(Protocol):
    """What ranking needs from a backend."""

    settings: MemorySettings
    embedder: Embedder | None
    last_embedding_error: str | None


async def query_vector(
    store: RankingStore, text: str, given: Any = None
) -> npt.NDArray[np.float32] | None:
    """The query's vector (`given`, or embedded as a query); None when embeddings fail."""
    if given is not None:
        return np.asarray(given, dtype=np.float32)
    embedder = store.embedder
    if embedder is None:
        return None
    embed_queries = getattr(embedder, "embed_queries", None)
    try:
        rows = await (embed_queries or embedder.embed)([text])
    except EmbeddingError as exc:
        store.last_embedding_error = str(exc)
        return None
    store.last_embedding_error = None
    return np.asarray(rows[0], dtype=np.float32)


def rank(
    store: RankingStore,
    found: dict[str, tuple[MemoryEntry, frozenset[str]]],
    keyword_ids: set[str],
    cosines: dict[str, float],
    weights: dict[str, float],
    hybrid: bool,
    limit: int,
) -> RecallResult:
    """Fused, floored, explained results from gathered candidates."""
    settings, embedder = store.settings, store.embedder
    baseline = settings.vector_baseline
    if baseline < 0:
        baseline = float(getattr(embedder, "baseline", 0.0))
    ceiling = settings.vector_ceiling
    if ceiling < 0:
        ceiling = float(getattr(embedder, "ceiling", 1.0))
    scored: list[tuple[float, MemoryEntry]] = []
    for seq, (entry_id, (entry, terms)) in enumerate(found.items()):
        coverage = keyword_coverage(terms, weights) if weights else 0.0
        candidate = Candidate(
            seq=seq,
            keyword=coverage if coverage > 0 else None,
            vector=cosines.get(entry_id),
            in_keyword_lane=entry_id in keyword_ids,
            in_vector_lane=entry_id in cosines,
            terms=terms,
        )
        fused = fused_score(
            candidate, settings.vector_weight, settings.keyword_weight, hybrid, baseline, ceiling
        )
        scores = explain(candidate, fused, baseline=baseline, ceiling=ceiling)
        scored.append((fused, entry.model_copy(update={"score": fused, "scores": scores})))
    scored.sort(key=lambda pair: (-pair[0], pair[1].key))
    floor = settings.min_relevance_score
    degraded = None
    if embedder is not None and not hybrid:
        degraded = f"embeddings unavailable ({store.last_embedding_error}); keyword-only"
    return RecallResult(
        entries=[e for s, e in scored if s >= floor][:limit],
        below_floor=[e for s, e in scored if s < floor][:limit],
        mode="hybrid" if hybrid else "keyword",
        degraded=degraded,
    )
