"""A deleted memory brought back from the audit log, after the app that forgot it closed.

Undo forget in the inspector puts back exactly what went (times, history, vectors), but
only until the app closes. The audit log keeps each deleted memory's key, category and
text: enough to store that memory again later (found by an adversary: a forget made by
mistake could not be undone after a restart, though the log had the text).
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.memory_editing import MemoryEditor, embed_missing, every_listed, key_versions
from memory.entry import MemoryCategory, MemoryEntry
from memory.errors import MemoryStoreError
from memory.protocol import AuditRecord, Memory
from memory.write_policy import content_hash

DELETIONS = ("forget", "hygiene")
"""The audit actions that deleted a memory (a merge or an import keeps what it sets aside)."""
_PAGE = 500


@dataclass(frozen=True)
class BroughtBack:
    """The memory back in the store, or the one already holding its text."""

    entry: MemoryEntry
    already: bool = False
    """Its text was in memory already (under this key or another): nothing was added."""
    replaced: tuple[MemoryEntry, ...] = ()
    """What it replaced, kept as history: its key's holder, facts it changes."""
    notes: tuple[str, ...] = ()
    """What the user should know of how it came back (pinned, dated today)."""


async def deleted_record(memory: Memory, entry_id: str) -> AuditRecord | None:
    """The newest deletion of the memory with id `entry_id` the log holds, or None."""
    lifecycle = memory.lifecycle
    if lifecycle is None:
        return None
    offset = 0
    while True:
        page = await lifecycle.audit_log(limit=_PAGE, offset=offset)
        for record in page:
            if record.entry_id == entry_id and record.action in DELETIONS:
                return record
        if len(page) < _PAGE:
            return None
        offset += _PAGE


async def _copy_said_again(memory: Memory, record: AuditRecord) -> MemoryEntry | None:
    """The copy in effect of the same message, said again in the same chat."""
    wanted = content_hash(record.content)
    said = await every_listed(
        memory, record.namespace, category="conversation", session_id=record.session_id
    )
    return next((entry for entry in said if content_hash(entry.content) == wanted), None)


async def bring_back(memory: Memory, record: AuditRecord) -> BroughtBack:
    """Store again the memory `record` deleted, under its key, category and text.

    A write like any other, under the write rules, as `restore` of an earlier version
    is: what holds its key now is kept as history, a fact it had replaced is replaced again
    (found by an adversary: bringing back "I moved to Lisbon" left "I live in Porto" in
    effect beside it), and a text in memory already is not stored twice. A text the key
    holds as history comes back into effect instead. A saved message the log kept the
    time and chat of comes back exactly, under its own id; what hygiene removed comes
    back pinned.
    """
    if record.action not in DELETIONS:
        raise MemoryStoreError(
            f"{record.key!r} was not deleted ({record.action}); nothing to bring back"
        )
    if await memory.get_by_id(record.entry_id) is not None:
        raise MemoryStoreError(f"{record.key!r} is already back in memory")
    holder = await memory.get(record.key, record.namespace)
    if holder is not None and holder.content == record.content:
        raise MemoryStoreError(f"{record.key!r} is already back in memory")
    kept = next(
        (
            version
            for version in await key_versions(memory, record.key, record.namespace)
            if version.content == record.content
        ),
        None,
    )
    if kept is not None:
        # Its text is held as history of the key: that version comes back into effect,
        # not a copy of it (found by an adversary: each restore added a version).
        restored = await MemoryEditor(memory).restore(kept)
        return BroughtBack(restored, replaced=(holder,) if holder is not None else ())
    # Hygiene would remove it again at the next start: pinned, it stays (an adversary).
    pinned = record.action == "hygiene"
    notes: tuple[str, ...] = ("pinned, so hygiene keeps it",) if pinned else ()
    if record.category == "conversation" and record.session_id is not None:
        # The message sent again (the app took it back when the server was down, and the
        # user sent it once more) is in memory as that copy: a new user brought the first
        # back beside it, the same text twice.
        said_again = await _copy_said_again(memory, record)
        if said_again is not None:
            return BroughtBack(said_again, already=True)
    if record.category == "conversation" and record.created is not None and holder is None:
        # A saved message is what was said then, in that chat: back exactly, so "what did I
        # say on <its day>" finds it (found by an adversary: it came back dated today).
        said = MemoryEntry(
            id=record.entry_id,
            key=record.key,
            content=record.content,
            category=record.category,
            namespace=record.namespace,
            timestamp=record.created,
            updated_at=record.created,
            session_id=record.session_id,
            pinned=pinned,
        )
        await memory.import_([said])
        try:
            await embed_missing(memory, record.namespace)
        except MemoryStoreError as exc:
            notes += (f"not embedded ({exc}): `memchat memory reindex` embeds it",)
        return BroughtBack(await memory.get_by_id(said.id) or said, notes=notes)
    if record.created is None:
        # Deleted by a version whose log kept no time or chat (before 0016): said, not
        # silently dated today (an adversary).
        notes += ("its first time and chat were not kept by the log: it is dated today",)
    entry = await memory.store_with_metadata(
        record.key,
        record.content,
        record.category,
        None,
        namespace=record.namespace,
        pinned=pinned or None,
    )
    already = entry.key != record.key or (holder is not None and holder.id == entry.id)
    replaced = [
        old
        for old_id in entry.supersedes
        if (old := await memory.get_by_id(old_id)) is not None and old.id != entry.id
    ]
    return BroughtBack(entry, already, tuple(replaced), notes)


