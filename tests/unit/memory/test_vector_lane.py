"""With the query vector at hand, the vector lane runs on its own thread beside the keyword
lane (`memory.sqlite.vector_lane`); its answers are those of the database thread's."""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt
import pytest

from memory.layered_index import LayeredIndex
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from memory.vector_files import IndexFileDamagedError
from memory.vector_index import VectorFilter
from tests.unit.memory.conftest import DIMS, OpenStore

_TEXTS = ["mountain hut booking for March", "dentist on Tuesday", "the cat likes tuna"]


async def _calibrated(
    open_store: OpenStore, text: str
) -> tuple[SqliteMemory, npt.NDArray[np.float32]]:
    """A store of `_TEXTS`, calibrated, and the vector of `text` to search with."""
    embedder = CountingEmbedder(DIMS)
    store = await open_store(embedder, min_relevance_score=0.0)
    for number, stored in enumerate(_TEXTS):
        await store.store(f"k{number}", stored)
    vector = (await embedder.embed([text]))[0]
    await store.recall("calibrate first", query_vector=vector)
    return store, vector


async def test_a_given_vector_is_searched_on_the_lane_thread(
    open_store: OpenStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, vector = await _calibrated(open_store, "the cat likes tuna")
    threads: list[str] = []
    search = LayeredIndex.search

    def recorded(
        index: LayeredIndex, query: npt.NDArray[np.float32], k: int, flt: VectorFilter
    ) -> list[tuple[int, float]]:
        threads.append(threading.current_thread().name)
        return search(index, query, k, flt)

    monkeypatch.setattr(LayeredIndex, "search", recorded)
    result = await store.recall("which pet food", query_vector=vector)
    assert result.entries[0].key == "k2" and result.mode == "hybrid"
    assert [name.startswith("memchat-vector-lane") for name in threads] == [True]


async def test_damaged_files_found_by_the_lane_are_searched_again_from_the_store(
    open_store: OpenStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, vector = await _calibrated(open_store, "dentist on Tuesday")
    search = LayeredIndex.search
    threads: list[str] = []

    def damaged_on_the_lane(
        index: LayeredIndex, query: npt.NDArray[np.float32], k: int, flt: VectorFilter
    ) -> list[tuple[int, float]]:
        threads.append(threading.current_thread().name)
        if threading.current_thread().name.startswith("memchat-vector-lane"):
            raise IndexFileDamagedError("row 2 changed in the file")
        return search(index, query, k, flt)

    monkeypatch.setattr(LayeredIndex, "search", damaged_on_the_lane)
    result = await store.recall("when is the appointment", query_vector=vector)
    assert result.entries[0].key == "k1"
    assert result.entries[0].scores is not None
    assert result.entries[0].scores.cosine == pytest.approx(1.0, abs=1e-5)
    assert len(threads) == 2 and threads[1].startswith("memchat-sqlite")
