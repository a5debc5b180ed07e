"""A server's answer of all-zero vectors is refused, and zeros stored before are repaired.

Found by an adversary: one such answer was stored as a memory's vector and as the
calibration sentences' vectors; from then on every memory matched every request at full
vector relevance, `reindex` skipped the zero vector and `stats --check` said all was well.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory.embedding.base import unit_vectors
from memory.embedding.ollama import OllamaEmbedder
from memory.errors import EmbeddingDimensionError
from memory.testing import CountingEmbedder
from tests.helpers.fake_ollama import FakeOllama, Reply, StreamReply, embed_route
from tests.unit.memory.conftest import DIMS, OpenStore


def test_an_all_zero_row_is_refused_unless_allowed() -> None:
    rows = np.array([[1.0, 0.0], [0.0, 0.0]])
    with pytest.raises(EmbeddingDimensionError, match="all-zero vector for 1 of 2 texts"):
        unit_vectors(rows, 2, "a model")
    allowed = unit_vectors(rows, 2, "hashing embedder", allow_zero=True)
    assert allowed[1].tolist() == [0.0, 0.0]


async def test_ollama_answering_zeros_is_an_embedding_error(fake_ollama: FakeOllama) -> None:
    normal = embed_route(8)

    def zeros_for_one(body: dict[str, Any]) -> Reply | StreamReply:
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        if any("embedzero" in text for text in texts):
            return Reply(body={"model": body["model"], "embeddings": [[0.0] * 8 for _ in texts]})
        return normal(body)

    fake_ollama.routes["/api/embed"] = zeros_for_one
    embedder = OllamaEmbedder(model="nomic-embed-text", dimensions=8, host=fake_ollama.url)
    with pytest.raises(EmbeddingDimensionError, match="all-zero"):
        await embedder.embed(["My embedzero favourite food is pizza"])
    assert (await embedder.embed(["I like trains"])).shape == (1, 8)


async def test_a_zero_vector_stored_before_is_made_anew_by_reindex(
    open_store: OpenStore, tmp_path: Path
) -> None:
    store = await open_store(CountingEmbedder(DIMS))
    await store.store("trains", "I like trains a lot")
    zero = np.zeros((1, DIMS), dtype=np.float32)
    # As a version that let the server's zeros through stored them.
    await store.bulk_store([_new("pizza", "My favourite food is pizza")], zero)
    assert await store.reindex() == 1  # the zero vector only
    assert await store.reindex() == 0
    records = {r.key: r async for r in store.export()}
    vector = records["pizza"].embedding  # type: ignore[attr-defined]
    assert vector is not None and any(value != 0.0 for value in vector)


def _new(key: str, content: str) -> Any:
    from memory.write_rules import NewMemory

    return NewMemory(key=key, content=content, category="core")


async def test_calibration_vectors_kept_from_zeros_are_embedded_again(
    open_store: OpenStore,
) -> None:
    from memory.sqlite.anchors import keep_anchor_matrix, stored_anchor_matrix

    store = await open_store(CountingEmbedder(DIMS))
    core = store._core  # noqa: SLF001 - the kept calibration is the store's own
    texts = ["one", "two"]
    good = unit_vectors(np.ones((2, DIMS)), DIMS, "a model")
    keep_anchor_matrix(core, texts, good)
    assert stored_anchor_matrix(core, texts) is not None
    poisoned = good.copy()
    poisoned[1] = 0.0
    keep_anchor_matrix(core, texts, poisoned)
    assert stored_anchor_matrix(core, texts) is None
