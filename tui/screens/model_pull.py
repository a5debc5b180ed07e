"""Pull a model with a progress bar (offered when the configured model is missing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, ProgressBar

from agent.model import ModelError
from tui.plain import ControlPictures, plain
from tui.widgets.text_input import TextInput

if TYPE_CHECKING:
    from agent.model import ModelServer


class ModelPullScreen(ModalScreen[str | None]):
    """Dismissed with the model's name once it is pulled, or None.

    The name (config) and the progress lines (the server) are shown literally.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        server: ModelServer,
        model: str = "",
        *,
        missing: bool = False,
        switch: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.server = server
        self.model = model
        self.missing = missing
        self.switch = switch
        """Offers "Use an installed model" when given: called after the dialog closes."""

    def compose(self) -> ComposeResult:
        """Name, progress and actions."""
        with Vertical(id="pull-box"):
            title = (
                f"The model {self.model!r} is not installed." if self.missing else "Pull a model"
            )
            yield Label(plain(title), id="pull-title")
            yield TextInput(
                self.model,
                placeholder="model name, e.g. qwen3:8b",
                id="pull-name",
                highlighter=ControlPictures(),
            )
            bar = ProgressBar(total=None, id="pull-progress", show_eta=False)
            bar.display = False  # until a pull starts: an idle "--%" looks like one
            yield bar
            yield Label("", id="pull-status")
            with Horizontal():
                yield Button("Pull", id="pull", variant="primary")
                if self.switch is not None:
                    yield Button("Use an installed model", id="switch")
                yield Button("Cancel", id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start the download or leave."""
        if event.button.id == "pull":
            name = self.query_one("#pull-name", Input).value.strip()
            if name:
                event.button.disabled = True
                self.query_one(ProgressBar).display = True
                self.run_worker(self._pull(name), exclusive=True)
        elif event.button.id == "switch" and self.switch is not None:
            switch = self.switch
            self.dismiss(None)
            switch()
        else:
            self.action_cancel()

    async def _pull(self, name: str) -> None:
        bar = self.query_one(ProgressBar)
        status = self.query_one("#pull-status", Label)
        try:
            async for step in self.server.pull(name):
                status.update(plain(step.status))
                if step.total:
                    bar.update(total=step.total, progress=step.completed or 0)
        except ModelError as exc:
            status.update(plain(f"Pull failed: {exc}"))
            bar.display = False  # no download is under way
            self.query_one("#pull", Button).disabled = False
            return
        self.dismiss(name)

    def action_cancel(self) -> None:
        """Close without pulling (a running pull stops)."""
        self.dismiss(None)
