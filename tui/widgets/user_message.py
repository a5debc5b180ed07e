"""A message the user sent."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Static

from agent.autosave import CONTINUE_PROMPT
from tui.plain import plain

CONTINUE_SHOWN = "↪ continue (the Continue button)"


class UserMessage(Static, can_focus=True):
    """The user's text as sent, shown literally; `c` copies it as typed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("c", "copy", "Copy")]

    def __init__(self, text: str) -> None:
        # The Continue button's request is memchat's words, not the user's: shown as what
        # it was, not as if the user had typed it (found by an adversary).
        continued = text.strip() == CONTINUE_PROMPT
        super().__init__(
            CONTINUE_SHOWN if continued else plain(text),
            classes="user-message continue-request" if continued else "user-message",
        )
        self.text = text

    def action_copy(self) -> None:
        """Copy this message to the clipboard."""
        self.app.copy_to_clipboard(self.text)
        self.notify("Message copied")
