"""Self-calibrating vector relevance and fusion, for `bench.fusion_lab` and `bench.calib_lab`.

Vector relevance without a per-model band: per query, the cosine to each entry is turned
into a z-score against a reference distribution, the query's cosines to a fixed set of
generic anchor sentences (memory/anchors.txt, embedded as documents once per model),
optionally pooled with the store's own cosines; z maps to [0, 1] linearly between z0 and
z1. Fusion is a convex combination with memchat's keyword coverage.

    python -m bench.fusion_lab --methods product,bench.calibration_methods:WINNER --quiet
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from bench import embedders as bench_embedders
from bench.calib_lab import Block, anchor_texts
from bench.fusion_lab import Fused, Method, QueryView, keyword_only, product_score
from bench.lab_dump import POOL

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class ZFuse:
    """Parameters of calibrated fusion."""

    z0: float = 3.0
    z1: float = 7.0
    alpha: float = 0.5
    """Weight of the calibrated vector relevance (1 - alpha: keyword coverage)."""
    ref: str = "anchor"
    """anchor | pooled (anchors and the store's cosines) | store."""
    robust: bool = False
    """median/MAD instead of mean/std."""
    min_sigma: float = 0.01
    agree: float = 0.0
    """Extra weight on v * k (both lanes agree), taken from both linear terms."""
    key_floor: float = 0.0
    """Keyword coverage below this counts 0 (rescaled above)."""

    def reference(self, anchor: F64, store: F64) -> tuple[F64, F64]:
        """(centre, spread) per query (columns)."""
        if self.ref == "anchor":
            ref = anchor
        elif self.ref == "store":
            ref = store
        else:
            ref = np.concatenate([anchor, store], axis=1)
        if self.robust:
            mu = np.median(ref, axis=1, keepdims=True)
            sd = 1.4826 * np.median(np.abs(ref - mu), axis=1, keepdims=True)
        else:
            mu = ref.mean(axis=1, keepdims=True)
            sd = ref.std(axis=1, keepdims=True)
        return mu, np.maximum(sd, self.min_sigma)

    def relevance(self, cos: F64, anchor: F64) -> F64:
        """Calibrated vector relevance in [0, 1]."""
        mu, sd = self.reference(anchor, cos)
        z = (cos - mu) / sd
        return np.clip((z - self.z0) / max(self.z1 - self.z0, 1e-6), 0.0, 1.0)

    def fuse(self, v: F64, k: F64) -> F64:
        """Fused score in [0, 1]."""
        if self.key_floor > 0:
            k = np.clip((k - self.key_floor) / (1 - self.key_floor), 0.0, 1.0)
        lin = self.alpha * v + (1 - self.alpha) * k
        return (1 - self.agree) * lin + self.agree * v * k

    def matrix(self, b: Block) -> tuple[F64, F64]:
        """calib_lab method."""
        kw = np.where(b.lane, np.round(b.keyword, 6), np.nan)
        if b.cos is None or b.anchor is None:
            return kw, np.zeros_like(b.keyword)
        v = self.relevance(b.cos, b.anchor)
        nearest = np.argsort(-b.cos, axis=1, kind="stable")[:, :POOL]
        considered = b.lane.copy()
        np.put_along_axis(considered, nearest, True, axis=1)
        fused = self.fuse(v, b.keyword)
        return (
            np.where(considered, np.round(fused, 6), np.nan),
            np.where(considered, b.cos, 0.0),
        )

    def __call__(self, q: QueryView) -> Fused:
        """fusion_lab method (one query)."""
        if q.cosine is None:
            return keyword_only(q)
        anchor = query_anchor_cosines(q.embedder, q.text)[None, :]
        block = Block(
            "",
            "",
            np.array([True]),
            [[]],
            [0],
            q.keyword[None, :],
            q.lane[None, :],
            q.bm25[None, :],
            np.zeros(q.keyword.size, dtype=np.int64),
            q.cosine[None, :],
            anchor,
        )
        score, tiebreak = self.matrix(block)
        return Fused(score[0], tiebreak[0])


@cache
def _anchor_vectors(name: str) -> F64:
    embedder = bench_embedders.make(name)
    assert embedder is not None
    return np.asarray(asyncio.run(embedder.embed(anchor_texts())), dtype=np.float64)


@cache
def _embedder(name: str) -> Any:
    return bench_embedders.make(name)


def query_anchor_cosines(name: str, text: str) -> F64:
    """The query's cosines to the anchor sentences (query vector from the cache)."""
    embedder = _embedder(name)
    embed = getattr(embedder, "embed_queries", embedder.embed)
    vector = np.asarray(asyncio.run(embed([text])), dtype=np.float64)[0]
    cosines: F64 = _anchor_vectors(name) @ vector
    return cosines


def method(name: str, params: ZFuse, floor: float = 0.3, follow_up: float = 0.7) -> Method:
    """A fusion_lab Method."""
    return Method(name, params, floor=floor, follow_up=follow_up)


WINNER_PARAMS = ZFuse(z0=3.5, z1=7.5, alpha=0.4, ref="anchor", robust=False, min_sigma=0.01)
"""Chosen on the tuning half (conversations 0-1 of 0-2: the vectors of 2 were not ready)."""
WINNER = method("zfuse-anchor150", WINNER_PARAMS, floor=0.3, follow_up=0.7)
WINNER_NO_FOLLOW_UP = method("zfuse-anchor150-no-follow-up", WINNER_PARAMS, follow_up=0.0)


PRODUCT_NO_EARLY_RETURN = Method("product-no-early-return", product_score(early_return=1.0))
"""The product with early_return_score = 1 (every query embedded)."""
