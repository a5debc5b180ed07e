"""Rebuild a lost store from MEMORY_SNAPSHOT.md, as far as the snapshot allows.

A damaged snapshot never stops memchat from starting: every complete entry is restored,
and what was skipped (a torn tail, a bad value, an entry the store refused) is named in the
store's `warnings` and summed up in the message the app shows. The snapshot itself is only
read; when something in it was skipped, a copy of it is kept first (MEMORY_SNAPSHOT.damaged-
<time>.md), so what only that file holds survives the next snapshot, which replaces it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from memory.entry import utc_now
from memory.errors import MemoryStoreError
from memory.files import DEFAULT_DATABASE_NAME, keep_copy
from memory.snapshot import read_snapshot_bytes
from memory.wording import counted

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from memory.protocol import Memory

_LEFT = "the store starts empty and the snapshot was left as it is"


async def _import_each(memory: Memory, entries: list[MemoryEntry], source: Path) -> list[str]:
    """Import `entries`; when the batch is refused, one by one. Returns what failed."""
    try:
        await memory.import_(entries)
    except (MemoryStoreError, ValueError):
        pass
    else:
        return []
    failed = []
    for entry in entries:
        try:
            await memory.import_([entry])
        except (MemoryStoreError, ValueError) as exc:
            failed.append(f"{source}: entry {entry.key[:40]!r} could not be restored: {exc}")
    return failed


def _without_dangling_history(
    entries: list[MemoryEntry],
) -> tuple[list[MemoryEntry], list[str]]:
    """Versions replaced by an entry the snapshot lacks, made reachable again.

    Returns the entries and the keys of those brought back into effect. The snapshot
    holds core facts only: a fact whose newer version moved to another category (a
    mistyped one, found by a new user) left its old version pointing at an entry that is
    not there, so after a rebuild neither was in effect and recall found nothing. Per
    key, the newest such version comes back into effect unless the key already has one;
    the others become its history.
    """
    ids = {entry.id for entry in entries}
    current = {(e.namespace, e.key): e.id for e in entries if e.superseded_by is None}
    dangling = sorted(
        (e for e in entries if e.superseded_by is not None and e.superseded_by not in ids),
        key=lambda e: e.updated_at,
        reverse=True,
    )
    heirs: dict[str, str | None] = {}
    for entry in dangling:
        place = (entry.namespace, entry.key)
        heir = current.get(place)
        if heir is None:
            current[place] = entry.id
        heirs[entry.id] = heir
    mended = [
        entry.model_copy(update={"superseded_by": heirs[entry.id]}) if entry.id in heirs else entry
        for entry in entries
    ]
    revived = sorted({e.key for e in dangling if heirs[e.id] is None})
    return mended, revived


async def _kept(snapshot: Path, data: bytes) -> str:
    """Where the damaged file's bytes are kept, in words (or why they could not be)."""
    try:
        kept = await asyncio.to_thread(keep_copy, snapshot, data, "damaged", utc_now())
    except OSError as exc:
        return (
            f"a copy of it could not be kept ({exc.strerror or exc}), so the file is left as "
            "it is and the next snapshot copies it aside before replacing it"
        )
    return (
        f"the file as it was is kept as {kept} (the next snapshot replaces {snapshot.name}, "
        "not that copy)"
    )


async def hydrate(
    memory: Memory,
    snapshot: Path,
    state: str = "missing",
    database_name: str = DEFAULT_DATABASE_NAME,
) -> str:
    """Fill `memory` from `snapshot`; return the message that says how that went.

    `state` says what was wrong with the store's file `database_name` ("missing", or
    "empty" for a 0-byte file).
    """
    try:
        data = await asyncio.to_thread(snapshot.read_bytes)
    except OSError as exc:
        return f"{snapshot} could not be read ({exc.strerror or exc}); {_LEFT}"
    found = read_snapshot_bytes(data)
    if not found.has_marker:
        return f"{snapshot} could not be read ({found.problems[0]}); {_LEFT}"
    mended, revived = _without_dangling_history(found.entries)
    failed = await _import_each(memory, mended, snapshot)
    problems = [f"{snapshot}: {problem}" for problem in found.problems] + failed
    memory.warnings.extend(problem for problem in problems if problem not in memory.warnings)
    restored = counted(len(found.entries) - len(failed), "core memory", "core memories")
    message = f"{database_name} was {state}: restored {restored} from {snapshot}"
    if problems:
        more = f" (and {len(problems) - 1} more, listed in warnings)" if len(problems) > 1 else ""
        message += (
            f"; {len(problems)} damaged parts of it were skipped and "
            f"{await _kept(snapshot, data)}: {problems[0]}{more}"
        )
    if revived:
        # It may be stale: its newer version was not a core fact (an adversary moved a
        # correction to "daily"). Said where the user looks, with what to check.
        note = (
            f"{counted(len(revived), 'fact', 'facts')} whose newer version the snapshot "
            "does not hold (no longer a core fact) came back as before it; check "
            + ", ".join(repr(key) for key in revived[:5])
        )
        memory.warnings.append(f"{snapshot}: {note}")
        message += f"; {note}"
    return message
