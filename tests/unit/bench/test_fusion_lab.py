"""The fusion lab ranks exactly as memchat's store does, on a small store of its own."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from bench.fusion_lab import METHODS, QueryView, rank
from bench.lab_dump import follow_ups, keyword_lanes
from bench.locomo_modes import Item, Namespace
from bench.locomo_recall import new_memories, product_settings
from memory.calibration import Calibration, anchor_texts
from memory.embedding.hashing import HashingEmbedder
from memory.sqlite.store import SqliteMemory

TOPICS = [
    "my sister adopted a grey kitten called Miso last spring",
    "the kitten keeps knocking plants off the shelf",
    "we painted the kitchen a pale green colour",
    "I ran my first half marathon in two hours five minutes",
    "training for the marathon took four months of early mornings",
    "the pottery class on Thursdays is where I made a blue bowl",
    "I am reading a novel about a lighthouse keeper",
    "our camping trip to the lake got rained out",
    "the lake was freezing but the kids swam anyway",
    "I started volunteering at the animal shelter on weekends",
]
QUESTIONS = [
    "What is the name of my sister's kitten?",
    "How long did my half marathon take?",
    "What colour did we paint the kitchen?",
    "Where do I volunteer?",
    "what did I make in pottery class on Thursdays",
    "what is it?",
    "Explain quicksort.",
    "kitten",
]


def _namespace() -> Namespace:
    ns = Namespace("ann", 0, "Ann")
    start = datetime(2023, 5, 1, 9, 0)
    for i in range(40):
        session = f"s{i // 10}"
        text = f"{TOPICS[i % len(TOPICS)]} ({['so', 'then', 'and', 'also'][i % 4]} {i})"
        when = start + timedelta(days=i // 10)
        ns.items.append(Item(f"conversation/{session}/{i:04d}", f"D{i}", text, session, when))
    return ns


async def test_the_lab_ranks_and_injects_as_the_store(tmp_path: Path) -> None:
    ns = _namespace()
    embedder = HashingEmbedder(64)
    product = product_settings(embedder)
    ranking = product.model_copy(update={"min_relevance_score": 0.0})
    injector = await SqliteMemory.open(tmp_path / "lab.db", product, embedder)
    await injector.bulk_store(new_memories(ns))
    ranker = await SqliteMemory.open(tmp_path / "lab.db", ranking, embedder)
    try:
        lanes = await keyword_lanes(injector, ns, QUESTIONS)
        vectors = await embedder.embed([item.content for item in ns.items])
        asked = await embedder.embed(QUESTIONS)
        calibration = Calibration(await embedder.embed(list(anchor_texts())))
        nxt = follow_ups(ns)
        method = METHODS["product"]
        for text, lane, vector in zip(QUESTIONS, lanes, asked, strict=True):
            view = QueryView(
                lane.coverage,
                lane.lane,
                lane.bm25,
                (vectors @ vector).astype(np.float64),
                (calibration.band(vector).zero, calibration.band(vector).full),
                "hashing",
                text,
            )
            injected = [ns.items[i].key for i in rank(method, view, nxt, 5, method.floor)]
            ranked = [ns.items[i].key for i in rank(method, view, nxt, 10, 0.0)]
            real_injected = await injector.recall(text, 5, namespace="ann")
            real_ranked = await ranker.recall(text, 10, namespace="ann")
            assert injected == [e.key for e in real_injected.entries], text
            assert ranked == [e.key for e in real_ranked.entries], text
    finally:
        await ranker.close()
        await injector.close()


def test_follow_ups_are_the_next_message_of_the_same_session() -> None:
    nxt = follow_ups(_namespace())
    assert nxt[0] == 1 and nxt[7] == 8
    assert nxt[4] == -1  # the pottery class after marathon training: a statement of its own
    assert nxt[8] == -1  # "I started volunteering …" tells of something new
    assert nxt[9] == -1  # the last message of session s0
    assert nxt[10] == 11
