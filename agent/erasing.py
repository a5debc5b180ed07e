"""Forgetting for good: the audit records that would let a forgotten memory be restored.

A forget keeps what it deleted in the audit log, so `restore` can bring it back. Found by a
new user: a door code stored and then forgotten was still listed by `memchat memory
audit`. `memchat memory forget KEY --erase` also removes the records of every version of
the key, and of what was deleted with them, so the store keeps nothing of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from agent.memory_editing import whole_audit_log
from agent.session_scrub import Scrubbed, scrub_sessions

if TYPE_CHECKING:
    from memory.protocol import AuditRecord, Lifecycle


async def forgotten_records(lifecycle: Lifecycle, key: str, namespace: str) -> list[AuditRecord]:
    """The audit records of `key`'s deleted versions, and of what each deletion took along."""
    records = await whole_audit_log(lifecycle, namespace)
    # What a forget of the key deleted with it (its history, the messages it was made
    # from) shares that forget's time; a hygiene run deletes many unrelated memories at
    # one time, so only the key's own records of it count.
    forgets = {r.at for r in records if r.key == key and r.action == "forget"}
    return [r for r in records if r.key == key or (r.action == "forget" and r.at in forgets)]


async def erase_forgotten(
    lifecycle: Lifecycle,
    key: str,
    namespace: str,
    sessions: Path | None = None,
    exports: Path | None = None,
) -> Erased:
    """Erase the audit records `forgotten_records` names.

    Their text is also taken out of the chat files under `sessions` (`agent.session_scrub`).
    The exports in `exports` are the user's backups, left as they are: those still holding
    the text are named (found by an adversary: the app's own export kept it, unsaid).
    """
    records = await forgotten_records(lifecycle, key, namespace)
    if not records:
        return Erased(0, [])
    count = await lifecycle.erase_records([record.entry_id for record in records])
    texts = [record.content for record in records]
    keys = {record.key for record in records}
    scrubbed = (
        Scrubbed([], [])
        if sessions is None
        else await asyncio.to_thread(scrub_sessions, sessions, texts, keys)
    )
    beside = lifecycle.snapshot_path.parent if lifecycle.snapshot_path is not None else None
    held = (
        []
        if exports is None
        else await asyncio.to_thread(kept_files_holding, exports, texts, beside)
    )
    return Erased(count, scrubbed.changed, held, scrubbed.failed)


def _kept_files(exports: Path, beside: Path | None = None) -> list[Path]:
    """Files memchat wrote that an erase leaves as they are.

    Exports (an interrupted one's hidden temp file too), and the data folder's Markdown (a
    damaged snapshot's kept copy, a migrated MEMORY.md). Found by an adversary: each kept
    an erased secret, unsaid.
    """
    found: list[Path] = []
    with contextlib.suppress(OSError):
        found += sorted(exports.iterdir())
    for folder in dict.fromkeys([exports.parent, *([beside] if beside else [])]):
        with contextlib.suppress(OSError):
            found += sorted(folder.glob("*.md"))
    return found


def kept_files_holding(folder: Path, texts: list[str], beside: Path | None = None) -> list[Path]:
    """The files `_kept_files` names that hold any of `texts` (as written, or escaped).

    `folder` is the data folder's exports; `beside`, the store's own folder when it is
    elsewhere (`memory.path`: a second adversary found a damaged snapshot's copy there).
    """
    wanted = {form for text in texts if text for form in _written_forms(text)}
    if not wanted:
        return []
    found = []
    for path in _kept_files(folder, beside):
        if path.is_symlink() or not path.is_file():
            continue
        try:
            data = path.read_text("utf-8", errors="replace")
        except OSError:
            continue
        if any(form in data for form in wanted):
            found.append(path)
    return found


def _written_forms(text: str) -> set[str]:
    return {text, json.dumps(text)[1:-1], json.dumps(text, ensure_ascii=False)[1:-1]}


@dataclass(frozen=True)
class Erased:
    """What an erase removed: audit records, and the chat files its text was taken out of."""

    records: int
    chats: list[Path]
    kept: list[Path] = field(default_factory=list)
    """Files memchat wrote that still hold the text, left as they are (`_kept_files`)."""
    unscrubbed: list[tuple[Path, str]] = field(default_factory=list)
    """Chat files that could not be rewritten, with why: they may still hold the text."""
