"""The markdown backend's files: read tolerantly, extended whole or not at all.

Reading never fails for a damaged file: every complete entry is read and every part that
could not be is returned as a problem naming the file and line (a torn tail, a bad value,
bytes that are not UTF-8). The file itself is left exactly as it is.

Adding entries writes the file's old bytes plus the new blocks to a temporary file, fsyncs
it and renames it over the file (`memory.files.atomic_writer`), so a crash leaves either
the old or the new version, never a torn one. An exclusive lock on a file beside them keeps
two memchat processes from both extending the same old version (one's entry would be lost).
Before anything is written, the new text is parsed: it must give back every entry the old
text gave, followed by exactly the new ones, or nothing is written.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError
from memory.files import MARKDOWN_LOCK_NAME, atomic_writer
from memory.snapshot import SnapshotRead, read_snapshot_bytes, render_block, render_header
from memory.snapshot_parser import read_appended
from memory.upsert import stored_fields

if sys.platform != "win32":
    import fcntl

LOCK_NAME = MARKDOWN_LOCK_NAME
HEADER = render_header(
    "memchat memories",
    [
        "Written by memchat's markdown memory backend, one block per version: the newest",
        "block of an id is the entry, earlier ones are its history. Each block: a heading,",
        "its fields (JSON values) and its content in a fenced block.",
    ],
)


@dataclass
class Loaded:
    """Every file's newest version of each entry, and what could not be read."""

    latest: dict[str, MemoryEntry] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    """One line per problem, naming the file (and line)."""


class ParsedFiles:
    """Each file's last bytes read and what they parsed to.

    Every write step reads every file again, to see what another process appended; a file
    whose bytes are unchanged is not parsed again (parsing was most of a write's time, and
    it grew with the store: 80 ms a write at 300 memories in one file).
    """

    def __init__(self) -> None:
        self._last: dict[Path, tuple[bytes, SnapshotRead]] = {}

    def appended(self, path: Path, old: bytes, found: SnapshotRead, added: str) -> SnapshotRead:
        """What `old` (which holds `found`) followed by `added` holds, `added` read alone.

        Only where the whole file would read the same: `old` read cleanly to a newline's end.
        """
        if not (old.endswith(b"\n") and found.has_marker and found.ends_clean) or found.problems:
            return self.read(path, old + added.encode("utf-8"))
        more = read_appended(added)
        whole = SnapshotRead(
            entries=[*found.entries, *more.entries],
            problems=more.problems,
            ends_clean=more.ends_clean,
            open_fence=more.open_fence,
        )
        self._last[path] = (old + added.encode("utf-8"), whole)
        return whole

    def read(self, path: Path, data: bytes) -> SnapshotRead:
        """What `data`, the bytes of `path`, holds."""
        known = self._last.get(path)
        if known is not None and known[0] == data:
            return known[1]
        found = read_snapshot_bytes(data)
        self._last[path] = (data, found)
        return found


def load(files: Iterable[Path], parsed: ParsedFiles | None = None) -> Loaded:
    """Read `files` in order; missing ones are skipped, unreadable ones reported."""
    parsed = parsed or ParsedFiles()
    loaded = Loaded()
    for path in files:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            continue
        except OSError as exc:
            loaded.problems.append(
                f"{path}: could not be read ({exc.strerror or exc}); its memories are "
                "missing until it can be"
            )
            continue
        found = parsed.read(path, data)
        loaded.problems.extend(f"{path}: {problem}" for problem in found.problems)
        # Within a file, the block written last is the newest version, whatever its times
        # say (an import may bring back an older version on purpose). Across files (an
        # entry whose category moved it), the later update wins.
        in_file = {entry.id: entry for entry in found.entries}
        for entry in in_file.values():
            known = loaded.latest.get(entry.id)
            if known is None or entry.updated_at >= known.updated_at:
                loaded.latest[entry.id] = entry
    return loaded


def take_lock(root: Path) -> int | None:
    """Take the store's write lock, waiting for another process to let go of it.

    Advisory; without fcntl one process is assumed (None). Closing the returned descriptor
    (`let_go`) releases it.
    """
    if sys.platform == "win32":
        return None
    descriptor = os.open(root / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def let_go(descriptor: int | None) -> None:
    """Release a lock `take_lock` took."""
    if descriptor is not None:
        os.close(descriptor)


@contextlib.contextmanager
def _exclusive(root: Path) -> Iterator[None]:
    """Hold the store's write lock for the block."""
    descriptor = take_lock(root)
    try:
        yield
    finally:
        let_go(descriptor)


def _addition(old: bytes, found: SnapshotRead, entries: list[MemoryEntry]) -> str:
    """The text that follows `old` (which holds `found`) to add `entries` to it."""
    if not old:
        return HEADER + "".join(render_block(entry) for entry in entries)
    start = "" if old.endswith(b"\n") else "\n"
    if not found.has_marker:
        # Text memchat did not write (a person's own notes) stays, above the marker.
        return start + "\n" + HEADER + "".join(render_block(entry) for entry in entries)
    # After a torn block, a longer fence makes the next block's opening line recognisable.
    return start + "".join(render_block(entry, found.open_fence) for entry in entries)


def _check_reads_back(
    path: Path, before: list[MemoryEntry], after: list[MemoryEntry], entries: list[MemoryEntry]
) -> None:
    # The entries read before are the same objects when read again (`ParsedFiles.appended`):
    # only what the write adds is compared field by field.
    kept = len(after) >= len(before) and all(
        a is b or stored_fields(a) == stored_fields(b) for a, b in zip(after, before, strict=False)
    )
    added = [stored_fields(entry) for entry in after[len(before) :]]
    if not kept or added != [stored_fields(entry) for entry in entries]:
        raise MemoryStoreError(
            f"{path}: the new entries would not read back exactly from the file, so nothing "
            "was written; please report this with the file"
        )


def append_entries(
    root: Path,
    path: Path,
    entries: list[MemoryEntry],
    *,
    locked: bool = False,
    parsed: ParsedFiles | None = None,
) -> None:
    """Add `entries` at the end of `path` (created with its header if missing), atomically.

    `locked`: the caller already holds the store's write lock (`take_lock`). `parsed`: the
    files' parses the caller keeps, read from and brought up to date.
    """
    parsed = parsed or ParsedFiles()
    if not entries:
        return
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.nullcontext() if locked else _exclusive(root):
        # A link the user made (say, into a synced folder) is followed, not replaced.
        target = path.resolve() if path.is_symlink() else path
        try:
            old = target.read_bytes()
        except FileNotFoundError:
            old = b""
        except OSError as exc:
            raise MemoryStoreError(f"{path}: could not be read ({exc.strerror or exc})") from None
        found = parsed.read(path, old)
        addition = _addition(old, found, entries)
        new = old + addition.encode("utf-8")
        before = found.entries if old else []
        after = parsed.appended(path, old, found, addition) if old else parsed.read(path, new)
        _check_reads_back(path, before, after.entries, entries)
        try:
            with atomic_writer(target) as stream:
                stream.flush()
                # Bytes, so that the old part stays exactly as it was (even bytes not UTF-8).
                stream.buffer.write(new)
        except OSError as exc:
            raise MemoryStoreError(
                f"{path}: could not be written ({exc.strerror or exc}); it was left as it was"
            ) from None
