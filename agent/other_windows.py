"""Which other memchat apps have the same data folder open, told when one more opens.

Two windows on one folder both work (the store and each chat's file are guarded), but a
user who left one open in another terminal was not told, and wondered why memories "came
back" that were forgotten in the other. Each app holds an exclusive lock on a file named
by its process id under `running/` while it lives; the system drops the lock when the
process ends however it ends, so a file whose lock can be taken is left over and removed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from dataclasses import dataclass, field
from pathlib import Path

RUNNING_FOLDER = "running"


@dataclass
class OpenHere:
    """This app's own lock file, held open while it runs, and the apps it found open."""

    others: list[int] = field(default_factory=list)
    descriptor: int | None = None

    def close(self) -> None:
        """Let the next app see this one gone (the system does so at exit anyway)."""
        if self.descriptor is not None:
            os.close(self.descriptor)
            self.descriptor = None

    @property
    def warning(self) -> str | None:
        """What to tell the user, or None when this app is the only one."""
        if not self.others:
            return None
        which = ", ".join(str(pid) for pid in self.others)
        several = len(self.others) > 1
        return (
            f"{'Other memchat apps' if several else 'Another memchat app'} (process "
            f"{which}) {'have' if several else 'has'} this memory open. Both work on the "
            "same memories: what one stores or forgets, the other recalls at once, and its "
            "memory panel and count follow within 15 seconds."
        )


def _held_by_another(path: Path) -> bool:
    """Whether a live app holds this lock file; a left-over one is removed."""
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(descriptor)
    with contextlib.suppress(OSError):
        path.unlink()
    return False


def open_here(data: Path) -> OpenHere:
    """Take this app's lock under `data` and name the apps already holding theirs.

    Never raises: a folder that cannot hold the lock (read-only, full) only means nothing
    can be told about other windows, which is no reason to keep the app from starting.
    """
    folder = data / RUNNING_FOLDER
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        found = sorted(folder.iterdir())
    except OSError:
        return OpenHere()
    own = folder / f"{os.getpid()}.lock"
    others = [
        int(path.stem)
        for path in found
        if path.suffix == ".lock" and path.stem.isdigit() and path != own and _held_by_another(path)
    ]
    try:
        descriptor = os.open(own, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError:
        return OpenHere(others=others)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        return OpenHere(others=others)
    return OpenHere(others=others, descriptor=descriptor)


def apps_open(data: Path) -> list[int]:
    """The process ids of the memchat apps that have `data` open now (none if unreadable)."""
    try:
        found = sorted((data / RUNNING_FOLDER).iterdir())
    except OSError:
        return []
    return [
        int(path.stem)
        for path in found
        if path.suffix == ".lock" and path.stem.isdigit() and _held_by_another(path)
    ]
