"""The app's commands: toggles, sessions, models, settings, export, the palette.

Split from `tui/actions.py` (start-up and turns); `MemchatApp` inherits both.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from textual.app import SystemCommand

from agent.errors import AgentError
from agent.model import ModelError, same_model
from memory.errors import MemoryStoreError
from memory.wording import counted, memories
from tui.actions import AppActions
from tui.plain import visible
from tui.widgets.read_only_banner import ReadOnlyBanner

if TYPE_CHECKING:
    from agent.runtime import ServedModel
    from agent.session_search import SessionHit
    from memory.entry import MemoryEntry
    from tui.screens.memory_detail import DetailResult


UI_COMMANDS = ("/new", "/sessions", "/model", "/help", "/incognito")


class PaletteActions(AppActions):
    """Toggles and commands (keys, slash commands and the command palette)."""

    demo_pause: float | None

    def submit(self, text: str, *, edit: bool = False) -> None:
        """Route a prompt: UI commands here, everything else to the agent.

        With `edit`, the text replaces the conversation's last message and its reply.
        """
        head = text.strip().split(" ", 1)[0]
        if self.read_only is not None and head not in UI_COMMANDS:
            self.notify(self.read_only, severity="warning")
            self.put_back(text)
            return
        if edit:
            if self.runtime is None or self.turn_running:
                self.notify("Wait for the reply to finish, then edit again.", severity="warning")
                self.put_back(text)
                return
            self.start_turn(text, edit=True)
            return
        if head in UI_COMMANDS:
            self.run_ui_command(head)
            return
        if self.runtime is None:
            self.notify("Still starting up; try again in a moment.", severity="warning")
            self.put_back(text)
            return
        if self.turn_running:
            # Queued, not refused: putting it back would overwrite what is typed meanwhile.
            self.queued.append(text)
            self.notify("Sent after the current reply (Esc stops it and returns the queue).")
            return
        self.start_turn(text)

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
        """F2: show the memory panel with its search focused, or hide it and focus the prompt."""
        panel = self.inspector
        focused = self.focused
        panel.display = not panel.display
        if panel.display:
            panel.reload()
            # Opened to look something up: what the user types next is a search, not a
            # chat message sent (and saved) by mistake.
            panel.focus_search()
        elif focused is not None and panel in focused.ancestors_with_self:
            # A hidden widget keeps the focus: what the user typed next would go nowhere.
            self.prompt.focus()

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
        self.set_read_only(None)
        # A focused message is about to go: the prompt, not nothing, takes the keys.
        self.prompt.focus()
        self.inspector.session_id = session.id
        self.sub_title = ""
        self.run_worker(self._clear_chat())

    async def _clear_chat(self) -> None:
        await self.chat.remove_children()

    def action_switch_session(self) -> None:
        """Resume an earlier conversation."""
        if self.runtime is not None:
            self.run_worker(self._pick_session(), group="sessions", exclusive=True)

    async def _pick_session(self) -> None:
        from tui.screens.pickers import PickerScreen

        if self.runtime is None:
            return
        # Listing reads every session file: off the event loop, so a huge folder or a slow
        # disk never freezes the interface.
        try:
            infos = await asyncio.to_thread(self.runtime.sessions.list)
        except OSError as exc:
            self.notify(f"Could not list the sessions: {exc}", severity="error")
            return
        options = [
            (
                info.id,
                f"{info.updated_at:%Y-%m-%d %H:%M}  {info.title} "
                f"({counted(info.message_count, 'message', 'messages')})",
            )
            for info in infos
        ]
        self.push_screen(
            PickerScreen("Resume a session", options, "No sessions yet"), callback=self._resume
        )

    def _resume(self, session_id: str | None) -> None:
        self.prompt.focus()
        if session_id is not None and self.runtime is not None:
            self.run_worker(self._resume_session(session_id), group="sessions", exclusive=True)

    def action_search_chats(self) -> None:
        """Ctrl+F: search every past chat and open one at the message found."""
        from tui.screens.chat_search import ChatSearchScreen

        if self.runtime is not None and not isinstance(self.screen, ChatSearchScreen):
            self.push_screen(ChatSearchScreen(self.runtime.sessions), callback=self._open_hit)

    def _open_hit(self, hit: SessionHit | None) -> None:
        self.prompt.focus()
        if hit is None or self.runtime is None:
            return
        if self.turn_running:
            self.notify("Wait for the reply to finish, then open the chat.", severity="warning")
            return
        work = self._resume_session(hit.session_id, at=hit.index)
        self.run_worker(work, group="sessions", exclusive=True)

    async def _resume_session(self, session_id: str, at: int | None = None) -> None:
        """Open a saved chat (at message `at`, scrolled to and marked, when given)."""
        if self.runtime is None:
            return
        try:
            session = await asyncio.to_thread(self.runtime.sessions.load, session_id)
        except (OSError, ValueError) as exc:
            self.notify(f"Could not open the session: {exc}", severity="error")
            return
        session.incognito = self.runtime.session.incognito
        self.runtime.session = session
        self.inspector.session_id = session.id
        self.sub_title = visible(session.title)
        shown = await self.chat.show_transcript(session.messages)
        if at is not None and at in shown:
            self.chat.show_found(shown[at])
        await self._check_chat_model(session.model)

    async def _check_chat_model(self, wrote: str | None) -> None:
        """A chat whose model is no longer installed is read-only until another is chosen.

        Going on with another model silently would put words in a different model's
        mouth; when the server cannot be asked, the chat stays open as it is.
        """
        self.set_read_only(None)
        if wrote is None or self.runtime is None:
            return
        try:
            installed = await self.runtime.model.list_models()
        except ModelError:
            return
        if any(same_model(wrote, name) for name in installed):
            return
        self.set_read_only(
            f"Read-only: this chat was with {wrote}, which is no longer installed. "
            "Switch model to go on with another one, or start a new chat (Ctrl+N)."
        )

    def set_read_only(self, reason: str | None) -> None:
        """Make the chat read-only (the banner says why), or writable again."""
        self.read_only = reason
        self.query_one(ReadOnlyBanner).show(reason)

    def action_switch_model(self) -> None:
        """Choose an installed model (written to the config)."""
        self.run_worker(self._pick_model())

    async def _pick_model(self) -> None:
        from tui.screens.pickers import PickerScreen

        if self.runtime is None:
            return
        try:
            models = await self.runtime.model.describe_installed()
        except ModelError as exc:
            self.notify(str(exc), severity="error")
            return
        self.push_screen(
            PickerScreen(
                "Switch model",
                [(model.name, model.label()) for model in models],
                "No models installed: pull one",
            ),
            callback=self.use_model,
        )

    def use_model(self, name: str | None) -> None:
        """Switch the chat model and remember the choice in the config."""
        self.prompt.focus()
        if name is None or self.runtime is None:
            return
        model = cast("ServedModel", self.runtime.model.with_model(name))
        self.set_read_only(None)
        self.runtime.model = model
        self.runtime.agent.use_model(model)
        openai = self.config.model.provider == "openai"
        self.save_setting("model.name" if openai else "ollama.model", name)
        self.status.set(model=name)
        self.run_worker(self.check_model(), group="startup")

    def save_setting(self, key: str, value: object) -> bool:
        """Write one setting back to the config file, keeping the user's comments.

        A refusal (a hard-linked or unreadable config) is a notification and changes
        nothing, so the app never claims a setting it did not apply.
        """
        from agent.config_file import set_config_value

        try:
            config = set_config_value(key, value)
        except (AgentError, OSError) as exc:
            self.notify(f"Could not save {key}: {exc}", severity="error")
            return False
        self.config = config
        if self.runtime is not None:
            self.runtime.config = config
            self.runtime.agent.config = config
        return True

    def action_toggle_thinking(self) -> None:
        """Ask thinking models to think first, or not."""
        thinking = not bool(self.config.generation.think)
        if self.save_setting("generation.think", thinking):
            self.notify(f"Thinking {'on' if thinking else 'off'}")

    def set_keep_alive(self, value: str) -> None:
        """How long Ollama keeps the model loaded after a reply."""
        if self.save_setting("ollama.keep_alive", value):
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
        """Write every memory to a private JSON-lines file in the data directory.

        The same export as `memchat memory export FILE` (`agent.export_file`): written
        whole or not at all; a failure is a notification.
        """
        from agent.export_file import export_to_file, timestamped_export_path

        if self.runtime is None:
            return
        try:
            path = timestamped_export_path()
            count = await export_to_file(self.runtime.memory, path)
        except (AgentError, OSError, MemoryStoreError) as exc:
            self.notify(f"Export failed, nothing was written: {exc}", severity="error")
            return
        self.notify(f"Exported {memories(count)} to {path}")

    def open_entry(self, entry: MemoryEntry) -> None:
        """Detail dialog for one memory; its result is applied by the inspector."""
        from tui.screens.memory_detail import MemoryDetailScreen

        def done(result: DetailResult | None) -> None:
            if result is not None:
                self.run_worker(self._apply_detail(result), group="inspector-edit")

        self.push_screen(MemoryDetailScreen(entry, blink=self._blink), callback=done)

    async def _apply_detail(self, result: DetailResult) -> None:
        await self.inspector.apply(result)
        await self.refresh_memory_count()

    def palette_commands(self) -> Iterable[SystemCommand]:
        """Entries for the command palette."""
        yield SystemCommand("New session", "Start a fresh conversation", self.action_new_session)
        yield SystemCommand(
            "Switch session", "Resume an earlier conversation", self.action_switch_session
        )
        yield SystemCommand(
            "Search chats", "Find a message in any past chat (Ctrl+F)", self.action_search_chats
        )
        yield SystemCommand("Switch model", "Choose an installed model", self.action_switch_model)
        if self.config.model.provider == "ollama":
            yield from self._ollama_commands()
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

    def _ollama_commands(self) -> Iterable[SystemCommand]:
        # Other servers load, keep and think on their own terms; these would only fail.
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

    async def start_runtime(self) -> None:
        """Start as usual, then play the demo when `memchat demo` asked for it."""
        await super().start_runtime()
        if self.demo_pause is not None and self.runtime is not None:
            self.run_worker(self.play_demo(self.demo_pause), group="demo")

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
