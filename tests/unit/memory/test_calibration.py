"""Vector relevance calibrated per query: one floor for every embedding model."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace

import numpy as np
import pytest

from memory.calibration import (
    Calibration,
    CosineBand,
    anchor_texts,
    band_from_anchor_cosines,
    fixed_band,
)
from memory.embedding.base import FloatMatrix, unit_vectors
from memory.embedding.hashing import HashingEmbedder
from memory.fused_ranking import query_vector
from memory.settings import MemorySettings
from memory.testing import CountingEmbedder, FailingEmbedder
from tests.unit.memory.conftest import DIMS, OpenStore

FACTS = {
    "home": "I live in Lisbon, near the river",
    "cat": "My cat is called Miso and she is grey",
    "job": "I work as a nurse on night shifts",
    "car": "I drive an old blue hatchback",
    "sister": "My sister Ana studies chemistry in Porto",
}
OFF_TOPIC = [
    "write a haiku about autumn",
    "explain how quicksort works",
    "translate good morning into German",
    "what is the capital of Australia",
    "give me a recipe for pancakes",
    "how do vaccines train the immune system",
]
ON_TOPIC = {
    "what is my cat called": "cat",
    "where do I live": "home",
    "what does my sister study": "sister",
}


class HighCosineEmbedder(HashingEmbedder):
    """Stands for an unknown model whose cosines all sit high: every vector is pulled
    towards one fixed direction, so unrelated texts reach a cosine of about 0.6."""

    def __init__(self, dimensions: int = DIMS) -> None:
        super().__init__(dimensions)
        self.model = "high-cosine"
        direction = np.random.default_rng(7).standard_normal(dimensions)
        self._shift = (direction / np.linalg.norm(direction)).astype(np.float32)

    @property
    def identity(self) -> str:
        return f"test:high-cosine:{self.dimensions}"

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        plain = await super().embed(texts)
        return unit_vectors(plain + 1.2 * self._shift, self.dimensions, "high-cosine")


@pytest.mark.parametrize("embedder_kind", ["hashing", "high-cosine"])
async def test_one_floor_injects_nothing_off_topic_with_any_model(
    open_store: OpenStore, embedder_kind: str
) -> None:
    embedder = HashingEmbedder(DIMS) if embedder_kind == "hashing" else HighCosineEmbedder()
    store = await open_store(embedder, early_return_score=1.0)
    for key, content in FACTS.items():
        await store.store(key, content)
    probe = await embedder.embed([FACTS["home"], FACTS["job"]])
    raw = float(probe[0] @ probe[1])
    if embedder_kind == "high-cosine":
        assert raw > 0.5  # what made an uncalibrated store inject everything
    for request in OFF_TOPIC:
        result = await store.recall(request)
        assert result.mode == "hybrid" and result.entries == [], request
    for question, key in ON_TOPIC.items():
        result = await store.recall(question)
        assert result.entries and result.entries[0].key == key, question


async def test_scores_explain_the_calibrated_band(open_store: OpenStore) -> None:
    store = await open_store(HighCosineEmbedder(), early_return_score=1.0)
    for key, content in FACTS.items():
        await store.store(key, content)
    result = await store.recall("my cat Miso is grey")
    top = result.entries[0]
    scores = top.scores
    assert top.key == "cat" and scores is not None
    assert scores.cosine is not None and scores.band is not None and scores.vector is not None
    zero, full = scores.band
    assert 0.0 < zero < full
    assert scores.band_calibrated and "this query's band" in scores.explanation()
    expected = min(max((scores.cosine - zero) / (full - zero), 0.0), 1.0)
    assert scores.vector == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize("cache_size", [10_000, 0])
async def test_the_reference_sentences_are_embedded_once_per_model(
    open_store: OpenStore, cache_size: int
) -> None:
    embedder = CountingEmbedder(DIMS)
    store = await open_store(embedder, early_return_score=1.0, embedding_cache_size=cache_size)
    await store.store("cat", FACTS["cat"])
    first = await store.recall("what is my cat called")
    assert first.calibration is not None and embedder.calls.count(list(anchor_texts())) == 1
    await store.close()
    # Kept in the store whatever the embedding cache may hold (even nothing).
    again_embedder = CountingEmbedder(DIMS)
    reopened = await open_store(
        again_embedder, early_return_score=1.0, embedding_cache_size=cache_size
    )
    again = await reopened.recall("what is my cat called")
    assert again.calibration is None and again.mode == "hybrid"
    assert list(anchor_texts()) not in again_embedder.calls


async def test_a_model_that_cannot_be_calibrated_recalls_by_keyword_and_says_so(
    open_store: OpenStore,
) -> None:
    embedder = FailingEmbedder(DIMS)
    store = await open_store(embedder, early_return_score=1.0)
    embedder.failing = False
    await store.store("cat", FACTS["cat"])
    embedder.failing = True
    result = await store.recall("what is my cat called")
    assert result.mode == "keyword" and [e.key for e in result.entries] == ["cat"]
    assert result.degraded is not None and "could not be calibrated" in result.degraded
    embedder.failing = False
    recovered = await store.recall("what is my cat called")
    assert recovered.mode == "hybrid" and recovered.degraded is None
    assert recovered.calibration is not None


async def test_a_fixed_band_in_the_settings_overrides_calibration(open_store: OpenStore) -> None:
    embedder = CountingEmbedder(DIMS)
    store = await open_store(
        embedder, early_return_score=1.0, vector_baseline=0.2, vector_ceiling=0.6
    )
    await store.store("cat", FACTS["cat"])
    result = await store.recall("what is my cat called")
    assert list(anchor_texts()) not in embedder.calls
    scores = result.entries[0].scores
    assert scores is not None and scores.band == (0.2, 0.6) and result.calibration is None
    assert not scores.band_calibrated and "the fixed band 0.200-0.600" in scores.explanation()


def test_fixed_band_and_settings_checks() -> None:
    assert fixed_band(MemorySettings()) is None
    assert fixed_band(MemorySettings(vector_baseline=0.5)) == CosineBand(0.5, 1.0, False)
    with pytest.raises(ValueError, match=r"vector_ceiling\n.*must be above vector_baseline"):
        MemorySettings(vector_baseline=0.8, vector_ceiling=0.7)
    with pytest.raises(ValueError, match="keyword_weight\n.*cannot both be 0"):
        MemorySettings(vector_weight=0.0, keyword_weight=0.0)


def test_the_band_follows_the_anchor_distribution() -> None:
    rng = np.random.default_rng(3)
    anchors = rng.standard_normal((150, 384)).astype(np.float32)
    anchors /= np.linalg.norm(anchors, axis=1, keepdims=True)
    query = anchors[0] + anchors[1]
    query /= np.linalg.norm(query)
    band = Calibration(anchors).band(query)
    cosines = anchors @ query
    spread = max(float(cosines.std()), 0.01)
    assert band.zero == pytest.approx(float(cosines.mean()) + 3.5 * spread, rel=1e-5)
    assert band.full == pytest.approx(float(cosines.mean()) + 7.5 * spread, rel=1e-5)
    assert band.relevance(band.zero) == 0.0 and band.relevance(band.full) == 1.0
    # A model whose cosines barely vary: noise must not become relevance.
    flat = Calibration(np.tile(anchors[:1], (150, 1))).band(-anchors[0])
    assert flat.full - flat.zero == pytest.approx(0.04, abs=1e-6)
    # Cosines spread so widely that "full" would lie past 1.0: the query itself is still
    # fully relevant, and the band stays inside the cosine scale.
    wide = band_from_anchor_cosines(np.linspace(-0.6, 0.9, 150))
    assert wide.full == 1.0 and wide.zero < wide.full and wide.relevance(1.0) == 1.0
    crowded = band_from_anchor_cosines(np.full(150, 0.995))
    assert crowded.full == 1.0 and crowded.zero == pytest.approx(0.98)


def test_a_model_whose_unrelated_texts_reach_far_gets_a_higher_band() -> None:
    # Gaussian-like cosines among unrelated texts (as a semantic model gives): no change.
    rng = np.random.default_rng(5)
    smooth = rng.standard_normal((150, 384)).astype(np.float32)
    smooth /= np.linalg.norm(smooth, axis=1, keepdims=True)
    assert Calibration(smooth).tail == 1.0
    # The hashing embedder: most anchor pairs share no word and a few share one, so a
    # z-score that means "related" for a semantic model is reached by unrelated texts.
    lexical = Calibration(HashingEmbedder(768).embed_sync(list(anchor_texts())))
    assert lexical.tail > 1.5
    query = HashingEmbedder(768).embed_sync(["write a haiku about autumn"])[0]
    cosines = lexical.anchors @ query
    plain = band_from_anchor_cosines(cosines)
    raised = lexical.band(query)
    assert raised.zero > plain.zero and raised.full >= plain.full
    spread = max(float(cosines.std()), 0.01)
    assert raised.zero == pytest.approx(
        min(float(cosines.mean()) + 3.5 * lexical.tail * spread, raised.full - 0.02), rel=1e-5
    )


async def test_server_backends_calibrate_once_per_process_and_say_so() -> None:
    embedder = CountingEmbedder(61)  # a size no other test uses: the cache is per process
    store = SimpleNamespace(
        settings=MemorySettings(embedding_provider="hashing", embedding_dimensions=61),
        embedder=embedder,
        last_embedding_error=None,
        calibration_file=None,
    )
    vector, band, note = await query_vector(store, "what is my cat called")
    assert vector is not None and band is not None and band.calibrated
    assert note is not None and "calibrated" in note
    _, _, again = await query_vector(store, "where do I live")
    assert again is None and embedder.calls.count(list(anchor_texts())) == 1
    failing = FailingEmbedder(59)
    broken = SimpleNamespace(
        settings=store.settings, embedder=failing, last_embedding_error=None, calibration_file=None
    )
    assert await query_vector(broken, "anything") == (None, None, None)
    assert broken.last_embedding_error is not None


async def test_server_backends_without_an_embedder_stay_keyword_only_under_a_fixed_band() -> None:
    settings = MemorySettings(embedding_provider="none", vector_baseline=0.2)
    store = SimpleNamespace(
        settings=settings, embedder=None, last_embedding_error=None, calibration_file=None
    )
    assert await query_vector(store, "anything") == (None, None, None)
    given = np.ones(4, dtype=np.float32) / 2
    vector, band, _ = await query_vector(store, "anything", given)
    assert vector is not None and band == fixed_band(settings)


def test_a_keyword_match_the_model_does_not_see_loses_only_part_of_its_score() -> None:
    from memory.entry import VECTOR_SHARE_OF_KEYWORD, RecallScores
    from memory.retrieval import Candidate, fused_score

    band = CosineBand(0.5, 0.9, calibrated=True)
    unseen = Candidate(seq=1, keyword=0.5, vector=0.1)  # far below the band
    fused = fused_score(unseen, 0.4, 0.6, hybrid=True, band=band)
    assert fused == pytest.approx(0.4 * VECTOR_SHARE_OF_KEYWORD * 0.5 + 0.6 * 0.5)
    assert 0.5 * 0.6 < fused < 0.5  # above the whole-weight penalty, below keyword alone
    seen = Candidate(seq=2, keyword=0.5, vector=0.9)
    assert fused_score(seen, 0.4, 0.6, hybrid=True, band=band) == pytest.approx(0.7)
    meaning_only = Candidate(seq=3, keyword=0.0, vector=0.7)
    assert fused_score(meaning_only, 0.4, 0.6, hybrid=True, band=band) == pytest.approx(0.2)
    text = RecallScores(
        keyword=0.5, vector=0.0, cosine=0.1, band=(0.5, 0.9), fused=fused, lane="keyword"
    ).explanation()
    assert "vector 0.00 (cosine 0.100 in this query's band 0.500-0.900; counted as 0.15, " in text
    plain = RecallScores(keyword=0.5, vector=0.8, fused=0.62, lane="both").explanation()
    assert "counted as" not in plain


def test_a_skipped_vector_search_is_not_called_missing() -> None:
    from memory.entry import RecallScores

    scores = RecallScores(keyword=1.0, fused=1.0, lane="keyword")
    assert "not searched" in scores.explanation("keyword-early")
    assert "no meaning search this time, so fused = keyword" in scores.explanation("keyword")
    assert "this memory has no vector" in scores.explanation("hybrid")
