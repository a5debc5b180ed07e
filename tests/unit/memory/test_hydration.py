"""Rebuilding a lost brain.db from MEMORY_SNAPSHOT.md: exact, and tolerant of damage."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.entry import MemoryEntry
from memory.factory import open_memory
from memory.settings import MemorySettings
from memory.snapshot import render_snapshot
from memory.sqlite.store import SqliteMemory
from memory.upsert import stored_fields
from tests.helpers.hostile import HOSTILE_TEXTS

SETTINGS = MemorySettings(embedding_provider="none")
NOW = datetime(2026, 11, 30, tzinfo=UTC)


async def _write_snapshot(folder: Path, contents: list[str]) -> dict[str, dict[str, object]]:
    store = await open_memory(SETTINGS, folder, None)
    assert isinstance(store, SqliteMemory)
    try:
        for i, content in enumerate(contents):
            await store.store_with_metadata(f"key {i}\r\n(line two)", content, pinned=i % 2 == 0)
        await store.write_snapshot(now=NOW)
        return {e.id: stored_fields(e) async for e in store.export()}
    finally:
        await store.close()
        for name in ("brain.db", "brain.db-wal", "brain.db-shm"):
            (folder / name).unlink(missing_ok=True)


async def _rebuilt(folder: Path) -> SqliteMemory:
    store = await open_memory(SETTINGS, folder, None)
    assert isinstance(store, SqliteMemory)
    return store


async def test_hostile_content_is_restored_exactly(tmp_path: Path) -> None:
    before = await _write_snapshot(tmp_path, HOSTILE_TEXTS)
    store = await _rebuilt(tmp_path)
    try:
        assert {e.id: stored_fields(e) async for e in store.export()} == before
        assert store.warnings == []
        assert store.hydration == (
            f"brain.db was missing: restored {len(before)} core memories from "
            f"{tmp_path / 'MEMORY_SNAPSHOT.md'}"
        )
    finally:
        await store.close()


async def test_a_snapshot_an_editor_saved_with_crlf_is_restored_exactly(tmp_path: Path) -> None:
    before = await _write_snapshot(tmp_path, ["one\ntwo", "carriage\rreturn", "x\r\n"])
    snapshot = tmp_path / "MEMORY_SNAPSHOT.md"
    snapshot.write_bytes(snapshot.read_bytes().replace(b"\n", b"\r\n"))
    store = await _rebuilt(tmp_path)
    try:
        assert {e.id: stored_fields(e) async for e in store.export()} == before
        assert store.warnings == []
    finally:
        await store.close()


async def test_a_damaged_snapshot_restores_what_it_can_and_says_so(tmp_path: Path) -> None:
    await _write_snapshot(tmp_path, ["The cat is called Miso", "Ana lives in Lisbon", "tea"])
    snapshot = tmp_path / "MEMORY_SNAPSHOT.md"
    damaged = snapshot.read_bytes().replace(b"- pinned: true", b"- pinned: tru", 1)
    damaged = damaged[: damaged.rindex(b"tea")]  # torn in the last content
    snapshot.write_bytes(damaged)
    store = await _rebuilt(tmp_path)
    try:
        assert [e.content async for e in store.export()] == ["Ana lives in Lisbon"]
        assert len(store.warnings) == 2
        assert all(w.startswith(f"{snapshot}: line ") for w in store.warnings)
        assert store.hydration is not None
        assert store.hydration.startswith("brain.db was missing: restored 1 core memory")
        assert "2 damaged parts of it were skipped and the file as it was is kept as" in (
            store.hydration
        )
        assert snapshot.read_bytes() == damaged
    finally:
        await store.close()


async def test_an_entry_the_store_refuses_is_skipped_and_named(tmp_path: Path) -> None:
    entries = [
        MemoryEntry(id=f"id{i}", key=key, content="c", timestamp=NOW, updated_at=NOW)
        for i, key in enumerate(["fine", "   ", "also fine"])
    ]
    (tmp_path / "MEMORY_SNAPSHOT.md").write_text(render_snapshot(entries, NOW))
    store = await _rebuilt(tmp_path)
    try:
        assert sorted([e.key async for e in store.export()]) == ["also fine", "fine"]
        assert len(store.warnings) == 1 and "'   ' could not be restored" in store.warnings[0]
        assert store.hydration is not None and "restored 2 core memories" in store.hydration
    finally:
        await store.close()


async def test_a_version_replaced_by_an_entry_the_snapshot_lacks_comes_back_into_effect(
    tmp_path: Path,
) -> None:
    """Found by a new user: a fact's new version saved under a mistyped category left the
    snapshot (core facts only), and its old version pointed at it; rebuilt, neither was in
    effect and recall found nothing."""
    old = MemoryEntry(
        id="id-old",
        key="garage",
        content="The garage code is 5550",
        timestamp=NOW,
        updated_at=NOW,
        superseded_by="id-gone",
    )
    older = old.model_copy(
        update={"id": "id-older", "content": "The garage code is 4440", "superseded_by": "id-old"}
    )
    kept = MemoryEntry(
        id="id-pet", key="pet", content="The cat is Miso", timestamp=NOW, updated_at=NOW
    )
    stray = kept.model_copy(
        update={"id": "id-stray", "content": "The cat is Tom", "superseded_by": "id-missing"}
    )
    (tmp_path / "MEMORY_SNAPSHOT.md").write_text(render_snapshot([older, old, kept, stray], NOW))
    store = await _rebuilt(tmp_path)
    try:
        garage = await store.get("garage")
        assert garage is not None and garage.id == "id-old"  # back in effect
        history = await store.get_by_id("id-older")
        assert history is not None and history.superseded_by == "id-old"
        pet = await store.get("pet")  # the key in effect stays; the stray is its history
        assert pet is not None and pet.id == "id-pet"
        stray_now = await store.get_by_id("id-stray")
        assert stray_now is not None and stray_now.superseded_by == "id-pet"
        assert "garage code" in (await store.recall("garage code")).entries[0].content
        # It may be stale (its newer version left the core facts): said, with the key.
        assert store.hydration is not None
        assert "1 fact whose newer version the snapshot does not hold" in store.hydration
        assert "check 'garage'" in store.hydration
    finally:
        await store.close()


async def test_two_stores_in_one_folder_keep_snapshots_of_their_own(tmp_path: Path) -> None:
    """Found by an adversary: a new "personal.db" beside "work.db" was filled from the
    snapshot work.db had written (a password included, kept after work.db erased it)."""
    work_settings = SETTINGS.model_copy(update={"path": str(tmp_path / "work.db")})
    personal_settings = SETTINGS.model_copy(update={"path": str(tmp_path / "personal.db")})
    work = await open_memory(work_settings, tmp_path, None)
    await work.store("rootpw", "The server root password is Tr0ub4dor")
    await work.close()
    assert (tmp_path / "work.MEMORY_SNAPSHOT.md").is_file()
    personal = await open_memory(personal_settings, tmp_path, None)
    try:
        assert personal.hydration is None
        await personal.store("daughter", "My daughter is called Mia")
        assert [e.key async for e in personal.export()] == ["daughter"]
    finally:
        await personal.close()
    snapshot = (tmp_path / "personal.MEMORY_SNAPSHOT.md").read_text()
    assert "Mia" in snapshot and "Tr0ub4dor" not in snapshot
    # Each is rebuilt from its own.
    (tmp_path / "work.db").unlink()
    work = await open_memory(work_settings, tmp_path, None)
    try:
        assert [e.key async for e in work.export()] == ["rootpw"]
        assert work.hydration is not None and work.hydration.startswith("work.db was missing")
    finally:
        await work.close()
    assert not (tmp_path / "MEMORY_SNAPSHOT.md").exists()
