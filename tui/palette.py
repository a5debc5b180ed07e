"""The command palette's entries: each one of the app's actions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.app import SystemCommand

if TYPE_CHECKING:
    from tui.app import MemchatApp


def palette_commands(app: MemchatApp) -> Iterable[SystemCommand]:
    """The entries memchat adds after Textual's own."""
    yield SystemCommand("New session", "Start a fresh conversation", app.action_new_session)
    yield SystemCommand(
        "Switch session", "Resume an earlier conversation", app.action_switch_session
    )
    yield SystemCommand(
        "Search chats", "Find a message in any past chat (Ctrl+F)", app.action_search_chats
    )
    yield SystemCommand("Switch model", "Choose an installed model", app.action_switch_model)
    if app.config.model.provider == "ollama":
        yield from _ollama_commands(app)
    yield SystemCommand(
        "Toggle memory inspector", "Show or hide the memory panel (F2)", app.action_toggle_inspector
    )
    yield SystemCommand(
        "Toggle incognito", "Stop saving this session to memory (F4)", app.action_toggle_incognito
    )
    yield SystemCommand(
        "Export memory",
        "Write every memory to a JSON-lines file",
        lambda: app.run_worker(app.memory_view.export()),
    )
    yield SystemCommand("Copy last reply", "To the clipboard (F3)", app.action_copy_last)


def _ollama_commands(app: MemchatApp) -> Iterable[SystemCommand]:
    # Other servers load, keep and think on their own terms; these would only fail.
    models = app.models
    yield SystemCommand(
        "Pull a model", "Download a model from Ollama's library", app.action_pull_model
    )
    yield SystemCommand(
        "Toggle thinking", "Ask thinking models to think first", app.action_toggle_thinking
    )
    yield SystemCommand(
        "Keep model loaded 5 min", "ollama keep_alive 5m", lambda: models.set_keep_alive("5m")
    )
    yield SystemCommand(
        "Keep model loaded 30 min", "ollama keep_alive 30m", lambda: models.set_keep_alive("30m")
    )
    yield SystemCommand(
        "Unload model now", "Free VRAM now", lambda: app.run_worker(models.unload())
    )
