"""The Textual application: composes the screen, binds keys, routes messages."""

from __future__ import annotations

import asyncio
import importlib
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header

from tui.palette import PaletteActions
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.chat_view import ChatView
from tui.widgets.memory_inspector import MemoryInspector
from tui.widgets.prompt_input import PromptInput
from tui.widgets.read_only_banner import ReadOnlyBanner
from tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from agent.config import Config
    from agent.runtime import Runtime

RuntimeFactory = Callable[["Config"], Awaitable["Runtime"]]


async def _default_runtime(config: Config) -> Runtime:
    # Imported in a thread after the first paint: the screen is up and typing works while
    # pydantic, httpx, numpy and the store load.
    module = await asyncio.to_thread(importlib.import_module, "agent.runtime")
    runtime: Runtime = await module.open_runtime(config)
    return runtime


class MemchatApp(PaletteActions, App[None]):
    """memchat's app, built from its config (no import-time singletons)."""

    CSS_PATH = Path(__file__).with_name("memchat.tcss")
    TITLE = "memchat"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "toggle_inspector", "Memory"),
        Binding("escape", "stop", "Stop reply"),
        Binding("f3", "copy_last", "Copy reply"),
        Binding("f4", "toggle_incognito", "Incognito"),
        Binding("ctrl+n", "new_session", "New"),
        Binding("ctrl+f", "search_chats", "Search chats", show=False, priority=True),
        Binding("f1", "help", "Help"),
    ]

    def __init__(
        self,
        config: Config,
        *,
        runtime_factory: RuntimeFactory | None = None,
        blink: bool = True,
        demo_pause: float | None = None,
        notes: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.config_notes = list(notes)
        """What loading the config did that the user should know (an older file rewritten)."""
        self.config = config
        self.runtime: Runtime | None = None
        self._runtime_factory = runtime_factory or _default_runtime
        self._blink = blink
        self.ready = asyncio.Event()
        self.shown_warnings: set[str] = set()
        self.queued: deque[str] = deque()
        self.read_only: str | None = None
        self.demo_pause = demo_pause
        """Seconds between demo steps; None when not playing the demo."""

    def compose(self) -> ComposeResult:
        """Chat and prompt, the inspector beside them, status and keys below."""
        yield Header(show_clock=False)
        with Horizontal(id="main"):
            with Vertical(id="chat-pane"):
                yield ChatView(id="chat")
                yield ReadOnlyBanner(id="read-only")
                yield PromptInput(blink=self._blink, id="prompt")
            yield MemoryInspector(blink=self._blink, id="inspector")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        """Show the screen at once; open memory and reach the model in the background."""
        self.query_one(MemoryInspector).display = False
        openai = self.config.model.provider == "openai"
        self.query_one(StatusBar).set(
            model=self.config.model.name if openai else self.config.ollama.model,
            server_label="server" if openai else "ollama",
        )
        for note in self.config_notes:
            self.notify(note, title="Config", timeout=20)
        prompt = self.query_one(PromptInput)
        prompt.last_message = self.editable_message
        prompt.focus()
        self.call_after_refresh(
            lambda: self.run_worker(self.start_runtime(), name="startup", group="startup")
        )

    async def on_unmount(self) -> None:
        """Close the store so nothing is left half-written."""
        if self.runtime is not None:
            await self.runtime.memory.close()

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Command palette entries."""
        yield from super().get_system_commands(screen)
        yield from self.palette_commands()

    def on_prompt_input_submitted(self, message: PromptInput.Submitted) -> None:
        """A message or a command from the prompt."""
        self.submit(message.text, edit=message.edit)

    def on_assistant_message_action_requested(
        self, message: AssistantMessage.ActionRequested
    ) -> None:
        """Continue or regenerate a stopped reply."""
        self.continue_or_regenerate(message.action)

    def on_read_only_banner_switch_model(self, message: ReadOnlyBanner.SwitchModel) -> None:
        """The read-only chat's way out: choose another model."""
        self.action_switch_model()

    def on_memory_inspector_entry_selected(self, message: MemoryInspector.EntrySelected) -> None:
        """Open the detail dialog."""
        self.open_entry(message.entry)

    def on_memory_inspector_loaded(self, message: MemoryInspector.Loaded) -> None:
        """Reading the store may have met damaged rows or a torn file: say so, once."""
        self.show_memory_warnings()
