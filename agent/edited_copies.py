"""The auto-saved memory of a message the user edited: it leaves effect with the message.

An edit replaces the last user message. Its auto-saved copy is superseded by the new
message's copy, or, when the new message makes none (a command such as /remember, a text
too short to auto-save, a store that failed), withdrawn: found by a new user, whose
mistyped "^/remember …", corrected by an edit into the command, kept being recalled.
An edit nothing answered can be undone (`put_back`), so each step keeps what undoes it.
"""

from __future__ import annotations

import contextlib

from agent.redact import redact
from agent.sessions import Session
from agent.turn_state import PendingEdit
from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError
from memory.protocol import Memory


async def _copy_of(
    memory: Memory, namespace: str, session: Session, text: str, other_than: str | None
) -> MemoryEntry | None:
    """The session's auto-saved memory of `text` (as it was stored: redacted).

    None while the conversation still holds a message of that text: the one memory is
    that message's too (found by an adversary: "My cat is called Biscuit", sent twice and
    stored once, left memory when the second was edited into another question).
    """
    if any(m.role == "user" and m.content == text for m in session.messages):
        return None
    clean = redact(text)[0]
    copies = await memory.list(
        namespace=namespace,
        session_id=session.id,
        prefix=f"conversation/{session.id}/",
        limit=200,
    )
    return next((e for e in copies if e.content == clean and e.id != other_than), None)


async def supersede_copy(
    memory: Memory,
    namespace: str,
    old_text: str,
    new: MemoryEntry,
    session: Session,
    pending: PendingEdit | None,
) -> None:
    """Mark the edited message's copy as replaced by the new message's.

    Superseded, not deleted: it stays restorable in the inspector's history. A store that
    cannot say which copy it is keeps it as it is.
    """
    try:
        old = await _copy_of(memory, namespace, session, old_text, new.id)
        if old is not None:
            await memory.supersede([old.id], new.id)
            if pending is not None:
                pending.superseded_copy = old.id
    except MemoryStoreError:
        return


async def withdraw_copy(
    memory: Memory,
    namespace: str,
    old_text: str,
    session: Session,
    pending: PendingEdit | None,
) -> None:
    """Forget the edited message's copy: the new message left none to replace it."""
    try:
        old = await _copy_of(memory, namespace, session, old_text, None)
        if old is not None and await memory.forget(old.key, old.namespace):
            if pending is not None:
                pending.withdrawn_copy = old
    except MemoryStoreError:
        return


async def put_back(memory: Memory, pending: PendingEdit, new_copy: MemoryEntry | None) -> None:
    """Undo what the edit did to memory: the old copy in effect again, the new one gone."""
    with contextlib.suppress(MemoryStoreError):  # both texts stay in the inspector
        if pending.superseded_copy is not None:
            await memory.restore(pending.superseded_copy)  # the new one its history
            return
        if new_copy is not None and new_copy.session_id == pending.session.id:
            # No old copy to bring back (it was folded into a fact, too short, or
            # incognito): the withdrawn text was recalled later (found by an adversary).
            await memory.forget(new_copy.key, new_copy.namespace)
        old = pending.withdrawn_copy
        if old is not None:
            await memory.store_with_metadata(
                old.key,
                old.content,
                old.category,
                old.session_id,
                namespace=old.namespace,
                importance=old.importance,
                pinned=old.pinned,
                source="autosave",
            )