async def is_back(
    memory: Memory, record: AuditRecord, held: dict[tuple[str, str], set[str]] | None = None
) -> bool:
    """Whether the memory `record` deleted is in memory again.

    By its id (an undone forget puts it back exactly), or by its text under its key, in
    effect or as history (brought back from the log; found by an adversary: a version set
    aside since read as never brought back, and was offered again). `held` keeps the texts
    of each key read, for the next call: a log lists one key many times.
    """
    if await memory.get_by_id(record.entry_id) is not None:
        return True
    held = {} if held is None else held
    where = (record.namespace, record.key)
    if where not in held:
        versions = await key_versions(memory, record.key, record.namespace)
        held[where] = {version.content for version in versions}
    return record.content in held[where]


async def back_since(memory: Memory, records: list[AuditRecord]) -> dict[str, str]:
    """The ids among deleted `records` that the store holds again → how ("restored since").

    The log records deletions only: without this, a forget undone in the inspector still
    read as gone (found by a new user). A message taken back by Esc before any reply and
    sent again is "said again since": a new user read it as forgotten.
    """
    back: dict[str, str] = {}
    held: dict[tuple[str, str], set[str]] = {}
    said: dict[tuple[str, str], set[str]] = {}
    # A merge or an import keeps the version it sets aside, as history: it never went, so
    # it is not "restored since" (found by an adversary).
    for record in records:
        if record.action not in DELETIONS or record.entry_id in back:
            continue
        if await is_back(memory, record, held):
            back[record.entry_id] = RESTORED
        elif await _said_again(memory, record, said):
            back[record.entry_id] = SAID_AGAIN
    return back


RESTORED = "restored since"
SAID_AGAIN = "said again since"
_SAID_READ = 500


async def _said_again(
    memory: Memory, record: AuditRecord, said: dict[tuple[str, str], set[str]]
) -> bool:
    """Whether a deleted saved message's words are saved again in its chat."""
    if record.category != MemoryCategory.CONVERSATION.value or not record.session_id:
        return False
    where = (record.namespace, record.session_id)
    if where not in said:
        saved = await memory.list(
            namespace=record.namespace,
            category=MemoryCategory.CONVERSATION.value,
            session_id=record.session_id,
            limit=_SAID_READ,
        )
        said[where] = {entry.content for entry in saved}
    return record.content in said[where]
