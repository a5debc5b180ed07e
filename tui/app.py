"""The Textual application: composes the screen, binds keys, routes to its parts.

What the app does lives in named parts, each holding the app: `startup` (memory and the
model come up), `turns` (what a message does), `chats` (sessions), `models` and
`memory_view`. The `action_*` methods and message handlers here only route to them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal

from textual import events
from textual.app import App, ComposeResult, ScreenStackError, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Footer, Header
from textual.worker import Worker

from tui.chats import Chats
from tui.memory_view import MemoryView
from tui.models import Models
from tui.palette import MemchatCommands, palette_commands
from tui.plain import visible
from tui.quitting import unless_quitting
from tui.startup import RuntimeFactory, StartUp
from tui.turns import Turns
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.chat_view import ChatView
from tui.widgets.memory_inspector import MemoryInspector
from tui.widgets.prompt_input import PromptInput
from tui.widgets.read_only_banner import ReadOnlyBanner
from tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from agent.config import Config
    from agent.runtime import Runtime


RECOUNT_EVERY_S = 15.0
"""How often the status bar's memory count is read again."""


_NOTICES_KEPT = 64
"""Notices remembered before the expired ones are let go."""


class MemchatApp(App[None]):
    """memchat's app, built from its config (no import-time singletons)."""

    CSS_PATH = Path(__file__).with_name("memchat.tcss")
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-roomy")]  # noqa: RUF012 - Textual's
    """Below 110 columns the memory panel takes the chat's place (`memchat.tcss`)."""
    TITLE = "memchat"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {MemchatCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        # Help first: at 80 columns the footer's last keys are cut off, and a new user in an
        # 80x24 terminal never saw "f1 Help" (the prompt's hint names it too).
        Binding("f1", "help", "Help"),
        Binding("f2", "toggle_inspector", "Memory"),
        Binding("escape", "stop", "Stop reply"),
        Binding("f3", "copy_last", "Copy reply"),
        Binding("f4", "toggle_incognito", "Incognito"),
        Binding("f5", "widen_inspector", "Wide memory", show=False),
        Binding("ctrl+n", "new_session", "New"),
        Binding("ctrl+f", "search_chats", "Search chats", show=False, priority=True),
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
        self.config = config
        self.config_notes = list(notes)
        """What loading the config did that the user should know (an older file rewritten)."""
        self.runtime: Runtime | None = None
        self.blink = blink
        """Whether text inputs blink their cursor (off in snapshot tests)."""
        self.ready = asyncio.Event()
        """Set once start-up has done all it can (the model may still be missing)."""
        self.demo_pause = demo_pause
        """Seconds between demo steps; None when not playing the demo."""
        self.startup = StartUp(self, runtime_factory)
        self.turns = Turns(self)
        self.chats = Chats(self)
        self.models = Models(self)
        self.memory_view = MemoryView(self)
        self._showing: dict[tuple[str, str, SeverityLevel], float] = {}
        """Each notice on screen, by its text, title and severity: until when (`notify`)."""

    # -- the screen ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Chat and prompt, the inspector beside them, status and keys below."""
        yield Header(show_clock=False)
        with Horizontal(id="main"):
            with Vertical(id="chat-pane"):
                yield ChatView(id="chat")
                yield ReadOnlyBanner(id="read-only")
                yield PromptInput(blink=self.blink, id="prompt")
            yield MemoryInspector(blink=self.blink, id="inspector")
        yield StatusBar(id="status")
        yield Footer()

    @property
    def chat(self) -> ChatView:
        """The conversation view."""
        return self.query_one(ChatView)

    @property
    def inspector(self) -> MemoryInspector:
        """The memory panel."""
        return self.query_one(MemoryInspector)

    @property
    def status(self) -> StatusBar:
        """The status line."""
        return self.query_one(StatusBar)

    @property
    def prompt(self) -> PromptInput:
        """The message box."""
        return self.query_one(PromptInput)

    def on_mount(self) -> None:
        """Show the screen at once; open memory and reach the model in the background."""
        self.inspector.display = False
        openai = self.config.model.provider == "openai"
        self.status.set(
            model=self.config.model.name if openai else self.config.ollama.model,
            server_label="server" if openai else "ollama",
        )
        for note in self.config_notes:
            self.notify(note, title="Config", timeout=20)
        self.prompt.last_message = self.turns.editable_message
        self.prompt.before_walk = self.turns.follow_erase
        self.prompt.focus()
        # Another process (`memchat memory …`, a second window) may write the store: the
        # count (and an open inspector) follow within this long (found by a new user).
        self.set_interval(RECOUNT_EVERY_S, self._recount)
        self.call_after_refresh(
            lambda: self.run_worker(self._start(), name="startup", group="startup")
        )

    async def _start(self) -> None:
        await self.startup.run()
        if self.demo_pause is not None and self.runtime is not None:
            from tui.demo import play_demo

            self.run_worker(play_demo(self, self.demo_pause), group="demo")

    async def on_unmount(self) -> None:
        """Close the store so nothing is left half-written."""
        if self.runtime is not None:
            await self.runtime.memory.close()
            self.runtime.open_here.close()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notification, always as plain text.

        Notifications carry error messages, keys, file names and model names; Textual would
        parse them as markup (a `[/]` ends the app). Every notify, from any widget or screen,
        ends here, so `markup` is ignored and control characters are made visible.
        """
        shown = (visible(message), visible(title), severity)
        now = time.monotonic()
        if self._showing.get(shown, 0.0) > now:
            # The same notice, still on screen: one each time a queued message was sent
            # ("Sent after the current reply…") stacked thousands of toasts from a pasted
            # page, and under that load Textual mounted some already expired, whose timers
            # (a negative delay) spin without yielding: the app froze (an adversary).
            return
        if len(self._showing) > _NOTICES_KEPT:
            self._showing = {k: until for k, until in self._showing.items() if until > now}
        self._showing[shown] = now + (self.NOTIFICATION_TIMEOUT if timeout is None else timeout)
        self._toasts_above_the_prompt()
        super().notify(shown[0], title=shown[1], severity=severity, timeout=timeout, markup=False)

    def _toasts_above_the_prompt(self) -> None:
        """Toasts sit above the message box, not on it and the status line.

        Textual keeps one row free at the bottom, for its footer: a new user saw notices
        cover the status line and the box's lower border (the box grows as one types).
        """
        # Before the first screen, or its chat, is up: where Textual puts them.
        with suppress(NoMatches, ScreenStackError, IndexError):
            screen = self.screen
            if screen is not self.screen_stack[0] or not self.chat.region:
                return  # a dialog's toasts go where Textual puts them
            rack = screen.query_one("#textual-toastrack")
            rack.styles.margin = (0, 0, max(1, screen.size.height - self.chat.region.bottom), 0)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Command palette entries: Textual's, then memchat's."""
        yield from super().get_system_commands(screen)
        yield from palette_commands(self)

    # -- keys and commands ---------------------------------------------------------------

    def run_ui_command(self, command: str) -> None:
        """/new, /sessions, /model, /help, /incognito."""
        actions = {
            "/new": self.action_new_session,
            "/sessions": self.action_switch_session,
            "/model": self.action_switch_model,
            "/help": self.action_help,
            "/incognito": self.action_toggle_incognito,
        }
        actions[command]()

    async def action_quit(self) -> None:
        """Quit; while a reply is written, only when asked twice (`Turns.quit_question`)."""
        question = self.turns.quit_question()
        if question is not None:
            self.notify(question, title="Quit?", severity="warning", timeout=10)
            return
        if not self.turns.running:
            self.exit()
            return
        # In a worker: the stopped turn updates the chat, which this handler would block.
        self.run_worker(self._quit_after_turn(), group="quitting", exclusive=True)

    async def _quit_after_turn(self) -> None:
        await self.turns.stop_for_quitting()
        self.exit()

    def action_help_quit(self) -> None:
        """Ctrl+C where nothing copies: say how to quit (Textual's hint, without markup)."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(f"Press {key} to quit the app", title="Do you want to quit?")
                return

    def action_help(self) -> None:
        """F1: keys and commands."""
        from tui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.config.memory.retention_days.conversation))

    def action_copy_last(self) -> None:
        """F3: the last reply to the clipboard."""
        reply = self.chat.last_reply
        if reply is None or not reply.text:
            self.notify("No reply to copy yet", severity="warning")
            return
        self.copy_to_clipboard(reply.text)
        self.notify("Last reply copied")

    def action_stop(self) -> None:
        """Esc: stop the streaming reply, keeping what arrived."""
        self.turns.stop()

    def action_toggle_inspector(self) -> None:
        """F2: the memory panel, opened with its search focused, or hidden."""
        self.memory_view.toggle_inspector()

    def action_widen_inspector(self) -> None:
        """F5: the memory panel across the whole window (each memory's text in full), or back."""
        self.memory_view.widen_inspector()

    def action_toggle_incognito(self) -> None:
        """F4: stop (or resume) auto-saving this session's messages."""
        self.chats.toggle_incognito()

    def action_new_session(self) -> None:
        """Ctrl+N: a fresh conversation."""
        self.chats.new()

    def action_switch_session(self) -> None:
        """Resume an earlier conversation."""
        self.chats.pick()

    def action_search_chats(self) -> None:
        """Ctrl+F: search every past chat and open one at the message found."""
        self.chats.search()

    def action_switch_model(self) -> None:
        """Choose an installed model (written to the config)."""
        self.models.pick()

    def action_pull_model(self) -> None:
        """Download a model with a progress bar."""
        self.models.pull()

    def action_toggle_thinking(self) -> None:
        """Ask thinking models to think first, or not."""
        self.models.toggle_thinking()

    # -- messages from the widgets -------------------------------------------------------

    def on_prompt_input_submitted(self, message: PromptInput.Submitted) -> None:
        """A message or a command from the prompt."""
        self.turns.submit(message.text, edit=message.edit, edits=message.edits)

    def on_assistant_message_action_requested(
        self, message: AssistantMessage.ActionRequested
    ) -> None:
        """Continue or regenerate a stopped reply."""
        self.turns.continue_or_regenerate(message.action)
        # The button goes; left on it, the focus took what was typed next nowhere
        # (found by an adversary).
        self.prompt.focus()

    def stopped_reply_action(self, action: Literal["continue", "regenerate"]) -> None:
        """The last reply's Continue or Regenerate, from the palette, if it offers them."""
        replies = list(self.chat.query(AssistantMessage))
        if not replies or not replies[-1].has_class("stopped"):
            self.notify(
                "Only a stopped or failed reply can be continued or regenerated (Esc stops one)"
            )
            return
        replies[-1].remove_class("stopped")
        self.turns.continue_or_regenerate(action)
        self.prompt.focus()

    def on_read_only_banner_switch_model(self, message: ReadOnlyBanner.SwitchModel) -> None:
        """The read-only chat's way out: choose another model."""
        self.models.pick()

    async def on_event(self, event: events.Event) -> None:
        """Typing with a message focused goes to the prompt, in the order typed.

        The focus moves before the key is handed on, so every key after it goes to the
        prompt too. Handed on through the conversation (`ChatView.TypedAway`), the keys
        still on their way were overtaken by Enter: a new user's "what time is Baraka
        daycare pickup and who collects him …" was sent cut after "pickup".
        """
        if isinstance(event, events.Key | events.Paste) and not event.is_forwarded:
            self._typing_into_the_prompt(event)
        await super().on_event(event)

    def _typing_into_the_prompt(self, event: events.Key | events.Paste) -> None:
        focused = self.focused
        if focused is None or focused is self.prompt or not self.prompt.display:
            return
        if not any(isinstance(node, ChatView) for node in focused.ancestors_with_self):
            return
        if isinstance(event, events.Key) and (
            not event.is_printable
            or event.character is None
            # A key the focused message binds keeps its meaning ("c" copies it).
            or event.key in self.screen.active_bindings
        ):
            return
        self.screen.set_focus(self.prompt)

    def on_chat_view_typed_away(self, message: ChatView.TypedAway) -> None:
        """Text typed in the conversation: into the prompt, which takes the focus."""
        self.prompt.focus()
        self.prompt.insert(message.text)

    def on_memory_inspector_entry_selected(self, message: MemoryInspector.EntrySelected) -> None:
        """Open the detail dialog."""
        self.memory_view.open_entry(message.entry, message.mode)

    def on_memory_inspector_loaded(self, message: MemoryInspector.Loaded) -> None:
        """Reading the store may have met damaged rows or a torn file: say so, once.

        The count follows what the inspector shows: an undone forget left it one short
        until the next message (found by a new user).
        """
        self.memory_view.show_warnings()
        # A function, not a coroutine: an exclusive worker cancelled before it starts
        # would leave a coroutine never awaited (a warning in the demo's test).
        counting: Worker[None] = self.run_worker(
            self._refresh_count, group="memory-count", exclusive=True
        )
        del counting  # named for its type: the worker runs on its own

    def _recount(self) -> None:
        if self.runtime is not None and not self.turns.running:
            counting: Worker[None] = self.run_worker(
                self._refresh_count, group="memory-count", exclusive=True
            )
            del counting  # named for its type: the worker runs on its own

    async def _refresh_count(self) -> None:
        await unless_quitting(self, self.memory_view.refresh_count())
