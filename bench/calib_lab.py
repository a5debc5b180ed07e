"""A vectorised twin of `bench.fusion_lab` for parameter sweeps of calibrated fusion.

    python -m bench.calib_lab            # (used from scripts: load(), evaluate())

Loads the lab dump (meta.json, keyword.npz) and takes cosines from the dumped
cos-<name>.npz or, where missing, straight from the vector cache (namespaces whose
vectors are all cached; others skipped). It also gives each query's cosines to the anchor
sentences (memory/anchors.txt, embedded as documents). A matrix method gets a `Block` (one
namespace, all its queries) and returns (score, tiebreak) matrices, NaN = not considered;
ranking, follow-ups, floor and limit are those of `bench.fusion_lab.rank`, vectorised.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from bench import embedders as bench_embedders
from bench.lab_dump import folder
from memory import calibration

F64 = npt.NDArray[np.float64]


def anchor_texts() -> list[str]:
    """The anchor sentences the store calibrates with (memory/anchors.txt)."""
    return list(calibration.anchor_texts())


@dataclass
class Block:
    """One namespace's queries against its entries."""

    name: str
    half: str
    kind: npt.NDArray[np.bool_]  # True = on-topic question
    evidence: list[list[int]]
    total: list[int]  # evidence turns of each query (some may not be stored)
    keyword: F64
    lane: npt.NDArray[np.bool_]
    bm25: npt.NDArray[np.int64]
    nxt: npt.NDArray[np.int64]
    cos: F64 | None
    anchor: F64 | None  # queries x anchors
    texts: list[str] = field(default_factory=list)

    def subset(self, entries: npt.NDArray[np.intp]) -> Block:
        """The same queries against a few entries only (a cold store)."""
        remap = np.full(self.keyword.shape[1], -1)
        remap[entries] = np.arange(entries.size)
        nxt = np.array([remap[n] if n >= 0 else -1 for n in self.nxt[entries]])
        lane = self.lane[:, entries]
        bm = np.where(lane, np.argsort(np.argsort(self.bm25[:, entries], axis=1), axis=1), 1 << 30)
        return Block(
            self.name,
            self.half,
            self.kind,
            [[int(remap[i]) for i in ev if remap[i] >= 0] for ev in self.evidence],
            self.total,
            self.keyword[:, entries],
            lane,
            bm,
            nxt,
            None if self.cos is None else self.cos[:, entries],
            self.anchor,
            self.texts,
        )


_CACHES: dict[str, bench_embedders.VectorCache] = {}


def _vectors(embedder: Any, texts: list[str], kind: str) -> F64 | None:
    """Vectors from the cache only (None when any is missing)."""
    base = getattr(embedder, "_base", embedder)
    cache = _CACHES.get(base.identity)
    if cache is None:
        cache = _CACHES[base.identity] = bench_embedders.VectorCache(base.identity)
    cache.refresh()
    k = kind if isinstance(base, bench_embedders.AsymmetricCachedEmbedder) else "passage"
    if any(cache.get(cache.key(k, t)) is None for t in texts):
        return None
    if kind == "query":
        call = getattr(embedder, "embed_queries", embedder.embed)
    else:
        call = embedder.embed
    return np.asarray(asyncio.run(call(texts)), dtype=np.float64)


def load(mode: str, name: str, asked_as: str = "first") -> list[Block]:
    """Blocks of one mode for one embedder ('keyword': no cosines)."""
    where = folder(mode, asked_as)
    meta = json.loads((where / "meta.json").read_text())["namespaces"]
    kw = np.load(where / "keyword.npz")
    dumped = where / f"cos-{name}.npz"
    cosfile = np.load(dumped) if name != "keyword" and dumped.exists() else None
    embedder = bench_embedders.make(name)
    anchors = None
    if embedder is not None:
        anchors = _vectors(embedder, anchor_texts(), "passage")
    blocks = []
    for index, ns in enumerate(meta):
        queries = ns["queries"]
        texts = [q["text"] for q in queries]
        cos = anchor = None
        if embedder is not None:
            qv = _vectors(embedder, texts, "query")
            if qv is None and cosfile is None:
                continue
            if cosfile is not None:
                cos = cosfile[str(index)].astype(np.float64)
            else:
                assert qv is not None  # no dump: skipped above unless the cache had them
                dv = _vectors(embedder, ns["contents"], "passage")
                if dv is None:
                    continue
                cos = (qv.astype(np.float32) @ dv.astype(np.float32).T).astype(np.float64)
            if anchors is not None and qv is not None:
                anchor = qv @ anchors.T
        blocks.append(
            Block(
                ns["name"],
                ns["half"],
                np.array([q["kind"] == "on" for q in queries]),
                [q.get("evidence_index", []) for q in queries],
                [len(q["evidence"]) for q in queries],
                kw[f"{index}.coverage"].astype(np.float64),
                kw[f"{index}.lane"].astype(bool),
                kw[f"{index}.bm25"].astype(np.int64),
                kw[f"{index}.next"].astype(np.int64),
                cos,
                anchor,
                texts,
            )
        )
    return blocks


MatrixMethod = Callable[[Block], tuple[F64, F64]]


