"""The memory inspector's rows: each column's cells, cut to the width the panel leaves.

Keys, texts and reasons come from the store: each is shown through `tui.plain`.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.widgets import DataTable

from memory.date_term_names import local_time
from memory.entry import MemoryCategory, MemoryEntry
from tui.plain import plain_text, visible

if TYPE_CHECKING:
    from memory.protocol import AuditRecord

Row = tuple[list[Text], str | None]
"""A row's cells, and its key in the table."""


ENTRY_COLUMNS = ("", "key", "category", "score", "content")
UNSCORED_COLUMNS = ("", "key", "category", "", "content")
"""Not a search: no scores, and their column gives its room to the text."""
NARROW_COLUMNS = ("", "key", "", "", "content")
"""A narrow panel leaves the category and score to the detail view (at 80 columns the
text showed two characters, found by a new user); the columns stay, empty."""
NARROW_BELOW = 60
AUDIT_COLUMNS = ("when", "key", "text", "why")
"""The text, not the action: found by an adversary, two versions of one key read alike and
Enter brought back the older over the newer ("why" says forgotten or what hygiene did)."""
AUDIT_ROW = "audit-"


def clip(text: str, width: int) -> Text:
    """`text` on one line, cut with "…" to `width` cells."""
    # Made visible first, so control characters show instead of being taken for spaces.
    # Cut by cells, not characters: a wide script takes two cells a character.
    flat = " ".join(visible(text).split())
    clipped = plain_text(flat)
    clipped.truncate(width, overflow="ellipsis")
    if clipped.plain.endswith(" …") and not flat.startswith(clipped.plain[:-1]):
        # A wide character that did not fit left a space the text does not have.
        clipped.right_crop(2)
        clipped.append("…")
    return clipped


CONTENT_CELLS = 20
NARROW_CONTENT_CELLS = 10
KEY_CELLS = 17
"""A key, or "said 15 Dec 16:40"."""
WIDE_KEY_CELLS = 32
"""A key across the whole window (F5): a new user read "bredas_new_numbe…" there, with
room to spare."""
AROUND_THE_TEXT = 2 + 2 * 5 + 5
"""The marker column, each column's padding, and the panel's border, padding and scroll
bar: the text takes what the key leaves, so no row scrolls sideways."""
CATEGORY_CELLS = 12
"""A category as shown: "conversation" whole."""
SCORE_CELLS = 5
WHY_CELLS = 26
WIDE_WHY_CELLS = 40
AUDIT_TEXT_CELLS = 18
AROUND_AUDIT = 2 * 4 + 5 + 14
"""The deletions' columns' padding, the panel's border and scroll bar, and "when"."""


def key_cell(entry: MemoryEntry, cells: int) -> Text:
    """A fact's key; for a saved message, when it was said (its key is an id).

    Found by a new user: every message row read "conversation/20…".
    """
    if entry.category == MemoryCategory.CONVERSATION.value:
        return Text(f"said {day_and_time(entry.timestamp)}", style="dim")
    return clip(entry.key, cells)


def named(entry: MemoryEntry) -> str:
    """A memory as a notice names it: its key, or "the message said 1 Sep 09:00"."""
    if entry.category == MemoryCategory.CONVERSATION.value:
        return f"the message said {day_and_time(entry.timestamp)}"
    return entry.key


def day_and_time(when: datetime) -> str:
    """`when` in local time as "5 Dec 16:40": "12-05" read as 12 May to a new user in Sydney."""
    local = local_time(when)
    return f"{local.day} {local:%b %H:%M}"


def show_rows(table: DataTable[Any], labels: tuple[str, ...], rows: list[Row]) -> None:
    """Put `rows` (cells and key) in `table`, each column as wide as what it shows.

    The widths are set here, not left to the table: it measures them only when idle, and a
    table drawn before then kept every column at its label's width ("lun", "tri", no
    marker) until its next change (one snapshot in about fifteen on a loaded machine).
    """
    widths = [
        max([len(label), *(cells[index].cell_len for cells, _ in rows)])
        for index, label in enumerate(labels)
    ]
    if tuple(str(column.label) for column in table.ordered_columns) != labels:
        table.clear(columns=True)
        for label, width in zip(labels, widths, strict=True):
            table.add_column(label, width=width)
    else:
        table.clear()
        for column, width in zip(table.ordered_columns, widths, strict=True):
            column.width, column.auto_width = width, False
    for cells, key in rows:
        table.add_row(*cells, key=key)


def deletion_rows(
    records: list[AuditRecord], back: dict[str, str], cells: tuple[int, int, int]
) -> list[Row]:
    """The deleted view's rows: when, key, text and why, each cut to its cells.

    `cells`: the key's, the text's and the reason's; `back`: which are in memory again, and
    how ("restored since").
    """
    key_cells, text_cells, why_cells = cells
    rows: list[Row] = []
    for index, record in enumerate(records):
        again = back.get(record.entry_id)
        reason = record.reason + (f" ({again})" if again else "")
        row = [
            Text(day_and_time(record.at)),
            clip(record.key, key_cells),
            clip(record.content, text_cells),
            clip(reason, why_cells),
        ]
        rows.append((row, f"{AUDIT_ROW}{index}"))
    return rows
