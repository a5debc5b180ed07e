"""A full disk is reported as a full disk, and never loses or hides anything.

On SQLITE_FULL, SQLite rolls the transaction back itself; a second `ROLLBACK` then fails
with "no transaction is active", and that error used to replace the real one.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from memory.errors import DatabaseCorruptError, StorageFullError
from memory.settings import MemorySettings
from memory.sqlite.schema import migrate
from memory.sqlite.store import SqliteMemory
from tests.unit.memory.conftest import OpenStore
from tests.unit.memory.filesystems import fill, small_filesystem

SETTINGS = MemorySettings(embedding_provider="none")


def _full() -> sqlite3.OperationalError:
    error = sqlite3.OperationalError("database or disk is full")
    error.sqlite_errorname = "SQLITE_FULL"
    return error


class FullAfterRollback:
    """A connection whose chosen statement fails as SQLite does on a full disk.

    The engine has already rolled the transaction back when the error arrives, so the
    caller's own ROLLBACK would fail. `fail_rollback` makes ROLLBACK itself fail too.
    """

    def __init__(self, conn: sqlite3.Connection, fails: str, *, fail_rollback: bool = False):
        self._conn = conn
        self._fails = fails
        self._fail_rollback = fail_rollback
        self.failed = 0

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.lstrip().upper().startswith(self._fails):
            self.failed += 1
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")  # what SQLite does by itself on SQLITE_FULL
            raise _full()
        if self._fail_rollback and sql.strip().upper() == "ROLLBACK":
            raise sqlite3.OperationalError("cannot rollback - no transaction is active")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


@pytest.mark.parametrize("statement", ["INSERT", "COMMIT"])
async def test_full_disk_during_a_write_is_a_storage_full_error(
    open_store: OpenStore, statement: str
) -> None:
    store = await open_store(None)
    await store.store("early", "an early memory")
    core = store._core  # noqa: SLF001 - the seam is the connection the core writes with
    real = core.conn
    core.conn = FullAfterRollback(real, statement)  # type: ignore[assignment]
    with pytest.raises(StorageFullError, match="nothing was saved, earlier memories"):
        await store.store("late", "a memory that does not fit")
    assert core.conn.failed == 1  # type: ignore[attr-defined]
    core.conn = real
    assert [e.key for e in await store.list()] == ["early"]
    await store.store("after", "space came back")
    assert {e.key for e in await store.list()} == {"early", "after"}


async def test_a_failing_rollback_never_hides_the_original_error(open_store: OpenStore) -> None:
    store = await open_store(None)
    core = store._core  # noqa: SLF001
    real = core.conn
    core.conn = FullAfterRollback(real, "INSERT", fail_rollback=True)  # type: ignore[assignment]
    with pytest.raises(StorageFullError):
        await store.store("late", "a memory that does not fit")
    core.conn = real
    assert not real.in_transaction
    assert await store.count() == 0


def test_migration_on_a_full_disk_reports_the_full_disk(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "brain.db", isolation_level=None)
    try:
        wrapped = FullAfterRollback(conn, "CREATE TABLE MEMORIES")
        with pytest.raises(sqlite3.OperationalError, match="disk is full"):
            migrate(wrapped)  # type: ignore[arg-type]
        assert not conn.in_transaction
        assert conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
    finally:
        conn.close()


async def _store_until_full(store: SqliteMemory, prefix: str) -> set[str]:
    """Store until the disk is full; return the keys whose store was acknowledged."""
    acknowledged: set[str] = set()
    with pytest.raises(StorageFullError, match="nothing was saved, earlier memories"):
        for i in range(100_000):
            key = f"{prefix}{i}"
            await store.store(key, f"memory {key} " + os.urandom(300).hex(), "daily")
            acknowledged.add(key)
    return acknowledged


@pytest.mark.slow
async def test_a_real_full_disk_fails_writes_clearly_and_keeps_reads(tmp_path: Path) -> None:
    with small_filesystem(tmp_path / "disk", 1024) as disk:
        path = disk / "brain.db"
        store = await SqliteMemory.open(path, SETTINGS)
        try:
            acknowledged = await _store_until_full(store, "a")
            assert acknowledged
            assert {e.key for e in await store.list(limit=10_000)} == acknowledged
            assert (await store.health_check()).ok
        finally:
            await store.close()
        fill(disk)  # not a byte left beside the store's own files

        reopened = await SqliteMemory.open(path, SETTINGS)
        try:
            assert {e.key for e in await reopened.list(limit=10_000)} == acknowledged
            assert len([r async for r in reopened.export()]) == len(acknowledged)
            # Space SQLite already holds (a reset write-ahead log) may take a few more.
            acknowledged |= await _store_until_full(reopened, "b")
        finally:
            await reopened.close()
        final = await SqliteMemory.open(path, SETTINGS)
        try:
            assert {e.key for e in await final.list(limit=10_000)} == acknowledged
        finally:
            await final.close()


@pytest.mark.slow
async def test_zero_bytes_free_is_a_full_disk_not_a_damaged_store(tmp_path: Path) -> None:
    # Room for a new store's write-ahead log (its migrations) to be folded in at close.
    with small_filesystem(tmp_path / "disk", 2048) as disk:
        path = disk / "brain.db"
        store = await SqliteMemory.open(path, SETTINGS)
        for i in range(5):
            await store.store(f"k{i}", f"kept memory {i}", "daily")
        await store.close()
        assert sorted(p.name for p in disk.iterdir()) == ["brain.db"], "not a clean close"
        fill(disk)
        before = path.read_bytes()

        reopened = await SqliteMemory.open(path, SETTINGS)
        try:
            assert any("read-only" in w and "full" in w for w in reopened.warnings)
            assert {e.key for e in await reopened.list()} == {f"k{i}" for i in range(5)}
            got = await reopened.get("k3")
            assert got is not None and got.content == "kept memory 3"
            with pytest.raises(StorageFullError, match="read-only because the disk"):
                await reopened.store("more", "no room")
        finally:
            await reopened.close()
        assert path.read_bytes() == before

        with pytest.raises(StorageFullError, match="full") as info:
            await SqliteMemory.open(disk / "new.db", SETTINGS)
        assert not isinstance(info.value, DatabaseCorruptError)
        assert "aside" not in str(info.value)
