"""Realistic synthetic memories: template sentences with clustered embedding vectors."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

PEOPLE = [
    "Ana",
    "Ben",
    "Chloe",
    "Dmitri",
    "Emma",
    "Farah",
    "Goro",
    "Hana",
    "Ivan",
    "Jae-won",
    "Kofi",
    "Lena",
    "Mateo",
    "Nadia",
    "Omar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sven",
    "Tomoko",
]
VERBS = [
    "booked",
    "cancelled",
    "planned",
    "finished",
    "started",
    "moved",
    "reviewed",
    "bought",
    "sold",
    "painted",
    "fixed",
    "visited",
    "recommended",
    "borrowed",
    "returned",
    "signed",
]
THINGS = [
    "the dentist appointment",
    "a flight to Lisbon",
    "the quarterly budget",
    "a new laptop",
    "the garden shed",
    "piano lessons",
    "the car insurance",
    "a birthday cake",
    "the kitchen tiles",
    "a hiking trip",
    "the tax return",
    "a pottery class",
    "the wedding venue",
    "a used bicycle",
    "the router firmware",
    "a sourdough starter",
    "the thesis draft",
    "a concert ticket",
    "the lease renewal",
    "a vegetable box",
]
WHEN = [
    "on Monday",
    "last weekend",
    "yesterday morning",
    "in early May",
    "before the holidays",
    "after work",
    "on the 14th",
    "next Thursday",
    "during lunch",
    "at the end of March",
]
DETAILS = [
    "because the old one broke",
    "with help from a neighbour",
    "for about 300 euros",
    "after reading the reviews",
    "although it rained all day",
    "to save some money",
    "as the doctor suggested",
    "since the deadline moved",
    "with the whole family",
    "without telling anyone",
]


@dataclass
class Corpus:
    """Sentences, their topic clusters and unit vectors."""

    texts: list[str]
    topics: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.float32]
    centroids: npt.NDArray[np.float32]


def sentence(rng: random.Random) -> tuple[str, int]:
    """One diary-like sentence and its topic (the thing it is about)."""
    thing = rng.randrange(len(THINGS))
    text = (
        f"{rng.choice(PEOPLE)} {rng.choice(VERBS)} {THINGS[thing]} {rng.choice(WHEN)} "
        f"{rng.choice(DETAILS)}."
    )
    return text, thing


def make_corpus(size: int, dims: int = 768, seed: int = 1) -> Corpus:
    """`size` sentences; each vector = its topic centroid + per-item noise, normalised."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    centroids = nrng.standard_normal((len(THINGS), dims)).astype(np.float32)
    texts, topics = [], []
    for _ in range(size):
        text, topic = sentence(rng)
        texts.append(text)
        topics.append(topic)
    topic_arr = np.array(topics, dtype=np.int64)
    vectors = centroids[topic_arr] + 1.2 * nrng.standard_normal((size, dims), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return Corpus(texts, topic_arr, vectors.astype(np.float32), centroids)


def near(vector: npt.NDArray[np.float32], nrng: np.random.Generator) -> npt.NDArray[np.float32]:
    """A unit vector close to `vector`: a query about that item."""
    noisy = vector + 0.05 * nrng.standard_normal(vector.shape[0], dtype=np.float32)
    return (noisy / np.linalg.norm(noisy)).astype(np.float32)


def make_queries(
    corpus: Corpus, count: int, seed: int = 2
) -> list[tuple[str, npt.NDArray[np.float32]]]:
    """Questions about stored items, with a query vector near the item's vector."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    queries = []
    for _ in range(count):
        target = rng.randrange(len(corpus.texts))
        words = corpus.texts[target].rstrip(".").split()
        kept = [w for w in words if rng.random() < 0.6]
        text = "when did " + " ".join(kept) + "?"
        queries.append((text, near(corpus.vectors[target], nrng)))
    return queries


DEFAULT_LOCOMO = Path(__file__).resolve().parents[2] / "shared/data/locomo-dev/locomo-dev.json"


def locomo_texts(path: Path) -> tuple[list[str], list[str]]:
    """Every dialogue turn and every question of a LoCoMo file."""
    turns: list[str] = []
    questions: list[str] = []
    for sample in json.loads(path.read_text()):
        conversation = sample["conversation"]
        for name, session in conversation.items():
            if name.startswith("session_") and isinstance(session, list):
                turns.extend(f"{turn['speaker']}: {turn['text']}" for turn in session)
        questions.extend(qa["question"] for qa in sample["qa"])
    return turns, questions


def make_locomo_corpus(
    size: int, path: Path, dims: int = 768, seed: int = 1
) -> tuple[Corpus, list[str]]:
    """Real conversational English: LoCoMo turns, paired up to reach `size` unique texts.

    The vectors stay synthetic (clustered around 200 random topics): no embedding model
    runs here, and latency does not depend on what the vectors mean.
    """
    turns, questions = locomo_texts(path)
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    texts = [
        turns[i % len(turns)]
        if i < len(turns)
        else f"{turns[i % len(turns)]} {turns[rng.randrange(len(turns))]}"
        for i in range(size)
    ]
    topics = nrng.integers(0, 200, size)
    centroids = nrng.standard_normal((200, dims)).astype(np.float32)
    vectors = centroids[topics] + 1.2 * nrng.standard_normal((size, dims), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return Corpus(texts, topics, vectors.astype(np.float32), centroids), questions


def locomo_queries(
    corpus: Corpus, questions: list[str], count: int, seed: int = 2
) -> list[tuple[str, npt.NDArray[np.float32]]]:
    """Real LoCoMo questions, each with a query vector near one stored item's vector."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    queries = []
    for _ in range(count):
        target = rng.randrange(len(corpus.texts))
        queries.append((rng.choice(questions), near(corpus.vectors[target], nrng)))
    return queries
