"""Real filesystem conditions for store tests: a small disk, a read-only folder.

Each needs privileges the test may not have; without them the test is skipped and says
why, instead of pretending with a mock.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, check=False)


def _unmount(where: Path) -> None:
    if _run("umount", str(where)).returncode:
        _run("umount", "-l", str(where))  # still busy: detach now, free when unused


@contextmanager
def small_filesystem(where: Path, size_kib: int) -> Iterator[Path]:
    """A tmpfs of `size_kib` mounted at `where` (a real disk that fills up)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root and mount(8)")
    where.mkdir(parents=True, exist_ok=True)
    mounted = _run("mount", "-t", "tmpfs", "-o", f"size={size_kib}k,mode=0700", "tmpfs", str(where))
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        _unmount(where)


def fill(folder: Path) -> None:
    """Fill the filesystem holding `folder` until a write fails for lack of space."""
    chunk = b"\0" * 4096
    descriptor = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        while True:
            os.write(descriptor, chunk)
    except OSError:
        pass  # ENOSPC: the disk is full, which is what was asked
    finally:
        os.close(descriptor)
    assert shutil.disk_usage(folder).free < 64 * 1024


@contextmanager
def read_only_folder(folder: Path) -> Iterator[str]:
    """Make `folder` unwritable for this process; yields how it was done.

    Root ignores permission bits, so as root the folder becomes a read-only bind mount
    of itself (or, failing that, immutable with chattr); other users get chmod 0500.
    """
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            yield "chmod 0500"
        finally:
            folder.chmod(0o700)
        return
    if shutil.which("mount") and not _run("mount", "--bind", str(folder), str(folder)).returncode:
        if not _run("mount", "-o", "remount,ro,bind", str(folder)).returncode:
            try:
                yield "read-only bind mount"
            finally:
                _unmount(folder)
            return
        _unmount(folder)
    if shutil.which("chattr") and not _run("chattr", "+i", str(folder)).returncode:
        try:
            yield "chattr +i"
        finally:
            _run("chattr", "-i", str(folder))
        return
    pytest.skip("cannot make a folder read-only for root here (no bind mount, no chattr)")
