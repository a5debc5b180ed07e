"""Settings changed in the app keep a linked config file linked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent.testing import ScriptedModel
from tests.tui.conftest import MakeApp, settle


async def test_toggling_thinking_writes_through_a_symlinked_config(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tmp_path / "dotfiles" / "real.toml"
    real.parent.mkdir()
    real.write_text("# mine\n[ollama]\nthink = false\n")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    monkeypatch.setenv("MEMCHAT_CONFIG", str(link))
    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        h.app.action_toggle_thinking()
        await settle(pilot)
        assert link.is_symlink() and link.resolve() == real
        assert "think = true" in real.read_text()
        assert h.app.config.generation.think is True


async def test_a_hard_linked_config_is_refused_with_a_notification(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tmp_path / "real.toml"
    real.write_text("[ollama]\nthink = false\n")
    twin = tmp_path / "twin.toml"
    os.link(real, twin)
    monkeypatch.setenv("MEMCHAT_CONFIG", str(twin))
    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        h.app.action_toggle_thinking()
        await settle(pilot)
        messages = [n.message for n in h.app._notifications]
        assert any("hard links" in m for m in messages)
        assert not any(m.startswith("Thinking") for m in messages)
        assert os.path.samefile(real, twin)
        assert "think = false" in real.read_text()
