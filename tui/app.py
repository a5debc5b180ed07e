"""The Textual application. Until the chat view lands it shows the memory store's state."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Header, Static

if TYPE_CHECKING:
    from agent.config import Config


class MemchatApp(App[None]):
    """memchat's app, built from its config (no import-time singletons)."""

    TITLE = "memchat"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", "Quit")]

    def __init__(self, config: Config) -> None:
        super().__init__()
        self.config = config

    def compose(self) -> ComposeResult:
        """Header, status text and footer."""
        yield Header()
        yield Static("Opening memory…", id="status")
        yield Footer()

    def on_mount(self) -> None:
        """Open the store in a worker so the event loop never waits on SQLite."""
        self.run_worker(self._describe_memory(), exclusive=True)

    async def _describe_memory(self) -> None:
        from agent.memory_commands import opened_memory
        from memory.errors import MemoryStoreError

        status = self.query_one("#status", Static)
        try:
            async with opened_memory(self.config) as memory:
                stats = await memory.stats()
        except MemoryStoreError as exc:
            status.update(f"Memory could not be opened:\n{exc}")
            return
        where = stats.path or "memory is off"
        status.update(
            f"memchat {self.config.ollama.model} — {stats.total} memories ({where}).\n"
            "The chat view arrives with the TUI issue; `memchat memory --help` works today."
        )
