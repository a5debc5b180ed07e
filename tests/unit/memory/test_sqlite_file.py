from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memory.errors import DatabaseCorruptError
from memory.sqlite.schema import MIGRATIONS
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from memory.write_rules import NewMemory
from tests.unit.memory.conftest import DIMS, OpenStore

ROOT = Path(__file__).resolve().parents[3]


def _writer(path: Path, prefix: str, count: int, embed: bool = True) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "tests.helpers.writer_process", str(path), prefix, str(count)]
    return subprocess.Popen(
        args + (["embed"] if embed else []), cwd=ROOT, stdout=subprocess.PIPE, text=True
    )


def _integrity(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')")
        fts = conn.execute("SELECT count(*) FROM memories_fts").fetchone()[0]
        rows = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        assert fts == rows
    finally:
        conn.close()


async def test_schema_is_migrated_in_order_and_wal(store: SqliteMemory) -> None:
    conn = sqlite3.connect(store.path)
    names = [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]
    assert names == [m.name for m in MIGRATIONS]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


async def test_reopen_keeps_data_and_applies_no_migration_twice(
    open_store: OpenStore, tmp_path: Path
) -> None:
    first = await open_store(None)
    await first.store("k", "persisted")
    await first.close()
    second = await open_store(None)
    assert (await second.get("k")) is not None
    conn = sqlite3.connect(tmp_path / "brain.db")
    assert conn.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] == len(MIGRATIONS)
    conn.close()


@pytest.mark.parametrize(
    ("make", "detail"),
    [
        (lambda p: p.write_bytes(b"this is not a database at all\n" * 50), "not an SQLite"),
        (
            lambda p: p.write_bytes(b"SQLite format 3\x00" + os.urandom(8192)),
            "malformed|not a database",
        ),
        (lambda p: _foreign_db(p), "another program"),
        (lambda p: _wal_header_then_garbage(p), "malformed"),
    ],
    ids=["text-file", "garbage-after-header", "foreign-sqlite", "wal-header-then-garbage"],
)
async def test_bad_file_is_reported_and_left_untouched(
    tmp_path: Path, make: object, detail: str
) -> None:
    path = tmp_path / "brain.db"
    make(path)  # type: ignore[operator]
    before = path.read_bytes()
    siblings = set(tmp_path.iterdir())
    with pytest.raises(DatabaseCorruptError, match=detail) as info:
        await SqliteMemory.open(path)
    assert str(path) in str(info.value) and "untouched" in str(info.value)
    assert "memchat memory import" in str(info.value)
    assert path.read_bytes() == before
    assert set(tmp_path.iterdir()) == siblings


def _wal_header_then_garbage(path: Path) -> None:
    """A header that claims WAL mode: a careless read-only open creates -wal and -shm."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    header = path.read_bytes()[:100]
    path.with_name(path.name + "-wal").unlink(missing_ok=True)
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    path.write_bytes(header + bytes(range(256)) * 31 + bytes(range(92)))


def _foreign_db(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.commit()
    conn.close()


async def test_damaged_pages_are_reported_and_left_untouched(
    open_store: OpenStore, tmp_path: Path
) -> None:
    store = await open_store(None)
    # In one transaction: 300 core facts stored one by one rewrote MEMORY_SNAPSHOT.md each
    # time (a minute of the suite on a busy machine); the pages are what is tested.
    await store.bulk_store(
        [NewMemory(key=f"k{i}", content=f"entry {i} " + "padding words " * 40) for i in range(300)]
    )
    await store.close()
    path = tmp_path / "brain.db"
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(3 * page, min(len(data), 12 * page)):
        data[offset] = 0xA5
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    with pytest.raises(DatabaseCorruptError):
        await SqliteMemory.open(path)
    assert path.read_bytes() == before


@pytest.mark.slow
async def test_two_processes_writing_the_same_file_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    await (await SqliteMemory.open(path)).close()
    writers = [_writer(path, name, 150) for name in ("alpha", "beta")]
    outputs = [w.communicate(timeout=120)[0] for w in writers]
    assert all(w.returncode == 0 for w in writers)
    acked = {line.split()[1] for out in outputs for line in out.splitlines()}
    assert len(acked) == 300
    store = await SqliteMemory.open(path)
    try:
        keys = {e.key for e in await store.list(limit=1000)}
        assert keys == acked
    finally:
        await store.close()
    _integrity(path)


@pytest.mark.slow
async def test_killed_writer_leaves_a_consistent_file(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    rng = random.Random(7)
    acked: set[str] = set()
    for run in range(3):
        writer = _writer(path, f"run{run}", 100_000)
        assert writer.stdout is not None
        # Killed after a chosen number of acknowledged writes (a state), never after a
        # time: on a busy machine a time holds any number of writes, even none.
        wanted = rng.randint(5, 60)
        seen = 0
        while seen < wanted:
            line = writer.stdout.readline()
            if not line:
                break  # the writer died by itself; its exit status is checked below
            if line.startswith("ack "):
                acked.add(line.split()[1])
                seen += 1
        assert seen == wanted, f"run {run}: the writer stopped after {seen} writes"
        writer.send_signal(signal.SIGKILL)
        rest = writer.communicate()[0]
        acked.update(line.split()[1] for line in rest.splitlines() if line.startswith("ack "))
    assert len(acked) > 10
    _integrity(path)
    embedder = CountingEmbedder(DIMS)
    store = await SqliteMemory.open(path, None, embedder)
    try:
        present = {e.key for e in await store.list(limit=1_000_000, namespace="default")}
        assert acked <= present
    finally:
        await store.close()


async def test_after_a_read_meets_damage_nothing_more_is_written(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path)
    await store.bulk_store(
        [
            NewMemory(
                key=f"k{i}", content=f"dentist appointment number {i} " + "filler words " * 30
            )
            for i in range(200)
        ]
    )
    await store.close()
    # Damage inside the full-text index's blocks: the opening page check does not parse
    # them, so only a search that reads one finds it.
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    blocks = [
        row[0] for row in conn.execute("SELECT block FROM memories_fts_data") if len(row[0]) > 1000
    ]
    conn.close()
    data = bytearray(path.read_bytes())
    for block in blocks:
        at = data.find(block[: len(block) // 2])
        assert at > 0
        middle = at + len(block) // 2
        data[middle : middle + 8] = bytes(b ^ 0xFF for b in data[middle : middle + 8])
    path.write_bytes(bytes(data))

    store = await SqliteMemory.open(path)
    try:
        with pytest.raises(DatabaseCorruptError):
            await store.recall("dentist")
        before = path.read_bytes()
        with pytest.raises(DatabaseCorruptError, match="a read found it damaged"):
            await store.store("new", "a note written after the damage was found")
        assert path.read_bytes() == before
    finally:
        await store.close()
