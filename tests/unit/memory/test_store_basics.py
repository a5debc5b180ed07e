from __future__ import annotations

import asyncio
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory.entry import MemoryCategory
from memory.errors import InvalidEntryError, MemoryStoreError
from memory.sqlite.store import SqliteMemory
from tests.unit.memory.conftest import OpenStore


async def test_store_then_get_returns_every_field(store: SqliteMemory) -> None:
    before = datetime.now(UTC)
    stored = await store.store("editor", "The user edits code in Helix", "core", "s1")
    got = await store.get("editor")
    assert got is not None
    assert got == stored
    assert got.content == "The user edits code in Helix"
    assert got.category == "core" and got.session_id == "s1" and got.namespace == "default"
    assert got.source == "user" and got.importance == 0.5 and not got.pinned
    assert got.timestamp.tzinfo is UTC and before <= got.timestamp <= datetime.now(UTC)


async def test_upsert_keeps_id_and_created_and_refreshes_content(
    store: SqliteMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await store.store("lang", "prefers Rust", "daily")
    # A later clock, not a sleep: the update must carry a later time however fast it runs.
    later = first.updated_at + timedelta(seconds=1)
    monkeypatch.setattr("memory.sqlite.writes.utc_now", lambda: later)
    second = await store.store("lang", "prefers Python", "daily")
    assert second.id == first.id
    assert second.timestamp == first.timestamp
    assert second.updated_at > first.updated_at
    assert second.content == "prefers Python"
    assert await store.count() == 1


async def test_a_key_holding_only_history_is_written_as_a_new_memory(store: SqliteMemory) -> None:
    """Its history is kept: the write used to update it in place (found by an adversary)."""
    first = await store.store("lang", "prefers Rust", "daily")
    other = await store.store("other", "placeholder")
    await store.supersede([first.id], other.id)
    second = await store.store("lang", "prefers Python", "daily")
    assert second.id != first.id and second.superseded_by is None
    kept = await store.get_by_id(first.id)
    assert kept is not None and kept.content == "prefers Rust" and kept.superseded_by == other.id
    assert await store.count() == 3


async def test_store_with_metadata_and_none_keeps_existing_values(store: SqliteMemory) -> None:
    await store.store_with_metadata(
        "k", "v1", "daily", namespace="work", importance=0.9, pinned=True, source="tool"
    )
    updated = await store.store_with_metadata("k", "v2", "daily", namespace="work")
    assert updated.importance == 0.9 and updated.pinned
    assert updated.namespace == "work" and updated.source == "user"
    assert await store.get("k") is None  # other namespace


async def test_custom_category_is_normalised(store: SqliteMemory) -> None:
    entry = await store.store("trip", "Lisbon in May", " Travel ")
    assert entry.category == "travel"
    core = await store.store("fact", "x", MemoryCategory.CORE)
    assert core.category == "core"


@pytest.mark.parametrize(
    ("key", "content", "message"),
    [
        ("", "x", "key must not be empty"),
        ("   ", "x", "key must not be empty"),
        ("k" * 513, "x", "longer than 512"),
        ("k", "bad \ud800 text", "unpaired surrogate"),
        ("k\udfff", "x", "unpaired surrogate"),
    ],
)
async def test_invalid_entries_are_rejected_clearly(
    store: SqliteMemory, key: str, content: str, message: str
) -> None:
    with pytest.raises(InvalidEntryError, match=message):
        await store.store(key, content)
    assert await store.count() == 0


async def test_importance_out_of_range_is_rejected(store: SqliteMemory) -> None:
    with pytest.raises(InvalidEntryError, match="importance"):
        await store.store_with_metadata("k", "v", importance=1.5)


async def test_forget_reports_whether_something_went(store: SqliteMemory) -> None:
    await store.store("k", "v")
    assert await store.forget("k") is True
    assert await store.forget("k") is False
    assert await store.get("k") is None
    assert (await store.recall("v")).entries == []


async def test_list_pages_filters_and_orders_deterministically(store: SqliteMemory) -> None:
    for i in range(7):
        await store.store(f"note-{i}", f"note number {i}", "daily" if i % 2 else "travel")
    await store.store("other", "x")
    recent = await store.list(limit=3)
    assert [e.key for e in recent] == ["other", "note-6", "note-5"]
    page2 = await store.list(limit=3, offset=3)
    assert [e.key for e in page2] == ["note-4", "note-3", "note-2"]
    daily = await store.list(category="daily", order="key")
    assert [e.key for e in daily] == ["note-1", "note-3", "note-5"]
    prefixed = await store.list(prefix="note-", order="key", limit=2)
    assert [e.key for e in prefixed] == ["note-0", "note-1"]


async def test_list_prefix_treats_like_wildcards_literally(store: SqliteMemory) -> None:
    await store.store("a_b", "x")
    await store.store("axb", "y")
    assert [e.key for e in await store.list(prefix="a_")] == ["a_b"]


async def test_count_filters(store: SqliteMemory) -> None:
    a = await store.store("a", "x", "core")
    b = await store.store("b", "y", "daily")
    await store.store_with_metadata("c", "z", namespace="work")
    await store.supersede([a.id], b.id)
    assert await store.count() == 3
    assert await store.count(namespace="default") == 2
    assert await store.count(category="daily") == 1
    assert await store.count(include_superseded=False) == 2


async def test_stats_counts_by_category_and_namespace(store: SqliteMemory) -> None:
    await store.store("a", "x", "core")
    await store.store("b", "y", "daily")
    await store.store_with_metadata("c", "z", namespace="work")
    stats = await store.stats()
    assert stats.total == 3 and stats.active == 3
    assert stats.by_category == {"core": 2, "daily": 1}
    assert stats.by_namespace == {"default": 2, "work": 1}
    assert stats.file_bytes and stats.file_bytes > 0
    assert (await store.health_check()).ok


async def test_supersede_and_restore_flip(store: SqliteMemory) -> None:
    rust = await store.store("pref-old", "the user prefers Rust", "daily")
    python = await store.store("pref-new", "the user prefers Python", "daily")
    assert await store.supersede([rust.id], python.id) == 1
    assert [e.key for e in (await store.recall("prefers")).entries] == ["pref-new"]
    history = await store.list(include_superseded=True, order="key")
    assert {e.key: e.superseded_by for e in history} == {"pref-new": None, "pref-old": python.id}
    restored = await store.restore(rust.id)
    assert restored.superseded_by is None
    assert (await store.get_by_id(python.id)).superseded_by == rust.id  # type: ignore[union-attr]
    assert await store.get("pref-new") is None  # get returns active entries only
    assert [e.key for e in (await store.recall("prefers")).entries] == ["pref-old"]


async def test_supersede_unknown_target_and_restore_unknown_raise(store: SqliteMemory) -> None:
    with pytest.raises(MemoryStoreError, match="no entry"):
        await store.supersede(["x"], "missing")
    with pytest.raises(MemoryStoreError, match="no entry"):
        await store.restore("missing")


async def test_file_and_new_directory_are_private(open_store: OpenStore, tmp_path: Path) -> None:
    private = await open_store(None, path=tmp_path / "fresh" / "brain.db")
    await private.store("k", "v")
    assert stat.S_IMODE(private.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(private.path.parent.stat().st_mode) == 0o700


async def test_concurrent_callers_lose_nothing(store: SqliteMemory) -> None:
    await asyncio.gather(*(store.store(f"k{i}", f"content {i}") for i in range(100)))
    assert await store.count() == 100


async def test_a_changed_core_fact_under_the_same_key_keeps_the_old_as_history(
    store: SqliteMemory,
) -> None:
    first = await store.store_with_metadata(
        "city", "Ana lives in Porto", importance=0.8, pinned=True
    )
    second = await store.store("city", "Ana lives in Lisbon")
    assert second.id != first.id and second.supersedes == [first.id]
    assert second.importance == 0.8 and second.pinned  # a new version inherits them
    active = await store.get("city")
    assert active is not None and active.content == "Ana lives in Lisbon"
    old = await store.get_by_id(first.id)
    assert old is not None and old.superseded_by == second.id and old.key == "city"
    assert [e.key for e in (await store.recall("where does Ana live")).entries] == ["city"]
    third = await store.store("city", "Ana lives in Lisbon")  # same text: nothing new
    assert third.id == second.id and third.supersedes == []
    assert await store.count() == 2
