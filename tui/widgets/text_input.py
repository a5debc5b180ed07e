"""A one-line input where Ctrl+A selects everything, as in the prompt and the editors."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input

from tui.widgets.keys_at_once import edited_at_once

_EDITING = ("cursor_", "delete_", "select_all", "home", "end", "cut")
"""The actions of keys that edit or move in the line (not Enter, copy or paste)."""


class TextInput(Input):
    """Textual's `Input`, but Ctrl+A selects all (Home still goes to the start).

    Found by a new user: in the inspector's search box Ctrl+A went to the start of the line
    and the next words were typed before the old query ("penicillin allergydose"), while
    Ctrl+A selects all in the chat's prompt.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+a", "select_all", "Select all", show=False),
    ]

    async def _on_key(self, event: events.Key) -> None:
        """Edit at once, in the order typed (`tui.widgets.keys_at_once`)."""
        if not await edited_at_once(self, event, _EDITING):
            await super()._on_key(event)

    def type_in(self, text: str, *, anew: bool = False) -> None:
        """Focus it now and add `text` at its end, as typed: the focus selects nothing.

        Found by a new user: a search begun on the inspector's list lost its first letter
        to the select-all a focus makes ("key" was "ey"). The focus moves at once, not after
        the keys already waiting: typed fast, they reached the list, which drops spaces (a
        translator's "gestoria phone" searched "gestoriaphone"). `anew`: `text` begins a
        new value (a search typed on the list is a new one, not more words of the last).
        """
        self.value = text if anew else self.value + text
        self.cursor_position = len(self.value)
        select_on_focus, self.select_on_focus = self.select_on_focus, False
        self.screen.set_focus(self)
        self.call_after_refresh(setattr, self, "select_on_focus", select_on_focus)
