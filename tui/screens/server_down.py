"""Shown when the model server does not answer: what was tried, how to fix it, retrying."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Static

from tui.plain import plain

RETRY_SECONDS = 3.0


class ServerDownScreen(Screen[bool]):
    """Retries on its own; dismissed with True once the server answers.

    The host (config or OLLAMA_HOST), the server's name and the hint come from outside:
    shown literally, only our own advice is markup.
    """

    # No letter keys: a user who starts typing a message here ("my cat…") set off
    # "Continue without a model" with its first letter (found by a new user).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "retry", "Retry now"),
        Binding("escape", "memory_only", "Continue without a model"),
    ]

    def __init__(
        self,
        host: str,
        probe: Callable[[], Awaitable[bool]],
        server: str = "Ollama",
        hint: str = "",
    ) -> None:
        super().__init__()
        self.host = host
        self.server = server
        self.hint = hint
        self.probe = probe
        self.attempts = 0
        # Held directly: the screen may be torn down (the app quitting) before a query works.
        self._status = Label("", id="down-status")

    def compose(self) -> ComposeResult:
        """The explanation and two ways forward."""
        with Center(), Vertical(id="down-box"):
            yield Label(plain(f"{self.server} is not reachable"), id="down-title")
            yield Static(
                Content.assemble(
                    "memchat tried ",
                    plain(self.host, "bold"),
                    " and nothing answered.\n\n",
                    self._advice(),
                    "\n\nThe memory inspector works without a model.",
                ),
                id="down-help",
            )
            yield self._status
            yield Button("Retry now", id="retry", variant="primary")
            yield Button("Continue without a model", id="memory-only")
        yield Footer()

    def _advice(self) -> Content:
        if self.server != "Ollama":
            return Content.assemble("• ", plain(self.hint))
        return Content.from_markup(
            "• Start it with [b]ollama serve[/b] (or open the Ollama app).\n"
            "• If it runs elsewhere, set [b]ollama.host[/b] in the config or "
            "[b]OLLAMA_HOST[/b].\n• Not installed yet? See https://ollama.com/download"
        )

    def on_mount(self) -> None:
        """Keep trying in the background."""
        self._show_waiting()
        self.set_interval(RETRY_SECONDS, self.action_retry)

    def on_key(self, event: events.Key) -> None:
        """Typing goes nowhere here: say so, and how to get to the chat."""
        if event.is_printable:
            self._status.update(
                "This screen takes no typing: Esc continues without a model (the chat and "
                "the memory inspector open), Ctrl+R retries now."
            )

    def _show_waiting(self) -> None:
        tries = f" (tried {self.attempts}×)" if self.attempts else ""
        self._status.update(f"Retrying every {RETRY_SECONDS:g} s{tries}…")

    def action_retry(self) -> None:
        """Ask the server again."""
        self.run_worker(self._retry(), exclusive=True)

    async def _retry(self) -> None:
        self.attempts += 1
        if await self.probe():
            self.dismiss(True)
        else:
            self._show_waiting()

    def action_memory_only(self) -> None:
        """Use the app (memory inspector, commands) while the server is down."""
        self.dismiss(False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Retry or continue."""
        if event.button.id == "retry":
            self.action_retry()
        else:
            self.action_memory_only()
