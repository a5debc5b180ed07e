"""Fusion lab plug-ins that rank by one score and apply the floor on the product's.

    python -m bench.fusion_lab --methods product,bench.order_methods:ZRANK --quiet

The product's fused score is absolute: vector relevance is 0 below 3.5 standard deviations
above the anchors' mean, so among the candidates under that line only keywords order them.
These methods keep the product's score for the floor (what a turn injects, off-topic
shares) and order the candidates by a score that uses every cosine.
"""

from __future__ import annotations

import numpy as np

from bench.calibration_methods import query_anchor_cosines
from bench.fusion_lab import F64, Fused, Method, QueryView, product_score
from bench.lab_dump import POOL
from memory.calibration import MIN_SPREAD, Z_FULL

_PRODUCT = product_score()


def _considered(q: QueryView, cosine: F64) -> np.ndarray:
    nearest = np.argsort(-cosine, kind="stable")[:POOL]
    considered = q.lane.copy()
    considered[nearest] = True
    return considered


def z_scores(q: QueryView, cosine: F64) -> F64:
    """Each entry's cosine in standard deviations above the query's anchor mean."""
    anchors = query_anchor_cosines(q.embedder, q.text)
    spread = max(float(anchors.std()), MIN_SPREAD)
    z: F64 = (cosine - float(anchors.mean())) / spread
    return z


def zrank(z_low: float, alpha: float, z_high: float = Z_FULL) -> Method:
    """Order by alpha * (z placed between z_low and z_high) + (1 - alpha) * keyword."""

    def score(q: QueryView) -> Fused:
        base = _PRODUCT(q)
        if q.cosine is None:
            return base
        considered = ~np.isnan(base.score)
        v = np.clip((z_scores(q, q.cosine) - z_low) / (z_high - z_low), 0.0, 1.0)
        order = np.where(considered, alpha * v + (1 - alpha) * q.keyword, np.nan)
        return Fused(base.score, base.tiebreak, np.round(order, 6).astype(np.float64))

    return Method(f"zrank-{z_low}-{alpha}", score)


def minmax(alpha: float) -> Method:
    """Order by a convex combination of min-max normalised lanes (Bruch et al.)."""

    def score(q: QueryView) -> Fused:
        base = _PRODUCT(q)
        if q.cosine is None:
            return base
        considered = ~np.isnan(base.score)
        cos = q.cosine[considered]
        kw = q.keyword[considered]
        nv = (q.cosine - cos.min()) / max(float(cos.max() - cos.min()), 1e-9)
        nk = q.keyword / max(float(kw.max()), 1e-9)
        order = np.where(considered, alpha * nv + (1 - alpha) * nk, np.nan)
        return Fused(base.score, base.tiebreak, np.round(order, 6).astype(np.float64))

    return Method(f"minmax-{alpha}", score)


def rrf(k: int = 60, vector_share: float = 0.5) -> Method:
    """Order by reciprocal rank fusion of the keyword lane's and the vector lane's ranks."""

    def score(q: QueryView) -> Fused:
        base = _PRODUCT(q)
        if q.cosine is None:
            return base
        considered = ~np.isnan(base.score)
        n = q.cosine.size
        vrank = np.empty(n)
        vrank[np.argsort(-q.cosine, kind="stable")] = np.arange(n)
        krank = np.empty(n)
        krank[np.lexsort((q.bm25, -q.keyword))] = np.arange(n)
        krank[q.keyword <= 0] = 1e9
        fused = vector_share / (k + vrank) + (1 - vector_share) / (k + krank)
        return Fused(base.score, base.tiebreak, np.where(considered, fused, np.nan))

    return Method(f"rrf-{k}-{vector_share}", score)


ZRANK = zrank(1.0, 0.5)


def vector_only() -> Method:
    """Order by the cosine alone (to see what the vector lane could do by itself)."""

    def score(q: QueryView) -> Fused:
        base = _PRODUCT(q)
        if q.cosine is None:
            return base
        considered = ~np.isnan(base.score)
        return Fused(base.score, base.tiebreak, np.where(considered, q.cosine, np.nan))

    return Method("vector-only", score)


VONLY = vector_only()
MM3, MM5, MM7 = minmax(0.3), minmax(0.5), minmax(0.7)
RRF, RRF7 = rrf(60, 0.5), rrf(60, 0.7)
Z05, Z25 = zrank(0.5, 0.3), zrank(2.5, 0.3)


def soft_veto(share: float, vector_weight: float = 0.4) -> Method:
    """Vector relevance counted as at least `share` times the keyword score.

    The product took 0.3 (memory.entry.VECTOR_SHARE_OF_KEYWORD) from this sweep on the
    tuning half; before, a missing vector match cost a keyword hit the whole vector weight.
    """

    def score(q: QueryView) -> Fused:
        base = _PRODUCT(q)
        if q.cosine is None:
            return base
        considered = ~np.isnan(base.score)
        baseline, ceiling = q.band
        v = np.clip((q.cosine - baseline) / max(ceiling - baseline, 1e-6), 0.0, 1.0)
        v = np.maximum(v, share * q.keyword)
        fused = vector_weight * v + (1 - vector_weight) * q.keyword
        return Fused(np.where(considered, np.round(fused, 6), np.nan), base.tiebreak)

    return Method(f"soft-veto-{share}", score)


VETO25, VETO50, VETO75 = soft_veto(0.25), soft_veto(0.5), soft_veto(0.75)
VETO20, VETO30, VETO35, VETO40 = soft_veto(0.2), soft_veto(0.3), soft_veto(0.35), soft_veto(0.4)
