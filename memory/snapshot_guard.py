"""Replacing MEMORY_SNAPSHOT.md without losing what only the old file holds.

The rule: the snapshot is replaced as it is only when the store accounts for all of it.
Every entry it holds must be in the store (active or as history) or have been deleted with
an audit row, and no part of it may be damaged (a part that cannot be read cannot be
checked). Otherwise its bytes are first copied aside, as MEMORY_SNAPSHOT.damaged-<time>.md
or MEMORY_SNAPSHOT.kept-<time>.md, and a warning names the copy.

The rule looks at what the file holds, not at how the store was opened, so it covers a
store that started empty beside a full snapshot (a 0-byte or replaced brain.db), a restore
that skipped damaged entries, and a `memory.path` pointed at another store's folder alike.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path

from memory.errors import MemoryStoreError
from memory.files import keep_copy
from memory.snapshot import read_snapshot_bytes
from memory.wording import memories

KnownIds = Callable[[list[str]], Awaitable[set[str]]]
"""Which of the given entry ids the store accounts for."""


async def keep_unaccounted(
    snapshot: Path, known: KnownIds, now: datetime, written: bytes | None = None
) -> str | None:
    """Copy `snapshot` aside when replacing it could lose something; the warning, if so.

    `written` is the SHA-256 of the snapshot the store itself wrote last: a file still
    holding just that is accounted for without reading it entry by entry (each of its
    entries was in the store then, and a deletion since is audited or erased for good).
    At 3,000 core facts the reading took ~40 ms of each fact's write.

    Raises:
        MemoryStoreError: The snapshot exists but cannot be read or copied; it must not be
            replaced unchecked, so nothing is written.
    """
    try:
        data = await asyncio.to_thread(snapshot.read_bytes)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise MemoryStoreError(
            f"cannot read {snapshot} to check it before replacing it "
            f"({exc.strerror or exc}); it was left as it is"
        ) from None
    if not data.strip() or (written is not None and hashlib.sha256(data).digest() == written):
        return None
    found = read_snapshot_bytes(data)
    if found.problems or not found.has_marker:
        label, why = "damaged", "parts of it could not be read"
    else:
        ids = list(dict.fromkeys(entry.id for entry in found.entries))
        missing = len(set(ids) - await known(ids))
        if not missing:
            return None
        label, why = "kept", f"it holds {memories(missing)} this store does not have"
    try:
        kept = await asyncio.to_thread(keep_copy, snapshot, data, label, now)
    except OSError as exc:
        raise MemoryStoreError(
            f"{snapshot} was not replaced: {why}, and a copy could not be kept "
            f"({exc.strerror or exc})"
        ) from None
    return f"{snapshot}: {why}; it was kept as {kept} before the new snapshot replaced it"
