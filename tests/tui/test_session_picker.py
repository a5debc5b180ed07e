"""The session picker: odd files in the sessions folder never freeze the app."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from textual.widgets import OptionList

from agent.sessions import SessionInfo, SessionStore
from agent.testing import ScriptedModel
from tests.tui.conftest import MakeApp, settle
from tests.tui.test_chat import send
from tui.screens.pickers import PickerScreen


async def test_a_fifo_or_a_link_out_is_not_offered(make_app: MakeApp, tmp_path: Path) -> None:
    h = make_app(ScriptedModel(["Hi."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "A real conversation")
        folder = h.runtime.sessions.directory
        os.mkfifo(folder / "20250101-000005-ffffff.jsonl")
        outside = tmp_path / "passwd"
        outside.write_text("root:x:0:0:root:/root:/bin/bash\n")
        (folder / "20250101-000006-eeeeee.jsonl").symlink_to(outside)
        h.app.action_switch_session()
        await settle(pilot)
        picker = h.app.screen
        assert isinstance(picker, PickerScreen)
        assert picker.query_one(OptionList).option_count == 1


async def test_sessions_are_read_off_the_event_loop(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[bool] = []
    real_list, real_load = SessionStore.list, SessionStore.load

    def listing(store: SessionStore) -> list[SessionInfo]:
        threads.append(threading.current_thread() is threading.main_thread())
        return real_list(store)

    def loading(store: SessionStore, session_id: str) -> object:
        threads.append(threading.current_thread() is threading.main_thread())
        return real_load(store, session_id)

    monkeypatch.setattr(SessionStore, "list", listing)
    monkeypatch.setattr(SessionStore, "load", loading)
    h = make_app(ScriptedModel(["Hi."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Something to resume")
        old = h.runtime.session.id
        h.app.action_switch_session()
        await settle(pilot)
        assert isinstance(h.app.screen, PickerScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert h.runtime.session.id == old
        assert threads and not any(threads)
