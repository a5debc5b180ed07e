"""A store that cannot be written opens read-only: reads work, writes say why they fail.

The folder is made unwritable for real (see `read_only_folder`: a read-only bind mount
or chattr as root, chmod otherwise); one test uses the `unwritable_reason` seam to reach
the same code path where the filesystem cannot be changed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from memory.errors import MemoryStoreError, StorageFullError
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from tests.unit.memory.filesystems import read_only_folder

SETTINGS = MemorySettings(embedding_provider="none")
ROOT = Path(__file__).resolve().parents[3]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


async def _make_store(path: Path, count: int = 3) -> None:
    store = await SqliteMemory.open(path, SETTINGS)
    for i in range(count):
        await store.store(f"k{i}", f"memory number {i}", "daily")
    await store.close()


async def _check_read_only(path: Path, expected: set[str]) -> None:
    store = await SqliteMemory.open(path, SETTINGS)
    try:
        assert any("read-only" in w and "not writable" in w for w in store.warnings)
        assert {e.key for e in await store.list()} == expected
        assert await store.count() == len(expected)
        assert (await store.recall("memory number")).entries
        assert len([r async for r in store.export()]) == len(expected)
        with pytest.raises(MemoryStoreError, match="the store is open read-only because"):
            await store.store("new", "cannot be saved")
        with pytest.raises(MemoryStoreError, match="read-only"):
            await store.forget("k0")
        with pytest.raises(MemoryStoreError, match="read-only"):
            await store.import_([])
    finally:
        await store.close()


async def test_a_read_only_folder_opens_the_store_read_only(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    await _make_store(folder / "brain.db")
    before = _files(folder)
    with read_only_folder(folder):
        await _check_read_only(folder / "brain.db", {"k0", "k1", "k2"})
        with pytest.raises(MemoryStoreError, match="cannot create the memory store"):
            await SqliteMemory.open(folder / "other.db", SETTINGS)
    assert _files(folder) == before


async def test_a_read_only_folder_with_a_crashed_writers_log(tmp_path: Path) -> None:
    """The -wal and -shm a killed writer left behind are read, not ignored."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "brain.db"
    await _make_store(path, count=0)
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.helpers.writer_process", str(path), "w", "1000"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    acknowledged = {child.stdout.readline().split()[1] for _ in range(5)}
    child.send_signal(signal.SIGKILL)
    rest = child.communicate()[0]
    acknowledged.update(line.split()[1] for line in rest.splitlines() if line.startswith("ack"))
    assert (folder / "brain.db-wal").stat().st_size > 0
    with read_only_folder(folder):
        store = await SqliteMemory.open(path, SETTINGS)
        try:
            assert acknowledged <= {e.key for e in await store.list(limit=10_000)}
        finally:
            await store.close()


async def test_a_read_only_file_in_a_writable_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seam: `unwritable_reason` says no, whatever the filesystem allows (as root)."""
    path = tmp_path / "brain.db"
    await _make_store(path)
    reason = f"{path} is not writable"
    monkeypatch.setattr("memory.sqlite.database.unwritable_reason", lambda _path: reason)
    await _check_read_only(path, {"k0", "k1", "k2"})


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files anyway")
async def test_a_chmod_read_only_file_opens_read_only(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    await _make_store(path)
    path.chmod(0o400)
    try:
        await _check_read_only(path, {"k0", "k1", "k2"})
    finally:
        path.chmod(0o600)


async def test_a_store_the_disk_cannot_grow_opens_read_only_and_says_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seam: opening for writing meets a full disk (the tmpfs tests do it for real)."""
    from memory.sqlite import database

    path = tmp_path / "brain.db"
    await _make_store(path)

    def no_room(_path: Path, create: bool, unchecked: bool) -> None:
        raise database._CannotWrite(  # noqa: SLF001
            "the disk holding it is full", True, StorageFullError("no room")
        )

    monkeypatch.setattr(database, "_open_read_write", no_room)
    store = await SqliteMemory.open(path, SETTINGS)
    try:
        assert any("full" in w for w in store.warnings)
        assert {e.key for e in await store.list()} == {"k0", "k1", "k2"}
        with pytest.raises(StorageFullError, match="read-only because the disk"):
            await store.store("new", "no room")
    finally:
        await store.close()


async def test_a_log_that_cannot_be_read_read_only_is_explained(tmp_path: Path) -> None:
    """Changes wait in -wal, -shm is gone and cannot be made: say so, change nothing."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "brain.db"
    await _make_store(path, count=0)
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.helpers.writer_process", str(path), "w", "1000"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().startswith("ack ")
    child.send_signal(signal.SIGKILL)
    child.communicate()
    (folder / "brain.db-shm").unlink()
    before = _files(folder)
    with read_only_folder(folder):
        with pytest.raises(MemoryStoreError, match="brain.db-shm cannot be created") as info:
            await SqliteMemory.open(path, SETTINGS)
        assert "Nothing was changed" in str(info.value)
    assert _files(folder) == before


async def test_an_audit_log_from_before_0016_is_read_without_its_newer_columns(
    tmp_path: Path,
) -> None:
    """A store opened read-only is not migrated: its audit log lacks the first time and
    the chat of what it deleted (0016), and reads as None for them."""
    import sqlite3

    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, SETTINGS)
    await store.store("k0", "memory number 0", "daily")
    assert await store.forget("k0")
    await store.close()
    conn = sqlite3.connect(path)
    conn.execute("DROP INDEX memory_audit_by_chat")  # 0055's, on the columns 0016 added
    conn.execute("ALTER TABLE memory_audit DROP COLUMN created_at")
    conn.execute("ALTER TABLE memory_audit DROP COLUMN session_id")
    conn.commit()
    conn.close()
    store = await SqliteMemory.open(path, SETTINGS)
    try:
        assert store.lifecycle is not None
        [record] = await store.lifecycle.audit_log()
        assert (record.key, record.created, record.session_id) == ("k0", None, None)
    finally:
        await store.close()
