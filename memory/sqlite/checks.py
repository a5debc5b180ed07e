"""Read-only looks at a store before it is opened: what kind of file, whose, how new.

Nothing here writes, creates or blocks: a bad file is reported and left byte-for-byte as
it was.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
from pathlib import Path

from memory.errors import DatabaseCorruptError, MemoryStoreError
from memory.sqlite.failures import full_error, is_corrupt, is_full
from memory.sqlite.schema import (
    APPLICATION_ID,
    applied_migrations,
    newer_store_error,
    unknown_migrations,
)

HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 10_000
JOURNAL_SUFFIXES = ("-wal", "-shm", "-journal")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_kind(path: Path) -> os.stat_result | None:
    """Stat the store (a symbolic link to a regular file is followed); None when missing.

    Anything but a regular file is refused before it is opened: opening a FIFO waits
    forever for a writer, and SQLite cannot use a folder or a device.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            raise DatabaseCorruptError(
                path, f"it is a symbolic link to {os.readlink(path)}, which does not exist"
            ) from None
        return None
    except OSError as exc:
        raise MemoryStoreError(f"cannot open {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise DatabaseCorruptError(path, f"it is {_kind(info.st_mode)}, not a regular file")
    for suffix in JOURNAL_SUFFIXES:
        journal = path.with_name(path.name + suffix)
        with contextlib.suppress(OSError):
            mode = journal.stat().st_mode
            if not stat.S_ISREG(mode):
                raise MemoryStoreError(
                    f"cannot open {path}: {journal} is {_kind(mode)}, where SQLite keeps a "
                    "journal file; move it aside. Nothing was changed."
                )
    return info


def _read_header(path: Path) -> bytes:
    # O_NONBLOCK: if the file was swapped for a FIFO since it was checked, do not wait.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise DatabaseCorruptError(path, "it is not a regular file")
        return os.read(descriptor, len(HEADER))
    finally:
        os.close(descriptor)


def _attempt(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


def connect_read_only(path: Path, *, prefer_immutable: bool = False) -> sqlite3.Connection:
    """A read-only connection, even where the journal files cannot be created.

    A store in WAL mode needs its -shm file to be read; where the folder is not writable
    (or the disk is full) and no -wal file holds changes, the file is read as immutable
    instead. `prefer_immutable` reads as immutable whenever no -wal file exists, so that
    inspecting a file never creates files beside it.
    """
    uri = path.resolve().as_uri()
    wal = path.with_name(path.name + "-wal")
    if prefer_immutable and not wal.exists():
        return _attempt(f"{uri}?mode=ro&immutable=1")
    try:
        return _attempt(f"{uri}?mode=ro")
    except sqlite3.OperationalError as exc:
        if wal.exists() and wal.stat().st_size > 0:
            if is_full(exc, path):
                raise full_error(path, str(exc), opening=True) from exc
            raise MemoryStoreError(
                f"cannot read {path}: its write-ahead log {wal.name} holds recent changes, "
                f"but {path.name}-shm cannot be created beside it ({exc}). Nothing was "
                "changed; make the folder writable once (or copy the files to a writable "
                "folder) to read them."
            ) from exc
        # No change waits in the log: the main file alone is the whole store.
        return _attempt(f"{uri}?mode=ro&immutable=1")


def _refuse(path: Path, exc: sqlite3.Error) -> MemoryStoreError:
    if is_full(exc, path):
        return full_error(path, str(exc), opening=True)
    if is_corrupt(exc) or not str(getattr(exc, "sqlite_errorname", "")):
        return DatabaseCorruptError(path, str(exc))
    return MemoryStoreError(f"cannot read {path}: {exc}. The file was left untouched.")


def check_existing_file(path: Path, *, pages: bool = True) -> None:
    """Read-only checks of a store that already exists; nothing here can modify it.

    Refuses a file that is not an SQLite database, is damaged, belongs to another program
    (even one that keeps a `schema_migrations` table too), or was written by a newer
    memchat whose schema this version does not know. Without `pages`, the pages are not
    all read (that takes seconds at 100,000 memories): for opens that never write, where
    damage is reported by the read that meets it.
    """
    try:
        header = _read_header(path)
    except OSError as exc:
        raise MemoryStoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    if header != HEADER:
        raise DatabaseCorruptError(path, "not an SQLite database")
    try:
        # Without a WAL of ours beside it, read the file as immutable: a damaged header
        # that claims WAL mode would otherwise make SQLite create -wal and -shm files.
        conn = connect_read_only(path, prefer_immutable=True)
    except sqlite3.DatabaseError as exc:
        raise _refuse(path, exc) from exc
    try:
        if pages:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check(5)")]
            if problems != ["ok"]:
                raise DatabaseCorruptError(path, "; ".join(problems))
        application_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        # Every memchat migration sets the application id in the same transaction that
        # makes tables, so tables without our id belong to another program.
        if tables and (application_id != APPLICATION_ID or "schema_migrations" not in tables):
            raise DatabaseCorruptError(path, "an SQLite database of another program")
        if application_id not in (0, APPLICATION_ID):
            raise DatabaseCorruptError(path, "an SQLite database of another program")
        if unknown := unknown_migrations(applied_migrations(conn)):
            raise newer_store_error(path, unknown)
    except sqlite3.DatabaseError as exc:
        raise _refuse(path, exc) from exc
    finally:
        conn.close()


def unwritable_reason(path: Path) -> str | None:
    """Why the store cannot be written in place (None when it can).

    Checked with `access`, which also sees read-only mounts and immutable files (root
    ignores permission bits, but not those).
    """
    folder = path.parent
    if not os.access(folder, os.W_OK):
        return f"the folder {folder} is not writable"
    for candidate in (path, *(path.with_name(path.name + s) for s in JOURNAL_SUFFIXES)):
        if candidate.exists() and not os.access(candidate, os.W_OK):
            return f"{candidate} is not writable"
    return None


LARGE_STORE_BYTES = 64 * 2**20
"""Above this size a store that opens for writing has its pages checked in the background
(an integrity_check of 100,000 memories takes about 0.6 s, of a million several seconds)."""


class PageCheck:
    """integrity_check on its own read-only connection, in a thread of its own.

    integrity_check, not quick_check: it also finds an index that disagrees with its table,
    which quick_check passed and a write then built on (found by an adversary).

    Writes wait for its result (`result`), so nothing is written into a damaged file;
    reads go on meanwhile, and a read that meets damage reports it as always.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._problem: str | None = None
        self._cancelled = False
        self.completed = False
        """Whether every page was read (not cancelled, not stopped by a busy file)."""
        self._conn: sqlite3.Connection | None = None
        self._started = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="memchat-page-check", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            with self._started:
                if self._cancelled:
                    return
                self._conn = connect_read_only(self.path)
            rows = [row[0] for row in self._conn.execute("PRAGMA integrity_check(5)")]
            if rows != ["ok"]:
                self._problem = "; ".join(rows)
            self.completed = True
        except sqlite3.OperationalError:
            pass  # interrupted by `cancel`, or busy: reads and writes still meet any damage
        except sqlite3.DatabaseError as exc:
            self._problem = str(exc)
            self.completed = True
        except MemoryStoreError:
            pass  # the store's own connection opened; it reports what it meets
        finally:
            with self._started:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
            self._done.set()

    @property
    def done(self) -> bool:
        """Whether the check has finished (or was cancelled)."""
        return self._done.is_set()

    def result(self) -> str | None:
        """Wait for the check; what it found damaged, or None."""
        self._done.wait()
        return self._problem

    def cancel(self) -> None:
        """Stop a check still running (the store is closing) and wait for its thread."""
        with self._started:
            self._cancelled = True
            if self._conn is not None:
                self._conn.interrupt()
        self._thread.join()
