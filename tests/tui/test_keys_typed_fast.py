"""Keys typed in one burst act in the order typed: editing keys as letters do.

Found by an adversary: Ctrl+A, Backspace and "zebra7" sent at once to the inspector's search
box searched "zebra" or "dentistzebra" ("0 found" for a stored fact), and "0.9" typed after
six Backspaces in a memory's importance saved 0.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input, TextArea

from tests.tui.conftest import AppHarness, MakeApp, seed_entry, settle
from tui.screens.memory_detail import MemoryDetailScreen
from tui.widgets.prompt_input import PromptInput

SEED = [seed_entry("pet", "The cat is called Miso", "core")]


def _typed_at_once(h: AppHarness, *keys: str) -> None:
    """`keys` as a terminal sends a burst: each read before any is acted on."""
    for key in keys:
        h.app.post_message(events.Key(key, key if len(key) == 1 else None))


async def test_the_search_box_takes_a_burst_in_order(make_app: MakeApp) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await h.app.ready.wait()
        h.app.action_toggle_inspector()
        await settle(pilot)
        search = h.app.query_one("#inspector-search", Input)
        search.focus()
        _typed_at_once(h, *"dentist")
        await settle(pilot)
        _typed_at_once(h, "ctrl+a", "backspace", *"zebra7")
        await settle(pilot)
        assert search.value == "zebra7"
        _typed_at_once(h, "backspace", "backspace", "left", "x")
        await settle(pilot)
        assert search.value == "zebxr"


async def test_an_importance_retyped_fast_is_saved_as_typed(make_app: MakeApp) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await h.app.ready.wait()
        h.app.action_toggle_inspector()
        await settle(pilot)
        h.app.memory_view.open_entry(next(e for e in h.app.inspector.entries if e.key == "pet"))
        await pilot.pause()
        assert isinstance(h.app.screen, MemoryDetailScreen)
        importance = h.app.screen.query_one("#detail-importance", Input)
        importance.focus()
        importance.cursor_position = len(importance.value)
        _typed_at_once(h, *["backspace"] * 6, *"0.9")
        await settle(pilot)
        assert importance.value == "0.9"


async def test_the_prompt_takes_a_burst_in_order(make_app: MakeApp) -> None:
    h = make_app()
    async with h.app.run_test(size=(140, 40)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        _typed_at_once(h, *"hello world")
        await settle(pilot)
        _typed_at_once(h, "ctrl+a", "backspace", *"bye", "left", "backspace", "x")
        await settle(pilot)
        assert isinstance(prompt, TextArea)
        assert prompt.text == "bxe"
