"""The memory inspector: what is remembered, why it was recalled, and editing it.

Keys, contents, categories, namespaces and error texts all come from the store or from
outside: every one is shown through `tui.plain`, never as markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Button, Checkbox, DataTable, Input, Label, Select, Static
from textual.worker import Worker

from agent.bringing_back import DELETIONS, back_since, bring_back
from agent.memory_editing import ChangedElsewhereError, Forgotten, MemoryEditor
from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError
from memory.wording import counted
from tui.plain import ControlPictures, plain, plain_text
from tui.quitting import unless_quitting
from tui.widgets.inspector_rows import (
    AROUND_AUDIT,
    AROUND_THE_TEXT,
    AUDIT_COLUMNS,
    AUDIT_ROW,
    AUDIT_TEXT_CELLS,
    CATEGORY_CELLS,
    CONTENT_CELLS,
    ENTRY_COLUMNS,
    KEY_CELLS,
    NARROW_BELOW,
    NARROW_COLUMNS,
    NARROW_CONTENT_CELLS,
    SCORE_CELLS,
    UNSCORED_COLUMNS,
    WHY_CELLS,
    WIDE_KEY_CELLS,
    WIDE_WHY_CELLS,
    clip,
    deletion_rows,
    key_cell,
    named,
    show_rows,
)
from tui.widgets.recalled_entry import score_text
from tui.widgets.text_input import TextInput

if TYPE_CHECKING:
    from memory.protocol import AuditRecord, Memory
    from tui.screens.memory_detail import DetailResult

PAGE_SIZE = 50
"""Memories a page lists: more than a tall window shows (F5 on a big screen showed 20 rows
and half the window empty, said a new user); the table scrolls through them."""


@dataclass(frozen=True)
class RefusedEdit:
    """An edit not saved because its memory changed elsewhere, to be shown again."""

    current: MemoryEntry
    """The memory as it now is (as it was shown, if it was forgotten)."""
    draft: DetailResult
    forgotten: bool


CATEGORIES = ("core", "daily", "conversation", "procedural")


class FilterBox(Checkbox):
    """A filter's checkbox whose mark says whether it is ticked without colour.

    Found by a new user: ticked and unticked boxes both read "▐X▌", told apart only by
    the X's colour.
    """

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "✓" if self.value else " "
        return super()._button


class MemoryInspector(Vertical):
    """A panel beside the chat; search uses the agent's own recall."""

    # In the panel only: in the message box Ctrl+Z undoes typing.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo_forget", "Undo forget", show=False),
    ]

    class EntrySelected(Message):
        """The user opened an entry."""

        def __init__(self, entry: MemoryEntry, mode: str | None = None) -> None:
            super().__init__()
            self.entry = entry
            self.mode = mode
            """How the search that found it recalled (None when listing)."""

    class Loaded(Message):
        """A page or a search was read from the store (or failed).

        The store may have met problems meanwhile (`Memory.warnings`).
        """

    def __init__(self, *, blink: bool = True, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self._blink = blink
        self.memory: Memory | None = None
        self.session_id: str | None = None
        self.namespace = "default"
        self.wide = False
        """Across the whole window (F5)."""
        self._namespaces: list[str] = []
        self.used_ids: set[str] = set()
        self.below_floor: set[str] = set()
        """Ids of the search's matches below the relevance floor (their scores round down)."""
        self._shown_width = (0, False)
        """How many cells of each memory's text the rows show (they follow the width), and
        whether narrow (category and score left out)."""
        self.entries: list[MemoryEntry] = []
        self.deleted: dict[str, AuditRecord] = {}
        self._audit_shown: tuple[list[AuditRecord], dict[str, str]] = ([], {})
        """The audit view's rows that Enter brings back, by row key."""
        self.recall_mode: str | None = None
        """How the search shown recalled ("keyword-early", "hybrid", …); None for a page."""
        self.page = 0
        self.total = 0
        self.editor: MemoryEditor | None = None
        self.last_forgotten: Forgotten | None = None
        self._debounce: Timer | None = None

    def compose(self) -> ComposeResult:
        """Search, filters, the table and paging."""
        yield Label(self._title(), id="inspector-title")
        search = TextInput(
            placeholder="Search (the agent's own recall)",
            id="inspector-search",
            highlighter=ControlPictures(),
        )
        search.cursor_blink = self._blink
        yield search
        with Horizontal(id="inspector-filters"):
            yield Select(
                [(c, c) for c in CATEGORIES],
                prompt="any category",
                id="inspector-category",
                compact=True,
            )
            yield FilterBox("session", id="inspector-session", compact=True)
            yield FilterBox("superseded", id="inspector-superseded", compact=True)
            yield FilterBox("deleted", id="inspector-audit", compact=True)
        yield Select([], prompt="namespace", id="inspector-namespace", compact=True)
        yield DataTable(id="inspector-table", cursor_type="row", zebra_stripes=True)
        # The highlighted memory's whole text: the column shows about 26 characters, and
        # three versions of one fact read alike (found by a new user).
        with VerticalScroll(id="inspector-preview-box"):
            yield Static("", id="inspector-preview")
        with Horizontal(id="inspector-paging"):
            # First: a long search summary in the label must not push it out of sight.
            yield Button("Undo forget", id="inspector-undo", compact=True)
            yield Button("◀", id="inspector-prev", compact=True)
            yield Label("", id="inspector-page")
            yield Button("▶", id="inspector-next", compact=True)
        yield Static("", id="inspector-off")

    def _title(self) -> Content:
        where = "" if self.namespace == "default" else f" · {self.namespace}"
        # Found by a new user and an adversary: "F5 wider" was said when it was already.
        change = "F5 beside the chat" if self.wide else "F5 wider"
        return plain(f"Memory{where}  ({change})")

    def set_wide(self, wide: bool) -> None:
        """Across the whole window or beside the chat: the title says what F5 does next."""
        self.wide = wide
        self.query_one("#inspector-title", Label).update(self._title())
        if self.entries:
            self._fill()  # the key's column is wider across the whole window

    def on_mount(self) -> None:
        """Set up the table columns."""
        show_rows(self.query_one(DataTable), ENTRY_COLUMNS, [])
        self.query_one("#inspector-undo").display = False
        self.query_one("#inspector-off").display = False

    def attach(
        self,
        memory: Memory,
        session_id: str,
        problem: str | None = None,
        namespace: str = "default",
    ) -> None:
        """Show this store's namespace (or say why memory is off)."""
        self.memory = memory
        self.editor = MemoryEditor(memory)
        self.session_id = session_id
        self.namespace = namespace
        self.query_one("#inspector-title", Label).update(self._title())
        off = not memory.capabilities.persistent
        self.query_one("#inspector-off").display = off
        self.query_one(DataTable).display = not off
        if off:
            reason = problem or "the memory backend is 'none' (memory.backend in the config)"
            self.query_one("#inspector-off", Static).update(plain(f"Memory is off: {reason}"))
            return
        self.reload()

    def focus_search(self) -> None:
        """Put the cursor in the search box."""
        self.query_one("#inspector-search", Input).focus()

    def focus_results(self) -> None:
        """The list of memories, or the search box while it is empty."""
        if not self._to_results():
            self.focus_search()

    def reload(self) -> None:
        """Fetch the current page or search again, off the event loop."""
        if self.memory is not None and self.memory.capabilities.persistent:
            # A function, not a coroutine: an exclusive worker cancelled before it starts
            # would leave a coroutine never awaited (seen once reloads came every 15 s).
            loading: Worker[None] = self.run_worker(
                self._load_unless_quitting, exclusive=True, group="inspector"
            )
            del loading  # named for its type: the worker runs on its own

    async def _load_unless_quitting(self) -> None:
        await unless_quitting(self.app, self._load())

    async def _load(self) -> None:
        try:
            await self._read()
        finally:
            self.post_message(self.Loaded())

    async def _read(self) -> None:
        assert self.memory is not None
        if self.query_one("#inspector-audit", Checkbox).value:
            await self._load_audit()
            return
        await self._offer_namespaces()
        query = self.query_one("#inspector-search", Input).value.strip()
        category_value = self.query_one("#inspector-category", Select).value
        category = category_value if isinstance(category_value, str) else None
        session = self.session_id if self.query_one("#inspector-session", Checkbox).value else None
        superseded = self.query_one("#inspector-superseded", Checkbox).value
        label = self.query_one("#inspector-page", Label)
        try:
            if query:
                result = await self.memory.recall(
                    query,
                    PAGE_SIZE,
                    session,
                    namespace=self.namespace,
                    category=category,
                    include_superseded=superseded,
                )
                # As `memchat memory search`: every memory at 0.00 read as if the search
                # had found them all.
                weaker = result.weaker_matches()
                self.entries = result.entries + weaker
                self.below_floor = {e.id for e in weaker}
                self.recall_mode = result.mode
                self.total = len(self.entries)
                extra = f", {result.degraded}" if result.degraded else ""
                extra += f", {result.calibration}" if result.calibration else ""
                # A saved question held back scored above the floor: "below floor" was untrue
                # of it (found by a new user).
                held = sum(1 for e in weaker if e.scores is not None and e.scores.held_back)
                held_note = f", {held} held back (saved questions, not used)" if held else ""
                label.update(
                    plain(
                        f"{len(result.entries)} found ({result.mode}{extra}){held_note}, "
                        f"{len(weaker) - held} below floor"
                    )
                )
            else:
                self.recall_mode = None
                self.entries = await self.memory.list(
                    namespace=self.namespace,
                    category=category,
                    session_id=session,
                    include_superseded=superseded,
                    limit=PAGE_SIZE,
                    offset=self.page * PAGE_SIZE,
                )
                self.total = await self.memory.count(
                    namespace=self.namespace, category=category, include_superseded=superseded
                )
                pages = max(1, -(-self.total // PAGE_SIZE))
                shown = f"page {self.page + 1}/{pages} · {counted(self.total, 'entry', 'entries')}"
                if superseded:
                    # The status bar counts the memories in effect: say how the two differ
                    # (a new user saw "36 entries" beside "34 memories").
                    in_effect = await self.memory.count(
                        namespace=self.namespace, category=category, include_superseded=False
                    )
                    shown += f" · {in_effect:,} in effect"
                label.update(shown)
        except MemoryStoreError as exc:
            self.notify(f"Memory: {exc}", severity="error")
            return
        self._fill()

    async def _load_audit(self) -> None:
        """The audit log of deletions, newest first, in place of the entries."""
        assert self.editor is not None
        logged = await self.editor.audit_log(limit=200)
        # The search box narrows the log too: every word it holds, in the key, the text or
        # the reason, any case (found by a new user: "bike" listed every deletion).
        words = self.query_one("#inspector-search", Input).value.casefold().split()
        # Deletions only: what an import or a merge set aside is kept as history, not gone
        # (a new user read "an import changed entry …" there as something deleted).
        records = [
            record
            for record in logged
            if record.action in DELETIONS
            and all(
                word in f"{record.key}\n{record.content}\n{record.reason}".casefold()
                for word in words
            )
        ]
        back = await back_since(self.editor.memory, records)
        # Enter on a deleted memory brings it back (`agent.bringing_back`); those back
        # already, and what a merge or an import set aside, are not offered.
        self.deleted = {
            f"{AUDIT_ROW}{index}": record
            for index, record in enumerate(records)
            if record.action in DELETIONS and record.entry_id not in back
        }
        self._audit_shown = (records, back)
        self.entries = []
        self._fill_audit()
        self._preview(None)
        label = self.query_one("#inspector-page", Label)
        deletions = sum(1 for record in logged if record.action in DELETIONS)
        shown = f"{len(records)} of {deletions}" if words else f"{len(records)}"
        noun = "deletion" if (deletions if words else len(records)) == 1 else "deletions"
        # Each one brought back stays in the log, marked: the count says so too (a new user
        # read the unchanged "24 deletions" after a restore as the restore not taken).
        returned = sum(1 for record in records if record.entry_id in back)
        again = f", {returned} brought back" if returned else ""
        label.update(f"{shown} {noun}{again} (newest first)")

    def _fill_audit(self) -> None:
        """The deletions, each column as wide as the panel leaves it."""
        records, back = self._audit_shown
        # As wide as the panel: a new user read "conversatio…" and "remember the annu…" there
        # across a 200-column window (F5).
        key_cells, why_cells = self._key_cells(), WIDE_WHY_CELLS if self.wide else WHY_CELLS
        text_cells = max(AUDIT_TEXT_CELLS, self.size.width - AROUND_AUDIT - key_cells - why_cells)
        rows = deletion_rows(records, back, (key_cells, text_cells, why_cells))
        show_rows(self.query_one(DataTable), AUDIT_COLUMNS, rows)
        self._shown_width = (self._content_width(), self._narrow())

    def _fill(self) -> None:
        rows: list[tuple[list[Text], str | None]] = []
        for entry in self.entries:
            marker = Text("●", style="bold green") if entry.id in self.used_ids else Text("")
            if entry.superseded_by:
                marker = Text("↺", style="dim")
            elif entry.pinned:
                marker += Text("▲", style="bold yellow")
            # Rounded up, a 0.299 below a 0.30 floor read as a contradiction (a new user).
            below = entry.id in self.below_floor
            score = Text("" if entry.score is None else score_text(entry.score, below=below))
            category = clip(entry.category, CATEGORY_CELLS)
            if self._narrow():
                category, score = Text(""), Text("")
            cells = [
                marker,
                key_cell(entry, self._key_cells()),
                category,
                score,
                clip(entry.content, self._content_width()),
            ]
            rows.append((cells, entry.id))
        table = self.query_one(DataTable)
        columns = ENTRY_COLUMNS if self._scored() else UNSCORED_COLUMNS
        show_rows(table, NARROW_COLUMNS if self._narrow() else columns, rows)
        self._shown_width = (self._content_width(), self._narrow())
        shown = (
            self.entries[table.cursor_row] if 0 <= table.cursor_row < len(self.entries) else None
        )
        self._preview(None if shown is None else shown.id)

    def on_resize(self) -> None:
        """Show as much of each memory as the new width holds, the cursor kept in place."""
        # Narrow or not too: at one width the text may take as many cells either way.
        if (self._content_width(), self._narrow()) == self._shown_width:
            return
        auditing = not self.entries and self.query_one("#inspector-audit", Checkbox).value
        if self.entries or (auditing and self._audit_shown[0]):
            table = self.query_one(DataTable)
            row = table.cursor_row
            if auditing:
                self._fill_audit()
            else:
                self._fill()
            if 0 <= row < table.row_count:
                table.move_cursor(row=row)

    def _content_width(self) -> int:
        # The panel's width beyond the other columns and the table's gutters: a new user
        # read 25 characters of each memory at 120 columns, with room to spare.
        around = AROUND_THE_TEXT + self._key_cells()
        if self._narrow():
            return max(NARROW_CONTENT_CELLS, self.size.width - around)
        # The category column as wide as the longest shown, the score's only in a search:
        # a new user read 20 characters of each memory beside the chat at 160 columns.
        category = max(
            [len("category"), *(len(clip(e.category, CATEGORY_CELLS)) for e in self.entries)]
        )
        score = SCORE_CELLS if self._scored() else 0
        return max(CONTENT_CELLS, self.size.width - around - category - score)

    def _scored(self) -> bool:
        return any(entry.score is not None for entry in self.entries)

    def _key_cells(self) -> int:
        if not self.wide:
            return KEY_CELLS
        # As long as the longest key shown, up to a third of the window: a new user, a
        # plumber, read "jake_the_apprentice_is_paid_0e6…" at 160 columns.
        longest = max((len(entry.key) for entry in self.entries), default=0)
        wanted = max(WIDE_KEY_CELLS, min(longest, self.size.width // 3))
        # The text keeps half the window: at 80 columns a key of 32 left it narrower than
        # beside the chat (a new user, a retired nurse).
        room = self.size.width - self.size.width // 2 - AROUND_THE_TEXT - CATEGORY_CELLS
        return max(KEY_CELLS, min(wanted, room))

    def _narrow(self) -> bool:
        return 0 < self.size.width < NARROW_BELOW

    def mark_used(self, ids: set[str]) -> None:
        """Mark the entries injected into the latest reply."""
        self.used_ids = ids
        self._fill()

    def on_input_changed(self, event: Input.Changed) -> None:
        """Search as the user types (debounced)."""
        if event.input.id == "inspector-search":
            if self._debounce is not None:
                self._debounce.stop()
            self._debounce = self.set_timer(0.25, self.reload)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the search box goes to the results."""
        if event.input.id == "inspector-search":
            self._to_results()

    def on_key(self, event: events.Key) -> None:
        """Down from the search box goes to the results; a letter typed elsewhere searches.

        Found by a new user: six Tabs past the filters, and a Down on the way opened the
        category list.
        """
        focused = self.app.focused
        if event.key == "down" and isinstance(focused, Input) and focused.id == "inspector-search":
            if self._to_results():
                event.stop()
            return
        search = self.query_one("#inspector-search", TextInput)
        if event.key == "backspace" and focused is search and search.value:
            # Typed fast, it was on its way to the list with the letters before it: "porte",
            # five Backspaces and "door" searched "portdoor" (a new user).
            search.action_delete_left()
            event.stop()
            return
        if event.character is None or not event.is_printable:
            return
        if isinstance(focused, (DataTable, Checkbox)) and not event.character.isspace():
            # Typed on the list or a filter, it is a search: a new user's "key safe" ticked
            # the "deleted" filter, and letters on the list did nothing to be seen.
            search.type_in(event.character, anew=True)
            event.stop()
        elif focused is search:
            # Typed fast, the keys after the first were on their way to the list when the
            # search box took the focus (the box takes those it is sent itself).
            search.type_in(event.character)
            event.stop()

    def on_paste(self, event: events.Paste) -> None:
        """A paste on the list or a filter is a search too (it was dropped)."""
        if isinstance(self.app.focused, (DataTable, Checkbox)) and event.text.strip():
            first_line = event.text.strip().splitlines()[0]
            self.query_one("#inspector-search", TextInput).type_in(first_line, anew=True)
            event.stop()

    def _to_results(self) -> bool:
        table = self.query_one(DataTable)
        if not table.row_count:
            return False
        table.focus()
        return True

    def on_select_changed(self, event: Select.Changed) -> None:
        """Category or namespace filter."""
        if event.select.id == "inspector-namespace":
            if not isinstance(event.value, str) or event.value == self.namespace:
                return
            self.namespace = event.value
            self.query_one("#inspector-title", Label).update(self._title())
        self.page = 0
        self.reload()

    async def _offer_namespaces(self) -> None:
        """Keep the namespace choices in step with the store."""
        assert self.memory is not None
        names = sorted(set((await self.memory.stats()).by_namespace) | {self.namespace})
        select = self.query_one("#inspector-namespace", Select)
        if names != self._namespaces:
            self._namespaces = names
            with select.prevent(Select.Changed):
                select.set_options([(plain_text(name), name) for name in names])
                select.value = self.namespace

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """Session / superseded filters."""
        self.page = 0
        self.reload()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Show the highlighted memory's whole text under the table."""
        self._preview(event.row_key.value)

    def _preview(self, entry_id: str | None) -> None:
        entry = next((e for e in self.entries if e.id == entry_id), None)
        preview = self.query_one("#inspector-preview", Static)
        record = self.deleted.get(entry_id or "") if self.entries == [] else None
        if record is not None:
            preview.update(plain(f"{record.key}: {record.content}  · Enter brings it back"))
            return
        # Found by a new user: how to edit or forget one was said only in F1's help. An
        # earlier version opens read-only, to restore (a later new user read "edit").
        does = (
            "Enter: restore"
            if entry is not None and entry.superseded_by
            else "Enter: edit or forget"
        )
        told = "" if entry is None else f"{entry.key}: {entry.content}  · {does}"
        # What the row's mark means, said where it is read (a new user found it nowhere).
        if entry is not None and entry.superseded_by:
            told += "  · ↺ an earlier version"
        elif entry is not None:
            told += "  · ● shown to the model this turn" * (entry.id in self.used_ids)
            told += "  · ▲ pinned" * entry.pinned
        preview.update(plain(told))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Open the entry, or bring back the deleted memory."""
        record = self.deleted.get(event.row_key.value or "") if self.entries == [] else None
        if record is not None:
            self.run_worker(self._bring_back(record), group="inspector-edit")
            return
        entry = next((e for e in self.entries if e.id == event.row_key.value), None)
        if entry is not None:
            self.post_message(self.EntrySelected(entry, self.recall_mode))

    async def _bring_back(self, record: AuditRecord) -> None:
        """A deleted memory back from the audit log (Undo forget, after a restart too)."""
        assert self.editor is not None
        try:
            back = await bring_back(self.editor.memory, record)
        except MemoryStoreError as exc:
            self.notify(str(exc), severity="error")
        else:
            if back.already:
                self.notify(f"Already in memory as {back.entry.key}; nothing was added")
            else:
                replaced = ", ".join(old.key for old in back.replaced)
                kept = f"; it replaces {replaced} (kept as history)" if replaced else ""
                noted = "".join(f"; {note}" for note in back.notes)
                self.notify(f"Brought back {back.entry.key}{kept}{noted}")
        self.reload()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Paging and undo."""
        button = event.button.id
        if button == "inspector-prev" and self.page > 0:
            self.page -= 1
            self.reload()
        elif button == "inspector-next" and (self.page + 1) * PAGE_SIZE < self.total:
            self.page += 1
            self.reload()
        elif button == "inspector-undo":
            self.run_worker(self.undo_forget(), group="inspector-edit")

    async def apply(self, result: DetailResult) -> RefusedEdit | None:
        """Carry out what the detail dialog asked for (the rules are `MemoryEditor`'s).

        An edit refused because the memory changed elsewhere since it was shown is handed
        back with the memory as it now is, so the dialog can reopen with the typed text
        (it was lost: found by an adversary).
        """
        if self.editor is None:
            return None
        entry = result.entry
        try:
            if result.action == "save":
                try:
                    await self.editor.save(
                        entry,
                        result.content,
                        result.category,
                        result.importance,
                        store_again=result.store_again,
                    )
                except ChangedElsewhereError:
                    refused = await self._refused(result)
                    if refused is not None:
                        self.reload()
                        return refused
                    raise
                self.notify(f"Saved {entry.key}")
            elif result.action in ("pin", "unpin"):
                await self.editor.set_pinned(entry, result.action == "pin")
            elif result.action == "restore":
                await self.editor.restore(entry)
                self.notify(f"Restored {entry.key}")
            elif result.action == "forget":
                self.offer_undo(await self.editor.forget(entry))
        except MemoryStoreError as exc:
            self.notify(str(exc), severity="error")
        self.reload()
        return None

    async def _refused(self, result: DetailResult) -> RefusedEdit | None:
        """The memory an edit was refused for, as it now is (None if it cannot be read)."""
        if self.editor is None:
            return None
        entry = result.entry
        try:
            current = await self.editor.memory.get(entry.key, entry.namespace)
        except MemoryStoreError:
            return None
        if current is None:
            return RefusedEdit(entry, result, forgotten=True)
        return RefusedEdit(current, result, forgotten=False)

    def offer_undo(self, forgotten: Forgotten, where: str = "") -> None:
        """Show Undo forget for `forgotten` (the latest forget, here or in the chat)."""
        self.last_forgotten = forgotten
        self.query_one("#inspector-undo").display = True
        back = ", ".join(named(entry) for entry in forgotten.revived)
        again = f"; in effect again: {back}" if back else ""
        # As the list names it: "the message said 1 Sep 09:00", not its id (a new user).
        name = named(forgotten.entries[0]) if forgotten.entries else forgotten.key
        # How, too: a new user reached the small button with 13 Tabs.
        undo = "Ctrl+Z in the memory panel, or Undo forget, puts it back"
        self.notify(f"Forgot {name}{again} ({where}{undo})")

    async def action_undo_forget(self) -> None:
        """Ctrl+Z: the last forget undone, if there is one to undo."""
        if self.last_forgotten is None:
            self.notify("Nothing to undo: no memory was forgotten since the panel opened")
            return
        await self.undo_forget()

    async def undo_forget(self) -> None:
        """Put the last forgotten entry and its history back exactly."""
        if self.editor is None or self.last_forgotten is None:
            return
        forgotten, self.last_forgotten = self.last_forgotten, None
        undo = self.query_one("#inspector-undo")
        if undo.has_focus:
            # Hidden with the focus, it took every key after: Down, Enter and typed text
            # went nowhere until Tab (a new user lost a fact's text typed there).
            self.query_one(DataTable).focus()
        undo.display = False
        try:
            entry = await self.editor.undo_forget(forgotten)
        except MemoryStoreError as exc:
            self.notify(str(exc), severity="error")
        else:
            self.notify(f"Restored {entry.key}")
        self.reload()
