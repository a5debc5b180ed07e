"""Every field of one memory, with edit, pin, restore and forget.

Every field is stored text (typed, said by a model, imported): shown literally, and the
editors draw control characters as symbols while keeping the text itself unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from difflib import get_close_matches
from typing import ClassVar, Literal

from rich.console import Group
from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from agent.terminal_text import shortened
from memory.entry import MemoryCategory, MemoryEntry
from tui.line_breaks import can_hold, held, written_back
from tui.plain import ControlPictures, plain, plain_text
from tui.widgets.plain_text_area import PlainTextArea
from tui.widgets.text_input import TextInput


@dataclass(frozen=True)
class DetailResult:
    """What the user chose in the dialog."""

    action: Literal["save", "pin", "unpin", "restore", "forget"]
    entry: MemoryEntry
    content: str = ""
    category: str = ""
    importance: float = 0.5
    store_again: bool = False
    """Save an edit of a memory forgotten elsewhere since (the user was told)."""


def _local(when: datetime) -> str:
    try:
        return f"{when.astimezone():%Y-%m-%d %H:%M:%S %Z}"
    except (OverflowError, ValueError, OSError):
        return f"{when:%Y-%m-%d %H:%M:%S} UTC"  # at the ends of the calendar


def refused_note(forgotten: bool) -> str:
    """What the dialog says when it reopens with an edit that could not be saved."""
    if forgotten:
        return (
            "Not saved: this memory was forgotten elsewhere (another window or a command) "
            "since you opened it. Your edit is kept below: Ctrl+S stores it again under "
            "this key, Esc leaves it forgotten."
        )
    return (
        "Not saved: this memory was changed elsewhere (another window or a command) since "
        "you opened it. The fields above are its current version; your edit is kept below: "
        "Ctrl+S saves it over the current version, Esc keeps the current one."
    )


def field_table(
    entry: MemoryEntry, mode: str | None = None, successor: MemoryEntry | None = None
) -> Group:
    """All stored fields, plus the recall scores when the entry came from a search.

    `mode`: how that search recalled; a vector score is absent for different reasons
    (not searched, no meaning search, no vector stored), and the scores say which.
    `successor`: the memory that replaced it, named by its key and text.

    The short ones two to a line: one to a line, at 80x24 they filled the dialog and it
    opened scrolled past its key (found by a new user).
    """
    whole = [("id", entry.id), ("key", entry.key)]
    # In the machine's zone, as the list beside it shows them (an adversary read UTC here
    # and local time there).
    pairs = [
        (("namespace", entry.namespace), ("category", entry.category)),
        (("importance", f"{entry.importance:.2f}"), ("pinned", "yes" if entry.pinned else "no")),
        (("source", entry.source), ("session", entry.session_id or "(all sessions)")),
        (("created", _local(entry.timestamp)), ("updated", _local(entry.updated_at))),
    ]
    after = [("superseded by", _replaced_by(entry, successor))]
    if entry.scores is not None and entry.superseded_by is None:
        # An earlier version is not recalled: its scores are of when it was in effect.
        after.append(("recalled", entry.scores.explanation(mode)))
    return Group(_fields(whole), _paired_fields(pairs), _fields(after))


def _fields(rows: list[tuple[str, str]]) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column(overflow="fold")  # a long key shows whole, not cut with "…"
    for name, value in rows:
        table.add_row(name, plain_text(str(value)))
    return table


def _paired_fields(pairs: list[tuple[tuple[str, str], tuple[str, str]]]) -> Table:
    table = Table.grid(padding=(0, 1))
    for style in ("bold", "", "bold", ""):
        table.add_column(style=style, overflow="fold")
    for (name, value), (other, its) in pairs:
        table.add_row(name, plain_text(value), other, plain_text(its))
    return table


def _replaced_by(entry: MemoryEntry, successor: MemoryEntry | None) -> str:
    if entry.superseded_by is None:
        return "—"
    if successor is None or successor.id != entry.superseded_by:
        return entry.superseded_by
    return f"{successor.key} ({shortened(successor.content, 60)})"


_TEXT_LINES_IN_SIGHT = 1
"""Lines of the text the dialog shows at its top at least, or it opens scrolled to the text."""


class MemoryDetailScreen(ModalScreen[DetailResult | None]):
    """A modal dialog over the app."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        # Keys for the dialog's main action wherever the focus is: a new user tabbed to
        # the frame around the fields, pressed Enter, and nothing was restored.
        Binding("ctrl+s", "press('save')", "Save", priority=True),
        Binding("ctrl+r", "press('restore')", "Restore", priority=True),
    ]

    def __init__(
        self,
        entry: MemoryEntry,
        *,
        mode: str | None = None,
        blink: bool = True,
        can_forget: bool = True,
        can_restore: bool = True,
        successor: MemoryEntry | None = None,
        draft: DetailResult | None = None,
        forgotten: bool = False,
    ) -> None:
        super().__init__()
        self.entry = entry
        self._draft = draft
        """An edit the user made that could not be saved, shown in the editors."""
        self._forgotten = forgotten
        """`entry` was forgotten since the draft was made: saving stores it again."""
        self.successor = successor
        self._mode = mode
        self._blink = blink
        self._can_forget = can_forget
        """False where the backend keeps what it stores (Markdown files): no Forget."""
        self._can_restore = can_restore
        """False for snapshots: a blinking cursor would be drawn, or not, at random."""
        self._holds_breaks = can_hold(entry.content) and (draft is None or can_hold(draft.content))
        """The content's other line breaks are held while edited (`tui.line_breaks`)."""
        self._shown: tuple[str, str, str] = ("", "", "")
        """The fields as the editors hold them on opening: content, category, importance."""
        self._forget_asked = False
        self._discard_asked = False
        self._category_asked = ""

    def compose(self) -> ComposeResult:
        """Fields, editors and actions."""
        entry = self.entry
        # Scrolls: on a short terminal (80x24) the fields and buttons fell below the edge,
        # and Tab reached buttons no one could see (found by a new user). Focusable (Shift+
        # Tab from the content), so the keys scroll back up to the fields at the top.
        # The buttons stay in sight below the scrolled fields: on a 40-row terminal only
        # their top edges showed at the bottom of the scroll (found by a new user).
        with Vertical(id="detail"):
            with VerticalScroll(id="detail-body"):
                yield Label(Content.assemble("Memory: ", plain(entry.key)), id="detail-title")
                yield Static(field_table(entry, self._mode, self.successor), id="detail-fields")
                # An earlier version is restored as it was: its fields take no edits, which
                # Restore would drop without a word (found by a new user), and the label says
                # so (a read-only box looked editable to the next one).
                earlier = entry.superseded_by is not None
                yield Label(
                    "Content (an earlier version: read only; Restore makes it current, then edit)"
                    if earlier
                    else "Content"
                )
                draft = self._draft
                if draft is not None:
                    yield Label(refused_note(self._forgotten), id="detail-refused")
                text = entry.content if draft is None else draft.content
                content = PlainTextArea(
                    held(text) if self._holds_breaks else text,
                    id="detail-content",
                    soft_wrap=True,
                    read_only=earlier,
                )
                content.cursor_blink = self._blink
                yield content
                with Horizontal(id="detail-meta"):
                    yield Label("Category")
                    # Not selected on focus: Tab from the content, then a key, replaced the
                    # whole category with that key (found by a new user).
                    category = TextInput(
                        entry.category if draft is None else draft.category,
                        id="detail-category",
                        highlighter=ControlPictures(),
                        disabled=earlier,
                        select_on_focus=False,
                    )
                    category.cursor_blink = self._blink
                    yield category
                    yield Label("Importance")
                    importance = TextInput(
                        f"{entry.importance if draft is None else draft.importance:.2f}",
                        id="detail-importance",
                        disabled=earlier,
                        select_on_focus=False,
                    )
                    importance.cursor_blink = self._blink
                    yield importance
                yield Label(
                    "Ctrl+R restore · Esc close · Tab to the buttons"
                    if earlier
                    else "Ctrl+S save · Esc close · Tab to the buttons",
                    id="detail-keys",
                )
            yield from self._actions(entry)

    def _actions(self, entry: MemoryEntry) -> ComposeResult:
        with Horizontal(id="detail-actions"):
            if entry.superseded_by:
                # An earlier version: saving, pinning or forgetting it would act on the
                # key's current fact. Restore makes it current first.
                if self._can_restore:
                    yield Button("Restore", id="restore", variant="primary")
            else:
                yield Button("Save", id="save", variant="primary")
                yield Button("Unpin" if entry.pinned else "Pin", id="pin")
                if self._can_forget:
                    yield Button("Forget", id="forget", variant="error")
            yield Button("Close", id="close")

    def on_mount(self) -> None:
        """Note the fields as the editors hold them, to tell an edit from no edit."""
        self._shown = self._fields()
        # The first thing to edit, not the scrolling frame around it; typing goes after the
        # text (a new user's words went before it, and the rest after, once she saw).
        content = self.query_one("#detail-content", PlainTextArea)
        content.move_cursor(content.document.end)
        content.focus()
        self.call_after_refresh(self._top_in_sight)

    def _top_in_sight(self) -> None:
        """The key and fields above the text in sight, if the text's first lines stay so.

        Found by a new user: at 80x24 the focus scrolled the dialog down to the text, and
        what memory it was and its fields were above the edge.
        """
        body = self.query_one("#detail-body", VerticalScroll)
        content = self.query_one("#detail-content", PlainTextArea)
        below_the_top = content.virtual_region.y
        if below_the_top + _TEXT_LINES_IN_SIGHT <= body.scrollable_content_region.height:
            body.scroll_home(animate=False)

    def _fields(self) -> tuple[str, str, str]:
        return (
            self.query_one("#detail-content", PlainTextArea).text,
            self.query_one("#detail-category", Input).value,
            self.query_one("#detail-importance", Input).value,
        )

    def _leave(self) -> None:
        """Close; an unsaved edit is discarded only when asked twice.

        Found by a new user: Esc threw away an edit without a word.
        """
        if self._fields() != self._shown and not self._discard_asked:
            self._discard_asked = True
            self.query_one("#detail-keys", Label).update(
                "Unsaved edit: Esc (or Close) again discards it · Ctrl+S saves it"
            )
            return
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Validate edits and hand the choice back."""
        button = event.button.id
        if button == "close":
            self._leave()
        elif button == "pin":
            self.dismiss(DetailResult("unpin" if self.entry.pinned else "pin", self.entry))
        elif button == "forget" and self.entry.pinned and not self._forget_asked:
            # Pinned means "keep this": one press went without a word (found by a new user,
            # whose pinned phone number went and an older one came back into effect).
            self._forget_asked = True
            event.button.label = "Forget pinned? Press again"
        elif button in ("restore", "forget"):
            self.dismiss(DetailResult(button, self.entry))  # type: ignore[arg-type]
        elif button == "save":
            self._save()

    def _save(self) -> None:
        raw = self.query_one("#detail-importance", Input).value.strip()
        try:
            importance = float(raw)
        except ValueError:
            importance = -1.0
        if not 0.0 <= importance <= 1.0:
            self.notify("Importance must be a number from 0 to 1", severity="error")
            return
        category = self.query_one("#detail-category", Input).value.strip()
        edited = self.query_one("#detail-content", PlainTextArea).text
        # Content nobody edited is saved as it was stored, not as the editor holds it; an
        # edit gets its held line breaks back (`tui.line_breaks`).
        loaded = self.entry.content if self._draft is None else self._draft.content
        if edited == self._shown[0]:
            content = loaded
        else:
            content = written_back(edited) if self._holds_breaks else edited
        if not category or not content.strip():
            self.notify("Content and category must not be empty", severity="error")
            return
        from agent.commands import MAX_FACT_CHARS  # not at first paint: it reads secrets

        longest = max(MAX_FACT_CHARS, len(self.entry.content))
        if len(content) > longest:
            # Said here, the dialog and the text kept: an adversary's over-long edit was
            # refused after the dialog closed, and the text typed was lost.
            self.notify(
                f"A memory takes at most {longest:,} characters (this text has "
                f"{len(content):,}): shorten it, or split it in two",
                severity="error",
            )
            return
        doubt = category_doubt(category, self.entry.category)
        if doubt and self._category_asked != category:
            # Found by a new user: "cor" for "core" was saved without a word, and the fact
            # left the snapshot and the facts the model is shown.
            self._category_asked = category
            self.query_one("#detail-keys", Label).update(plain(doubt))
            return
        self.dismiss(
            DetailResult(
                "save", self.entry, content, category, importance, store_again=self._forgotten
            )
        )

    def action_close(self) -> None:
        """Leave without changes (an unsaved edit: see `_leave`)."""
        self._leave()

    def action_press(self, button_id: str) -> None:
        """Press the dialog's button `button_id`, if it shows one (Ctrl+S, Ctrl+R)."""
        found = self.query(f"#{button_id}")
        if found:
            found.first(Button).press()


_BUILT_IN = [category.value for category in MemoryCategory]


def category_doubt(category: str, was: str) -> str:
    """What to ask before saving under a category that is new and no built-in one, or "".

    A custom category is allowed (a word of the user's), but a typo of a built-in one
    takes a fact out of where it counts.
    """
    wanted = category.strip().casefold()
    if wanted in _BUILT_IN or wanted == was.casefold():
        return ""
    close = get_close_matches(wanted, _BUILT_IN, n=1, cutoff=0.5)
    guess = f"did you mean {close[0]!r}? " if close else ""
    return (
        f"{category.strip()!r} is a new category, none of {', '.join(_BUILT_IN)}: {guess}"
        "Ctrl+S again saves it so · Esc closes"
    )
