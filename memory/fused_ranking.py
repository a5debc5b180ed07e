"""Ranking shared by the server backends (Qdrant, PostgreSQL): SQLite's scores, elsewhere.

A backend gathers candidates from its keyword and vector lanes; this module embeds the query,
calibrates the model (`memory.calibration`), fuses both components for every candidate with
the shared weights and the query's cosine band, applies the relevance floor, and explains
each score, so every backend answers alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from memory.calibration import (
    CosineBand,
    band_for,
    calibrate_embedder,
    calibration_note,
    fixed_band,
)
from memory.embedding.base import Embedder
from memory.entry import MemoryEntry, RecallResult
from memory.errors import EmbeddingError
from memory.owners import Person, owner_rank
from memory.retrieval import Candidate, explain, fused_score, keyword_coverage, settled_score
from memory.settings import MemorySettings


class RankingStore(Protocol):
    """What ranking needs from a backend."""

    settings: MemorySettings
    embedder: Embedder | None
    last_embedding_error: str | None

    @property
    def calibration_file(self) -> Path | None:
        """Where the store keeps the anchors' vectors between processes (None: nowhere)."""
        ...


async def query_vector(
    store: RankingStore, text: str, given: Any = None
) -> tuple[npt.NDArray[np.float32] | None, CosineBand | None, str | None]:
    """The query's vector, its cosine band, and a note when the model was just calibrated.

    The vector is `given`, or embedded as a query; (None, None, None) when embeddings or
    the model's calibration fail (the error is kept in `last_embedding_error`).
    """
    settings, embedder = store.settings, store.embedder
    vector = None if given is None else np.asarray(given, dtype=np.float32)
    fixed = fixed_band(settings)
    if embedder is None:
        # Only a given vector and a fixed band make a hybrid recall without an embedder.
        return (
            (vector, fixed, None)
            if vector is not None and fixed is not None
            else (None, None, None)
        )
    note = None
    try:
        calibration = None
        if fixed is None:
            calibration, fresh = await calibrate_embedder(embedder, store.calibration_file)
            note = calibration_note(embedder.model) if fresh else None
        if vector is None:
            embed_queries = getattr(embedder, "embed_queries", None)
            rows = await (embed_queries or embedder.embed)([text])
            vector = np.asarray(rows[0], dtype=np.float32)
    except EmbeddingError as exc:
        store.last_embedding_error = str(exc)
        return None, None, None
    store.last_embedding_error = None
    return vector, band_for(settings, calibration, vector), note


async def calibrate(store: RankingStore) -> bool:
    """See `Memory.calibrate`; a failure is kept in `last_embedding_error`."""
    if store.embedder is None or fixed_band(store.settings) is not None:
        return True
    try:
        await calibrate_embedder(store.embedder, store.calibration_file)
    except EmbeddingError as exc:
        store.last_embedding_error = str(exc)
        return False
    return True


@dataclass
class Ranked:
    """One candidate with its fused score, before its entry is read."""

    fused: float
    entry_id: str
    key: str
    candidate: Candidate


def order(
    store: RankingStore,
    found: dict[str, tuple[str, frozenset[str]]],
    keyword_ids: set[str],
    cosines: dict[str, float],
    weights: dict[str, float],
    band: CosineBand | None,
    *,
    settled: bool = False,
    asked: Person | None = None,
) -> list[Ranked]:
    """Every candidate (id → its key and terms) fused and ordered, best first.

    `settled`: a strong keyword match settled the recall ("keyword-early"): see
    `retrieval.settled_score`. `asked`: whom the query asks about (`memory.owners`): among
    equal scores the user's own facts come first, as in SQLite.
    """
    settings = store.settings
    hybrid = band is not None
    ranked = []
    for seq, (entry_id, (key, terms)) in enumerate(found.items()):
        coverage = keyword_coverage(terms, weights) if weights else 0.0
        candidate = Candidate(
            seq=seq,
            keyword=coverage if weights else None,
            vector=cosines.get(entry_id),
            in_keyword_lane=entry_id in keyword_ids,
            in_vector_lane=entry_id in cosines,
            terms=terms,
        )
        fused = (
            settled_score(coverage, settings)
            if settled
            else fused_score(
                candidate, settings.vector_weight, settings.keyword_weight, hybrid, band
            )
        )
        ranked.append(Ranked(fused, entry_id, key, candidate))
    ranked.sort(key=lambda r: (-r.fused, owner_rank(asked, r.candidate.terms), r.key))
    return ranked


def shown(store: RankingStore, ranked: list[Ranked], limit: int) -> list[Ranked]:
    """The candidates a result shows: up to `limit` above the floor, then `limit` below."""
    floor = store.settings.min_relevance_score
    return [r for r in ranked if r.fused >= floor][:limit] + [r for r in ranked if r.fused < floor][
        :limit
    ]


def best_keyword(
    found: Mapping[str, tuple[str, frozenset[str]]], weights: dict[str, float]
) -> float:
    """The best keyword coverage among the candidates (id → key and terms)."""
    return max((keyword_coverage(terms, weights) for _, terms in found.values()), default=0.0)


def result(
    store: RankingStore,
    chosen: list[Ranked],
    entries: Mapping[str, MemoryEntry],
    band: CosineBand | None,
    calibration: str | None = None,
    *,
    early: bool = False,
) -> RecallResult:
    """The recall result for `chosen` (from `shown`), each entry scored and explained.

    `early`: the keyword lane settled it and no vector was asked for (SQLite's
    "keyword-early"), which is not a degraded recall.
    """
    hybrid = band is not None
    floor = store.settings.min_relevance_score
    passing: list[MemoryEntry] = []
    below: list[MemoryEntry] = []
    for ranked in chosen:
        entry = entries.get(ranked.entry_id)
        if entry is None:
            continue  # removed between the search and the read
        parent = ranked.candidate.context_of
        context_of = parent if isinstance(parent, str) else None
        scores = explain(ranked.candidate, ranked.fused, context_of, band=band)
        scored = entry.model_copy(update={"score": ranked.fused, "scores": scores})
        (passing if ranked.fused >= floor else below).append(scored)
    degraded = None
    if store.embedder is not None and not hybrid and not early:
        degraded = f"embeddings unavailable ({store.last_embedding_error}); keyword-only"
    return RecallResult(
        entries=passing,
        below_floor=below,
        mode="keyword-early" if early else ("hybrid" if hybrid else "keyword"),
        degraded=degraded,
        calibration=calibration,
    )
