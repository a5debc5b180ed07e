"""Opening the database file safely, and the one thread that owns its connection."""

from __future__ import annotations

import asyncio
import functools
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import ParamSpec, TypeVar

from memory.errors import DatabaseCorruptError, MemoryStoreError
from memory.sqlite.checks import (
    BUSY_TIMEOUT_MS,
    LARGE_STORE_BYTES,
    check_existing_file,
    check_kind,
    connect_read_only,
    unwritable_reason,
)
from memory.sqlite.failures import cannot_write, full_error, is_full, translate_error
from memory.sqlite.schema import (
    REQUIRED_MIGRATIONS,
    applied_migrations,
    migrate,
    pending_migrations,
)

__all__ = [
    "BUSY_TIMEOUT_MS",
    "DatabaseThread",
    "OpenedDatabase",
    "open_database",
    "translate_error",
]

PAGE_CACHE_KIB = 32_768

P = ParamSpec("P")
T = TypeVar("T")


@dataclass
class OpenedDatabase:
    """A connection to the store and how it was opened."""

    conn: sqlite3.Connection
    read_only: str | None = None
    """Why the store is read-only (None when it can be written)."""
    full: bool = False
    """The store is read-only because the disk is full (writes raise StorageFullError)."""
    warnings: list[str] = field(default_factory=list)
    pages_unchecked: bool = False
    """A large store opened for writing without reading every page first: the caller
    checks them in the background (`PageCheck`) and lets nothing write until it is done."""


READING_ONLY = "it was opened only to read"
"""`read_only` of a store opened with `reading_only=True`."""


@dataclass
class _CannotWrite(Exception):
    """Opening for writing failed for a reason that a read-only open may get around."""

    reason: str
    full: bool
    error: MemoryStoreError


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except FileExistsError:
        # "File exists" for a file in the folder's place (an adversary's $MEMCHAT_HOME).
        raise MemoryStoreError(
            f"{folder} is not a folder, so the memory store cannot be kept in it: move what "
            "is there, or point $MEMCHAT_HOME (or memory.path) at a folder"
        ) from None
    except OSError as exc:
        raise MemoryStoreError(
            f"cannot create the folder {folder} for the memory store: {exc.strerror or exc}"
        ) from None


def _make_private(path: Path) -> None:
    """Make an empty file that becomes the store 0600, as a new one is created.

    Memories are private; a 0-byte file someone else made (a `touch`, a failed copy) would
    otherwise keep its looser mode once it holds them.
    """
    try:
        os.chmod(path, 0o600)
    except OSError as exc:
        raise MemoryStoreError(
            f"cannot make the empty memory store {path} private (mode 0600): "
            f"{exc.strerror or exc}; nothing was written to it"
        ) from None


def _open_read_write(path: Path, create: bool, unchecked: bool) -> sqlite3.Connection:
    if create:
        try:
            # Created 0600 before SQLite touches it (memories are private); O_EXCL, so a
            # FIFO or link slipped in since the check is never opened.
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            check_kind(path)
        except OSError as exc:
            raise MemoryStoreError(
                f"cannot create the memory store {path}: {exc.strerror or exc}"
            ) from None
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
        if unchecked and pending_migrations(conn):
            # A migration writes: the pages are checked first, as for a small store.
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check(5)")]
            if problems != ["ok"]:
                raise DatabaseCorruptError(path, "; ".join(problems))
        migrate(conn, path)
    except sqlite3.Error as exc:
        conn.close()
        if is_full(exc, path):
            raise _CannotWrite(
                "the disk holding it is full", True, full_error(path, str(exc), opening=True)
            ) from exc
        if cannot_write(exc):
            raise _CannotWrite(
                f"it cannot be written ({exc})",
                False,
                MemoryStoreError(f"cannot write the memory store {path}: {exc}"),
            ) from exc
        raise translate_error(exc, path) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def _open_read_only(path: Path, reason: str, full: bool) -> OpenedDatabase:
    try:
        conn = connect_read_only(path)
    except sqlite3.Error as exc:
        raise translate_error(exc, path) from exc
    try:
        missing = REQUIRED_MIGRATIONS - applied_migrations(conn)
        pending = pending_migrations(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise translate_error(exc, path) from exc
    if missing:
        conn.close()
        if full:
            raise full_error(path, "the store could not be set up", opening=True)
        raise MemoryStoreError(f"cannot set up the memory store {path}: {reason}")
    conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
    warnings = [
        f"the memory store {path} is open read-only because {reason}: memories can be "
        "read, but nothing new is saved"
    ]
    if pending:
        warnings.append(f"schema updates {', '.join(pending)} wait until {path} can be written")
    return OpenedDatabase(conn, read_only=reason, full=full, warnings=warnings)


def _nothing_to_write_at_open(path: Path) -> bool:
    """Whether opening writes nothing into the file before its pages are checked.

    Opening switches a store in another journal mode to WAL (a header write), and
    replays a log a crash left behind (a checkpoint); either waits for the check.
    """
    try:
        with path.open("rb") as file:
            header = file.read(20)
        wal = path.with_name(path.name + "-wal")
        log_waiting = wal.exists() and wal.stat().st_size > 0
    except OSError:
        return False
    in_wal_mode = len(header) == 20 and header[18] == 2 and header[19] == 2
    return in_wal_mode and not log_waiting


def open_database(path: Path, *, reading_only: bool = False) -> OpenedDatabase:
    """Open (creating if needed) and migrate the store; a bad file raises and is untouched.

    Where the store cannot be written (a read-only folder or file, a full disk) but
    exists, it is opened read-only and `read_only` says why. With `reading_only`, an
    existing store is opened read-only without reading every page first: nothing can be
    written, so damage can only be met by a read, which reports it.
    """
    _make_folder(path.parent)
    info = check_kind(path)
    existing = info is not None and info.st_size > 0
    if existing and reading_only:
        check_existing_file(path, pages=False)
        opened = _open_read_only(path, READING_ONLY, False)
        # Asked for: no warning, and schema updates wait for the next writing open.
        return OpenedDatabase(opened.conn, READING_ONLY)
    large = (
        existing
        and info is not None
        and info.st_size > LARGE_STORE_BYTES
        and _nothing_to_write_at_open(path)
    )
    if existing:
        check_existing_file(path, pages=not large)
    reason = unwritable_reason(path)
    full = False
    if reason is None:
        if info is not None and not existing:
            _make_private(path)
        try:
            conn = _open_read_write(path, create=info is None, unchecked=large)
            return OpenedDatabase(conn, pages_unchecked=large)
        except _CannotWrite as blocked:
            if not existing:
                raise blocked.error from blocked.__cause__
            reason, full = blocked.reason, blocked.full
    elif not existing:
        raise MemoryStoreError(f"cannot create the memory store {path}: {reason}")
    return _open_read_only(path, reason, full)


class DatabaseThread:
    """Runs every call on one worker thread, off the event loop, in submission order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memchat-sqlite")
        self._closed = False
        self.on_damage: Callable[[str], None] | None = None
        """Told when a call meets a damaged database (the store stops writing)."""

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
            error = translate_error(exc, self.path)
            if isinstance(error, DatabaseCorruptError) and self.on_damage is not None:
                self.on_damage(str(exc))
            raise error from exc

    def call(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run synchronously on the database thread (for code without an event loop)."""
        return self._executor.submit(
            functools.partial(self._guarded, func, *args, **kwargs)
        ).result()

    def shutdown(self) -> None:
        """Stop the thread after queued calls finish."""
        self._closed = True
        self._executor.shutdown(wait=True)
