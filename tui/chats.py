"""Chats in the app: new, resume, search, incognito, and read-only when the model is gone."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from agent.model import ModelError, same_model
from memory.date_term_names import local_time
from memory.wording import counted
from tui.plain import visible
from tui.widgets.read_only_banner import ReadOnlyBanner

if TYPE_CHECKING:
    from agent.session_search import SessionHit
    from tui.app import MemchatApp


class Chats:
    """The conversation on screen and the saved ones behind it."""

    def __init__(self, app: MemchatApp) -> None:
        self.app = app
        self.read_only: str | None = None
        """Why this chat cannot go on (its model is gone), or None."""

    def _busy(self) -> bool:
        """A reply is running: switching chats now would pull its chat from under it."""
        if self.app.turns.running:
            # What is sent meanwhile goes to this chat: a new user typed a note for the new
            # chat and found it queued in the old one.
            self.app.notify(
                "Wait for the reply to finish (or stop it with Esc), then switch chats; "
                "what you send before that goes to this chat.",
                severity="warning",
            )
            return True
        return False

    def _leave_edit(self) -> None:
        if self.app.prompt.keep_as_new_message():
            self.app.notify("The edit was for the chat you left: its text stays as a new message.")

    def new(self) -> None:
        """A fresh conversation."""
        app = self.app
        if app.runtime is None or self._busy():
            return
        self._leave_edit()
        session = app.runtime.new_session()
        self.set_read_only(None)
        # A focused message is about to go: the prompt, not nothing, takes the keys.
        app.prompt.focus()
        app.inspector.session_id = session.id
        app.sub_title = ""
        app.run_worker(self._clear())

    async def _clear(self) -> None:
        await self.app.chat.remove_children()

    def toggle_incognito(self) -> None:
        """Stop (or resume) auto-saving this session's messages."""
        app = self.app
        if app.runtime is None:
            return
        session = app.runtime.session
        session.incognito = not session.incognito
        app.status.set(incognito=session.incognito)
        app.notify(
            "Incognito: messages are not saved to memory"
            if session.incognito
            else "Incognito off: messages are saved to memory again"
        )

    def pick(self) -> None:
        """Choose an earlier conversation to resume."""
        if self.app.runtime is not None and not self._busy():
            self.app.run_worker(self._pick(), group="sessions", exclusive=True)

    async def _pick(self) -> None:
        from tui.screens.pickers import SessionPickerScreen

        app = self.app
        if app.runtime is None:
            return
        # Listing reads every session file: off the event loop, so a huge folder or a slow
        # disk never freezes the interface.
        try:
            infos = await asyncio.to_thread(app.runtime.sessions.list)
        except OSError as exc:
            app.notify(f"Could not list the sessions: {exc}", severity="error")
            return
        options = [
            (
                info.id,
                # Local, as everywhere else the app shows a time (a new user read UTC here).
                f"{local_time(info.updated_at):%Y-%m-%d %H:%M}  {info.title} "
                f"({counted(info.message_count, 'message', 'messages')})",
            )
            for info in infos
        ]
        current = app.runtime.session.id
        picker = SessionPickerScreen(options, current, self._delete)
        app.push_screen(picker, callback=self.resume)

    def _delete(self, session_id: str) -> str | None:
        """Move a chat's file aside (a small rename, done here); where it went, or None."""
        runtime = self.app.runtime
        if runtime is None:
            return None
        try:
            return visible(str(runtime.sessions.delete(session_id)))
        except (OSError, ValueError) as exc:
            self.app.notify(f"Could not delete the chat: {exc}", severity="error")
            return None

    def resume(self, session_id: str | None) -> None:
        """Open the chat chosen in the picker (None: the picker was closed)."""
        self.app.prompt.focus()
        if session_id is not None and self.app.runtime is not None and not self._busy():
            self.app.run_worker(self.open(session_id), group="sessions", exclusive=True)

    def search(self) -> None:
        """Search every past chat and open one at the message found."""
        from tui.screens.chat_search import ChatSearchScreen

        app = self.app
        if app.runtime is not None and not isinstance(app.screen, ChatSearchScreen):
            app.push_screen(ChatSearchScreen(app.runtime.sessions), callback=self._open_hit)

    def _open_hit(self, hit: SessionHit | None) -> None:
        app = self.app
        app.prompt.focus()
        if hit is None or app.runtime is None or self._busy():
            return
        app.run_worker(self.open(hit.session_id, at=hit.index), group="sessions", exclusive=True)

    async def open(self, session_id: str, at: int | None = None) -> None:
        """Open a saved chat (at message `at`, scrolled to and marked, when given)."""
        app = self.app
        if app.runtime is None:
            return
        try:
            session = await asyncio.to_thread(app.runtime.sessions.load, session_id)
        except (OSError, ValueError) as exc:
            app.notify(f"Could not open the session: {exc}", severity="error")
            return
        if app.turns.running:
            return  # a reply started while the file was read: this chat stays
        self._leave_edit()
        session.incognito = app.runtime.session.incognito
        app.runtime.session = session
        app.inspector.session_id = session.id
        app.sub_title = visible(session.title)
        around = at
        if at is not None and at < 0 and -1 - at < len(session.commands):
            around = session.commands[-1 - at][0]  # a command's place among the messages
        # Imported here: the store's entries bring numpy, not needed before a chat opens.
        from agent.recall_notes import recalled_events

        recalls = await recalled_events(app.runtime.memory, session.recalls)
        shown = await app.chat.show_transcript(
            session.messages, session.commands, around=around, recalls=recalls, notes=session.notes
        )
        if at is not None and at in shown:
            app.chat.show_found(shown[at])
        await self._check_model(session.model)

    async def _check_model(self, wrote: str | None) -> None:
        """A chat whose model is no longer installed is read-only until another is chosen.

        Going on with another model silently would put words in a different model's
        mouth; when the server cannot be asked, the chat stays open as it is.
        """
        self.set_read_only(None)
        runtime = self.app.runtime
        if wrote is None or runtime is None:
            return
        try:
            installed = await runtime.model.list_models()
        except ModelError:
            return
        if any(same_model(wrote, name) for name in installed):
            return
        # The status bar names the model new chats use, which is installed: named here
        # too, so the two do not read as a contradiction (found by a new user).
        current = runtime.model.name
        self.set_read_only(
            f"Read-only: this chat was with {wrote}, which is no longer installed. "
            f"Switch model to go on with another one (such as {current}), or start a new "
            "chat (Ctrl+N)."
        )

    def set_read_only(self, reason: str | None) -> None:
        """Make the chat read-only (the banner says why), or writable again."""
        self.read_only = reason
        self.app.query_one(ReadOnlyBanner).show(reason)
