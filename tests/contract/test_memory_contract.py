"""The Memory contract, run against every backend (tests/contract/conftest.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.entry import MemoryEntry
from memory.protocol import Memory
from tests.contract.conftest import needs

LABELLED = {
    "editor": "The user edits code in Helix",
    "pet": "The user's cat is called Miso",
    "trip": "Booked a ryokan in Kyoto for April",
    "lunch": "Had ramen for lunch with Ben",
}


async def seed(memory: Memory) -> dict[str, MemoryEntry]:
    return {key: await memory.store(key, text, "daily") for key, text in LABELLED.items()}


async def test_store_get_and_upsert(memory: Memory) -> None:
    needs(memory, "persistent")
    first = await memory.store("k", "first version", "daily", "s1")
    got = await memory.get("k")
    assert got is not None and got.content == "first version" and got.session_id == "s1"
    second = await memory.store("k", "second version", "daily")
    assert second.id == first.id and second.timestamp == first.timestamp
    assert (await memory.get("k")).content == "second version"  # type: ignore[union-attr]
    assert await memory.count() == 1


async def test_recall_ranks_the_labelled_set(memory: Memory) -> None:
    needs(memory, "persistent", "supports_keyword_search")
    await seed(memory)
    for query, key in [
        ("cat called Miso", "pet"),
        ("Helix editor code", "editor"),
        ("Kyoto ryokan", "trip"),
        ("ramen lunch", "lunch"),
    ]:
        result = await memory.recall(query, limit=2)
        assert result.entries[0].key == key, query
        assert result.entries[0].scores is not None
        assert 0.0 <= result.entries[0].scores.fused <= 1.0


async def test_forget(memory: Memory) -> None:
    needs(memory, "persistent", "supports_delete")
    await seed(memory)
    assert await memory.forget("pet") is True
    assert await memory.forget("pet") is False
    assert await memory.get("pet") is None
    assert "pet" not in [e.key for e in (await memory.recall("cat Miso")).entries]


async def test_list_pages_filters_and_count(memory: Memory) -> None:
    needs(memory, "persistent")
    await seed(memory)
    await memory.store("fact", "a core fact", "core")
    page1 = await memory.list(order="key", limit=3)
    page2 = await memory.list(order="key", limit=3, offset=3)
    assert [e.key for e in page1 + page2] == sorted([*LABELLED, "fact"])
    assert [e.key for e in await memory.list(category="core")] == ["fact"]
    # Spelled as a user may type it (Qdrant and PostgreSQL found nothing for "Core").
    assert [e.key for e in await memory.list(category=" Core ")] == ["fact"]
    assert [e.key for e in await memory.list(prefix="ed")] == ["editor"]
    assert await memory.count() == 5 and await memory.count(category="daily") == 4
    assert await memory.count(category="DAILY") == 4
    stats = await memory.stats()
    assert stats.total == 5 and stats.backend == memory.name


async def test_namespaces_and_sessions_are_isolated(memory: Memory) -> None:
    needs(memory, "persistent", "supports_namespaces")
    await memory.store_with_metadata("a", "kayak trip notes", "daily", namespace="work")
    await memory.store("b", "kayak trip diary", "daily", "s1")
    await memory.store("c", "kayak trip plan", "daily", "s2")
    await memory.store("d", "kayak trip budget", "daily")
    assert await memory.get("a") is None and await memory.get("a", "work") is not None
    work = await memory.recall("kayak trip", namespace="work")
    assert [e.key for e in work.entries] == ["a"]
    in_s1 = {e.key for e in (await memory.recall("kayak trip", session_id="s1")).entries}
    assert in_s1 == {"b", "d"}
    assert {e.key for e in await memory.list(session_id="s2")} == {"c", "d"}


async def test_since_and_until(memory: Memory) -> None:
    needs(memory, "persistent")
    early = await memory.store("early", "garden tomatoes planted", "daily")
    late = await memory.store("late", "garden tomatoes harvested", "daily")
    since = await memory.recall("garden tomatoes", since=late.timestamp)
    assert [e.key for e in since.entries] == ["late"]
    until = await memory.recall("garden tomatoes", until=late.timestamp)
    assert [e.key for e in until.entries] == ["early"]
    future = datetime.now(UTC) + timedelta(days=1)
    assert (await memory.recall("garden", since=future)).entries == []
    assert early.timestamp <= late.timestamp


async def test_supersede_and_restore(memory: Memory) -> None:
    needs(memory, "persistent", "supports_supersede")
    old = await memory.store("old", "the office is on floor 3", "daily")
    new = await memory.store("new", "the office moved to floor 5", "daily")
    assert await memory.supersede([old.id], new.id) == 1
    assert [e.key for e in (await memory.recall("office floor")).entries] == ["new"]
    await memory.restore(old.id)
    assert [e.key for e in (await memory.recall("office floor")).entries] == ["old"]


async def test_export_import_round_trip(memory: Memory, fresh: Memory) -> None:
    needs(memory, "persistent", "supports_export")
    await seed(memory)
    await memory.store_with_metadata(
        "w", "work note", "core", namespace="work", importance=0.9, pinned=True
    )
    exported = [e async for e in memory.export()]
    summary = await fresh.import_(exported)
    assert summary.added == len(exported)
    again = [e async for e in fresh.export()]
    fields = set(MemoryEntry.model_fields)
    assert [e.model_dump(include=fields) for e in again] == [
        e.model_dump(include=fields) for e in exported
    ]


async def test_an_entry_is_found_by_the_day_it_was_saved(memory: Memory, fresh: Memory) -> None:
    needs(memory, "persistent", "supports_keyword_search", "supports_export")
    await seed(memory)
    saved = datetime(2023, 10, 13, 15, 30, tzinfo=UTC).astimezone()
    exported = [e async for e in memory.export()]
    dated = [
        e.model_copy(update={"timestamp": saved, "updated_at": saved}) if e.key == "trip" else e
        for e in exported
    ]
    await fresh.import_(dated)
    day = f"{saved:%B} {saved.day}, {saved.year}"
    for query in (f"what did I tell you on {day}?", f"notes from {saved:%B %Y}"):
        found = await fresh.recall(query, limit=3)
        assert found.entries[0].key == "trip", query
        assert [e.key for e in found.entries if keyword_of(e) > 0] == ["trip"], query
    asked = await fresh.recall("May I ask you something?", limit=3)
    assert [e.key for e in asked.entries if keyword_of(e) > 0] == []


def keyword_of(entry: MemoryEntry) -> float:
    """The keyword component of a recalled entry's score (0 when it has none)."""
    return (entry.scores.keyword or 0.0) if entry.scores is not None else 0.0


