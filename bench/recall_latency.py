"""Recall latency of memchat's SQLite store against a ZeroClaw-style reference, same run.

    python -m bench.recall_latency [--sizes 10000 100000] [--million] [--queries 60]
        [--backend sqlite|qdrant|postgres]

Prints, per store size: bulk import rate, p50/p95 of memchat hybrid recall (query vector
given, hot cache off so every query does the full work), the same for the reference, the
speed-up ratio, and (sqlite) the ANN index's recall@10 against exact search. With
`--backend qdrant` the same workload runs on Qdrant's embedded engine (qdrant-edge, its
vector graph built after the import); with `--backend postgres` on a PostgreSQL + pgvector
server that the bench starts from the pgserver wheel (both from the dev extra).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from memory.postgres.store import PostgresMemory
    from memory.qdrant.store import QdrantMemory

from bench.synthetic import (
    DEFAULT_LOCOMO,
    Corpus,
    locomo_queries,
    make_corpus,
    make_locomo_corpus,
    make_queries,
)
from bench.zeroclaw_reference import ZeroClawStyleStore
from memory.embedding.hashing import HashingEmbedder
from memory.entry import utc_now
from memory.records import MemoryRecord, StoredEmbedding
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.vector_index import rescore_size
from memory.write_rules import NewMemory

DIMS = 768
BATCH = 5_000


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class FixedIdentityEmbedder(HashingEmbedder):
    """Only supplies the identity: the bench passes every vector explicitly."""

    provider = "bench"
    model = "synthetic"


async def _open_server_store(
    backend: str, folder: Path, settings: MemorySettings, embedder: FixedIdentityEmbedder
) -> QdrantMemory | PostgresMemory:
    folder.mkdir(parents=True)
    if backend == "qdrant":
        from memory.qdrant.store import QdrantMemory

        return await QdrantMemory.open(
            folder / "brain.db", settings.model_copy(update={"backend": backend}), embedder
        )
    import pgserver

    from memory.postgres.store import PostgresMemory

    server = pgserver.get_server(folder, cleanup_mode="stop")  # type: ignore[attr-defined]
    changes = {"backend": backend, "postgres_url": str(server.get_uri())}
    return await PostgresMemory.open(folder, settings.model_copy(update=changes), embedder)


def _edge_recall(store: QdrantMemory, queries: list[tuple[str, npt.NDArray[np.float32]]]) -> str:
    """Recall@10 of qdrant-edge's HNSW graph against its exact search."""
    import qdrant_edge as edge

    from memory.qdrant.edge_engine import EdgePoints

    points = store._points  # noqa: SLF001 - the bench inspects the engine
    assert isinstance(points, EdgePoints)
    hits = 0
    for _, vector in queries:
        found = []
        for exact in (False, True):
            request = edge.QueryRequest(
                limit=10,
                query=edge.Query.Nearest(vector.tolist(), using="dense"),
                params=edge.SearchParams(exact=exact),
            )
            found.append({str(point.id) for point in points.shard.query(request)})
        hits += len(found[0] & found[1])
    return f"{hits / (10 * len(queries)):.3f} (HNSW, m 16, ef_construct 100)"


async def _server_ann(
    store: SqliteMemory | QdrantMemory | PostgresMemory,
    queries: list[tuple[str, npt.NDArray[np.float32]]],
) -> str:
    # The server backends' classes are imported only when chosen (their drivers are extras).
    if store.name == "postgres":
        return await _hnsw_recall(store, queries)  # type: ignore[arg-type]
    if store.name == "qdrant":
        return _edge_recall(store, queries)  # type: ignore[arg-type]
    return "-"


