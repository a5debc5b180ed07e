"""Stores memchat must refuse: newer schemas, other programs' files, things that are not
files. Each is refused with a clear message, without blocking, and left byte-for-byte."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from memory.errors import DatabaseCorruptError, MemoryStoreError
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory

SETTINGS = MemorySettings(embedding_provider="none")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


async def _make_store(path: Path) -> None:
    store = await SqliteMemory.open(path, SETTINGS)
    await store.store("k", "a memory")
    await store.close()


async def test_a_store_from_a_newer_memchat_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    await _make_store(path)
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO schema_migrations (name, applied_at) VALUES ('0099_future', '2030-01-01')"
    )
    conn.commit()
    conn.close()
    before = _snapshot(tmp_path)
    with pytest.raises(MemoryStoreError, match="newer version of memchat") as info:
        await SqliteMemory.open(path, SETTINGS)
    assert "0099_future" in str(info.value) and "upgrade memchat" in str(info.value)
    assert not isinstance(info.value, DatabaseCorruptError)  # it is not damaged
    assert _snapshot(tmp_path) == before


async def test_another_programs_schema_migrations_table_is_not_ours(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
    conn.execute("INSERT INTO schema_migrations VALUES ('20240101_create_users', 'x')")
    conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)")
    conn.commit()
    conn.close()
    before = _snapshot(tmp_path)
    with pytest.raises(DatabaseCorruptError, match="another program"):
        await SqliteMemory.open(path, SETTINGS)
    assert _snapshot(tmp_path) == before
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn.close()
    assert tables == {"schema_migrations", "users"}  # no memchat table was added


async def test_a_fifo_is_refused_without_blocking_or_reading(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    os.mkfifo(path)
    # Both ends held open by the test: an open by the store could not block, and any
    # read would consume the bytes waiting in the pipe.
    holder = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    try:
        os.write(holder, b"waiting")
        with pytest.raises(DatabaseCorruptError, match="named pipe"):
            await SqliteMemory.open(path, SETTINGS)
        assert os.read(holder, 100) == b"waiting"
    finally:
        os.close(holder)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["brain.db"]


async def test_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "brain.db").mkdir()
    with pytest.raises(DatabaseCorruptError, match="a folder, not a regular file"):
        await SqliteMemory.open(tmp_path / "brain.db", SETTINGS)


async def test_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "brain.db"
    link.symlink_to("/dev/null")
    with pytest.raises(DatabaseCorruptError, match="a device"):
        await SqliteMemory.open(link, SETTINGS)


async def test_a_journal_that_is_a_fifo_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    await _make_store(path)
    os.mkfifo(tmp_path / "brain.db-wal")
    before = path.read_bytes()
    with pytest.raises(MemoryStoreError, match="brain.db-wal is a named pipe"):
        await SqliteMemory.open(path, SETTINGS)
    assert path.read_bytes() == before


async def test_a_symlink_to_a_store_is_followed(tmp_path: Path) -> None:
    real = tmp_path / "real" / "brain.db"
    real.parent.mkdir()
    await _make_store(real)
    link = tmp_path / "brain.db"
    link.symlink_to(real)
    store = await SqliteMemory.open(link, SETTINGS)
    try:
        got = await store.get("k")
        assert got is not None and got.content == "a memory"
    finally:
        await store.close()


async def test_a_dangling_symlink_is_refused_not_created(tmp_path: Path) -> None:
    link = tmp_path / "brain.db"
    link.symlink_to(tmp_path / "missing.db")
    with pytest.raises(DatabaseCorruptError, match="does not exist"):
        await SqliteMemory.open(link, SETTINGS)
    assert not (tmp_path / "missing.db").exists()
