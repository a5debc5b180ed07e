"""What a turn keeps of the user's message, and how it is taken back.

The message is auto-saved and written to the chat before the model is asked (a dead
model loses nothing). An edit (↑) cuts the last turn and replaces its auto-saved copy; a
stop before anything answered takes the message, or the edit, back again. `Agent.turn`
drives these steps; the state they share between turns lives here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator

from agent.autosave import conversation_key, saved_text, should_autosave
from agent.config import Config
from agent.edited_changes import reapply, undo_said_changes
from agent.edited_copies import put_back, supersede_copy, withdraw_copy
from agent.events import Notice, TurnEvent, TurnFailed
from agent.failures import storage_failure
from agent.history import unanswered
from agent.messages import ChatMessage
from agent.sessions import ChatWrittenElsewhere, Session, SessionStore
from agent.turn_state import PendingEdit, last_user_index, stored_keys
from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError, StorageFullError
from memory.protocol import Memory

Saved = MemoryEntry | Notice | None
"""What the auto-save gave: the entry, a warning that it failed, or nothing (not saved)."""


class MessageKeeper:
    """The user's messages in memory and in the chat file, for one agent."""

    def __init__(self, memory: Memory, sessions: SessionStore, namespace: str) -> None:
        self.memory = memory
        self.sessions = sessions
        self.namespace = namespace
        self.unanswered_copy: MemoryEntry | None = None
        """The last message's auto-saved memory, until something answers the message."""
        self._asked_key: str | None = None
        """The key the last auto-save asked for (a duplicate comes back under its own)."""
        self.pending_edit: PendingEdit | None = None
        """The last edit, until something answers it (`undo_edit` puts the old turn back)."""

    def note_made(self, saved: Saved) -> None:
        """Remember the copy this message made, the only one it may take back.

        An exact duplicate of an earlier message is that message's memory (a stopped
        re-send forgot it).
        """
        made = saved if isinstance(saved, MemoryEntry) else None
        self.unanswered_copy = made if made and made.key == self._asked_key else None

    def answered(self) -> None:
        """A reply was kept: the edit stands and the message's copy stays."""
        self.pending_edit = None
        self.unanswered_copy = None

    async def withdraw_edited(self, edited: list[str], session: Session) -> None:
        """An edit became a command: the replaced message leaves memory."""
        if edited:
            await withdraw_copy(self.memory, self.namespace, edited[0], session, self.pending_edit)

    async def undo_edit(self, session: Session) -> bool:
        """Put back the turn the last edit replaced, when nothing answered the edit.

        For an edit stopped (Esc) or failed before any reply: the new message leaves the
        conversation again (the file keeps it as history), the old turn comes back, and its
        auto-saved memory is in effect again. False when there is no such edit.
        """
        pending, self.pending_edit = self.pending_edit, None
        if pending is None or pending.session is not session:
            return False
        await self.sessions.take_back(session, pending.index)
        await self.sessions.save(session, pending.cut)
        restored = {id(message) for message in pending.cut}
        session.replaced[:] = [m for m in session.replaced if id(m) not in restored]
        copy, self.unanswered_copy = self.unanswered_copy, None
        await put_back(self.memory, pending, copy)
        await reapply(self.memory, pending.undone_changes)
        return True

    async def withdraw_unanswered(self, user_text: str, session: Session) -> bool:
        """Take back a message stopped (Esc) before anything answered it.

        The app puts its text back in the prompt, so it leaves the conversation (the file
        keeps it as history) and its auto-saved memory is forgotten: sent again, it is one
        message, not two. False when the session's last message is not that one.
        """
        if unanswered(session.messages) != user_text:
            return False
        copy, self.unanswered_copy = self.unanswered_copy, None
        await self.sessions.take_back(session, last_user_index(session.messages))
        if copy is not None and copy.session_id == session.id:
            with contextlib.suppress(MemoryStoreError):
                await self.memory.forget(copy.key, copy.namespace)
        return True

    async def keep(
        self,
        user_text: str,
        session: Session,
        config: Config,
        edited: list[str],
        kept: list[Saved],
    ) -> AsyncGenerator[TurnFailed, None]:
        """Auto-save the message and write it to the session; yields only a failure.

        What the auto-save gave goes in `kept`. The message is on disk before the model
        is asked: a dead model loses nothing.
        """
        outcome = await self._autosave(user_text, session, config)
        if isinstance(outcome, TurnFailed):
            yield outcome
            return
        if edited and isinstance(outcome, MemoryEntry):
            await supersede_copy(
                self.memory, self.namespace, edited[0], outcome, session, self.pending_edit
            )
        else:
            await self.withdraw_edited(edited, session)
        try:
            await self.sessions.save(session, [ChatMessage(role="user", content=user_text)])
        except OSError as exc:
            # Not sent: the app takes it back (`withdraw_unanswered`) and puts it in the
            # prompt, and the copy this message made leaves memory with it (found by an
            # adversary: "not sent", yet kept in memory).
            self.note_made(outcome)
            yield storage_failure(exc, "your message", sent=False)
            return
        kept.append(outcome)

    async def take_back_last(
        self, session: Session, edited: list[str]
    ) -> AsyncGenerator[TurnEvent, None]:
        """Cut the conversation before its last user message, whose text goes in `edited`.

        What the cut turn stored with memory_store stays in memory: the user is told.
        """
        index = last_user_index(session.messages)
        if index < 0:
            return
        text = session.messages[index].content
        # Noted before the cut: a stop (Esc) that lands while it is written can still undo it.
        self.pending_edit = PendingEdit(session, index, session.messages[index:])
        try:
            cut = await self.sessions.take_back(session, index)
        except ChatWrittenElsewhere as exc:
            self.pending_edit = None
            yield TurnFailed("chat_changed", f"Your edit was not made: {exc.strerror}.")
            return
        except OSError as exc:
            self.pending_edit = None
            yield storage_failure(exc, "your edit", sent=False)
            return
        edited.append(text)
        undone = await undo_said_changes(self.memory, self.namespace, session, text)
        self.pending_edit.undone_changes = undone
        if undone:
            yield Notice(
                f"The replaced message had updated {', '.join(repr(f.key) for f in undone)}: "
                "back as it was before it; the new message says anew what it changes.",
                "info",
            )
        stored = stored_keys(cut)
        if stored:
            yield Notice(
                f"The replaced message's turn stored {', '.join(map(repr, stored))}; it stays "
                "in memory, unless the new message changes it. Check it in the memory panel "
                "(F2) once the reply is in: forgetting a key forgets every version of it.",
                "warning",
            )

    async def _autosave(
        self, text: str, session: Session, config: Config
    ) -> MemoryEntry | Notice | TurnFailed | None:
        if session.incognito or not config.memory.auto_save:
            return None
        # Off the event loop: a long paste takes the patterns a while.
        if not await asyncio.to_thread(should_autosave, text, config.agent.min_autosave_chars):
            return None
        clean, _kinds = await asyncio.to_thread(session.secrets.redact, saved_text(text))
        self._asked_key = conversation_key(session.id)
        try:
            return await self.memory.store_with_metadata(
                self._asked_key,
                clean,
                "conversation",
                session.id,
                namespace=self.namespace,
                source="autosave",
            )
        except StorageFullError as exc:
            return TurnFailed(
                "storage_full",
                f"{exc}. Your message was not sent; free some "
                "space (or forget old memories) and send it again.",
            )
        except MemoryStoreError as exc:
            return Notice(f"This message was not saved to memory: {exc}", "warning")