async def _warm_up(
    store: SqliteMemory | QdrantMemory | PostgresMemory,
    queries: list[tuple[str, npt.NDArray[np.float32]]],
    label: str,
) -> None:
    """Search until the engine's mapped files are in: the p50 that follows is steady.

    qdrant-edge maps its files and faults pages in as searches touch them: the first ~100
    searches after an open are 3-20 times slower. Those are reported apart.
    """
    cold = []
    for text, vector in queries:
        t0 = time.perf_counter()
        await store.recall(text, limit=10, query_vector=vector)
        cold.append((time.perf_counter() - t0) * 1000)
    print(
        f"{label} | first searches after the import: p50 {statistics.median(cold):6.2f} ms "
        f"p95 {percentile(cold, 0.95):6.2f} ms"
    )
    for text, vector in queries * 2:
        await store.recall(text, limit=10, query_vector=vector)


async def _hnsw_recall(
    store: PostgresMemory, queries: list[tuple[str, npt.NDArray[np.float32]]]
) -> str:
    """The HNSW index's recall@10 against the same query run exactly."""
    from memory.postgres.vectors import PgVector

    nearest = "SELECT id FROM memories ORDER BY embedding <=> %s::vector LIMIT 10"
    hits = 0
    for _, vector in queries:
        literal = PgVector(vector / np.linalg.norm(vector))
        approx = {row[0] for row in await store.fetch(nearest, [literal])}
        exact = {row[0] for row in await store.fetch(nearest, [literal], exact=True)}
        hits += len(approx & exact)
    return f"{hits / (10 * len(queries)):.3f} (HNSW, pgvector defaults)"


async def _import_server(
    store: QdrantMemory | PostgresMemory, corpus: Corpus, embedder: FixedIdentityEmbedder
) -> None:
    """Every text with its vector, through the backend's import."""
    now = utc_now()
    size = len(corpus.texts)
    # One import call, as `memchat memory import` makes, so the vector graph is built once
    # at the end (memory.qdrant.edge_engine, memory.postgres.importing).
    step = size
    for start in range(0, size, step):
        records = [
            MemoryRecord(
                id=f"m{i}",
                key=f"m{i}",
                content=corpus.texts[i],
                category="daily",
                timestamp=now,
                updated_at=now,
                embedding=StoredEmbedding.from_bytes(
                    embedder.identity, DIMS, corpus.vectors[i].astype("<f4").tobytes()
                ),
            )
            for i in range(start, min(size, start + step))
        ]
        await store.import_(records)


