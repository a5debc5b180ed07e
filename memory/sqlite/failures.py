"""SQLite errors as errors a person can act on: full disk, damaged file, read-only store."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from memory.errors import DatabaseCorruptError, MemoryStoreError, StorageFullError

FULL_BELOW_BYTES = 64 * 1024
"""A filesystem with less free space than this counts as full when an I/O error happens."""

_CORRUPT = ("SQLITE_CORRUPT", "SQLITE_NOTADB")
# Errors that say something about the surroundings (permissions, space, locks, memory),
# never about the file's content: they must not be reported as a damaged store.
_ENVIRONMENT = (
    "SQLITE_FULL",
    "SQLITE_IOERR",
    "SQLITE_CANTOPEN",
    "SQLITE_READONLY",
    "SQLITE_PERM",
    "SQLITE_AUTH",
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
    "SQLITE_NOMEM",
)
_CANNOT_WRITE = ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")


def error_name(exc: sqlite3.Error) -> str:
    """The SQLite result code name (`SQLITE_IOERR_SHMSIZE`), or "" when unknown."""
    return str(getattr(exc, "sqlite_errorname", "") or "")


def _has_prefix(exc: sqlite3.Error, prefixes: tuple[str, ...]) -> bool:
    name = error_name(exc)
    return any(name == p or name.startswith(p + "_") for p in prefixes)


def disk_is_full(path: Path) -> bool:
    """True when the filesystem holding `path` has (almost) no space left."""
    folder = path if path.is_dir() else path.parent
    try:
        info = os.statvfs(folder)
    except OSError:
        return False
    return info.f_bavail * info.f_frsize < FULL_BELOW_BYTES


def is_full(exc: sqlite3.Error, path: Path) -> bool:
    """The error means there is no room: SQLITE_FULL, or an I/O error on a full disk.

    A full disk does not always come back as SQLITE_FULL: growing the shared-memory
    index of the write-ahead log reports SQLITE_IOERR_SHMSIZE, for instance.
    """
    if error_name(exc) == "SQLITE_FULL" or "database or disk is full" in str(exc):
        return True
    return _has_prefix(exc, ("SQLITE_IOERR",)) and disk_is_full(path)


def cannot_write(exc: sqlite3.Error) -> bool:
    """The error means the file or its folder cannot be written (permissions, read-only)."""
    return _has_prefix(exc, _CANNOT_WRITE) or "readonly database" in str(exc)


def is_busy(exc: sqlite3.Error) -> bool:
    """Another connection holds the store (SQLITE_BUSY or SQLITE_LOCKED, after waiting)."""
    return _has_prefix(exc, ("SQLITE_BUSY", "SQLITE_LOCKED"))


def is_corrupt(exc: sqlite3.Error) -> bool:
    """The error says the file's content is damaged or not a database."""
    if _has_prefix(exc, _CORRUPT):
        return True
    if _has_prefix(exc, _ENVIRONMENT):
        return False
    return isinstance(exc, sqlite3.DatabaseError) and (
        "malformed" in str(exc) or "not a database" in str(exc)
    )


def full_error(path: Path, detail: str, *, opening: bool = False) -> StorageFullError:
    """The error for a write (or an open that must write) that found no room."""
    if opening:
        return StorageFullError(
            f"cannot open {path}: the disk holding it is full ({detail}); nothing was "
            "changed, earlier memories are intact. Free some space and try again."
        )
    return StorageFullError(
        f"cannot write to {path}: the disk or the database size limit is full ({detail}); "
        "nothing was saved, earlier memories are intact"
    )


def translate_error(exc: sqlite3.Error, path: Path) -> MemoryStoreError:
    """Turn a driver error into the memory layer's error a person can act on."""
    if is_full(exc, path):
        return full_error(path, str(exc))
    if is_corrupt(exc):
        return DatabaseCorruptError(path, str(exc))
    return MemoryStoreError(f"database error on {path}: {exc}")
