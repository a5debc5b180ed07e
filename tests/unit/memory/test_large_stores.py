"""What large stores need: vectors loaded on first use only, bulk embedding in batches."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memory.errors import MemoryStoreError
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder, FailingEmbedder
from memory.write_rules import NewMemory
from tests.unit.memory.conftest import DIMS, OpenStore

FACTS = [f"fact number {i} about {topic}" for i, topic in enumerate(["tea", "Lisbon", "cats"])]


def loaded(store: SqliteMemory) -> bool:
    return store._core.index_loaded  # noqa: SLF001 - the test watches the derived index


async def _filled(open_store: OpenStore, path: Path) -> None:
    store = await open_store(CountingEmbedder(DIMS), path=path)
    await store.bulk_store([NewMemory(key=f"k{i}", content=text) for i, text in enumerate(FACTS)])
    await store.close()


async def test_reading_without_vectors_never_loads_them(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await _filled(open_store, path)
    store = await open_store(CountingEmbedder(DIMS), path=path)
    stats = await store.stats()
    assert (stats.total, stats.with_embedding, stats.stale_embedding) == (3, 3, 0)
    assert len(await store.list(limit=10)) == 3
    assert await store.get("k1") is not None
    assert len([record async for record in store.export()]) == 3
    await store.store("k3", "a fact stored while the vectors are not loaded")
    assert (await store.stats()).with_embedding == 4
    assert not loaded(store)

    vector = (await CountingEmbedder(DIMS).embed(["fact number 1 about Lisbon"]))[0]
    result = await store.recall("unrelated words", limit=4, query_vector=vector)
    assert loaded(store)
    assert result.entries and result.entries[0].key == "k1"
    # The write made before the load is in the index like the others.
    vector = (
        await CountingEmbedder(DIMS).embed(["a fact stored while the vectors are not loaded"])
    )[0]
    result = await store.recall("unrelated words", limit=4, query_vector=vector)
    assert result.entries[0].key == "k3" and result.entries[0].scores is not None
    assert result.entries[0].scores.lane != "keyword"
    assert (await store.stats()).with_embedding == 4


async def test_writes_by_another_connection_before_the_load_are_seen(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await _filled(open_store, path)
    reader = await open_store(CountingEmbedder(DIMS), path=path)
    writer = await open_store(CountingEmbedder(DIMS), path=path)
    assert (await reader.stats()).with_embedding == 3
    await writer.store("lisbon", "the user moved to Porto last spring")
    await writer.forget("k0")
    assert not loaded(reader)
    vector = (await CountingEmbedder(DIMS).embed(["the user moved to Porto last spring"]))[0]
    result = await reader.recall("zzz", limit=10, query_vector=vector)
    keys = [e.key for e in result.entries]
    assert keys[0] == "lisbon" and "k0" not in keys
    # After the load, the next change by the other connection is replayed, not reloaded.
    await writer.forget("lisbon")
    result = await reader.recall("zzz", limit=10, query_vector=vector)
    assert "lisbon" not in [e.key for e in result.entries]


async def test_the_loaded_index_matches_one_built_from_the_file(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await _filled(open_store, path)
    store = await open_store(CountingEmbedder(DIMS), path=path)
    await store.store("k9", "one more fact, written before any recall")
    vector = (await CountingEmbedder(DIMS).embed(["fact number 2 about cats"]))[0]
    await store.recall("x", limit=1, query_vector=vector)
    fresh = await open_store(CountingEmbedder(DIMS), path=path)
    await fresh.recall("x", limit=1, query_vector=vector)
    ours = store._core.index  # noqa: SLF001 - the test compares the derived indexes
    theirs = fresh._core.index  # noqa: SLF001
    assert ours.seqs() == theirs.seqs() and len(ours) == 4
    for seq in ours.seqs():
        mine, other = ours.vector(seq), theirs.vector(seq)
        assert mine is not None and other is not None
        np.testing.assert_array_equal(mine, other)


async def test_bulk_store_embeds_in_bounded_batches_with_progress(open_store: OpenStore) -> None:
    embedder = CountingEmbedder(DIMS)
    store = await open_store(embedder)
    items = [NewMemory(key=f"b{i}", content=f"bulk fact {i} about gardens") for i in range(150)]
    seen: list[tuple[int, int]] = []
    result = await store.bulk_store(items, batch_size=64, progress=lambda *p: seen.append(p))
    assert (result.stored, result.without_vectors, result.embedding_error) == (150, 0, None)
    assert [len(call) for call in embedder.calls if call[0].startswith("bulk")] == [64, 64, 22]
    assert seen == [(64, 150), (128, 150), (150, 150)]
    stats = await store.stats()
    assert (stats.total, stats.with_embedding) == (150, 150)


async def test_an_embedder_failing_mid_import_is_reported_and_reindex_finishes(
    open_store: OpenStore,
) -> None:
    embedder = FailingEmbedder(DIMS)
    embedder.failing = False
    store = await open_store(embedder)
    items = [NewMemory(key=f"b{i}", content=f"bulk fact {i} about gardens") for i in range(100)]
    calls = 0

    def fail_after_first_batch(done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        embedder.failing = True  # the server stops answering after the first batch

    result = await store.bulk_store(items, batch_size=40, progress=fail_after_first_batch)
    assert (result.stored, result.without_vectors) == (100, 60)
    assert result.embedding_error is not None and calls == 3
    # Nothing waited on a dead embedder batch after batch: it was asked once more, not twice.
    assert embedder.attempts == 2
    assert any("60 of 100 memories just stored have no vector" in w for w in store.warnings)
    stats = await store.stats()
    assert (stats.total, stats.with_embedding, stats.stale_embedding) == (100, 40, 60)
    embedder.failing = False
    assert await store.reindex() == 60
    assert (await store.stats()).stale_embedding == 0


async def test_calibrating_loads_the_vectors_before_the_first_recall(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await _filled(open_store, path)
    store = await open_store(CountingEmbedder(DIMS), path=path)
    assert not loaded(store)
    assert await store.calibrate()
    assert loaded(store)


async def test_a_bulk_insert_indexes_as_single_writes_do(open_store: OpenStore) -> None:
    texts = [f"note {i}: {word} on 13 October" for i, word in enumerate(["tea", "tea", "cats"])]
    bulk = await open_store(None)
    single = await open_store(None)
    await bulk.bulk_store([NewMemory(key=f"k{i}", content=t) for i, t in enumerate(texts)])
    for i, text in enumerate(texts):
        await single.store(f"k{i}", text)
    for query in ("tea", "cats october", "note 13 october"):
        found, alone = [
            [(e.key, e.scores and e.scores.keyword) for e in (await s.recall(query)).entries]
            for s in (bulk, single)
        ]
        assert found == alone and found, query


async def test_a_failed_bulk_insert_stores_nothing_and_the_next_one_works(
    open_store: OpenStore,
) -> None:
    store = await open_store(None)
    await store.store("taken", "already here")
    clash = [NewMemory(key="fresh", content="new tea"), NewMemory(key="taken", content="again")]
    with pytest.raises(MemoryStoreError, match="UNIQUE constraint failed: memories.namespace"):
        await store.bulk_store(clash)
    assert [e.key for e in (await store.recall("tea")).entries] == []
    await store.bulk_store([NewMemory(key="fresh", content="new tea")])
    assert [e.key for e in (await store.recall("tea")).entries] == ["fresh"]
    assert (await store.stats()).total == 2
