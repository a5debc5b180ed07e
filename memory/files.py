"""Private files written whole or not at all: memories never land in a file others can read.

Every file memchat writes for the user (an export, a snapshot) goes to a temporary file in
the target's folder, created 0600, is flushed and fsynced, and only then renamed over the
target; the folder is fsynced after the rename. A crash, a full disk or a failed read of the
store therefore leaves the previous file exactly as it was. A target that is not a regular
file (a device, a FIFO, a folder, a symbolic link) or that is one of the store's own files
is refused before anything is opened.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from memory.errors import UnsafeTargetError

SNAPSHOT_NAME = "MEMORY_SNAPSHOT.md"


def store_files(database: Path) -> list[Path]:
    """The files that make up an SQLite store: the database and its journals."""
    return [database, *(database.with_name(database.name + tail) for tail in _JOURNALS)]


_JOURNALS = ("-wal", "-shm", "-journal")


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
                f"{path} is one of the memory store's own files; choose another file name"
            )
    if not path.parent.is_dir():
        raise UnsafeTargetError(f"cannot write {path}: the folder {path.parent} does not exist")


@contextlib.contextmanager
def atomic_writer(path: Path, protected: Iterable[Path] = ()) -> Iterator[TextIO]:
    """A text stream whose content replaces `path` only once it is complete and on disk."""
    protected = list(protected)
    check_target(path, protected)
    handle, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
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
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
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
