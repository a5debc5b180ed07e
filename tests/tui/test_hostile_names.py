"""Names from servers and the config, shown literally: models, hosts, hints, pull status.

Cases per surface: the 32 corpus texts as installed model names, listed in the model
picker (32) and each chosen in turn, so the status bar shows it (32); the server-down
screen with the corpus as host and as hint (1 screen holding 30 cases, all but the
2,000-line and the long-word ones); the model pull screen with the same as the model's name,
a progress line and the server's error (1 screen).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.app import App
from textual.content import Content
from textual.widgets import Button, Label, OptionList, Static

import tui
from agent.model import ModelError, PullProgress
from agent.testing import ScriptedModel
from tests.helpers.hostile import HOSTILE_TEXTS
from tests.tui.conftest import MakeApp, settle
from tests.tui.hostile_checks import assert_safe, assert_shown, drawn, screen_drawn, squash
from tui.plain import visible
from tui.screens.model_pull import ModelPullScreen
from tui.screens.pickers import PickerScreen
from tui.screens.server_down import ServerDownScreen

EVERY_CASE = "\n".join(HOSTILE_TEXTS[:-2])
"""The corpus in one text, but for its two longest cases (a screenful is enough here)."""


class Host(App[None]):
    """One screen over nothing else."""

    CSS_PATH = Path(tui.__file__).with_name("memchat.tcss")


@pytest.mark.slow
async def test_model_names_in_the_picker_and_the_status_bar(make_app: MakeApp) -> None:
    model = ScriptedModel(name="qwen3:8b")
    model.installed = list(dict.fromkeys(HOSTILE_TEXTS))
    h = make_app(model, auto_save=False)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await h.app.ready.wait()
        h.app.action_switch_model()
        await settle(pilot)
        picker = h.app.screen
        assert isinstance(picker, PickerScreen)
        options = picker.query_one(OptionList)
        labels = []
        for index in range(options.option_count):
            prompt = options.get_option_at_index(index).prompt
            assert isinstance(prompt, Content)
            labels.append(prompt.plain)
        described = await model.describe_installed()
        assert sorted(labels) == sorted(visible(m.label()) for m in described)
        assert all(visible(m.name) in label for m, label in zip(described, labels, strict=True))
        assert_safe("model picker", screen_drawn(h.app), "")
        await pilot.press("escape")
        for name in model.installed:
            h.app.models.use(name)
            await settle(pilot)
            shown = drawn(h.app.status)
            assert_safe("status bar", shown, name.rsplit("/", 1)[-1])
            first_line = visible(name.rsplit("/", 1)[-1]).split("\n")[0]
            assert squash(first_line[:20]) in squash(shown)  # one line: its first line
        assert h.app.is_running


async def test_the_server_down_screen_shows_host_and_hint_as_given() -> None:
    app = Host()

    async def probe() -> bool:
        return False

    async with app.run_test(size=(120, 50)) as pilot:
        app.push_screen(ServerDownScreen(EVERY_CASE, probe, EVERY_CASE, EVERY_CASE))
        await pilot.pause()
        text = app.screen.query_one("#down-help", Static).content
        assert isinstance(text, Content)
        assert text.plain.count(visible(EVERY_CASE)) == 2  # host and hint, whole
        assert_safe("server down", screen_drawn(app), EVERY_CASE)
        title = drawn(app.screen.query_one("#down-title", Label))
        assert_shown("server name", title, HOSTILE_TEXTS[0])


class FailingPull(ScriptedModel):
    """A server whose pull fails with a message of its own."""

    __test__ = False

    async def pull(self, model: str | None = None) -> AsyncIterator[PullProgress]:
        """Fail after the first status line."""
        yield PullProgress(EVERY_CASE)
        raise ModelError(EVERY_CASE)


async def test_the_pull_screen_shows_the_name_and_the_servers_error_as_given() -> None:
    app = Host()
    async with app.run_test(size=(120, 50)) as pilot:
        app.push_screen(ModelPullScreen(FailingPull(), EVERY_CASE, missing=True))
        await pilot.pause()
        app.screen.query_one("#pull", Button).press()
        await settle(pilot)
        status = app.screen.query_one("#pull-status", Label).content
        assert isinstance(status, Content)
        assert status.plain == visible(f"Pull failed: {EVERY_CASE}")
        assert_safe("pull screen", screen_drawn(app), EVERY_CASE)
        assert app.is_running
