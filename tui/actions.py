"""What the app does: start-up checks, turns, Esc, toggles, palette commands.

Kept apart from `tui/app.py`, which only composes, binds keys and routes messages.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Literal

from textual.app import App
from textual.notifications import SeverityLevel

from agent.errors import AgentError
from agent.model import ModelError, ModelNotFoundError, ServerUnavailableError
from memory.errors import MemoryStoreError
from memory.wording import memories
from tui.plain import visible
from tui.quitting import unless_quitting
from tui.turn_view import Outcome, TurnView
from tui.widgets.chat_view import ChatView
from tui.widgets.memory_inspector import MemoryInspector
from tui.widgets.prompt_input import PromptInput
from tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from agent.config import Config
    from agent.runtime import Runtime
    from agent.sessions import Session

CONTINUE_PROMPT = "Continue from where you stopped."


class AppActions(App[None]):
    """Behaviour of `MemchatApp`."""

    config: Config
    runtime: Runtime | None
    ready: asyncio.Event
    shown_warnings: set[str]
    """Store warnings already notified (each is shown once per run)."""
    queued: deque[str]
    """Messages sent while a reply was running, oldest first: each gets its own turn."""
    read_only: str | None
    """Why this chat cannot go on (its model is gone), or None."""
    _blink: bool
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

    # -- notifications -------------------------------------------------------------------

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
        super().notify(
            visible(message),
            title=visible(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    def action_help_quit(self) -> None:
        """Ctrl+C where nothing copies: say how to quit (Textual's hint, without markup)."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(f"Press {key} to quit the app", title="Do you want to quit?")
                return

    def show_memory_warnings(self, extra: Iterable[str] = ()) -> None:
        """Notify the problems the store met while reading (and `extra`), each once."""
        found = list(extra)
        if self.runtime is not None:
            # Every backend has `warnings`; a double or plug-in without it has none to show.
            found += getattr(self.runtime.memory, "warnings", [])
        for warning in found:
            if warning not in self.shown_warnings:
                self.shown_warnings.add(warning)
                self.notify(warning, title="Memory", severity="warning", timeout=30)

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
        self.show_memory_warnings(runtime.warnings)
        if runtime.embeddings.startswith("embeddings:"):
            self.run_worker(unless_quitting(self, self.calibrate_embeddings()), group="calibrate")
        self.run_worker(unless_quitting(self, self.run_hygiene()), group="hygiene", exclusive=True)
        minutes = self.config.memory.hygiene_interval_minutes
        if minutes:
            self.set_interval(
                minutes * 60,
                lambda: self.run_worker(
                    unless_quitting(self, self.run_hygiene()), group="hygiene", exclusive=True
                ),
            )
        await self.refresh_memory_count()
        await self.check_model()
        self.set_interval(15, self.poll_server_on_timer)
        self.ready.set()

    async def check_model(self) -> None:
        """Reach the model; show the first-run screens when it is not there."""
        assert self.runtime is not None
        model = self.runtime.model
        try:
            await model.describe()
        except ServerUnavailableError as exc:
            from tui.screens.server_down import ServerDownScreen

            self.status.set(server="not running")
            self.push_screen(
                ServerDownScreen(exc.host, self.probe_server, exc.server, exc.hint),
                callback=self._after_server_screen,
            )
            return
        except ModelNotFoundError as exc:
            from tui.screens.model_pull import ModelPullScreen

            self.status.set(server="model missing")
            if self.config.model.provider == "openai":
                # Nothing to pull: pick one of the models the server has.
                self.notify(str(exc), severity="warning", timeout=10)
                await self.run_action("switch_model")
                return
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

    async def poll_server_on_timer(self) -> None:
        """`poll_server` from the timer, which can fire while the app shuts down."""
        await unless_quitting(self, self.poll_server())

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

    async def calibrate_embeddings(self) -> None:
        """Calibrate the embedding model now, saying so, instead of in the first recall."""
        runtime = self.runtime
        if runtime is None:
            return
        label = runtime.embeddings
        self.status.set(embeddings=f"{label} · calibrating")
        ready = await runtime.memory.calibrate()
        if self.status.state.embeddings == f"{label} · calibrating":
            # Unless a recall has since said something newer (it failed, say).
            failed = f"keyword-only: {label.removeprefix('embeddings: ')} could not be calibrated"
            self.status.set(embeddings=label if ready else failed)

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
                f"Memory hygiene removed {memories(len(report.removed))} "
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
        """The memory count in the status bar: memories in effect, not superseded history.

        All namespaces, as the inspector's "all" view (history is counted there on demand).
        """
        if self.runtime is not None and self.runtime.memory.capabilities.persistent:
            try:
                count = await self.runtime.memory.count(include_superseded=False)
                self.status.set(memories=count)
            except MemoryStoreError:
                pass

    # -- turns ---------------------------------------------------------------------------

    @property
    def turn_running(self) -> bool:
        """A reply is being produced."""
        return any(w.group == "turn" and not w.is_finished for w in self.workers)

    def start_turn(self, text: str, *, resend: bool = False, edit: bool = False) -> None:
        """Run a turn in a worker so the interface never waits for the model."""
        self.run_worker(self._turns(text, resend, edit), group="turn", exclusive=True)

    def editable_message(self) -> str | None:
        """The conversation's last message, which Up in an empty prompt edits (or None)."""
        if self.runtime is None or self.turn_running or self.read_only is not None:
            return None
        messages = self.runtime.session.messages
        return next((m.content for m in reversed(messages) if m.role == "user"), None)

    async def _turns(self, text: str, resend: bool, edit: bool = False) -> None:
        """This turn, then one for each message queued meanwhile (a fast typist's lines)."""
        try:
            await self.run_turn(text, resend, edit)
            while self.queued:
                await self.run_turn(self.queued.popleft())
        except asyncio.CancelledError:
            # Esc stops the reply; what was queued behind it goes back to the input, unsent.
            self.put_back()
            raise

    def put_back(self, *texts: str) -> None:
        """Return unsent messages, then every queued one, to the input: none is ever lost.

        What the user typed since stays below them (`PromptInput.restore`).
        """
        unsent = [*texts, *self.queued]
        self.queued.clear()
        if unsent and self.prompt.restore(*unsent):
            self.notify("Unsent messages are back in the input, above what you typed since.")

    async def run_turn(self, text: str, resend: bool = False, edit: bool = False) -> None:
        """Stream one turn into the chat and keep the inspector and status current.

        An `edit` first takes the last message and what answered it off the screen.
        """
        # Imported here: agent.turn_state brings the tools and their schemas, which the
        # first paint does not need.
        from agent.turn_state import last_user_index

        assert self.runtime is not None
        session = self.runtime.session
        view = TurnView(self.chat)
        if edit:
            edited = last_user_index(session.messages)
            if edited >= 0 and not await self.chat.remove_from(session.messages[edited].content):
                # Not on screen as sent: show the conversation as the edit leaves it.
                await self.chat.show_transcript(session.messages[:edited])
        retry = not edit and self.runtime.agent.is_retry(text, session)
        await view.start(None if resend else text, retry=retry)
        self.status.set(warning=None)
        try:
            turn = self.runtime.agent.turn(text, session, resend=resend, edit=edit)
            async for event in turn:
                outcome = await view.apply(event)
                await self._apply(outcome, text, view)
                if edit and outcome.failure is not None and not view.replies:
                    await self._edit_unanswered(session)
        except asyncio.CancelledError:
            if not await view.stopped():
                await view.withdraw()
                self.put_back(text)
                if edit:
                    await self._edit_unanswered(session)
            raise
        self.run_worker(unless_quitting(self, self._after_background()), group="background")

    async def _edit_unanswered(self, session: Session) -> None:
        """An edit stopped or failed before any reply: the old turn comes back.

        The edited text is back in the prompt, still as an edit, to send again or Esc.
        """
        assert self.runtime is not None
        try:
            await self.runtime.agent.undo_edit(session)
        except (OSError, MemoryStoreError) as exc:
            self.notify(f"The replaced message could not be put back: {exc}", severity="error")
        await self.chat.show_transcript(session.messages)
        self.prompt.resume_edit()

    async def _apply(self, outcome: Outcome, text: str, view: TurnView) -> None:
        if outcome.used_ids is not None:
            self.inspector.mark_used(outcome.used_ids)
        if outcome.recall_degraded is not None and self.runtime is not None:
            # The start-up label names the embedder; a recall that could not use it says so
            # until one can again (the server came back), never silently keyword-only.
            degraded = outcome.recall_degraded
            self.status.set(embeddings=degraded or self.runtime.embeddings)
        if outcome.memory_changed:
            self.inspector.reload()
            await self.refresh_memory_count()
        if outcome.notice is not None:
            level = outcome.notice.level
            self.notify(outcome.notice.text, severity="information" if level == "info" else level)
        if outcome.stats is not None:
            stats = outcome.stats
            self.status.set(
                warning="reply stopped at the length limit" if outcome.length_stop else None
            )
            if stats.context_used:  # a stream stopped early reports no figures
                self.status.set(
                    context_used=stats.context_used,
                    num_ctx=stats.num_ctx,
                    tokens_per_second=stats.tokens_per_second,
                    load_seconds=stats.load_duration_s,
                )
        if outcome.failure is not None:
            failure = outcome.failure
            self.notify(failure.message, title="The reply failed", severity="error", timeout=15)
            if failure.error == "server_unavailable":
                self.status.set(server="not running")
            elif failure.error == "model_not_found":
                self.status.set(server="model missing")
            if not view.replies:
                await view.withdraw()
                # The queue stops here: what follows would likely fail the same way.
                self.put_back(text)

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
