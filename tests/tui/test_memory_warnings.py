"""Problems the store met while reading show as notifications, each once, as plain text."""

from __future__ import annotations

from pathlib import Path

from agent.runtime import Runtime
from tests.tui.conftest import build_app, seed_entry, settle
from tui.plain import visible

DAMAGED = "skipped a damaged row (key [bold]x[/] \x1b[2J) in brain.db"
TORN = "recovered a torn MEMORY.md [/]"


def plant(runtime: Runtime) -> None:
    runtime.memory.warnings.append(DAMAGED)


async def test_warnings_show_after_start_up_and_after_the_inspector_loads(
    tmp_path: Path,
) -> None:
    h = build_app(tmp_path, seed=[seed_entry("pet", "A cat")], prepare=plant, auto_save=False)
    async with h.app.run_test(size=(140, 36)) as pilot:
        await h.app.ready.wait()
        await settle(pilot)

        def shown() -> list[str]:
            return [n.message for n in h.app._notifications if n.title == "Memory"]

        assert shown() == [visible(DAMAGED)]
        assert all(not n.markup for n in h.app._notifications)
        h.runtime.memory.warnings.append(TORN)
        await pilot.press("f2")  # the inspector reads the store, and meets a new problem
        await settle(pilot)
        assert shown() == [visible(DAMAGED), visible(TORN)]
        h.app.inspector.reload()
        await settle(pilot)
        assert shown() == [visible(DAMAGED), visible(TORN)]  # not again
