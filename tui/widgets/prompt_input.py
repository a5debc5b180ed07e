"""The message box: multi-line, Enter sends, Up/Down walk through earlier messages."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message

from tui.widgets.plain_text_area import PlainTextArea


class PromptInput(PlainTextArea):
    """Where the user types; Ctrl+J inserts a new line; pasted control characters show."""

    # Enter and Ctrl+J are handled in `_on_key`, not as priority bindings: the app runs
    # priority bindings as soon as a key arrives, ahead of the characters typed before it
    # that still wait in this widget's queue, so a fast typist's Enter would send old text.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Send"),
        Binding("up", "history_previous", show=False),
        Binding("down", "history_next", show=False),
    ]

    class Submitted(Message):
        """The user sent a message."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, *, blink: bool = True, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id, soft_wrap=True, show_line_numbers=False, tab_behavior="focus")
        self.cursor_blink = blink
        self.sent: list[str] = []
        self._position: int | None = None
        self._draft = ""

    async def _on_key(self, event: events.Key) -> None:
        if event.key in ("enter", "ctrl+j"):
            event.prevent_default()
            event.stop()
            if event.key == "enter":
                self.action_submit()
            else:
                self.action_newline()
            return
        await super()._on_key(event)

    def action_submit(self) -> None:
        """Send the text (empty input does nothing)."""
        text = self.text
        if not text.strip():
            return
        if not self.sent or self.sent[-1] != text:
            self.sent.append(text)
        self._position = None
        self.clear()
        self.post_message(self.Submitted(text))

    def action_newline(self) -> None:
        """Insert a line break."""
        self.insert("\n")

    def restore(self, *texts: str) -> bool:
        """Put messages that could not be sent back, one per line, above the draft.

        Whatever was typed since they were sent stays below them: the user may have gone
        on typing while the reply failed. Returns whether there was such a draft.
        """
        draft = self.text if self._position is None else self._draft
        self._position = None
        kept = bool(draft.strip())
        self.text = "\n".join([*texts, draft] if kept else texts)
        self.move_cursor(self.document.end)
        self.focus()
        return kept

    def action_history_previous(self) -> None:
        """Older message when the cursor is on the first line, else move up."""
        if self.cursor_location[0] > 0 or not self.sent:
            self.action_cursor_up()
            return
        if self._position is None:
            self._draft = self.text
            self._position = len(self.sent)
        self._position = max(0, self._position - 1)
        self._show(self.sent[self._position])

    def action_history_next(self) -> None:
        """Newer message when the cursor is on the last line, else move down."""
        if self.cursor_location[0] < self.document.line_count - 1 or self._position is None:
            self.action_cursor_down()
            return
        self._position += 1
        if self._position >= len(self.sent):
            self._position = None
            self._show(self._draft)
        else:
            self._show(self.sent[self._position])

    def _show(self, text: str) -> None:
        self.text = text
        self.move_cursor(self.document.end)
