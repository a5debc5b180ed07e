"""A category typed in the detail dialog that is new and no built-in one is asked about.

Found by a new user: "cor" for "core" was saved without a word, and the fact left the
snapshot and the facts shown to the model.
"""

from __future__ import annotations

from textual.widgets import Input, Label

from tests.tui.conftest import AppHarness, MakeApp, seed_entry, settle
from tests.tui.test_inspector import open_inspector
from tui.screens.memory_detail import MemoryDetailScreen, category_doubt

SEED = [seed_entry("pet", "The user's cat is called Miso"), seed_entry("trip", "Rome", "travel")]


async def _set_category(h: AppHarness, pilot: object, key: str, category: str) -> None:
    await open_inspector(h, pilot)
    h.app.memory_view.open_entry(next(e for e in h.app.inspector.entries if e.key == key))
    await settle(pilot)
    h.app.screen.query_one("#detail-category", Input).value = category


def _keys_line(h: AppHarness) -> str:
    return str(h.app.screen.query_one("#detail-keys", Label).render())


async def test_a_typo_of_a_built_in_category_is_asked_about_then_saved(make_app: MakeApp) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(100, 30)) as pilot:
        await _set_category(h, pilot, "pet", "cor")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(h.app.screen, MemoryDetailScreen)
        assert "did you mean 'core'" in _keys_line(h)
        unchanged = await h.runtime.memory.get("pet")
        assert unchanged is not None and unchanged.category == "core"
        await pilot.press("ctrl+s")  # asked once: the user means it
        await settle(pilot)
        assert not isinstance(h.app.screen, MemoryDetailScreen)
        saved = await h.runtime.memory.get("pet")
        assert saved is not None and saved.category == "cor"


async def test_a_built_in_or_unchanged_category_saves_at_once(make_app: MakeApp) -> None:
    for key, category in (("pet", "Daily"), ("trip", "travel")):
        h = make_app(seed=SEED)
        async with h.app.run_test(size=(100, 30)) as pilot:
            await _set_category(h, pilot, key, category)
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert not isinstance(h.app.screen, MemoryDetailScreen), category
            saved = await h.runtime.memory.get(key)
            assert saved is not None and saved.category == category.casefold()


def test_the_question_names_the_close_built_in_one_and_shows_markup_as_typed() -> None:
    assert "did you mean 'conversation'" in category_doubt("convo", "core")
    odd = category_doubt("[/]bold", "core")
    assert "'[/]bold' is a new category" in odd and "did you mean" not in odd
    assert category_doubt("CORE", "daily") == category_doubt("travel", "travel") == ""
