"""Where exports were written, so that an erase can name those that still hold the text.

An export may go anywhere (`memchat memory export ~/backup.jsonl`). Found by an adversary:
`forget --erase` named only the data folder's exports/, and said nothing of a backup
elsewhere, or of the hidden temp file an export killed mid-way leaves beside it, while
both held the erased secret. Each export's target is noted in the data folder before it
is written (one absolute path a line, written whole by temp file and rename); the erase
reads the note, and the files, and names what still holds the text.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from memory.errors import UnsafeTargetError
from memory.files import atomic_writer, temp_names_of

if sys.platform != "win32":
    import fcntl

EXPORT_LOG_NAME = "exports-written.txt"
_LOCK_NAME = ".exports-written.lock"
OWN_FILES = (EXPORT_LOG_NAME, _LOCK_NAME)
"""The files of this note, in the data folder: never an export's to replace."""
_MOST_NOTED = 100_000
"""The latest targets kept (a path whose file is gone is dropped at the next note): an
adversary's 1,000 exports pushed the first, which held the secret, off a note of 1,000."""


def noted_exports(data: Path) -> list[Path]:
    """The export targets noted in the data folder, latest last; none if it cannot be read."""
    try:
        lines = (data / EXPORT_LOG_NAME).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [Path(line) for line in lines.splitlines() if line.startswith("/")]


def note_export(data: Path, target: Path) -> str | None:
    """Note `target` as an export's; why it could not be noted, or None.

    A path holding a line break cannot be one line of the note: it is not noted.
    """
    where = str(target.absolute())
    if "\n" in where or "\r" in where:
        return f"{target!r} holds a line break"
    try:
        # One writer at a time: exports run together lost each other's lines (an adversary).
        with _locked(data / _LOCK_NAME):
            noted = [
                str(path)
                for path in noted_exports(data)
                if str(path) != where and any(p.exists() for p in left_by_exports(path))
            ]
            kept = [*noted, where][-_MOST_NOTED:]
            with atomic_writer(data / EXPORT_LOG_NAME) as stream:
                stream.write("".join(f"{line}\n" for line in kept))
    except OSError as exc:
        return f"{data / EXPORT_LOG_NAME}: {exc.strerror or exc}"
    except UnsafeTargetError as exc:
        return str(exc)
    return None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on `path` (made if missing) while the block runs."""
    if sys.platform == "win32":
        yield  # one process is assumed, as for the Markdown files
        return
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing lets go of the lock


def left_by_exports(target: Path) -> list[Path]:
    """`target` and the hidden temp files an interrupted export of it left beside it."""
    temp = temp_names_of(target)
    found = [target]
    try:
        found += sorted(path for path in target.parent.iterdir() if temp.fullmatch(path.name))
    except OSError:
        pass
    return found
