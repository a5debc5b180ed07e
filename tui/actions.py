"""What the app does: start-up checks, turns, Esc, toggles, palette commands.

Kept apart from `tui/app.py`, which only composes, binds keys and routes messages.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal, cast

from textual.app import App, SystemCommand

from agent.errors import AgentError
from agent.model import ModelError, ModelNotFoundError, ServerUnavailableError
from memory.errors import MemoryStoreError
from tui.turn_view import Outcome, TurnView
from tui.widgets.chat_view import ChatView
from tui.widgets.memory_inspector import MemoryInspector
from tui.widgets.prompt_input import PromptInput
from tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from agent.config import Config
    from agent.runtime import Runtime, ServedModel
    from memory.entry import MemoryEntry
    from tui.screens.memory_detail import DetailResult

UI_COMMANDS = ("/new", "/sessions", "/model", "/help", "/incognito")
CONTINUE_PROMPT = "Continue from where you stopped."


class AppActions(App[None]):
    """Behaviour of `MemchatApp`."""

    config: Config
    runtime: Runtime | None
    ready: asyncio.Event
    demo_pause: float | None
    _runtime_factory: Callable[[Config], Awaitable[Runtime]]

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

    # -- start-up ------------------------------------------------------------------------

    async def start_runtime(self) -> None:
        """Open memory and the model; report what is missing without stopping the app."""
        try:
            runtime = await self._runtime_factory(self.config)
        except (AgentError, MemoryStoreError, OSError) as exc:
            self.notify(f"memchat could not start: {exc}", severity="error", timeout=60)
            return
        self.runtime = runtime
        self.inspector.attach(
            runtime.memory, runtime.session.id, runtime.memory_problem, runtime.agent.namespace
        )
        self.status.set(
            embeddings=runtime.embeddings,
            memory_off=not runtime.memory.capabilities.persistent,
            incognito=runtime.session.incognito,
        )
        if runtime.memory_problem:
            self.notify(runtime.memory_problem, title="Memory is off", severity="error", timeout=60)
        for warning in runtime.warnings:
            self.notify(warning, title="Memory", severity="warning", timeout=30)
        self.run_worker(self.run_hygiene(), group="hygiene", exclusive=True)
        minutes = self.config.memory.hygiene_interval_minutes
        if minutes:
            self.set_interval(
                minutes * 60,
                lambda: self.run_worker(self.run_hygiene(), group="hygiene", exclusive=True),
            )
        await self.refresh_memory_count()
        await self.check_model()
        self.set_interval(15, self.poll_server)
        self.ready.set()
        if self.demo_pause is not None:
            self.run_worker(self.play_demo(self.demo_pause), group="demo")

    async def check_model(self) -> None:
        """Reach the model; show the first-run screens when it is not there."""
        assert self.runtime is not None
        model = self.runtime.model
        try:
            await model.describe()
        except ServerUnavailableError as exc:
            from tui.screens.ollama_down import OllamaDownScreen

            self.status.set(server="not running")
            self.push_screen(
                OllamaDownScreen(exc.host, str(exc), self.probe_server),
                callback=self._after_server_screen,
            )
            return
        except ModelNotFoundError:
            from tui.screens.model_pull import ModelPullScreen

            self.status.set(server="model missing")
            self.push_screen(
                ModelPullScreen(model, model.name, missing=True), callback=self._after_pull
            )
            return
        except ModelError as exc:
            self.notify(str(exc), severity="error")
            return
        self.status.set(server="connected", model=model.name)

    async def probe_server(self) -> bool:
        """True once something answers (a missing model is handled next)."""
        assert self.runtime is not None
        try:
            await self.runtime.model.describe()
        except ServerUnavailableError:
            return False
        except ModelError:
            return True
        return True

    def _after_server_screen(self, back: bool | None) -> None:
        if back:
            self.run_worker(self.check_model(), group="startup")
        else:
            self.notify(
                "No model: the memory inspector (F2) and /remember, /recall, /forget still work.",
                timeout=10,
            )

    def _after_pull(self, pulled: str | None) -> None:
        if pulled:
            self.notify(f"Pulled {pulled}")
            self.run_worker(self.check_model(), group="startup")

    async def poll_server(self) -> None:
        """Keep the server state and the model's VRAM share current."""
        if self.runtime is None:
            return
        model = self.runtime.model
        try:
            loaded = await model.running()
        except ServerUnavailableError:
            self.status.set(server="not running", gpu_share=None)
            return
        except ModelError:
            return
        mine = next((m for m in loaded if m.name == model.name), None)
        self.status.set(server="connected", gpu_share=None if mine is None else mine.gpu_share)

    async def run_hygiene(self) -> None:
        """Retention and budgets, then the snapshot; report what went."""
        from agent.maintenance import maintain

        if self.runtime is None:
            return
        try:
            report, _ = await maintain(self.runtime.memory, self.config.memory)
        except (MemoryStoreError, OSError) as exc:
            self.notify(f"Memory hygiene failed: {exc}", severity="error")
            return
        if report is not None and report.removed:
            self.notify(
                f"Memory hygiene removed {len(report.removed)} entries "
                "(the inspector's 'deleted' filter lists them)"
            )
            self.inspector.reload()
            await self.refresh_memory_count()

    async def _after_background(self) -> None:
        """Show what consolidation stored once it is done (it never delays the reply)."""
        if self.runtime is None:
            return
        before = len(self.runtime.agent.consolidated)
        await self.runtime.agent.drain()
        if len(self.runtime.agent.consolidated) > before:
            self.inspector.reload()
            await self.refresh_memory_count()

    async def refresh_memory_count(self) -> None:
        """The memory count in the status bar."""
        if self.runtime is not None and self.runtime.memory.capabilities.persistent:
            try:
                self.status.set(memories=await self.runtime.memory.count())
            except MemoryStoreError:
                pass

    # -- turns ---------------------------------------------------------------------------

    @property
    def turn_running(self) -> bool:
        """A reply is being produced."""
        return any(w.group == "turn" and not w.is_finished for w in self.workers)

    def submit(self, text: str) -> None:
        """Route a prompt: UI commands here, everything else to the agent."""
        head = text.strip().split(" ", 1)[0]
        if head in UI_COMMANDS:
            self.run_ui_command(head)
            return
        if self.runtime is None:
            self.notify("Still starting up; try again in a moment.", severity="warning")
            self.prompt.restore(text)
            return
        if self.turn_running:
            self.notify("A reply is still streaming; Esc stops it.", severity="warning")
            self.prompt.restore(text)
            return
        self.start_turn(text)

    def start_turn(self, text: str, *, resend: bool = False) -> None:
        """Run a turn in a worker so the interface never waits for the model."""
        self.run_worker(self.run_turn(text, resend), group="turn", exclusive=True)

    async def run_turn(self, text: str, resend: bool = False) -> None:
        """Stream one turn into the chat and keep the inspector and status current."""
        assert self.runtime is not None
        view = TurnView(self.chat)
        await view.start(None if resend else text)
        self.status.set(warning=None)
        try:
            async for event in self.runtime.agent.turn(text, self.runtime.session, resend=resend):
                await self._apply(await view.apply(event), text, view)
        except asyncio.CancelledError:
            if not await view.stopped():
                self.prompt.restore(text)
            raise
        self.run_worker(self._after_background(), group="background")

    async def _apply(self, outcome: Outcome, text: str, view: TurnView) -> None:
        if outcome.used_ids is not None:
            self.inspector.mark_used(outcome.used_ids)
        if outcome.memory_changed:
            self.inspector.reload()
            await self.refresh_memory_count()
        if outcome.notice is not None:
            level = outcome.notice.level
            self.notify(outcome.notice.text, severity="information" if level == "info" else level)
        if outcome.stats is not None:
            stats = outcome.stats
            self.status.set(
                context_used=stats.context_used,
                num_ctx=stats.num_ctx,
                tokens_per_second=stats.tokens_per_second,
                load_seconds=stats.load_duration_s,
                warning="reply stopped at the length limit" if outcome.length_stop else None,
            )
        if outcome.failure is not None:
            failure = outcome.failure
            self.notify(failure.message, title="The reply failed", severity="error", timeout=15)
            if failure.error == "server_unavailable":
                self.status.set(server="not running")
            elif failure.error == "model_not_found":
                self.status.set(server="model missing")
            if not view.replies:
                self.prompt.restore(text)

    def action_stop(self) -> None:
        """Esc: stop the streaming reply, keeping what arrived."""
        if self.turn_running:
            self.workers.cancel_group(self, "turn")

    def continue_or_regenerate(self, action: Literal["continue", "regenerate"]) -> None:
        """Buttons under a stopped reply."""
        if self.runtime is None or self.turn_running:
            return
        if action == "continue":
            self.start_turn(CONTINUE_PROMPT)
            return
        last = next(
            (m.content for m in reversed(self.runtime.session.messages) if m.role == "user"), None
        )
        if last is not None:
            self.start_turn(last, resend=True)

    async def play_demo(self, pause: float) -> None:
        """Play the memory demo as the user, pausing so each step can be watched."""
        from textual.widgets import Checkbox

        from tui.demo import STEPS

        assert self.runtime is not None
        self.inspector.display = True
        self.inspector.reload()
        for number, step in enumerate(STEPS, start=1):
            self.notify(
                step.explain,
                title=f"Memory demo {number}/{len(STEPS)}",
                timeout=max(6.0, pause * 2),
            )
            await asyncio.sleep(pause)
            self.submit(step.say)
            while self.turn_running:
                await asyncio.sleep(0.05)
            if step.show_history:
                self.inspector.query_one("#inspector-superseded", Checkbox).value = True
            self.inspector.reload()
            await asyncio.sleep(pause)
        namespace = self.runtime.agent.namespace
        self.notify(
            f"Demo finished. Its memories stay in namespace {namespace!r}: "
            f"memchat memory list --all --namespace {namespace}",
            title="Memory demo",
            timeout=30,
        )

    # -- commands and toggles ------------------------------------------------------------

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

    def action_toggle_inspector(self) -> None:
        """F2: show or hide the memory panel."""
        panel = self.inspector
        panel.display = not panel.display
        if panel.display:
            panel.reload()

    def action_help(self) -> None:
        """F1: keys and commands."""
        from tui.screens.help import HelpScreen

        self.push_screen(HelpScreen())

    def action_copy_last(self) -> None:
        """F3: the last reply to the clipboard."""
        reply = self.chat.last_reply
        if reply is None or not reply.text:
            self.notify("No reply to copy yet", severity="warning")
            return
        self.copy_to_clipboard(reply.text)
        self.notify("Last reply copied")

    def action_toggle_incognito(self) -> None:
        """F4: stop (or resume) auto-saving this session's messages."""
        if self.runtime is None:
            return
        session = self.runtime.session
        session.incognito = not session.incognito
        self.status.set(incognito=session.incognito)
        self.notify(
            "Incognito: messages are not saved to memory"
            if session.incognito
            else "Incognito off: messages are saved to memory again"
        )

    def action_new_session(self) -> None:
        """Ctrl+N: a fresh conversation."""
        if self.runtime is None or self.turn_running:
            return
        session = self.runtime.new_session()
        self.inspector.session_id = session.id
        self.sub_title = ""
        self.run_worker(self._clear_chat())

    async def _clear_chat(self) -> None:
        await self.chat.remove_children()

    def action_switch_session(self) -> None:
        """Resume an earlier conversation."""
        from tui.screens.pickers import PickerScreen

        if self.runtime is None:
            return
        options = [
            (info.id, f"{info.updated_at:%Y-%m-%d %H:%M}  {info.title} ({info.message_count})")
            for info in self.runtime.sessions.list()
        ]
        self.push_screen(
            PickerScreen("Resume a session", options, "No sessions yet"), callback=self._resume
        )

    def _resume(self, session_id: str | None) -> None:
        if session_id is None or self.runtime is None:
            return
        session = self.runtime.sessions.load(session_id)
        session.incognito = self.runtime.session.incognito
        self.runtime.session = session
        self.inspector.session_id = session.id
        self.sub_title = session.title
        self.run_worker(self.chat.show_transcript(session.messages))

    def action_switch_model(self) -> None:
        """Choose an installed model (written to the config)."""
        self.run_worker(self._pick_model())

    async def _pick_model(self) -> None:
        from tui.screens.pickers import PickerScreen

        if self.runtime is None:
            return
        try:
            names = await self.runtime.model.list_models()
        except ModelError as exc:
            self.notify(str(exc), severity="error")
            return
        self.push_screen(
            PickerScreen("Switch model", [(n, n) for n in names], "No models installed: pull one"),
            callback=self.use_model,
        )

    def use_model(self, name: str | None) -> None:
        """Switch the chat model and remember the choice in the config."""
        if name is None or self.runtime is None:
            return
        model = cast("ServedModel", self.runtime.model.with_model(name))
        self.runtime.model = model
        self.runtime.agent.use_model(model)
        self.save_setting("ollama.model", name)
        self.status.set(model=name)
        self.run_worker(self.check_model(), group="startup")

    def save_setting(self, key: str, value: object) -> None:
        """Write one setting back to the config file, keeping the user's comments."""
        from agent.config_file import set_config_value

        try:
            config = set_config_value(key, value)
        except (AgentError, OSError) as exc:
            self.notify(f"Could not save {key}: {exc}", severity="error")
            return
        self.config = config
        if self.runtime is not None:
            self.runtime.config = config
            self.runtime.agent.config = config

    def action_toggle_thinking(self) -> None:
        """Ask thinking models to think first, or not."""
        thinking = not bool(self.config.ollama.think)
        self.save_setting("ollama.think", thinking)
        self.notify(f"Thinking {'on' if thinking else 'off'}")

    def set_keep_alive(self, value: str) -> None:
        """How long Ollama keeps the model loaded after a reply."""
        self.save_setting("ollama.keep_alive", value)
        self.notify(f"Model stays loaded for {value} after a reply")

    async def unload_model(self) -> None:
        """Free the model's memory now."""
        if self.runtime is not None:
            try:
                await self.runtime.model.unload()
                self.notify("Model unloaded")
                self.status.set(gpu_share=None)
            except ModelError as exc:
                self.notify(str(exc), severity="error")

    def action_pull_model(self) -> None:
        """Download a model with a progress bar."""
        from tui.screens.model_pull import ModelPullScreen

        if self.runtime is not None:
            self.push_screen(ModelPullScreen(self.runtime.model), callback=self._after_pull)

    async def export_memory(self) -> None:
        """Write every memory to a private JSON-lines file in the data directory."""
        from agent.paths import data_dir, ensure_private_dir

        if self.runtime is None:
            return
        folder = ensure_private_dir(data_dir() / "exports")
        path = folder / f"memchat-{datetime.now(UTC):%Y%m%d-%H%M%S}.jsonl"
        count = 0
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            async for entry in self.runtime.memory.export():
                stream.write(entry.model_dump_json() + "\n")
                count += 1
        self.notify(f"Exported {count} memories to {path}")

    def open_entry(self, entry: MemoryEntry) -> None:
        """Detail dialog for one memory; its result is applied by the inspector."""
        from tui.screens.memory_detail import MemoryDetailScreen

        def done(result: DetailResult | None) -> None:
            if result is not None:
                self.run_worker(self._apply_detail(result), group="inspector-edit")

        self.push_screen(MemoryDetailScreen(entry), callback=done)

    async def _apply_detail(self, result: DetailResult) -> None:
        await self.inspector.apply(result)
        await self.refresh_memory_count()

    def palette_commands(self) -> Iterable[SystemCommand]:
        """Entries for the command palette."""
        yield SystemCommand("New session", "Start a fresh conversation", self.action_new_session)
        yield SystemCommand(
            "Switch session", "Resume an earlier conversation", self.action_switch_session
        )
        yield SystemCommand("Switch model", "Choose an installed model", self.action_switch_model)
        yield SystemCommand(
            "Pull a model", "Download a model from Ollama's library", self.action_pull_model
        )
        yield SystemCommand(
            "Toggle thinking", "Ask thinking models to think first", self.action_toggle_thinking
        )
        yield SystemCommand(
            "Keep model loaded 5 min", "ollama keep_alive 5m", lambda: self.set_keep_alive("5m")
        )
        yield SystemCommand(
            "Keep model loaded 30 min", "ollama keep_alive 30m", lambda: self.set_keep_alive("30m")
        )
        yield SystemCommand(
            "Unload model now", "Free VRAM now", lambda: self.run_worker(self.unload_model())
        )
        yield SystemCommand(
            "Toggle memory inspector",
            "Show or hide the memory panel (F2)",
            self.action_toggle_inspector,
        )
        yield SystemCommand(
            "Toggle incognito",
            "Stop saving this session to memory (F4)",
            self.action_toggle_incognito,
        )
        yield SystemCommand(
            "Export memory",
            "Write every memory to a JSON-lines file",
            lambda: self.run_worker(self.export_memory()),
        )
        yield SystemCommand("Copy last reply", "To the clipboard (F3)", self.action_copy_last)
