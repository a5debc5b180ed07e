"""A text editor that draws control characters as visible symbols."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import TextArea

from tui.line_breaks import SHOWN_HELD
from tui.plain import visible
from tui.widgets.keys_at_once import edited_at_once

_JOINERS = frozenset("\u200d\u200c")
"""The zero-width joiner and non-joiner: part of an emoji or of a word in some scripts."""
_EDITING = (
    "cursor_left",
    "cursor_right",
    "cursor_word",
    "cursor_line",
    "delete_",
    "select_all",
    "undo",
    "redo",
    "cut",
)
"""The actions of keys that edit or move along a line: not Up and Down (the prompt's history)."""


class PlainTextArea(TextArea):
    """A `TextArea` whose text may come from outside (pasted, stored, restored).

    Textual draws a line's characters as they are, so an ESC in the document would reach
    the terminal and act on it. Lines are drawn through `visible`, one symbol for one
    character, so the cursor and selection stay aligned and the document itself (what is
    saved or sent) is unchanged.

    Ctrl+A selects everything, as in other editors (a new user replaced a memory's text by
    Ctrl+A and typing, and saved the new text before the old); Home goes to the line start.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+a", "select_all", "Select all", show=False),
    ]

    async def _on_key(self, event: events.Key) -> None:
        # Textual counts a joiner as no printable key and drops it: typed, "👩‍⚕️" was saved
        # as two symbols and "👨‍👩‍👧" as three people (found by a new user; pasted, they
        # came whole).
        if event.character in _JOINERS and not self.read_only:
            event.stop()
            event.prevent_default()
            start, end = self.selection
            self._replace_via_keyboard(event.character, start, end)
            return
        if await edited_at_once(self, event, _EDITING):
            return  # in the order typed (`tui.widgets.keys_at_once`)
        await super()._on_key(event)

    def get_line(self, line_index: int) -> Text:
        """The line as drawn: control characters shown as symbols.

        Args:
            line_index: The index of the line in the document.

        Returns:
            The line's text for rendering.
        """
        shown = visible(self.document.get_line(line_index)).translate(SHOWN_HELD)
        return Text(shown, end="", no_wrap=True)
