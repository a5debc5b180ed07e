from __future__ import annotations

from pathlib import Path

import pytest

from memory.entry import RecallResult
from memory.errors import MemoryStoreError, UnknownBackendError
from memory.factory import default_db_path, open_memory
from memory.none_backend import NoneMemory
from memory.protocol import Memory
from memory.registry import backend_class, backend_names
from memory.retrieval import HotCache
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory


def test_registry_lists_and_loads_backends() -> None:
    assert backend_names() == ["lucid", "markdown", "none", "postgres", "qdrant", "sqlite"]
    assert backend_class("sqlite") is SqliteMemory
    assert backend_class("none") is NoneMemory


def test_unknown_backend_names_the_valid_ones() -> None:
    with pytest.raises(
        UnknownBackendError, match="'qdrnt'.*lucid, markdown, none, postgres, qdrant, sqlite"
    ):
        backend_class("qdrnt")


async def test_factory_opens_the_configured_backend(tmp_path: Path) -> None:
    sqlite = await open_memory(MemorySettings(embedding_provider="none"), tmp_path, None)
    try:
        assert isinstance(sqlite, SqliteMemory) and isinstance(sqlite, Memory)
        assert sqlite.path == tmp_path / "brain.db"
    finally:
        await sqlite.close()
    off = await open_memory(MemorySettings(backend="none"), tmp_path, None)
    assert isinstance(off, NoneMemory) and isinstance(off, Memory)
    custom = MemorySettings(path="~/elsewhere/mem.db")
    assert default_db_path(custom, tmp_path) == Path.home() / "elsewhere" / "mem.db"


async def test_none_backend_keeps_nothing_and_says_so() -> None:
    memory = NoneMemory()
    assert not memory.capabilities.persistent
    entry = await memory.store("k", "v")
    assert entry.content == "v"
    assert await memory.get("k") is None
    assert await memory.recall("v") == RecallResult(entries=[], mode="off")
    assert await memory.list() == [] and await memory.count() == 0
    assert (await memory.health_check()).detail == "memory is off"
    assert [e async for e in memory.export()] == []
    with pytest.raises(MemoryStoreError, match="import would keep nothing"):
        await memory.import_([entry])
    with pytest.raises(MemoryStoreError, match="nothing to restore"):
        await memory.restore("x")


def test_hot_cache_expires_after_its_ttl(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr("memory.retrieval.time.monotonic", lambda: now[0])
    cache = HotCache(size=2, ttl_s=300)
    result = RecallResult(entries=[], mode="keyword")
    cache.put("q", result)
    now[0] += 299
    hit = cache.get("q")
    assert hit is not None and hit.cached
    now[0] += 2
    assert cache.get("q") is None and len(cache) == 0


def test_hot_cache_evicts_least_recently_used() -> None:
    cache = HotCache(size=2, ttl_s=300)
    for key in ("a", "b"):
        cache.put(key, RecallResult(entries=[], mode="keyword"))
    assert cache.get("a") is not None
    cache.put("c", RecallResult(entries=[], mode="keyword"))
    assert cache.get("b") is None
    assert cache.get("a") is not None and cache.get("c") is not None
    disabled = HotCache(size=0)
    disabled.put("a", RecallResult(entries=[], mode="keyword"))
    assert disabled.get("a") is None
