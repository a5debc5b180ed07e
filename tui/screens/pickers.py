"""Small choosers: a session to resume, a model to switch to.

Session titles are the user's first message and model names come from the server: every
label is shown literally.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from tui.plain import plain


class PickerScreen(ModalScreen[str | None]):
    """Choose one item by id; Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self, title: str, options: list[tuple[str, str]], empty: str, current: str | None = None
    ) -> None:
        super().__init__()
        self.heading = title
        self.choices = options
        self.empty = empty
        self.current = current
        """The id in use now: marked, and highlighted when the list opens."""

    def compose(self) -> ComposeResult:
        """A title and the list."""
        with Vertical(id="picker"):
            yield Label(plain(self.heading), id="picker-title")
            if self.choices:
                options = [
                    Option(plain(label) + ("  ◀ in use" if key == self.current else ""), id=key)
                    for key, label in self.choices
                ]
                ids = [key for key, _ in self.choices]
                listed = OptionList(*options)
                if self.current in ids:
                    listed.highlighted = ids.index(self.current)
                yield listed
            else:
                yield Label(plain(self.empty))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Return the chosen id."""
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        """Return nothing."""
        self.dismiss(None)
