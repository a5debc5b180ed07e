"""Moving a store between backends: every field, verified, source never touched."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError, UnsupportedOperationError
from memory.factory import data_left_behind, open_memory, vectors_missing
from memory.migration import MigrationError, migrate
from memory.protocol import Memory
from memory.settings import MemorySettings
from memory.testing import CountingEmbedder
from tests.helpers.hostile import HOSTILE_TEXTS

FIELDS = set(MemoryEntry.model_fields) - {"score", "scores", "supersedes"}


def _settings(backend: str) -> MemorySettings:
    return MemorySettings(backend=backend, embedding_provider="hashing", embedding_dimensions=64)


async def _open(backend: str, folder: Path) -> Memory:
    return await open_memory(_settings(backend), folder, CountingEmbedder(64))


async def _seed(memory: Memory, n: int = 23) -> None:
    base = datetime(2026, 3, 1, 9, tzinfo=UTC)
    entries = [
        MemoryEntry(
            id=f"id-{i:03d}",
            key=f"key {i} | with * markdown `chars`",
            content=f"line one of {i}\n## not a heading\n- not a list item {i}",
            category=["core", "daily", "conversation", "project-x"][i % 4],
            timestamp=base + timedelta(days=i, microseconds=i),
            updated_at=base + timedelta(days=i, hours=1),
            session_id=f"s{i % 3}" if i % 2 else None,
            namespace="work" if i % 5 == 0 else "default",
            importance=round(0.1 + (i % 9) / 10, 2),
            pinned=i % 7 == 0,
            source="agent" if i % 2 else "user",
        )
        for i in range(n)
    ]
    await memory.import_(entries)
    await memory.supersede(["id-001", "id-002"], "id-003")


async def _dump(memory: Memory) -> dict[str, dict[str, object]]:
    return {e.id: e.model_dump(include=FIELDS) async for e in memory.export()}


@pytest.mark.parametrize(
    ("first", "second"),
    [("sqlite", "markdown"), ("markdown", "sqlite"), ("sqlite", "qdrant"), ("qdrant", "markdown")],
)
async def test_round_trip_through_another_backend_is_exact(
    tmp_path: Path, first: str, second: str
) -> None:
    origin = await _open(first, tmp_path / "a")
    middle = await _open(second, tmp_path / "b")
    back = await _open(first, tmp_path / "c")
    try:
        await _seed(origin)
        before = await _dump(origin)
        seen: list[tuple[int, int]] = []
        report = await migrate(
            origin, middle, batch_size=5, progress=lambda d, t: seen.append((d, t))
        )
        assert (report.total, report.copied, report.mismatched) == (23, 23, [])
        assert seen[-1] == (23, 23) and len(seen) == 5
        assert (await migrate(middle, back)).mismatched == []
        assert await _dump(back) == before
        assert await _dump(origin) == before, "the source changed"
        assert (await back.get("key 3 | with * markdown `chars`")) is not None
        assert (await back.get_by_id("id-001")) is not None
        assert (await back.get_by_id("id-001")).superseded_by == "id-003"  # type: ignore[union-attr]
    finally:
        for store in (origin, middle, back):
            await store.close()


async def test_dry_run_writes_nothing_and_a_rerun_is_a_no_op(tmp_path: Path) -> None:
    source = await _open("sqlite", tmp_path / "a")
    target = await _open("markdown", tmp_path / "b")
    try:
        await _seed(source, 8)
        dry = await migrate(source, target, dry_run=True)
        assert (dry.total, dry.copied, dry.already_present) == (8, 0, 0)
        assert await target.count() == 0
        await migrate(source, target)
        again = await migrate(source, target)
        assert (again.already_present, again.mismatched) == (8, [])
        assert await target.count() == 8
    finally:
        await source.close()
        await target.close()


async def test_what_the_target_holds_and_the_source_no_longer_does_is_counted(
    tmp_path: Path,
) -> None:
    """Found by a new user: a second copy to markdown left a door code, forgotten in
    sqlite since the first copy, in the markdown store, and said nothing of it."""
    source = await _open("sqlite", tmp_path / "a")
    target = await _open("markdown", tmp_path / "b")
    try:
        await _seed(source, 8)
        door = await source.store("door", "The door code is 4821", "core")
        first = await migrate(source, target)
        assert first.only_in_target == 0
        await source.forget("door")
        dry = await migrate(source, target, dry_run=True)
        again = await migrate(source, target)
        assert (dry.only_in_target, again.only_in_target) == (1, 1)
        assert await target.get_by_id(door.id) is not None  # a copy removes nothing
    finally:
        await source.close()
        await target.close()


@pytest.mark.parametrize("backend", ["markdown", "qdrant"])
async def test_a_migrate_after_a_change_keeps_no_copy_of_the_replaced_version(
    tmp_path: Path, backend: str
) -> None:
    """Found by an adversary: each migrate after a change put a copy of the replaced
    version into the target's history ("I live in Porto" twice), and a migrate back
    carried it into the source."""
    source = await _open("sqlite", tmp_path / "a")
    target = await _open(backend, tmp_path / "b")
    try:
        porto = await source.store("home", "I live in Porto", "core")
        await migrate(source, target)
        braga = await source.store("home", "I live in Braga", "core")
        again = await migrate(source, target)
        assert again.mismatched == [] and again.replaced == 0
        ids = sorted([entry.id async for entry in target.export()])
        assert ids == sorted([porto.id, braga.id])
        back = await migrate(target, source)
        assert back.replaced == 0
        assert sorted([entry.id async for entry in source.export()]) == ids
    finally:
        await source.close()
        await target.close()


async def test_an_id_the_target_keeps_in_another_namespace_is_refused_before_writing(
    tmp_path: Path,
) -> None:
    """Found by an adversary: "copied 1 memory, but 1 differ", and each rerun added another
    copy under a new id."""
    at = datetime(2026, 3, 1, 9, tzinfo=UTC)

    def entry(namespace: str, content: str) -> MemoryEntry:
        return MemoryEntry(
            id="dup", key="k", content=content, timestamp=at, updated_at=at, namespace=namespace
        )

    source = await _open("sqlite", tmp_path / "a")
    target = await _open("markdown", tmp_path / "b")
    try:
        await source.import_([entry("beta", "BETA other")])
        await source.store("tea", "I like tea", "core")
        await target.import_([entry("alpha", "ALPHA secret")])
        for dry_run in (True, False, False):
            with pytest.raises(MigrationError, match="namespace 'beta'.*'alpha'.*nothing was"):
                await migrate(source, target, dry_run=dry_run)
        assert [e.content async for e in target.export()] == ["ALPHA secret"]
    finally:
        await source.close()
        await target.close()


async def test_an_interrupted_migration_is_finished_by_running_it_again(tmp_path: Path) -> None:
    source = await _open("sqlite", tmp_path / "a")
    target = await _open("sqlite", tmp_path / "b")
    try:
        await _seed(source, 12)
        calls = 0
        real_import = target.import_

        async def failing_import(entries):  # type: ignore[no-untyped-def]
            nonlocal calls
            calls += 1
            if calls == 2:
                raise MemoryStoreError("disk full")
            return await real_import(entries)

        target.import_ = failing_import  # type: ignore[method-assign]
        with pytest.raises(MemoryStoreError, match="disk full"):
            await migrate(source, target, batch_size=5)
        assert await target.count() == 5
        target.import_ = real_import  # type: ignore[method-assign]
        report = await migrate(source, target, batch_size=5)
        assert (report.already_present, report.mismatched) == (5, [])
        assert await _dump(target) == await _dump(source)
    finally:
        await source.close()
        await target.close()


async def test_a_copy_that_differs_is_reported(tmp_path: Path) -> None:
    source = await _open("sqlite", tmp_path / "a")
    target = await _open("sqlite", tmp_path / "b")
    try:
        await _seed(source, 4)
        real_import = target.import_

        async def lossy_import(entries):  # type: ignore[no-untyped-def]
            return await real_import(
                [e.model_copy(update={"pinned": not e.pinned}) for e in entries]
            )

        target.import_ = lossy_import  # type: ignore[method-assign]
        report = await migrate(source, target)
        assert sorted(report.mismatched) == ["id-000", "id-001", "id-002", "id-003"]
    finally:
        await source.close()
        await target.close()


async def test_refuses_targets_that_cannot_hold_the_data(tmp_path: Path) -> None:
    source = await _open("sqlite", tmp_path / "a")
    nothing = await _open("none", tmp_path / "b")
    try:
        await _seed(source, 4)
        with pytest.raises(MigrationError, match="'none' backend keeps nothing"):
            await migrate(source, nothing)
        with pytest.raises(UnsupportedOperationError, match="'none'.*export"):
            await migrate(nothing, source)
        with pytest.raises(MigrationError, match="same 'sqlite' store"):
            await migrate(source, source)
        with pytest.raises(MigrationError, match="batch size"):
            await migrate(source, await _open("markdown", tmp_path / "c"), batch_size=0)
    finally:
        await source.close()


async def test_switching_backend_with_data_behind_says_so(tmp_path: Path) -> None:
    old = await _open("sqlite", tmp_path)
    await old.store("pet", "The cat is called Miso")
    await old.close()
    new = await _open("markdown", tmp_path)
    try:
        hint = await data_left_behind(_settings("markdown"), tmp_path, new)
        assert hint is not None
        assert "'sqlite' store holds 1 memory;" in hint
        assert "memchat memory migrate --from sqlite --to markdown" in hint
        await new.store("x", "now the markdown store has data")
        assert await data_left_behind(_settings("markdown"), tmp_path, new) is None
    finally:
        await new.close()
    fresh = await _open("sqlite", tmp_path / "empty")
    try:
        assert await data_left_behind(_settings("sqlite"), tmp_path / "empty", fresh) is None
    finally:
        await fresh.close()


async def test_backends_sharing_one_file_need_no_copy(tmp_path: Path) -> None:
    plain = await _open("sqlite", tmp_path)
    bridged = await open_memory(
        _settings("lucid").model_copy(update={"lucid_command": str(tmp_path / "absent")}),
        tmp_path,
        CountingEmbedder(64),
    )
    try:
        with pytest.raises(MigrationError, match="same file.*switching memory.backend"):
            await migrate(plain, bridged)
    finally:
        await plain.close()
        await bridged.close()


async def test_rerunning_a_migration_to_markdown_changes_no_byte(tmp_path: Path) -> None:
    source = await _open("sqlite", tmp_path / "a")
    target = await _open("markdown", tmp_path / "b")
    try:
        await _seed(source, 12)
        first = await migrate(source, target, batch_size=5)
        assert (first.copied, first.unchanged, first.mismatched) == (12, 0, [])
        files = {p: p.read_bytes() for p in (tmp_path / "b").rglob("*.md")}
        again = await migrate(source, target, batch_size=5)
        assert (again.already_present, again.unchanged, again.mismatched) == (12, 12, [])
        assert {p: p.read_bytes() for p in (tmp_path / "b").rglob("*.md")} == files
    finally:
        await source.close()
        await target.close()


async def test_hostile_text_survives_sqlite_markdown_sqlite(tmp_path: Path) -> None:
    origin = await _open("sqlite", tmp_path / "a")
    middle = await _open("markdown", tmp_path / "b")
    back = await _open("sqlite", tmp_path / "c")
    base = datetime(2026, 3, 1, 9, tzinfo=UTC)
    keys = [t for t in HOSTILE_TEXTS if t.strip() and len(t) <= 512]
    try:
        await origin.import_(
            MemoryEntry(
                id=f"id\n{i}",
                key=f"{keys[i % len(keys)]}\r\n{i}",
                content=text,
                category="core" if i % 2 else "daily",
                timestamp=base + timedelta(days=i, microseconds=i),
                updated_at=base + timedelta(days=i, seconds=i),
                session_id=text[:20] if i % 3 else None,
                importance=i / len(HOSTILE_TEXTS),
                pinned=i % 4 == 0,
                source=["user", "autosave", "tool"][i % 3],
                superseded_by=f"id\n{i + 1}" if i % 5 == 1 else None,
            )
            for i, text in enumerate(HOSTILE_TEXTS)
        )
        before = await _dump(origin)
        assert (await migrate(origin, middle)).mismatched == []
        assert middle.warnings == []
        assert (await migrate(middle, back)).mismatched == []
        assert await _dump(back) == before
    finally:
        for store in (origin, middle, back):
            await store.close()


async def test_memories_without_a_current_vector_are_named_with_the_fix(tmp_path: Path) -> None:
    from memory.embedding.ollama import OllamaEmbedder

    old = await _open("sqlite", tmp_path)
    await old.store("pet", "The cat is called Miso")
    await old.store("car", "I drive a blue hatchback")
    assert await vectors_missing(old, CountingEmbedder(64)) is None
    await old.close()
    # The same model with its task prefixes is another embedding identity.
    changed = OllamaEmbedder("nomic-embed-text", 64, "http://127.0.0.1:9")
    reopened = await open_memory(_settings("sqlite"), tmp_path, changed)
    try:
        hint = await vectors_missing(reopened, changed)
        assert hint is not None and hint.startswith("2 memories have no vector from nomic")
        assert "memchat memory reindex" in hint
        assert await vectors_missing(reopened, None) is None
    finally:
        await reopened.close()
