"""Opening the database file safely, and the one thread that owns its connection."""

from __future__ import annotations

import asyncio
import functools
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import ParamSpec, TypeVar

from memory.errors import DatabaseCorruptError, MemoryStoreError, StorageFullError
from memory.sqlite.schema import APPLICATION_ID, migrate

_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 10_000
PAGE_CACHE_KIB = 32_768

P = ParamSpec("P")
T = TypeVar("T")


def _check_existing_file(path: Path) -> None:
    """Read-only checks of a file that already exists; nothing here can modify it."""
    with path.open("rb") as handle:
        header = handle.read(len(_HEADER))
    if header != _HEADER:
        raise DatabaseCorruptError(path, "not an SQLite database")
    # Without a WAL of ours beside it, read the file as immutable: a damaged header that
    # claims WAL mode would otherwise make SQLite create -wal and -shm files next to it.
    ours = path.with_name(path.name + "-wal").exists()
    options = "mode=ro" if ours else "mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?{options}", uri=True)
    except sqlite3.Error as exc:
        raise DatabaseCorruptError(path, str(exc)) from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise DatabaseCorruptError(path, "; ".join(problems))
        application_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if application_id not in (0, APPLICATION_ID) or (
            tables and "schema_migrations" not in tables
        ):
            raise DatabaseCorruptError(path, "an SQLite database of another program")
    except sqlite3.DatabaseError as exc:
        raise DatabaseCorruptError(path, str(exc)) from exc
    finally:
        conn.close()


def open_database(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) and migrate the store; a bad file raises and is untouched."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if path.exists() and path.stat().st_size > 0:
        _check_existing_file(path)
    else:
        # Created 0600 before SQLite touches it: memories are private.
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
        migrate(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise translate_error(exc, path) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def translate_error(exc: sqlite3.Error, path: Path) -> MemoryStoreError:
    """Turn a driver error into the memory layer's error a person can act on."""
    name = getattr(exc, "sqlite_errorname", "")
    if name == "SQLITE_FULL" or "database or disk is full" in str(exc):
        return StorageFullError(
            f"cannot write to {path}: the disk or the database size limit is full ({exc}); "
            "nothing was saved, earlier memories are intact"
        )
    if (
        name in ("SQLITE_CORRUPT", "SQLITE_NOTADB")
        or isinstance(exc, sqlite3.DatabaseError)
        and ("malformed" in str(exc) or "not a database" in str(exc))
    ):
        return DatabaseCorruptError(path, str(exc))
    return MemoryStoreError(f"database error on {path}: {exc}")


class DatabaseThread:
    """Runs every call on one worker thread, off the event loop, in submission order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memchat-sqlite")
        self._closed = False

    async def run(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `func(*args, **kwargs)` on the database thread and await its result."""
        if self._closed:
            raise MemoryStoreError(f"the memory store {self.path} is closed")
        loop = asyncio.get_running_loop()
        call = functools.partial(self._guarded, func, *args, **kwargs)
        return await loop.run_in_executor(self._executor, call)

    def _guarded(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return func(*args, **kwargs)
        except sqlite3.Error as exc:
            raise translate_error(exc, self.path) from exc

    def call(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run synchronously on the database thread (for code without an event loop)."""
        return self._executor.submit(
            functools.partial(self._guarded, func, *args, **kwargs)
        ).result()

    def shutdown(self) -> None:
        """Stop the thread after queued calls finish."""
        self._closed = True
        self._executor.shutdown(wait=True)
