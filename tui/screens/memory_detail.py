"""Every field of one memory, with edit, pin, restore and forget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from memory.entry import MemoryEntry


@dataclass(frozen=True)
class DetailResult:
    """What the user chose in the dialog."""

    action: Literal["save", "pin", "unpin", "restore", "forget"]
    entry: MemoryEntry
    content: str = ""
    category: str = ""
    importance: float = 0.5


def field_table(entry: MemoryEntry) -> Table:
    """All stored fields, plus the recall scores when the entry came from a search."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    rows = [
        ("id", entry.id),
        ("key", entry.key),
        ("namespace", entry.namespace),
        ("category", entry.category),
        ("importance", f"{entry.importance:.2f}"),
        ("pinned", "yes" if entry.pinned else "no"),
        ("source", entry.source),
        ("session", entry.session_id or "(all sessions)"),
        ("created", f"{entry.timestamp:%Y-%m-%d %H:%M:%S} UTC"),
        ("updated", f"{entry.updated_at:%Y-%m-%d %H:%M:%S} UTC"),
        ("superseded by", entry.superseded_by or "—"),
    ]
    if entry.scores is not None:
        s = entry.scores
        rows.append(
            (
                "recalled",
                f"fused {s.fused:.3f} · keyword {s.keyword} · vector {s.vector} · lane {s.lane}",
            )
        )
    for name, value in rows:
        table.add_row(name, str(value))
    return table


class MemoryDetailScreen(ModalScreen[DetailResult | None]):
    """A modal dialog over the app."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    def __init__(self, entry: MemoryEntry) -> None:
        super().__init__()
        self.entry = entry

    def compose(self) -> ComposeResult:
        """Fields, editors and actions."""
        entry = self.entry
        with Vertical(id="detail"):
            yield Label(f"Memory: {entry.key}", id="detail-title")
            yield Static(field_table(entry), id="detail-fields")
            yield Label("Content")
            yield TextArea(entry.content, id="detail-content", soft_wrap=True)
            with Horizontal(id="detail-meta"):
                yield Label("Category")
                yield Input(entry.category, id="detail-category")
                yield Label("Importance")
                yield Input(f"{entry.importance:.2f}", id="detail-importance")
            with Horizontal(id="detail-actions"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Unpin" if entry.pinned else "Pin", id="pin")
                if entry.superseded_by:
                    yield Button("Restore", id="restore")
                yield Button("Forget", id="forget", variant="error")
                yield Button("Close", id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Validate edits and hand the choice back."""
        button = event.button.id
        if button == "close":
            self.dismiss(None)
        elif button == "pin":
            self.dismiss(DetailResult("unpin" if self.entry.pinned else "pin", self.entry))
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
        content = self.query_one("#detail-content", TextArea).text
        if not category or not content.strip():
            self.notify("Content and category must not be empty", severity="error")
            return
        self.dismiss(DetailResult("save", self.entry, content, category, importance))

    def action_close(self) -> None:
        """Leave without changes."""
        self.dismiss(None)