async def run_size(
    size: int, query_count: int, workdir: Path, corpus_name: str, backend: str = "sqlite"
) -> None:
    if corpus_name == "locomo":
        corpus, questions = make_locomo_corpus(size, DEFAULT_LOCOMO, DIMS)
        queries = locomo_queries(corpus, questions, query_count)
    else:
        corpus = make_corpus(size, DIMS)
        queries = make_queries(corpus, query_count)
    settings = MemorySettings(
        embedding_provider="hashing",
        embedding_dimensions=DIMS,
        hot_cache_size=0,
        min_relevance_score=0.0,
    )
    embedder = FixedIdentityEmbedder(DIMS)
    started = time.perf_counter()
    store: SqliteMemory | QdrantMemory | PostgresMemory
    if backend in ("qdrant", "postgres"):
        store = await _open_server_store(
            backend, workdir / f"{backend}-{corpus_name}-{size}", settings, embedder
        )
        await _import_server(store, corpus, embedder)
    else:
        sqlite = await SqliteMemory.open(
            workdir / f"memchat-{corpus_name}-{size}.db", settings, embedder
        )
        for start in range(0, size, BATCH):
            items = [
                NewMemory(key=f"m{i}", content=corpus.texts[i], category="daily")
                for i in range(start, min(size, start + BATCH))
            ]
            await sqlite.bulk_store(items, corpus.vectors[start : start + len(items)])
        store = sqlite
    import_rate = size / (time.perf_counter() - started)

    reference = ZeroClawStyleStore(workdir / f"reference-{corpus_name}-{size}.db")
    reference.load(corpus.texts, corpus.vectors)

    for text, vector in queries[:5]:  # warm both
        await store.recall(text, limit=10, query_vector=vector)
        reference.recall(text, vector, 10)
    if backend == "qdrant":
        await _warm_up(store, queries, f"{backend:>6} {corpus_name:>9} {size:>9,} memories")
    ours: list[float] = []
    for text, vector in queries:
        t0 = time.perf_counter()
        await store.recall(text, limit=10, query_vector=vector)
        ours.append((time.perf_counter() - t0) * 1000)
    ref_count = max(5, query_count // (10 if size >= 100_000 else 1))
    theirs: list[float] = []
    for text, vector in queries[:ref_count]:
        t0 = time.perf_counter()
        reference.recall(text, vector, 10)
        theirs.append((time.perf_counter() - t0) * 1000)

    ann = "-"
    if isinstance(store, SqliteMemory):
        index = store._core.index  # noqa: SLF001 - the bench inspects the derived index
        hits = total = 0
        for _, vector in queries[:30]:
            approx = {seq for seq, _ in index.search(vector, 10)}
            exact_scores = corpus.vectors @ vector
            exact = set((np.argsort(-exact_scores)[:10] + 1).tolist())
            hits += len(approx & exact)
            total += 10
        rescored = rescore_size(size, index.rescore, 10, DIMS)
        kind = "exact" if size <= settings.ann_threshold else f"binary+rescore {rescored}"
        ann = f"{hits / total:.3f} ({kind}) | index {index.nbytes() / 2**20:,.0f} MiB"
    if backend != "sqlite":
        ann = await _server_ann(store, queries[:30])
    p50, p95 = statistics.median(ours), percentile(ours, 0.95)
    r50, r95 = statistics.median(theirs), percentile(theirs, 0.95)
    print(
        f"{backend:>6} {corpus_name:>9} {size:>9,} memories | import {import_rate:>8,.0f}/s | "
        f"memchat hybrid p50 {p50:6.2f} ms "
        f"p95 {p95:6.2f} ms | reference p50 {r50:8.2f} ms p95 {r95:8.2f} ms | "
        f"speed-up {r50 / p50:6.1f}x | vector recall@10 vs exact {ann}"
    )
    reference.close()
    await store.close()
    if isinstance(store, SqliteMemory):
        print(open_figures(store.path, queries[0][1], workdir, r50))


def open_figures(path: Path, query: npt.NDArray[np.float32], workdir: Path, r50: float) -> str:
    """A fresh process opens the store as a command would: time and memory to each step."""
    query_file = workdir / "query.npy"
    np.save(query_file, query)
    done = subprocess.run(
        [sys.executable, "-m", "bench.open_probe", str(path), str(DIMS), str(query_file)],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    return (
        f"{'':>17} fresh process: `stats` command {figures['stats_command_ms']:7.1f} ms | "
        f"app open {figures['open_ms']:7.1f} ms | open to first recall "
        f"{figures['open_to_first_recall_ms']:7.1f} ms (reference per query {r50:.1f} ms) | "
        f"RSS open {figures['rss_open_mib']:5.0f} MiB, after recall "
        f"{figures['rss_after_recall_mib']:5.0f} MiB ({figures['anon_after_recall_mib']:.0f} "
        "MiB not file-backed)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--million", action="store_true", help="also run 1,000,000 memories")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--backend", choices=["sqlite", "qdrant", "postgres"], default="sqlite")
    parser.add_argument(
        "--corpus",
        nargs="*",
        default=["locomo", "templates"],
        help="locomo: real conversation turns (needs the shared data); templates: "
        "generated diary sentences over a ~100-word vocabulary (a worst case for BM25)",
    )
    args = parser.parse_args()
    sizes = args.sizes + ([1_000_000] if args.million else [])
    corpora = [c for c in args.corpus if c != "locomo" or DEFAULT_LOCOMO.exists()]
    if len(corpora) < len(args.corpus):
        # Said, not silently skipped: asked for LoCoMo alone, the bench printed nothing.
        print(f"locomo corpus left out: {DEFAULT_LOCOMO} is missing (the shared data)")
    with tempfile.TemporaryDirectory(prefix="memchat-bench-") as tmp:
        for corpus_name in corpora:
            for size in sizes:
                await run_size(size, args.queries, Path(tmp), corpus_name, args.backend)


if __name__ == "__main__":
    asyncio.run(main())
