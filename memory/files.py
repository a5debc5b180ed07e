"""Private files: memories never land in a file others can read."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

SNAPSHOT_NAME = "MEMORY_SNAPSHOT.md"


def write_private(path: Path, text: str) -> None:
    """Replace `path` atomically with `text`, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp, 0o600)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
