"""Ctrl+F: search every past chat, and open one at the message found.

Messages are the user's own text and models' replies: every hit is shown literally.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from agent.session_search import SessionHit, search_sessions
from memory.date_term_names import local_time
from memory.wording import counted
from tui.plain import ControlPictures, plain
from tui.widgets.text_input import TextInput

if TYPE_CHECKING:
    from agent.sessions import SessionStore


HIT_LIMIT = 200
"""Hits listed at most; the count says when there are more."""


def _label(hit: SessionHit) -> str:
    who = {"user": "you", "command": "command"}.get(hit.role, "reply")
    # With the time, in local time: two chats of one title and day read alike (a new user).
    return f"{local_time(hit.said_at):%Y-%m-%d %H:%M}  {hit.title}\n    {who}: {hit.snippet}"


class ChatSearchScreen(ModalScreen[SessionHit | None]):
    """Type to search; Enter or a click opens the chat at that message; Esc closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Close"),
        Binding("down", "to_results", show=False),
    ]

    def __init__(self, sessions: SessionStore) -> None:
        super().__init__()
        self.sessions = sessions
        self.hits: list[SessionHit] = []
        self._debounce: Timer | None = None

    def compose(self) -> ComposeResult:
        """The query, what was found, the hits."""
        with Vertical(id="chat-search"):
            yield Label("Search past chats", id="chat-search-title")
            yield TextInput(
                placeholder="words to find (all of them, any case)",
                id="chat-search-query",
                highlighter=ControlPictures(),
            )
            yield Label("", id="chat-search-count")
            yield OptionList(id="chat-search-hits")

    def on_mount(self) -> None:
        """Start in the query box."""
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        """Search as the user types (debounced, off the event loop)."""
        if self._debounce is not None:
            self._debounce.stop()
        self._debounce = self.set_timer(0.2, self._start_search)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the box opens the first hit."""
        if self.hits:
            self.dismiss(self.hits[0])

    def _start_search(self) -> None:
        query = self.query_one(Input).value
        self.run_worker(self.search(query), exclusive=True, group="chat-search")

    async def search(self, query: str) -> None:
        """Find `query` in every chat (files are read in a thread) and list the hits."""
        if query.split():
            # The first search reads every chat's secrets out of it: a chat holding long
            # pastes took tens of seconds, with nothing on screen (an adversary).
            self.query_one("#chat-search-count", Label).update("Searching…")
        try:
            hits = await asyncio.to_thread(search_sessions, self.sessions, query, HIT_LIMIT)
        except OSError as exc:
            self.query_one("#chat-search-count", Label).update(
                plain(f"Could not read the chats: {exc}")
            )
            return
        self.hits = hits
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(
            Option(plain(_label(hit)), id=str(number)) for number, hit in enumerate(hits)
        )
        chats = len({hit.session_id for hit in hits})
        found = (
            f"{counted(len(hits), 'message', 'messages')} in {counted(chats, 'chat', 'chats')}"
            if query.split()
            else ""
        )
        if len(hits) >= HIT_LIMIT:
            found = f"the first {HIT_LIMIT} matching messages, newest chats first: add a word"
        self.query_one("#chat-search-count", Label).update(found)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Open the chat at this hit."""
        self.dismiss(self.hits[int(event.option.id or 0)])

    def action_to_results(self) -> None:
        """Down from the box moves into the hits, on the first one (Enter opens it)."""
        if self.hits:
            options = self.query_one(OptionList)
            options.focus()
            if options.highlighted is None:
                options.highlighted = 0

    def action_cancel(self) -> None:
        """Close without opening anything."""
        self.dismiss(None)
