"""Private files written whole or not at all: memories never land in a file others can read.

Every file memchat writes for the user (an export, a snapshot) goes to a temporary file in
the target's folder, created 0600, is flushed and fsynced, and only then renamed over the
target; the folder is fsynced after the rename. A crash, a full disk or a failed read of the
store therefore leaves the previous file exactly as it was. A target that is not a regular
file (a device, a FIFO, a folder, a symbolic link) or that is one of the store's own files
is refused before anything is opened.

A snapshot that cannot simply be replaced (it is damaged, or holds memories the store does
not) is first copied aside (`keep_copy`), and every file a store in the folder depends on,
the snapshot and those copies included, is in `protected_files`.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TextIO

from memory.errors import UnsafeTargetError

SNAPSHOT_NAME = "MEMORY_SNAPSHOT.md"
DEFAULT_DATABASE_NAME = "brain.db"
MARKDOWN_NAME = "MEMORY.md"
MARKDOWN_LOCK_NAME = ".memchat-markdown.lock"
_JOURNALS = ("-wal", "-shm", "-journal")
INDEX_FOLDER_SUFFIX = "-vectors"
"""The folder beside the database that holds its vector index (`memory.vector_files`)."""


def store_files(database: Path) -> list[Path]:
    """The files that make up an SQLite store: the database, its journals, its index files."""
    index = database.with_name(database.name + INDEX_FOLDER_SUFFIX)
    index_files = sorted(index.iterdir()) if index.is_dir() else []
    return [
        database,
        *(database.with_name(database.name + tail) for tail in _JOURNALS),
        *index_files,
    ]


def snapshot_beside(database: Path) -> Path:
    """The snapshot a store in `database` is written to and rebuilt from.

    MEMORY_SNAPSHOT.md for the default brain.db; <name>.MEMORY_SNAPSHOT.md for a store of
    another name, so that two stores in one folder never share one. Found by an
    adversary: a new store "personal.db" was filled from the snapshot of "work.db" beside
    it, a password included, and kept it after the password was erased from work.db.
    """
    if database.name == DEFAULT_DATABASE_NAME:
        return database.with_name(SNAPSHOT_NAME)
    return database.with_name(f"{database.stem}.{SNAPSHOT_NAME}")


def kept_copies(snapshot: Path) -> list[Path]:
    """The copies `keep_copy` made of `snapshot` (MEMORY_SNAPSHOT.<label>-<time>.md)."""
    return sorted(snapshot.parent.glob(f"{snapshot.stem}.*-*{snapshot.suffix}"))


def protected_files(database: Path) -> list[Path]:
    """Every file the memory stores in `database`'s folder depend on; never written over.

    The SQLite database, its journals and vector index files, MEMORY_SNAPSHOT.md (the
    store is rebuilt from it) and its kept copies, and the markdown backend's MEMORY.md,
    daily files and lock file.
    """
    folder = database.parent
    snapshot = snapshot_beside(database)
    return [
        *store_files(database),
        snapshot,
        *kept_copies(snapshot),
        folder / MARKDOWN_NAME,
        folder / MARKDOWN_LOCK_NAME,
        *sorted((folder / "memory").glob("*.md")),
    ]


def keep_copy(path: Path, data: bytes, label: str, now: datetime) -> Path:
    """Keep `data` (what `path` holds) as <stem>.<label>-<time><suffix> beside it, 0600.

    A copy with the same bytes already kept is reused, so a damaged file met at every
    start is kept once. The copy is new (never replaces a file) and is on disk on return.
    """
    for kept in kept_copies(path):
        with contextlib.suppress(OSError):
            if kept.stat().st_size == len(data) and kept.read_bytes() == data:
                return kept
    stamp = f"{now:%Y%m%dT%H%M%SZ}"
    for attempt in range(1, 100):
        tail = "" if attempt == 1 else f"-{attempt}"
        target = path.with_name(f"{path.stem}.{label}-{stamp}{tail}{path.suffix}")
        try:
            descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        try:
            with os.fdopen(descriptor, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
        except BaseException:
            target.unlink(missing_ok=True)
            raise
        sync_folder(path.parent)
        return target
    raise FileExistsError(f"no free name to keep a copy of {path} beside it")


def _same_file(path: Path, other: Path) -> bool:
    try:
        return path.resolve() == other.resolve() or os.path.samefile(path, other)
    except OSError:
        return False


def check_target(path: Path, protected: Iterable[Path] = ()) -> None:
    """Refuse a target memchat must not replace; a missing regular file is fine."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise UnsafeTargetError(f"cannot write {path}: {exc.strerror or exc}") from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise UnsafeTargetError(
                f"{path} is a symbolic link; memchat does not replace links (give the real path)"
            )
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeTargetError(
                f"{path} is not a regular file (a folder, device or pipe); "
                "choose a file name, or write to standard output and redirect it"
            )
    for own in protected:
        if _same_file(path, own):
            raise UnsafeTargetError(
                f"{path} is one of the memory store's own files (or memchat's config, a "
                "chat or a folder memchat writes into); choose another file name"
            )
    if not path.parent.is_dir():
        raise UnsafeTargetError(f"cannot write {path}: the folder {path.parent} does not exist")


@contextlib.contextmanager
def atomic_writer(path: Path, protected: Iterable[Path] = ()) -> Iterator[TextIO]:
    """A text stream whose content replaces `path` only once it is complete and on disk."""
    protected = list(protected)
    check_target(path, protected)
    _remove_orphans(path)
    handle, temp_name = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.memchat-{os.getpid()}-", suffix=".tmp"
    )
    temp = Path(temp_name)
    try:
        # newline="": what the caller writes is what lands on disk, "\r" included.
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        check_target(path, protected)  # nothing swapped the target in meanwhile
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    sync_folder(path.parent)


def temp_names_of(path: Path) -> re.Pattern[str]:
    """The names `atomic_writer`'s temp files of `path` have; group 1 is the writer's pid."""
    return re.compile(re.escape(f".{path.name}.") + r"memchat-([0-9]{1,10})-[a-z0-9_]{8}\.tmp")


def _remove_orphans(path: Path) -> None:
    """Delete the temp files of earlier writes of `path` whose writer is gone (killed).

    A write killed mid-way leaves its hidden temp file (the target itself is untouched),
    and each one was kept for good (found by an adversary). Only a regular file named
    exactly as this function's own temp files are (`.NAME.memchat-PID-XXXXXXXX.tmp`, the
    process id in ASCII digits) is removed: another target's temp ("NAME.2026") or a file
    memchat never made stays (found by a second adversary).
    """
    own = temp_names_of(path)
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return
    for entry in entries:
        match = own.fullmatch(entry.name)
        if match is None or _running(int(match[1])):
            continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's, or not a process id: not ours to remove
    return True


def sync_folder(folder: Path) -> None:
    """Make the rename itself durable (not every filesystem allows it; then it is skipped)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def write_private(path: Path, text: str, protected: Iterable[Path] = ()) -> None:
    """Replace `path` atomically with `text`, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with atomic_writer(path, protected) as stream:
        stream.write(text)
