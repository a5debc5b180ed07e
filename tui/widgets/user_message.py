"""A message the user sent."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static


class UserMessage(Static, can_focus=True):
    """The user's text as sent; `c` copies it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("c", "copy", "Copy")]

    def __init__(self, text: str) -> None:
        super().__init__(Text(text), classes="user-message")
        self.text = text

    def action_copy(self) -> None:
        """Copy this message to the clipboard."""
        self.app.copy_to_clipboard(self.text)
        self.notify("Message copied")
