"""The palette's "Export memory": a private file written whole, or a notification."""

from __future__ import annotations

import json
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from agent.paths import data_dir
from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError
from tests.tui.conftest import MakeApp, seed_entry, settle
from tui.app import MemchatApp

SEED = [seed_entry("pet", "The user's cat is called [b]Miso[/b]"), seed_entry("tea", "Tea")]


def exports() -> list[Path]:
    folder = data_dir() / "exports"
    return sorted(folder.iterdir()) if folder.exists() else []


async def export(app: MemchatApp, pilot: Any) -> None:
    app.run_worker(app.memory_view.export())
    await settle(pilot)


async def test_export_writes_every_memory_to_a_private_file(make_app: MakeApp) -> None:
    h = make_app(seed=SEED, auto_save=False)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await export(h.app, pilot)
        [path] = exports()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        keys = [json.loads(line)["key"] for line in path.read_text().splitlines()]
        assert sorted(keys) == ["pet", "tea"]
        notice = list(h.app._notifications)[-1]
        assert notice.message == f"Exported 2 memories to {path}" and notice.severity != "error"
        # Earlier versions go too, and the notice says how many (a new user, a carer, read
        # 54 exported beside the status bar's 41 in effect).
        await h.runtime.memory.store("tea", "The user likes oolong tea")
        await export(h.app, pilot)
        newest = exports()[-1]
        notice = list(h.app._notifications)[-1]
        assert notice.message == (
            f"Exported 3 memories (2 in effect, 1 earlier version) to {newest}"
        )


async def test_a_store_that_fails_midway_leaves_no_file_and_says_so(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = make_app(seed=SEED, auto_save=False)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()

        async def broken(*, namespace: str | None = None) -> AsyncIterator[MemoryEntry]:
            yield SEED[0]
            raise MemoryStoreError("database disk image is malformed [/]")

        monkeypatch.setattr(h.runtime.memory, "export", broken)
        await export(h.app, pilot)
        assert exports() == []  # not even the temporary file is left
        notice = list(h.app._notifications)[-1]
        assert notice.severity == "error" and "malformed [/]" in notice.message
        assert h.app.is_running


async def test_an_unwritable_folder_is_a_notification(make_app: MakeApp) -> None:
    h = make_app(seed=SEED, auto_save=False)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        data_dir().mkdir(parents=True, exist_ok=True)
        (data_dir() / "exports").write_text("a file where the folder should be")
        await export(h.app, pilot)
        notice = list(h.app._notifications)[-1]
        assert notice.severity == "error" and notice.message.startswith("Export failed")
        assert h.app.is_running


async def test_an_export_of_a_damaged_store_says_so(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An adversary's damaged texts went into a backup without a word.
    from memory.entry import HealthReport

    h = make_app(seed=SEED, auto_save=False)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()

        async def damaged() -> HealthReport:
            return HealthReport(ok=False, backend="sqlite", detail="1 memory's text is not …")

        monkeypatch.setattr(h.runtime.memory, "health_check", damaged)
        await export(h.app, pilot)
        assert len(exports()) == 1
        notices = [n for n in h.app._notifications if n.severity == "warning"]
        assert any("finds damage (1 memory's text is not …)" in n.message for n in notices)
