"""A recall that falls back to keywords says so in the status bar, until one works again."""

from __future__ import annotations

from typing import Any

from memory.entry import RecallResult
from tests.tui.conftest import MakeApp, seed_entry, settle


async def test_the_status_bar_names_a_keyword_only_fallback_and_clears_it(
    make_app: MakeApp,
) -> None:
    h = make_app(seed=[seed_entry("pet", "The user's cat is called Miso")])
    async with h.app.run_test(size=(160, 36)) as pilot:
        await h.app.ready.wait()
        assert h.app.runtime is not None
        memory = h.app.runtime.memory
        real_recall = memory.recall
        reason = "keyword-only: embedding with 'nomic-embed-text' failed: connection refused"

        async def failing(*args: Any, **kwargs: Any) -> RecallResult:
            result = await real_recall(*args, **kwargs)
            return result.model_copy(update={"mode": "keyword", "degraded": reason})

        memory.recall = failing  # type: ignore[method-assign]
        h.model.add("ok")
        await pilot.press(*"what is my cat called", "enter")
        await settle(pilot)
        shown = str(h.app.status.render())
        assert "keyword-only: embedding with" in shown

        memory.recall = real_recall  # type: ignore[method-assign]
        h.model.add("ok")
        await pilot.press(*"and my dog", "enter")
        await settle(pilot)
        assert "keyword-only: embedding" not in str(h.app.status.render())
