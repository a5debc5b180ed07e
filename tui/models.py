"""The model in the app: switching, pulling, unloading, and the settings saved for it."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from agent.errors import AgentError
from agent.model import ModelError, same_model

if TYPE_CHECKING:
    from agent.runtime import ServedModel
    from tui.app import MemchatApp


class Models:
    """Which model answers, how it runs, and the settings file that remembers it."""

    def __init__(self, app: MemchatApp) -> None:
        self.app = app

    def pick(self) -> None:
        """Choose an installed model (written to the config)."""
        self.app.run_worker(self._pick())

    async def _pick(self) -> None:
        from tui.screens.pickers import PickerScreen

        app = self.app
        if app.runtime is None:
            return
        try:
            installed = await app.runtime.model.describe_installed()
        except ModelError as exc:
            app.notify(str(exc), severity="error")
            return
        in_use = next(
            (m.name for m in installed if same_model(m.name, app.runtime.model.name)), None
        )
        picker = PickerScreen(
            "Switch model",
            [(model.name, model.label()) for model in installed],
            "No models installed: pull one",
            current=in_use,
        )
        app.push_screen(picker, callback=self.use)

    def use(self, name: str | None) -> None:
        """Switch the chat model and remember the choice in the config."""
        app = self.app
        app.prompt.focus()
        if name is None or app.runtime is None:
            return
        model = cast("ServedModel", app.runtime.model.with_model(name))
        app.chats.set_read_only(None)
        app.runtime.model = model
        app.runtime.agent.use_model(model)
        openai = app.config.model.provider == "openai"
        self.save_setting("model.name" if openai else "ollama.model", name)
        app.status.set(model=name)
        app.run_worker(app.startup.check_model(), group="startup")

    def save_setting(self, key: str, value: object) -> bool:
        """Write one setting back to the config file, keeping the user's comments.

        A refusal (a hard-linked or unreadable config) is a notification and changes
        nothing, so the app never claims a setting it did not apply.
        """
        from agent.config_file import set_config_value

        app = self.app
        try:
            config = set_config_value(key, value)
        except (AgentError, OSError) as exc:
            app.notify(f"Could not save {key}: {exc}", severity="error")
            return False
        app.config = config
        if app.runtime is not None:
            app.runtime.config = config
            app.runtime.agent.config = config
        return True

    def toggle_thinking(self) -> None:
        """Ask thinking models to think first, or not."""
        thinking = not bool(self.app.config.generation.think)
        if self.save_setting("generation.think", thinking):
            self.app.notify(f"Thinking {'on' if thinking else 'off'}")

    def set_keep_alive(self, value: str) -> None:
        """How long Ollama keeps the model loaded after a reply."""
        if self.save_setting("ollama.keep_alive", value):
            self.app.notify(f"Model stays loaded for {value} after a reply")

    async def unload(self) -> None:
        """Free the model's memory now."""
        app = self.app
        if app.runtime is not None:
            try:
                await app.runtime.model.unload()
                app.notify("Model unloaded")
                app.status.set(gpu_share=None)
            except ModelError as exc:
                app.notify(str(exc), severity="error")

    def pull(self) -> None:
        """Download a model with a progress bar."""
        from tui.screens.model_pull import ModelPullScreen

        app = self.app
        if app.runtime is not None:
            app.push_screen(ModelPullScreen(app.runtime.model), callback=app.startup.after_pull)
