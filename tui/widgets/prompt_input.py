"""The message box: multi-line, Enter sends, Up/Down walk through earlier messages.

Up in an empty box edits the conversation's last message instead: sending it then replaces
that message and its reply (Esc cancels the edit).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message

from tui.widgets.plain_text_area import PlainTextArea

PLACEHOLDER = "Type a message · Enter sends · /remember /recall /forget · F1 help"


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

    EDIT_TITLE = "Editing your last message · Enter replaces it and its reply · Esc cancels"

    class Submitted(Message):
        """The user sent a message (`edit`: it replaces the conversation's last one)."""

        def __init__(self, text: str, *, edit: bool = False, edits: str | None = None) -> None:
            super().__init__()
            self.text = text
            self.edit = edit
            self.edits = edits
            """The message the edit was opened on (None: not an edit, or not known)."""

    def __init__(self, *, blink: bool = True, id: str | None = None) -> None:  # noqa: A002
        super().__init__(
            id=id,
            soft_wrap=True,
            show_line_numbers=False,
            tab_behavior="focus",
            # The first start showed an empty screen and an empty box (found by a new user).
            placeholder=PLACEHOLDER,
        )
        self.cursor_blink = blink
        self.sent: list[str] = []
        self._position: int | None = None
        self._edit_shown = ""
        """The last message as an edit of it opened (Up leaves the edit only unchanged)."""
        self.edit_of: str | None = None
        """The message the edit in the box replaces, as it was when the edit opened."""
        self._draft = ""
        self._restored: list[str] = []
        """Messages `restore` put back, each sent as its own while left unchanged."""
        self.editing = False
        """The text is the conversation's last message, being edited."""
        self.last_message: Callable[[], str | None] = lambda: None
        """The message Up offers to edit (None: nothing can be edited now)."""
        self.before_walk: Callable[[], None] = lambda: None
        """Called before Up shows an earlier message: the app brings them up to date."""

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "escape" and self.editing:
            event.prevent_default()
            event.stop()
            self.cancel_edit()
            return
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
        """Send the text (empty input does nothing).

        Several messages put back (`restore`) go again as the messages they were, each
        left unchanged on its line, and what follows as one more: found by a new user,
        whose next message, typed on after a failure had put two back, was sent glued to
        them. A message sent from the history leaves the text it was walked away from.
        """
        text = self.text
        if not text.strip():
            return
        edit = self.editing
        walked_from = self._draft if self._position is not None else ""
        messages = [text] if edit or walked_from else self._as_sent(text)
        for message in messages:
            if not self.sent or self.sent[-1] != message:
                self.sent.append(message)
        self._position = None
        self._set_editing(False)
        self.clear()
        if walked_from.strip():
            # The messages put back, or a draft, wait where they were (an adversary).
            self.text = walked_from
            self.move_cursor(self.document.end)
        else:
            self._restored = []
        for message in messages:
            self.post_message(
                self.Submitted(message, edit=edit, edits=self.edit_of if edit else None)
            )

    def _as_sent(self, text: str) -> list[str]:
        """`text` as the messages it holds: those put back unchanged, then what follows.

        One message put back and added to on a new line is one message ("Shopping list:",
        then "- eggs"); of several, those before the first changed one go alone.
        """
        if len(self._restored) < 2:
            return [text]
        lines = text.split("\n")
        sent: list[str] = []
        for message in self._restored:
            size = message.count("\n") + 1
            if "\n".join(lines[:size]) != message:
                break
            sent.append(message)
            lines = lines[size:]
        rest = "\n".join(lines).strip("\n")
        return [*sent, *([rest] if rest.strip() else [])]

    def _holds_restored(self, text: str) -> bool:
        """Whether `text` opens with the messages put back, unchanged, each on its line."""
        block = "\n".join(self._restored)
        return bool(self._restored) and text.startswith(block) and text[len(block) :][:1] in "\n"

    def resume_edit(self) -> None:
        """The text in the box is an edit again (it came back unanswered)."""
        if self.text.strip():
            self._set_editing(True)

    def keep_as_new_message(self) -> bool:
        """Leave edit mode, keeping the text as a new message (the chat it edited is gone).

        Returns whether there was an edit to leave.
        """
        was_editing = self.editing
        self._set_editing(False)
        return was_editing

    def cancel_edit(self) -> None:
        """Leave edit mode with an empty box; the conversation is unchanged."""
        self._set_editing(False)
        self._show("")

    def _set_editing(self, editing: bool) -> None:
        self.editing = editing
        self.border_title = self.EDIT_TITLE if editing else None
        self.set_class(editing, "editing")

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
        earlier = self._restored if self._holds_restored(draft) else []
        # After several, a line of its own for what is typed next: it is another message.
        # One alone is left ready to send again or to fix ("/rememebr …").
        lines = [*texts, draft] if kept else [*texts, ""] if len(texts) > 1 else [*texts]
        self.text = "\n".join(lines)
        self._restored = [*texts, *earlier]
        self.move_cursor(self.document.end)
        self.focus()
        return kept

    def action_history_previous(self) -> None:
        """Older message when the cursor is on the first line, else move up.

        In an empty box, the first Up edits the conversation's last message; the next one
        leaves the edit and walks the sent messages as usual (sent again as new ones).
        """
        if self.cursor_location[0] > 0:
            self.action_cursor_up()
            return
        self.before_walk()
        if self.editing and self.text != self._edit_shown:
            # Changed: Up is a move within it, not a walk away that drops the change (a
            # new user pressed Up on the first line and lost the edit and its title).
            self.action_cursor_up()
            return
        if self.editing:
            # Leaving the edit: the walk starts at the message before the one edited.
            edited = self.text
            self._set_editing(False)
            self._draft = ""
            newest = len(self.sent) - 1
            repeat = bool(self.sent) and self.sent[newest] == edited
            self._position = newest if repeat else len(self.sent)
        elif self._position is None and not self.text.strip():
            last = self.last_message()
            if last is not None:
                self._set_editing(True)
                self._show(last)
                self._edit_shown = self.edit_of = self.text
                return
        if not self.sent:
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
