from __future__ import annotations

import os
from pathlib import Path

from textual.widgets import Static

from agent.config import Config
from memory.settings import MemorySettings
from tui.app import MemchatApp


def _status_text(app: MemchatApp) -> str:
    return str(app.query_one("#status", Static).render())


async def test_app_starts_and_reports_the_store() -> None:
    app = MemchatApp(Config(memory=MemorySettings(embedding_provider="none")))
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = _status_text(app)
        assert "0 memories" in text and "brain.db" in text


async def test_app_stays_up_with_a_corrupt_database() -> None:
    home = Path(os.environ["MEMCHAT_HOME"])
    home.mkdir(parents=True)
    (home / "brain.db").write_text("not a database")
    app = MemchatApp(Config(memory=MemorySettings(embedding_provider="none")))
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "not a usable memchat database" in _status_text(app)
        assert app.is_running