async def test_an_operation_a_backend_lacks_is_a_clear_error(memory: Memory) -> None:
    if memory.capabilities.supports_delete or not memory.capabilities.persistent:
        pytest.skip(f"{memory.name} can delete (or keeps nothing)")
    from memory.errors import UnsupportedOperationError

    await memory.store("k", "v")
    with pytest.raises(UnsupportedOperationError, match=f"{memory.name}.*forget"):
        await memory.forget("k")
    assert await memory.get("k") is not None


@pytest.mark.parametrize(
    "text",
    [
        'quote " and NEAR(x y) OR *',
        "커피를 좋아해요 ☕",
        "nul\x00byte",
        "שלום \u200f עולם",
        "x" * 50_000,
    ],
)
async def test_hostile_text(memory: Memory, text: str) -> None:
    await memory.recall(text)
    stored = await memory.store("hostile", text, "daily")
    assert stored.content == text
    if memory.capabilities.persistent:
        got = await memory.get("hostile")
        assert got is not None and got.content == text


async def test_a_backend_without_memory_says_so(memory: Memory) -> None:
    if memory.capabilities.persistent:
        pytest.skip(f"{memory.name} keeps what it is given")
    await memory.store("k", "v")
    assert await memory.get("k") is None
    assert (await memory.recall("v")).mode == "off"
    assert (await memory.health_check()).ok
    from memory.errors import MemoryStoreError

    with pytest.raises(MemoryStoreError, match=memory.name):
        await memory.import_([])


async def test_the_typed_capabilities_agree_with_the_flags(memory: Memory) -> None:
    """Callers decide from `lifecycle` and `reindexing`; the flags must say the same."""
    assert (memory.lifecycle is not None) == memory.capabilities.supports_lifecycle
    if memory.reindexing is not None:
        assert memory.capabilities.supports_vectors
    assert memory.hydration is None  # nothing was restored from a snapshot here
    location = memory.location
    assert location is None or location.exists()


async def test_get_by_id_and_exclude_ids(memory: Memory) -> None:
    needs(memory, "persistent", "supports_keyword_search")
    stored = await seed(memory)
    pet = stored["pet"]
    got = await memory.get_by_id(pet.id)
    assert got is not None and got.key == "pet" and got.content == LABELLED["pet"]
    assert await memory.get_by_id("no-such-id") is None
    found = await memory.recall("cat called Miso", exclude_ids=[pet.id])
    assert "pet" not in [e.key for e in found.entries + found.below_floor]


async def test_export_import_keeps_vectors(memory: Memory, fresh: Memory) -> None:
    needs(memory, "persistent", "supports_export", "supports_vectors")
    await seed(memory)
    exported = [e async for e in memory.export()]
    assert all(getattr(e, "embedding", None) is not None for e in exported)
    await fresh.import_(exported)
    again = {e.id: e async for e in fresh.export()}
    for entry in exported:
        copied = again[entry.id]
        assert getattr(copied, "embedding", None) == getattr(entry, "embedding", None)
    stats = await fresh.stats()
    assert stats.with_embedding == len(exported) and stats.stale_embedding == 0
