"""A large store opens without reading every page first: the pages are checked in the
background, reads go on meanwhile, and nothing is written until the check is done."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

import memory.sqlite.checks as checks
import memory.sqlite.database as database
from memory.embedding.hashing import HashingEmbedder
from memory.errors import DatabaseCorruptError
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory

PAGE = 4096
DIMS = 32


async def _filled(path: Path) -> None:
    store = await SqliteMemory.open(path)
    for i in range(300):
        await store.store(f"k{i}", f"entry {i} about the garden " + "padding words " * 40, "daily")
    await store.close()


def _damage_pages(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for offset in range(3 * PAGE, min(len(data), 12 * PAGE)):
        data[offset] = 0xA5
    path.write_bytes(bytes(data))


@pytest.fixture
def every_store_is_large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(database, "LARGE_STORE_BYTES", 0)


@pytest.mark.usefixtures("every_store_is_large")
async def test_damage_found_by_the_background_check_stops_every_write(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    await _filled(path)
    _damage_pages(path)
    before = path.read_bytes()
    store = await SqliteMemory.open(path)  # opens: the pages are not read first
    try:
        with pytest.raises(DatabaseCorruptError, match="the page check found it damaged"):
            await store.store("new", "a note that must not go into a damaged file")
        assert any("nothing more is written" in w for w in store._core.warnings)  # noqa: SLF001
        with pytest.raises(DatabaseCorruptError):
            await store.forget("k1")
    finally:
        await store.close()
    assert path.read_bytes() == before


@pytest.mark.usefixtures("every_store_is_large")
async def test_a_sound_large_store_reads_and_writes_as_usual(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    await _filled(path)
    store = await SqliteMemory.open(path)
    try:
        assert (await store.get("k7")) is not None
        await store.store("new", "written once the pages were found sound")
        assert (await store.get("new")) is not None
        assert not store._core.warnings  # noqa: SLF001
    finally:
        await store.close()


@pytest.mark.usefixtures("every_store_is_large")
async def test_closing_during_the_check_stops_it(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    await _filled(path)
    for _ in range(5):
        store = await SqliteMemory.open(path)
        await store.close()  # the check thread is interrupted and joined, never left behind
    store = await SqliteMemory.open(path)
    try:
        assert await store.count() == 300
    finally:
        await store.close()


async def test_a_small_damaged_store_is_still_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    await _filled(path)
    _damage_pages(path)
    with pytest.raises(DatabaseCorruptError):
        await SqliteMemory.open(path)


@pytest.mark.usefixtures("every_store_is_large")
async def test_a_search_and_close_write_nothing_into_a_damaged_large_store(
    tmp_path: Path,
) -> None:
    path = tmp_path / "brain.db"
    settings = MemorySettings(
        embedding_provider="hashing", embedding_dimensions=DIMS, index_file_min_vectors=0
    )
    store = await SqliteMemory.open(path, settings, HashingEmbedder(DIMS))
    for i in range(300):
        await store.store(f"k{i}", f"entry {i} about the garden " + "padding words " * 40, "daily")
    await store.close()
    shutil.rmtree(path.with_name("brain.db-vectors"), ignore_errors=True)
    _damage_pages(path)
    before = path.read_bytes()
    store = await SqliteMemory.open(path, settings, HashingEmbedder(DIMS))
    try:
        with contextlib.suppress(DatabaseCorruptError):
            await store.recall("garden entry", limit=3)
    finally:
        await store.close()
    assert path.read_bytes() == before


@pytest.mark.usefixtures("every_store_is_large")
async def test_a_store_in_another_journal_mode_is_checked_before_it_is_opened(
    tmp_path: Path,
) -> None:
    path = tmp_path / "brain.db"
    await _filled(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = DELETE")  # switching back to WAL writes the header
    conn.close()
    _damage_pages(path)
    before = path.read_bytes()
    with pytest.raises(DatabaseCorruptError):
        await SqliteMemory.open(path)
    assert path.read_bytes() == before


@pytest.mark.usefixtures("every_store_is_large")
async def test_a_search_never_waits_for_the_check_and_closing_writes_no_unchecked_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "brain.db"
    await _filled(path)
    release = threading.Event()
    real_run = checks.PageCheck._run

    def slow_run(self: checks.PageCheck) -> None:
        release.wait(timeout=30)  # a check of a very large file, still running
        real_run(self)

    monkeypatch.setattr(checks.PageCheck, "_run", slow_run)
    before = path.read_bytes()
    store = await SqliteMemory.open(path)
    try:
        result = await store.recall("garden entry", limit=3)
        assert result.entries  # answered while the check was still running
    finally:
        release.set()
        await store.close()
    assert path.read_bytes() == before


def _checks(data: bytes, scratch: Path) -> tuple[bool, bool]:
    scratch.write_bytes(data)
    check = sqlite3.connect(f"file:{scratch}?mode=ro", uri=True)
    try:
        quick = check.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        whole = check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    except sqlite3.DatabaseError:
        quick = whole = False
    finally:
        check.close()
    return quick, whole


def _index_disagreeing_with_its_table(path: Path) -> None:
    """One stored hash changed where only an index holds it: quick_check passes, not
    integrity_check (which compares every index with its table)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    digest = conn.execute(
        "SELECT content_hash FROM memories ORDER BY seq LIMIT 1 OFFSET 150"
    ).fetchone()[0]
    conn.close()
    data = path.read_bytes()
    scratch = path.with_name("scratch.db")
    at = data.find(digest.encode())
    while at >= 0:
        changed = bytearray(data)
        changed[at] = ord("0") if data[at] != ord("0") else ord("1")
        if _checks(bytes(changed), scratch) == (True, False):
            path.write_bytes(bytes(changed))
            scratch.unlink()
            return
        at = data.find(digest.encode(), at + 1)
    raise AssertionError("no copy of the hash is the index's alone")


@pytest.mark.parametrize("large", [False, True], ids=["checked at open", "checked aside"])
async def test_an_index_that_disagrees_with_its_table_stops_every_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, large: bool
) -> None:
    """Found by an adversary: quick_check passed such a store, and forget and import
    wrote into it while `stats --check` reported it damaged."""
    if large:
        monkeypatch.setattr(database, "LARGE_STORE_BYTES", 0)
    path = tmp_path / "brain.db"
    await _filled(path)
    _index_disagreeing_with_its_table(path)
    before = path.read_bytes()
    with contextlib.suppress(DatabaseCorruptError):
        store = await SqliteMemory.open(path)
        try:
            with pytest.raises(DatabaseCorruptError):
                await store.forget("k1")
        finally:
            await store.close()
    assert path.read_bytes() == before
