"""Above the prompt when a resumed chat cannot go on: why, and the way out."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Static

from tui.plain import plain


class ReadOnlyBanner(Horizontal):
    """Says why the chat is read-only and offers to switch model; hidden otherwise."""

    class SwitchModel(Message):
        """The user asked to choose another model for this chat."""

    def compose(self) -> ComposeResult:
        """The reason and a button."""
        yield Static("", id="read-only-reason")
        yield Button("Switch model", id="read-only-switch", compact=True)

    def on_mount(self) -> None:
        """Hidden until a chat is read-only."""
        self.display = False

    def show(self, reason: str | None) -> None:
        """Show `reason` (model names come from files: shown literally), or hide."""
        self.display = reason is not None
        if reason is not None:
            self.query_one("#read-only-reason", Static).update(plain(reason))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Switch model."""
        event.stop()
        self.post_message(self.SwitchModel())
