"""The detail dialog's buttons stay in sight whatever the terminal's size.

Found by a new user: at 40 rows only the buttons' top edges showed, below the fields; the
fields scroll, the buttons do not.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from tests.tui.conftest import AppHarness, MakeApp, seed_entry, settle
from tests.tui.test_inspector import open_inspector
from tui.screens.memory_detail import MemoryDetailScreen

LONG = "I take 100mg of sertraline every morning (dose raised by Dr. Weber in December). " * 6
SEED = [seed_entry("sertraline", LONG.strip())]


async def _open_the_detail(h: AppHarness, pilot: Pilot[None]) -> MemoryDetailScreen:
    """The inspector open, and the first memory's dialog opened from it."""
    await open_inspector(h, pilot)
    h.app.memory_view.open_entry(h.app.inspector.entries[0])
    await settle(pilot)
    screen = h.app.screen
    assert isinstance(screen, MemoryDetailScreen)
    return screen


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (140, 40)])
async def test_every_button_is_whole_on_the_screen(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=size) as pilot:
        screen = await _open_the_detail(h, pilot)
        buttons = list(screen.query(Button))
        assert {b.id for b in buttons} >= {"save", "close"}
        dialog = screen.query_one("#detail").region
        for button in buttons:
            region = button.region
            assert region.height >= 3 and dialog.contains_region(region), (button.id, region)
            # Not in the part that scrolls, where it can be half shown.
            assert "detail-body" not in {a.id for a in button.ancestors}, button.id


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_the_dialog_opens_at_its_top_with_the_text_in_sight(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    """Found by a new user: at 80x24 the dialog opened scrolled down to the text, its key
    and fields above the edge."""
    from tui.widgets.plain_text_area import PlainTextArea

    h = make_app(seed=SEED)
    async with h.app.run_test(size=size) as pilot:
        screen = await _open_the_detail(h, pilot)
        body = screen.query_one("#detail-body").region
        assert body.contains_region(screen.query_one("#detail-title").region)
        content = screen.query_one("#detail-content", PlainTextArea)
        assert content.has_focus and body.y <= content.region.y < body.bottom


async def test_what_is_typed_in_the_opened_dialog_goes_after_the_text(make_app: MakeApp) -> None:
    """Found by a new user, a translator: her words typed on opening went before the text."""
    from tui.widgets.plain_text_area import PlainTextArea

    h = make_app(seed=[seed_entry("door", "The building door code is 1937#")])
    async with h.app.run_test(size=(140, 40)) as pilot:
        screen = await _open_the_detail(h, pilot)
        await pilot.press(*" (front)")
        content = screen.query_one("#detail-content", PlainTextArea)
        assert content.text == "The building door code is 1937# (front)"
