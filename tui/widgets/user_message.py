"""A message the user sent."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Static

from tui.plain import plain


class UserMessage(Static, can_focus=True):
    """The user's text as sent, shown literally; `c` copies it as typed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("c", "copy", "Copy")]

    def __init__(self, text: str) -> None:
        super().__init__(plain(text), classes="user-message")
        self.text = text

    def action_copy(self) -> None:
        """Copy this message to the clipboard."""
        self.app.copy_to_clipboard(self.text)
        self.notify("Message copied")
