"""Small choosers: a session to resume, a model to switch to.

Session titles are the user's first message and model names come from the server: every
label is shown literally.
"""

from __future__ import annotations

from collections.abc import Callable
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
        # One option an id: a server listing a model twice crashed the picker (DuplicateID,
        # found by a new user).
        firsts: dict[str, str] = {}
        for key, label in options:
            firsts.setdefault(key, label)
        self.choices = list(firsts.items())
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


_NAMED_AT_MOST = 70
"""How much of a chat's line the question to delete it shows."""


class SessionPickerScreen(PickerScreen):
    """The chats to resume; Delete (pressed twice) moves the highlighted one aside."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("delete", "delete_chat", "Delete chat"),
    ]

    def __init__(
        self,
        options: list[tuple[str, str]],
        current: str | None,
        delete: Callable[[str], str | None],
    ) -> None:
        super().__init__(
            "Resume a session (Delete twice deletes one)", options, "No sessions yet", current
        )
        self._delete = delete
        """Deletes a chat by id; returns where it went, or None when it could not."""
        self._asked: str | None = None

    def action_delete_chat(self) -> None:
        """Delete the highlighted chat once asked twice; never the chat in use."""
        listed = self.query(OptionList)
        if not listed:
            return
        options = listed.first()
        at = options.highlighted
        if at is None:
            return
        option = options.get_option_at_index(at)
        chosen = option.id
        if chosen is None:
            return
        if chosen == self.current:
            self.notify("The chat in use cannot be deleted: open another first", severity="warning")
            return
        if self._asked != chosen:
            self._asked = chosen
            # Named: a new user deleted the wrong chat, the list's cursor having started on
            # another than the one he meant, and the question naming none.
            named = " ".join(str(option.prompt).split())
            named = named if len(named) <= _NAMED_AT_MOST else named[: _NAMED_AT_MOST - 1] + "…"
            self.notify(f"Press Delete again to delete “{named}” (its memories stay)")
            return
        self._asked = None
        where = self._delete(chosen)
        if where is not None:
            options.remove_option(chosen)
            self.notify(f"Deleted the chat; its file is in {where} (move it back to undo)")
