"""An edit the inspector cannot save, because the memory changed elsewhere, is kept.

Found by an adversary: the CLI changed a memory while the detail dialog was open; Save
was refused safely, but the dialog closed and the typed text was gone.
"""

from __future__ import annotations

from textual.widgets import Input, Label, TextArea

from tests.tui.conftest import AppHarness, MakeApp, seed_entry, settle
from tests.tui.test_inspector import open_inspector
from tui.screens.memory_detail import MemoryDetailScreen

SEED = [
    seed_entry("pet", "The user's cat is called Miso"),
    seed_entry("lunch", "Had ramen for lunch", "daily"),
]
TYPED = "The user's cat is called Tofu, a tabby"


async def _edit_pet(h: AppHarness, pilot: object) -> None:
    await open_inspector(h, pilot)
    h.app.memory_view.open_entry(next(e for e in h.app.inspector.entries if e.key == "pet"))
    await settle(pilot)
    h.app.screen.query_one("#detail-content", TextArea).text = TYPED
    h.app.screen.query_one("#detail-importance", Input).value = "0.9"


def _labels(h: AppHarness) -> str:
    return " ".join(str(label.render()) for label in h.app.screen.query(Label))


async def test_an_edit_of_a_memory_changed_elsewhere_reopens_with_the_typed_text(
    make_app: MakeApp,
) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(120, 45)) as pilot:
        await _edit_pet(h, pilot)
        await h.runtime.memory.store("pet", "The user's cat is called Luna")  # elsewhere
        await pilot.press("ctrl+s")
        await settle(pilot)
        screen = h.app.screen
        assert isinstance(screen, MemoryDetailScreen)
        assert screen.entry.content == "The user's cat is called Luna"  # the current one
        assert screen.query_one("#detail-content", TextArea).text == TYPED
        assert screen.query_one("#detail-importance", Input).value == "0.90"
        assert "changed elsewhere" in _labels(h)
        current = await h.runtime.memory.get("pet")
        assert current is not None and current.content.endswith("Luna")  # nothing saved yet
        await pilot.press("ctrl+s")  # over the current version, as the dialog says
        await settle(pilot)
        saved = await h.runtime.memory.get("pet")
        assert saved is not None and saved.content == TYPED and saved.importance == 0.9
        assert not isinstance(h.app.screen, MemoryDetailScreen)


async def test_an_edit_of_a_memory_forgotten_elsewhere_can_be_stored_again_or_left(
    make_app: MakeApp,
) -> None:
    for store_it in (False, True):
        h = make_app(seed=SEED)
        async with h.app.run_test(size=(120, 45)) as pilot:
            await _edit_pet(h, pilot)
            await h.runtime.memory.forget("pet")  # elsewhere
            await pilot.press("ctrl+s")
            await settle(pilot)
            screen = h.app.screen
            assert isinstance(screen, MemoryDetailScreen)
            assert screen.query_one("#detail-content", TextArea).text == TYPED
            assert "forgotten elsewhere" in _labels(h)
            assert await h.runtime.memory.get("pet") is None
            await pilot.press("ctrl+s" if store_it else "escape")
            await settle(pilot)
            again = await h.runtime.memory.get("pet")
            assert (again is not None and again.content == TYPED) if store_it else again is None


async def test_esc_discards_an_unsaved_edit_only_when_pressed_again(make_app: MakeApp) -> None:
    """Found by a new user: Esc threw away an edit without a word."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(120, 45)) as pilot:
        await _edit_pet(h, pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(h.app.screen, MemoryDetailScreen)
        assert "Esc (or Close) again discards it" in _labels(h)
        assert h.app.screen.query_one("#detail-content", TextArea).text == TYPED
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(h.app.screen, MemoryDetailScreen)
        kept = await h.runtime.memory.get("pet")
        assert kept is not None and kept.content == "The user's cat is called Miso"
        # Nothing edited: one Esc closes.
        h.app.memory_view.open_entry(next(e for e in h.app.inspector.entries if e.key == "pet"))
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(h.app.screen, MemoryDetailScreen)


async def test_an_edit_too_long_to_keep_is_refused_in_the_dialog_with_its_text(
    make_app: MakeApp,
) -> None:
    """Found by an adversary: an edit over 10,000 characters was refused after the dialog
    closed ("nothing was changed"), and the text typed was gone."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(120, 45)) as pilot:
        await _edit_pet(h, pilot)
        long = "The user's cat is called Tofu. " * 400
        h.app.screen.query_one("#detail-content", TextArea).text = long
        await pilot.press("ctrl+s")
        await settle(pilot)
        screen = h.app.screen
        assert isinstance(screen, MemoryDetailScreen)
        assert screen.query_one("#detail-content", TextArea).text == long
        assert any("at most 10,000 characters" in n.message for n in h.app._notifications)
        kept = await h.runtime.memory.get("pet")
        assert kept is not None and kept.content == "The user's cat is called Miso"
