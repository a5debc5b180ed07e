"""Recall over a Qdrant collection: the keyword and vector lanes, fused like SQLite's."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from memory.calibration import CosineBand
from memory.entry import MemoryEntry, RecallResult, RecallScores
from memory.fused_ranking import Ranked, order, query_vector, result, shown
from memory.qdrant.payload import from_payload, recall_filter
from memory.qdrant.points import TERMS, PointFilter, StoredPoint
from memory.retrieval import RecallFilters, term_weights
from memory.text import query_terms

if TYPE_CHECKING:
    from memory.qdrant.store import QdrantMemory


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
    vector, band, calibrated = await query_vector(memory, text, given_vector)
    lanes = _Lanes(
        terms=query_terms(text),
        base=recall_filter(filters),
        pool=max(limit * 4, 40),
        vector=None if vector is None else [float(x) for x in vector],
        identity=memory.identity or "",
    )
    # One trip to the worker thread for the whole search: each trip costs a thread switch.
    chosen, entries = await memory._call(_search, memory, lanes, band, limit)
    return result(memory, chosen, entries, band, calibrated)


@dataclass(frozen=True)
class _Lanes:
    terms: list[str]
    base: PointFilter
    pool: int
    vector: list[float] | None
    identity: str


def _search(
    memory: QdrantMemory, lanes: _Lanes, band: CosineBand | None, limit: int
) -> tuple[list[Ranked], dict[str, MemoryEntry]]:
    """Both lanes, fused; only the entries shown are read whole."""
    points = memory._points
    weights: dict[str, float] = {}
    found: dict[str, tuple[str, frozenset[str]]] = {}
    cosines: dict[str, float] = {}

    def keep(hit: StoredPoint) -> None:
        found[hit.id] = (str(hit.payload.get("key", "")), frozenset(hit.payload.get(TERMS, ())))

    if lanes.terms:
        # Frequencies over the whole collection, as SQLite counts them: the same query
        # gets the same keyword scores from either backend.
        weights = term_weights(points.term_counts(lanes.terms), points.total())
        for hit in points.keyword_hits(weights, lanes.base, lanes.pool):
            keep(hit)
    keyword_ids = set(found)
    if lanes.vector is not None:
        scoped = replace(lanes.base, embedding_model=lanes.identity)
        cosines.update(points.nearest(lanes.vector, scoped, lanes.pool))
        # A keyword hit the vector lane did not return still has a cosine to count.
        lacking = frozenset(keyword_ids - cosines.keys())
        if lacking:
            cosines.update(
                points.nearest(lanes.vector, replace(scoped, only=lacking), len(lacking))
            )
        for hit in points.retrieve(
            [pid for pid in cosines if pid not in found], fields=[TERMS, "key"]
        ):
            keep(hit)
    chosen = shown(memory, order(memory, found, keyword_ids, cosines, weights, band), limit)
    read = points.retrieve([ranked.entry_id for ranked in chosen])
    return chosen, {record.id: from_payload(record.payload) for record in read}
