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

from agent.erased_ids import note_erased
from agent.export_log import left_by_exports, noted_exports
from agent.memory_editing import every_listed, whole_audit_log
from agent.session_scrub import Erasure, Scrubbed, erasure_of, scrub_sessions

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from memory.protocol import AuditRecord, Lifecycle, Memory


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
    own_store: Path | None = None,
    data: Path | None = None,
) -> Erased:
    """Erase the audit records `forgotten_records` names.

    Their text is also taken out of the chat files under `sessions` (`agent.session_scrub`).
    The exports in `exports` are the user's backups, left as they are: those still holding
    the text are named (found by an adversary: the app's own export kept it, unsaid), and
    so are other backends' stores in the data folder (`own_store` is this one's).
    """
    records = await forgotten_records(lifecycle, key, namespace)
    if not records:
        # An erase cut short (a full disk) left the old text in the file's free pages: run
        # again, it is finished though nothing is left to erase (an adversary found no way).
        await lifecycle.erase_records([])
        return Erased(0, [])
    count = await lifecycle.erase_records([record.entry_id for record in records])
    unnoted = None
    if data is not None:
        # An import of an export made before this leaves these ids out (`agent.erased_ids`).
        try:
            await asyncio.to_thread(note_erased, data, [record.entry_id for record in records])
        except OSError as exc:
            unnoted = str(exc)
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
    copies = (
        []
        if exports is None
        else await asyncio.to_thread(other_stores_holding, exports.parent, texts, own_store)
    )
    erasure = erasure_of(texts, keys)
    return Erased(count, scrubbed.changed, held, scrubbed.failed, copies, erasure, unnoted)


_OTHER_STORES = {"brain.db": ("brain.db", "brain.db-wal"), "qdrant-edge": (), "qdrant": ()}
"""What other backends keep in the data folder (a `migrate` target), with the files that
go with each; MEMORY.md is named with the kept files."""
_CHUNK = 1 << 20


def other_stores_holding(data: Path, texts: list[str], own_store: Path | None) -> list[Path]:
    """Other backends' stores in the data folder whose files hold any of `texts`.

    Found by an adversary: after `migrate --to qdrant`, an erase in sqlite named the
    markdown copy but not the Qdrant one, whose files kept the text (and served it).
    """
    wanted = _written_bytes(texts)
    if not wanted:
        return []
    own = own_store.resolve() if own_store is not None else None
    found = []
    for name, parts in _OTHER_STORES.items():
        store = data / name
        if store.is_symlink() or not store.exists() or (own is not None and _within(own, store)):
            continue
        files = [data / part for part in parts if (data / part).is_file()]
        if store.is_dir():
            files = sorted(path for path in store.rglob("*") if path.is_file())
        if any(_file_holds(path, wanted) for path in files if not path.is_symlink()):
            found.append(store)
    return found


def _within(own: Path, store: Path) -> bool:
    resolved = store.resolve()
    return resolved == own or own in resolved.parents or resolved in own.parents


def _file_holds(path: Path, wanted: list[bytes]) -> bool:
    """Whether the file's bytes hold any of `wanted`, read a piece at a time."""
    overlap = max(len(needle) for needle in wanted) - 1
    tail = b""
    try:
        with path.open("rb") as file:
            while piece := file.read(_CHUNK):
                window = tail + piece
                if any(needle in window for needle in wanted):
                    return True
                tail = window[-overlap:] if overlap else b""
    except OSError:
        return False
    return False


def _kept_files(exports: Path, beside: Path | None = None) -> list[Path]:
    """Files memchat wrote that an erase leaves as they are.

    Exports (an interrupted one's hidden temp file too), wherever they were written, and
    the data folder's Markdown (a damaged snapshot's kept copy, a migrated MEMORY.md and
    its daily files).
    Found by adversaries: each kept an erased secret, unsaid.
    """
    found: list[Path] = []
    with contextlib.suppress(OSError):
        found += sorted(exports.iterdir())
    for folder in dict.fromkeys([exports.parent, *([beside] if beside else [])]):
        with contextlib.suppress(OSError):
            found += sorted(folder.glob("*.md"))
        with contextlib.suppress(OSError):
            # The markdown store's daily files: "memory/2027-03-01.md" held an erased NIF,
            # unnamed (a new user).
            found += sorted((folder / "memory").glob("*.md"))
    # Exports written elsewhere (`agent.export_log`: found by an adversary, unnamed).
    for target in noted_exports(exports.parent):
        found += left_by_exports(target)
    return list(dict.fromkeys(found))


def kept_files_holding(folder: Path, texts: list[str], beside: Path | None = None) -> list[Path]:
    """The files `_kept_files` names that hold any of `texts` (as written, or escaped).

    `folder` is the data folder's exports; `beside`, the store's own folder when it is
    elsewhere (`memory.path`: a second adversary found a damaged snapshot's copy there).
    """
    wanted = _written_bytes(texts)
    if not wanted:
        return []
    return [
        path
        for path in _kept_files(folder, beside)
        if not path.is_symlink() and path.is_file() and _file_holds(path, wanted)
    ]


def _written_bytes(texts: list[str]) -> list[bytes]:
    """Each text as a file may hold it: as written, or JSON-escaped (an export), in UTF-8."""
    forms = {
        form
        for text in texts
        if text
        for form in (text, json.dumps(text)[1:-1], json.dumps(text, ensure_ascii=False)[1:-1])
    }
    return [form.encode("utf-8", "surrogatepass") for form in sorted(forms)]


@dataclass(frozen=True)
class Erased:
    """What an erase removed: audit records, and the chat files its text was taken out of."""

    records: int
    chats: list[Path]
    kept: list[Path] = field(default_factory=list)
    """Files memchat wrote that still hold the text, left as they are (`_kept_files`)."""
    unscrubbed: list[tuple[Path, str]] = field(default_factory=list)
    """Chat files that could not be rewritten, with why: they may still hold the text."""
    other_stores: list[Path] = field(default_factory=list)
    """Other backends' stores in the data folder that hold the text (`other_stores_holding`)."""
    erasure: Erasure | None = None
    """What was erased, as the chat files were scrubbed of it (for `memories_holding`)."""
    unnoted: str | None = None
    """Why the erased ids could not be noted for imports (`agent.erased_ids`), if so."""


async def memories_holding(
    memory: Memory, namespace: str, erasure: Erasure | None, erased_keys: set[str]
) -> list[tuple[MemoryEntry, bool]]:
    """The other memories, in effect or kept as history, that still hold what was erased.

    As a chat file's message would be scrubbed of it: the erased text, or its code said
    with a word of the text. Found by an adversary: "I called the station about my bike,
    they said 2468 is a common code" kept the bike lock's code after its erase, and was
    recalled first for "what is my bike lock code"; the chat file's copy said [erased].
    In every namespace: a copy under another (a second adversary's "work" namespace) is
    the same secret, and the snapshot written from it holds it again.

    Each with whether it surely holds it (False: a number of the code said with no other
    word of the text, "4471 also unlocks my phone", which may be the code or not).
    """
    if erasure is None:
        return []
    found: dict[tuple[str, str], tuple[MemoryEntry, bool]] = {}
    for entry in await every_listed(memory, None, include_superseded=True, order="key"):
        if entry.namespace == namespace and entry.key in erased_keys:
            continue
        surely = erasure.apply(entry.content) != entry.content
        # A code said with no other word of the text ("4471 also unlocks my phone", an
        # adversary) may be the same code: the memory is named, as maybe holding it.
        if surely or erasure.found_in(entry.content):
            found.setdefault((entry.namespace, entry.key), (entry, surely))
    return list(found.values())