def _rank_row(
    score: F64,
    tiebreak: F64,
    bm25: npt.NDArray[np.int64],
    nxt: npt.NDArray[np.int64],
    limit: int,
    floor: float,
    follow_up: float,
) -> list[int]:
    """`fusion_lab.rank` for one query."""
    idx = np.flatnonzero(~np.isnan(score))
    s, t = score[idx], tiebreak[idx]
    order = idx[np.lexsort((-idx, bm25[idx], -t, -s))]
    if follow_up > 0 and order.size:
        scores = dict(zip(idx.tolist(), s.tolist(), strict=False))
        ties = dict(zip(idx.tolist(), t.tolist(), strict=False))
        changed = False
        for parent in order[:limit].tolist():
            ps = scores[parent]
            if not ps > 0:
                continue
            follow = int(nxt[parent])
            if follow < 0:
                continue
            derived = round(follow_up * float(score[parent]), 6)
            current = scores.get(follow, -1.0)
            if current >= derived:
                continue
            if follow not in scores:
                ties[follow] = 0.0
            scores[follow] = derived
            changed = True
        if changed:
            idx = np.fromiter(scores, dtype=np.int64)
            s = np.fromiter(scores.values(), dtype=np.float64)
            t = np.array([ties[i] for i in scores])
            order = idx[np.lexsort((-idx, bm25[idx], -t, -s))]
            s_of = scores
        else:
            s_of = scores
        return [i for i in order.tolist() if s_of[i] >= floor][:limit]
    s_of = dict(zip(idx.tolist(), s.tolist(), strict=False))
    return [i for i in order.tolist() if s_of[i] >= floor][:limit]


def rank(
    score: F64,
    tiebreak: F64,
    block: Block,
    limit: int,
    floor: float,
    follow_up: float,
) -> list[list[int]]:
    """`fusion_lab.rank` for every query of a block."""
    return [
        _rank_row(score[r], tiebreak[r], block.bm25[r], block.nxt, limit, floor, follow_up)
        for r in range(score.shape[0])
    ]


@dataclass
class Figs:
    """Figures of one group."""

    n: int
    r5: float
    r10: float
    inj: float
    off_n: int
    off: float
    off_mean: float

    def row(self) -> str:
        return (
            f"{self.r5:6.3f} {self.r10:6.3f} {self.inj:6.3f} {self.off:6.3f} {self.off_mean:5.2f}"
        )


def evaluate(
    blocks: list[Block],
    method: MatrixMethod,
    floor: float = 0.3,
    follow_up: float = 0.7,
    limit: int = 5,
) -> dict[str, Figs]:
    """Figures per half ('tuning', 'check', 'all')."""
    acc: dict[str, dict[str, list[float]]] = {}
    for b in blocks:
        score, tiebreak = method(b)
        ranked = rank(score, tiebreak, b, 10, 0.0, follow_up)
        injected = rank(score, tiebreak, b, limit, floor, follow_up)
        for half in (b.half, "all"):
            a = acc.setdefault(half, {"r5": [], "r10": [], "inj": [], "off": [], "offm": []})
            for i in range(len(b.kind)):
                if b.kind[i]:
                    e, t = set(b.evidence[i]), b.total[i]
                    a["r5"].append(len(e & set(ranked[i][:5])) / t)
                    a["r10"].append(len(e & set(ranked[i][:10])) / t)
                    a["inj"].append(len(e & set(injected[i])) / t)
                else:
                    a["off"].append(float(len(injected[i]) > 0))
                    a["offm"].append(float(len(injected[i])))
    out = {}
    for half, a in acc.items():
        out[half] = Figs(
            len(a["r5"]),
            float(np.mean(a["r5"])),
            float(np.mean(a["r10"])),
            float(np.mean(a["inj"])),
            len(a["off"]),
            float(np.mean(a["off"])) if a["off"] else float("nan"),
            float(np.mean(a["offm"])) if a["offm"] else float("nan"),
        )
    return out


def cold_offtopic(
    blocks: list[Block],
    method: MatrixMethod,
    floor: float = 0.3,
    follow_up: float = 0.7,
    sizes: tuple[int, ...] = (1, 3, 5, 20),
    draws: int = 10,
    seed: int = 0,
) -> dict[int, tuple[float, float]]:
    """Cold stores: random `size` entries per namespace; (off-topic inject share,
    injected recall of questions whose evidence is in the sample)."""
    rng = np.random.default_rng(seed)
    out = {}
    for size in sizes:
        off: list[float] = []
        inj: list[float] = []
        for b in blocks:
            for _ in range(draws):
                entries = np.sort(rng.choice(b.keyword.shape[1], size, replace=False))
                sub = b.subset(entries)
                score, tiebreak = method(sub)
                injected = rank(score, tiebreak, sub, 5, floor, follow_up)
                for i in range(len(sub.kind)):
                    if not sub.kind[i]:
                        off.append(float(len(injected[i]) > 0))
                    elif sub.evidence[i]:
                        e = set(sub.evidence[i])
                        inj.append(len(e & set(injected[i])) / len(e))
        out[size] = (float(np.mean(off)), float(np.mean(inj)) if inj else float("nan"))
    return out
