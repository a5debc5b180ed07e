"""After "Continue without a model" the keys work at once: the first F2 opens the inspector."""

from __future__ import annotations

from tests.tui.conftest import MakeApp, server_down
from tui.screens.server_down import ServerDownScreen


async def test_the_first_f2_after_continuing_opens_the_inspector(make_app: MakeApp) -> None:
    h = server_down(make_app)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.pause()
        assert isinstance(h.app.screen, ServerDownScreen)
        await pilot.press("escape")
        await pilot.press("f2")
        await pilot.pause()
        assert not isinstance(h.app.screen, ServerDownScreen)
        assert h.app.inspector.display


async def test_f2_right_after_clicking_continue(make_app: MakeApp) -> None:
    h = server_down(make_app)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.pause()
        await pilot.click("#memory-only")
        await pilot.press("f2")
        await pilot.pause()
        assert h.app.inspector.display
        await pilot.press("f2")
        await pilot.pause()
        assert not h.app.inspector.display


async def test_escape_and_f2_typed_together(make_app: MakeApp) -> None:
    h = server_down(make_app)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.pause()
        await pilot.press("escape", "f2")
        await pilot.pause()
        assert h.app.inspector.display


async def test_the_no_model_notice_names_only_commands_the_backend_has(make_app: MakeApp) -> None:
    """Markdown files are append-only: the notice does not offer /forget there."""
    notices = {}
    for backend in ("sqlite", "markdown"):
        h = server_down(make_app, backend=backend)
        async with h.app.run_test(size=(120, 36)) as pilot:
            await h.app.ready.wait()
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            notices[backend] = " ".join(
                str(n.message) for n in h.app._notifications if "No model" in str(n.message)
            )
    assert "/forget" in notices["sqlite"]
    assert "/remember, /recall still work" in notices["markdown"]
    assert "/forget" not in notices["markdown"]


async def test_typing_a_message_here_continues_nothing_and_says_how(make_app: MakeApp) -> None:
    """Found by a new user: "my cat" typed here left on its "m" without a model."""
    h = server_down(make_app)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.pause()
        await pilot.press("m", "y", "space", "c", "a", "t", "r")
        await pilot.pause()
        screen = h.app.screen
        assert isinstance(screen, ServerDownScreen)
        assert "Esc continues without a model" in str(screen.query_one("#down-status").render())
