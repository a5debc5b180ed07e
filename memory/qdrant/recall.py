"""Recall over a Qdrant collection: the keyword and vector lanes, fused like SQLite's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from qdrant_client import models

from memory.entry import MemoryEntry, RecallResult, RecallScores
from memory.fused_ranking import query_vector, rank
from memory.qdrant.payload import from_payload, recall_filter
from memory.retrieval import RecallFilters, keyword_coverage, term_weights
from memory.text import query_terms

if TYPE_CHECKING:
    from memory.qdrant.store import QdrantMemory

_KEYWORD_CAP = 5000
"""Most keyword matches scored per query; beyond it the rarest terms still decide."""


async def recent_recall(memory: QdrantMemory, filters: RecallFilters, limit: int) -> RecallResult:
    """An empty query: the newest entries, unscored."""
    entries = await memory._entries(recall_filter(filters))
    entries.sort(key=lambda e: (e.updated_at, e.id), reverse=True)
    return RecallResult(
        entries=[
            e.model_copy(update={"scores": RecallScores(fused=0.0, lane="recent")})
            for e in entries[:limit]
        ],
        mode="recent",
    )


async def hybrid_recall(
    memory: QdrantMemory,
    text: str,
    filters: RecallFilters,
    limit: int,
    given_vector: Any = None,
) -> RecallResult:
    """Absolute fused scores, the relevance floor, and entries below it kept aside."""
    client, collection = memory._client, memory.collection
    terms = query_terms(text)
    base = recall_filter(filters)
    pool = max(limit * 4, 40)
    vector, band, calibrated = await query_vector(memory, text, given_vector)
    weights: dict[str, float] = {}
    found: dict[str, tuple[MemoryEntry, frozenset[str]]] = {}
    keyword_ids: set[str] = set()
    cosines: dict[str, float] = {}
    if terms:
        # One scan of the term arrays: the points holding any query term also give each
        # term's document frequency (exact below the cap), so no count per term is needed.
        # Unlike SQLite's and PostgreSQL's, these frequencies count only the points the
        # filters let through: with several namespaces or superseded entries, scores differ
        # slightly.
        total = (await memory._call(client.count, collection, count_filter=base, exact=True)).count
        page, _ = await memory._call(
            client.scroll,
            collection,
            scroll_filter=recall_filter(filters, any_terms=terms),
            limit=_KEYWORD_CAP,
            with_payload=["terms"],
        )
        held = {str(r.id): frozenset((r.payload or {}).get("terms", ())) for r in page}
        weights = term_weights(
            {term: sum(term in point_terms for point_terms in held.values()) for term in terms},
            total,
        )
        # Only the best by coverage go on, as SQLite keeps its best BM25 candidates: their
        # entries and vectors are fetched, not those of every point that shares a word.
        best = sorted(held, key=lambda pid: (-keyword_coverage(held[pid], weights), pid))[:pool]
        keyword_ids = set(best)
        records = await memory._call(
            client.retrieve,
            collection,
            ids=best,
            with_payload=True,
            with_vectors=["dense"] if vector is not None else False,
        )
        for record in records:
            payload = record.payload or {}
            found[str(record.id)] = (from_payload(payload), held[str(record.id)])
            stored = record.vector.get("dense") if isinstance(record.vector, dict) else None
            if vector is not None and stored is not None:
                if payload.get("embedding_model") == memory.identity:
                    cosines[str(record.id)] = float(np.dot(np.asarray(stored), vector))
    if vector is not None:
        current = models.FieldCondition(
            key="embedding_model", match=models.MatchValue(value=memory.identity or "")
        )
        scoped = base.model_copy(update={"must": [*(base.must or []), current]})
        hits = await memory._call(
            client.query_points,
            collection,
            query=vector.tolist(),
            using="dense",
            query_filter=scoped,
            limit=pool,
            with_payload=True,
        )
        for point in hits.points:
            payload = point.payload or {}
            cosines[str(point.id)] = float(point.score)
            found.setdefault(
                str(point.id), (from_payload(payload), frozenset(payload.get("terms", ())))
            )
    return rank(memory, found, keyword_ids, cosines, weights, band, limit, calibrated)
