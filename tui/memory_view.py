"""Memory in the app: the inspector, the count, warnings, hygiene, calibration, export."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from memory.errors import MemoryStoreError
from memory.wording import memories

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from tui.app import MemchatApp
    from tui.screens.memory_detail import DetailResult
    from tui.widgets.memory_inspector import RefusedEdit


class MemoryView:
    """What the app shows of memory and the memory work it starts."""

    def __init__(self, app: MemchatApp) -> None:
        self.app = app
        self.shown_warnings: set[str] = set()
        """Store warnings already notified (each is shown once per run)."""

    def toggle_inspector(self) -> None:
        """Show the memory panel with its search focused, or hide it and focus the prompt."""
        panel = self.app.inspector
        focused = self.app.focused
        self.show_inspector(not panel.display)
        if panel.display:
            panel.reload()
            # Opened to look something up: what the user types next is a search, not a
            # chat message sent (and saved) by mistake.
            panel.focus_search()
        elif focused is not None and panel in focused.ancestors_with_self:
            # A hidden widget keeps the focus: what the user typed next would go nowhere.
            self.app.prompt.focus()

    def widen_inspector(self) -> None:
        """The panel in the chat's place, or back beside it; opened if it was hidden.

        Found by a new user: at 200 columns each memory's text was cut to 30 characters
        beside the chat, and every row had to be opened to be read.
        """
        main = self.app.query_one("#main")
        if not self.app.inspector.display:
            self.toggle_inspector()
            main.set_class(True, "wide")
        else:
            main.toggle_class("wide")
        wide = main.has_class("wide")
        self.app.inspector.set_wide(wide)
        if not wide:
            # Back beside the chat, the chat is what comes next: left in the panel's search,
            # two messages a new user typed went there and were never sent.
            self.app.prompt.focus()
        elif not self.app.inspector.has_focus_within:
            # Across the window, the hidden chat's input kept the keys: ↑ edited the last
            # message and Enter sent (found by a new user).
            self.app.inspector.focus_results()

    def show_inspector(self, shown: bool) -> None:
        """Show or hide the memory panel; in a narrow terminal it takes the chat's place.

        At 80 columns the chat beside it kept 30 and the panel's filters were cut (found
        by a new user).
        """
        self.app.inspector.display = shown
        main = self.app.query_one("#main")
        main.set_class(shown, "inspecting")
        if not shown:
            main.set_class(False, "wide")
            self.app.inspector.set_wide(False)

    def show_warnings(self, extra: Iterable[str] = ()) -> None:
        """Notify the problems the store met while reading (and `extra`), each once.

        For 15 seconds: at 80x24 a notice covers half the chat, and a new user waited out
        30 for each; the status bar says a degraded recall again when it happens.
        """
        found = list(extra)
        runtime = self.app.runtime
        if runtime is not None:
            found += runtime.memory.warnings
        for warning in found:
            if warning not in self.shown_warnings:
                self.shown_warnings.add(warning)
                self.app.notify(warning, title="Memory", severity="warning", timeout=15)

    async def changed(self) -> None:
        """Memory changed under the inspector: show it again, with the new count."""
        self.app.inspector.reload()
        await self.refresh_count()

    async def refresh_count(self) -> None:
        """The memory count in the status bar: memories in effect, not superseded history.

        Of the chat's namespace, as the inspector shows them, and how many other namespaces
        hold: a new user read "55 memories" beside the inspector's "45 entries" (ten were in
        namespaces the CLI had written).
        """
        runtime = self.app.runtime
        if runtime is not None and runtime.memory.capabilities.persistent:
            try:
                everywhere = await runtime.memory.count(include_superseded=False)
                count = await runtime.memory.count(
                    namespace=runtime.agent.namespace, include_superseded=False
                )
            except MemoryStoreError:
                return
            shown = self.app.status.state.memories
            self.app.status.set(memories=count, memories_elsewhere=everywhere - count)
            if shown is not None and shown != count and self.app.inspector.display:
                self.app.inspector.reload()  # written from elsewhere (the CLI, say)

    async def calibrate(self) -> None:
        """Calibrate the embedding model now, saying so, instead of in the first recall."""
        runtime = self.app.runtime
        if runtime is None:
            return
        status = self.app.status
        label = runtime.embeddings
        status.set(embeddings=f"{label} · calibrating")
        ready = await runtime.memory.calibrate()
        if status.state.embeddings == f"{label} · calibrating":
            # Unless a recall has since said something newer (it failed, say).
            failed = f"keyword-only: {label.removeprefix('embeddings: ')} could not be calibrated"
            status.set(embeddings=label if ready else failed)

    async def run_hygiene(self) -> None:
        """Retention and budgets, then the snapshot; report what went."""
        from agent.maintenance import maintain

        app = self.app
        if app.runtime is None:
            return
        # Said while it runs: on 20,000 memories it took half a minute and nothing said
        # why the count stayed (an adversary).
        app.status.set(tidying=True)
        try:
            report, _ = await maintain(app.runtime.memory, app.config.memory)
        except (MemoryStoreError, OSError) as exc:
            app.notify(f"Memory hygiene failed: {exc}", severity="error")
            return
        finally:
            app.status.set(tidying=False)
        if report is not None and report.removed:
            facts = sum(1 for entry, _ in report.removed if entry.category == "core")
            app.notify(
                hygiene_notice(report.removed),
                title="Memory hygiene",
                # Facts are what the user asked to keep: their going is never a passing
                # line (an adversary's budget setting took 26 at start-up, unnoticed).
                severity="warning" if facts else "information",
                timeout=30 if facts else 8,
            )
            await self.changed()

    async def export(self) -> None:
        """Write every memory to a private JSON-lines file in the data directory.

        The same export as `memchat memory export FILE` (`agent.export_file`): written
        whole or not at all; a failure is a notification.
        """
        from agent.errors import AgentError
        from agent.export_file import damage_found, export_to_file, timestamped_export_path

        app = self.app
        if app.runtime is None:
            return
        try:
            path = timestamped_export_path()
            count = await export_to_file(app.runtime.memory, path)
            in_effect = await app.runtime.memory.count(include_superseded=False)
            damage = await damage_found(app.runtime.memory)
        except (AgentError, OSError, MemoryStoreError) as exc:
            app.notify(f"Export failed, nothing was written: {exc}", severity="error")
            return
        if damage is not None:
            app.notify(
                f"The store's check finds damage ({damage}); the export holds the memories as "
                "the store has them now: keep your earlier backups.",
                title="Export",
                severity="warning",
                timeout=20,
            )
        # Earlier versions go too: a new user read "Exported 54 memories" beside the status
        # bar's 41 and wondered what the 13 were.
        earlier = count - in_effect
        versions = "earlier version" if earlier == 1 else "earlier versions"
        kept = f" ({in_effect} in effect, {earlier} {versions})" if earlier > 0 else ""
        app.notify(f"Exported {memories(count)}{kept} to {path}")

    def open_entry(
        self, entry: MemoryEntry, mode: str | None = None, refused: RefusedEdit | None = None
    ) -> None:
        """The detail dialog for one memory; the inspector applies its result.

        `mode`: how the search that found it recalled, which its scores are read with.
        `refused`: an edit of it that could not be saved, shown again in the editors.
        """
        from tui.screens.memory_detail import MemoryDetailScreen

        def done(result: DetailResult | None) -> None:
            if result is not None:
                self.app.run_worker(self._apply_detail(result), group="inspector-edit")

        runtime = self.app.runtime
        capabilities = None if runtime is None else runtime.memory.capabilities

        def show(successor: MemoryEntry | None) -> None:
            screen = MemoryDetailScreen(
                entry,
                mode=mode,
                blink=self.app.blink,
                can_forget=capabilities is None or capabilities.supports_delete,
                can_restore=capabilities is None or capabilities.supports_supersede,
                successor=successor,
                draft=None if refused is None else refused.draft,
                forgotten=refused is not None and refused.forgotten,
            )
            self.app.push_screen(screen, callback=done)

        if entry.superseded_by is None or runtime is None:
            show(None)
            return
        # An earlier version names what replaced it by its key and text, not its id (found
        # by a new user: "superseded by 3f2c…" said nothing).
        memory, successor_id = runtime.memory, entry.superseded_by

        async def with_successor() -> None:
            try:
                successor = await memory.get_by_id(successor_id)
            except MemoryStoreError:
                successor = None
            show(successor)

        self.app.run_worker(with_successor(), group="inspector-open")

    async def _apply_detail(self, result: DetailResult) -> None:
        refused = await self.app.inspector.apply(result)
        await self.refresh_count()
        if refused is not None:
            self.open_entry(refused.current, refused=refused)


def hygiene_notice(removed: list[tuple[MemoryEntry, str]]) -> str:
    """What a hygiene run removed, why (the setting behind each reason), and how to undo."""
    reasons = Counter(reason for _, reason in removed)
    why = "; ".join(
        f"{count:,} for {reason}{_SETTING.get(reason.split(':')[0], '')}"
        for reason, count in reasons.most_common(3)
    )
    more = f"; {len(reasons) - 3} more reasons" if len(reasons) > 3 else ""
    return (
        f"Removed {memories(len(removed))} ({why}{more}). The inspector's 'deleted' filter "
        "lists them and restores one (Enter); `memchat memory audit` too."
    )


_SETTING = {
    "retention": " (memory.retention_days)",
    "budget": " (memory.budgets)",
}
