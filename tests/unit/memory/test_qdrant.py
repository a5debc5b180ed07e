"""The Qdrant backend's local store (qdrant-edge): kept across opens, vectors kept."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from memory.errors import BackendUnavailableError, MemoryStoreError
from memory.factory import open_memory
from memory.protocol import Memory
from memory.records import MemoryRecord
from memory.registry import backend_class
from memory.settings import MemorySettings
from memory.testing import CountingEmbedder, FailingEmbedder

FACTS = {
    "editor": "The user edits code in Helix",
    "pet": "The user's cat is called Miso",
    "lunch": "Had ramen for lunch with Ana",
    "trip": "Flying to Lisbon in March for a conference",
    "sister": "The user's sister Ana lives in Porto",
}


def _settings(backend: str, **changes: object) -> MemorySettings:
    base = MemorySettings(
        backend=backend,
        embedding_provider="hashing",
        embedding_dimensions=64,
        min_relevance_score=0.05,
        hot_cache_ttl_s=0,
        early_return_score=1.0,
        conversation_context_weight=0.0,
    )
    return base.model_copy(update=changes)


@pytest.fixture
async def qdrant(tmp_path: Path) -> AsyncIterator[Memory]:
    store = await open_memory(_settings("qdrant"), tmp_path / "q", CountingEmbedder(64))
    try:
        yield store
    finally:
        await store.close()


async def test_the_store_survives_a_reopen(tmp_path: Path) -> None:
    store = await open_memory(_settings("qdrant"), tmp_path, CountingEmbedder(64))
    await store.store("pet", FACTS["pet"])
    await store.close()
    again = await open_memory(_settings("qdrant"), tmp_path, CountingEmbedder(64))
    try:
        assert (await again.get("pet")) is not None
        assert (await again.stats()).stale_embedding == 0
    finally:
        await again.close()
    with pytest.raises(MemoryStoreError, match="size 64.*embedding_dimensions is 32"):
        await open_memory(
            _settings("qdrant", embedding_dimensions=32), tmp_path, CountingEmbedder(32)
        )


async def test_export_carries_vectors_and_import_keeps_them(qdrant: Memory, tmp_path: Path) -> None:
    for key, text in FACTS.items():
        await qdrant.store(key, text)
    records = [r async for r in qdrant.export()]
    assert all(isinstance(r, MemoryRecord) and r.embedding is not None for r in records)
    embedder = CountingEmbedder(64)
    other = await open_memory(_settings("qdrant"), tmp_path / "other", embedder)
    try:
        await other.import_(records)
        assert embedder.calls == [], "vectors of the same identity are reused, not remade"
        stats = await other.stats()
        assert (stats.total, stats.with_embedding, stats.stale_embedding) == (5, 5, 0)
        assert [(e.key, e.score) for e in (await other.recall("cat name")).entries] == [
            (e.key, e.score) for e in (await qdrant.recall("cat name")).entries
        ]
    finally:
        await other.close()


async def test_failing_embeddings_fall_back_to_keywords(tmp_path: Path) -> None:
    store = await open_memory(_settings("qdrant"), tmp_path, FailingEmbedder(64))
    try:
        await store.store("pet", FACTS["pet"])
        result = await store.recall("cat Miso")
        assert [e.key for e in result.entries] == ["pet"]
        assert result.mode == "keyword" and result.degraded is not None
        assert (await store.stats()).stale_embedding == 1
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("backend", "driver", "package"),
    [
        ("qdrant", "qdrant_edge", "memory.qdrant"),
        ("postgres", "psycopg", "memory.postgres"),
    ],
)
def test_a_missing_driver_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch, backend: str, driver: str, package: str
) -> None:
    for name in [m for m in sys.modules if m.startswith((package, driver))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, driver, None)
    with pytest.raises(BackendUnavailableError, match=rf"pip install 'memchat\[{backend}\]'"):
        backend_class(backend)


async def test_a_server_without_qdrant_client_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The local store needs only qdrant-edge; qdrant-client is imported for a server."""
    for name in [m for m in sys.modules if m.startswith("qdrant_client")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "qdrant_client", None)
    local = await open_memory(_settings("qdrant"), tmp_path, CountingEmbedder(64))
    await local.close()
    with pytest.raises(BackendUnavailableError, match=r"pip install 'memchat\[qdrant\]'"):
        await open_memory(
            _settings("qdrant", qdrant_url="http://127.0.0.1:9"), tmp_path, CountingEmbedder(64)
        )
