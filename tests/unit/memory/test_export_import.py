from __future__ import annotations

from pathlib import Path

import pytest

from memory.records import MemoryRecord
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from tests.unit.memory.conftest import DIMS, OpenStore


async def _lines(store: SqliteMemory) -> list[str]:
    return [record.model_dump_json() async for record in store.export()]


async def test_export_import_round_trip_is_exact(open_store: OpenStore, tmp_path: Path) -> None:
    source = await open_store(CountingEmbedder(DIMS))
    old = await source.store("pref", "prefers Rust", "core", "s1")
    new = await source.store_with_metadata(
        "pref2", 'prefers Python 🐍 — "quoted"\nline2', importance=0.9, pinned=True, source="tool"
    )
    await source.store("note", "한국어 메모", "travel")
    await source.store_with_metadata("w", "work item", namespace="work")
    await source.supersede([old.id], new.id)
    exported = [r async for r in source.export()]
    assert all(isinstance(r, MemoryRecord) for r in exported)
    assert all(r.embedding is not None for r in exported)  # type: ignore[attr-defined]
    lines = await _lines(source)

    target = await open_store(CountingEmbedder(DIMS), path=tmp_path / "copy.db")
    summary = await target.import_([MemoryRecord.model_validate_json(line) for line in lines])
    assert summary.added == 4 and summary.replaced == 0
    assert await _lines(target) == lines
    assert (await target.stats()).with_embedding == 4
    result = await target.recall("prefers python")
    assert result.entries[0].id == new.id


async def test_import_replaces_same_id_or_key(open_store: OpenStore) -> None:
    store = await open_store(None)
    original = await store.store("k", "original")
    record = [r async for r in store.export()][0].model_copy(update={"content": "edited"})
    summary = await store.import_([record])
    assert summary.replaced == 1 and summary.added == 0
    got = await store.get("k")
    assert got is not None and got.id == original.id and got.content == "edited"
    assert [e.key for e in (await store.recall("edited")).entries] == ["k"]


async def test_export_of_one_namespace(open_store: OpenStore) -> None:
    store = await open_store(None)
    await store.store("a", "x")
    await store.store_with_metadata("b", "y", namespace="work")
    assert [r.key async for r in store.export(namespace="work")] == ["b"]


async def test_export_pages_through_large_stores(open_store: OpenStore) -> None:
    from memory.write_rules import NewMemory

    store = await open_store(None)
    await store.bulk_store([NewMemory(key=f"k{i}", content=f"c{i}") for i in range(1234)])
    keys = [r.key async for r in store.export()]
    assert len(keys) == 1234 and len(set(keys)) == 1234


async def test_import_rejects_invalid_records_before_writing(open_store: OpenStore) -> None:
    from memory.errors import InvalidEntryError

    store = await open_store(None)
    good = await store.store("good", "fine")
    record = [r async for r in store.export()][0]
    bad = record.model_copy(update={"id": "other", "key": ""})
    with pytest.raises(InvalidEntryError):
        await store.import_([record.model_copy(update={"content": "changed"}), bad])
    got = await store.get("good")
    assert got is not None and got.content == "fine" and got.id == good.id
