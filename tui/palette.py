"""The command palette's entries: each one of the app's actions."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.command import Hit, Hits
from textual.content import Content
from textual.markup import escape
from textual.system_commands import SystemCommandsProvider

from tui.plain import visible

if TYPE_CHECKING:
    from tui.app import MemchatApp

_LOOSE_SCORE = 0.05
IMPORT_HOW = (
    "To import memories, run `memchat memory import FILE` in a shell (a JSON-lines file as "
    "Export memory writes it; --namespace NAME puts them all in one namespace). The app "
    "shows them within 15 seconds."
)
"""A new user looked for import in the palette. Done in a shell: the file is named there,
and what it would do is read before (`memchat memory import --help`)."""
ERASE_HOW = (
    "To forget a memory for good (a secret), run `memchat memory forget KEY --erase` in a "
    "shell: it also erases it from the audit log and the chat files, so nothing can bring "
    "it back. The inspector's Forget can be undone."
)
"""A new user looked for "erase" and "forget a secret" in the palette."""


def palette_commands(app: MemchatApp) -> Iterable[SystemCommand]:
    """The entries memchat adds after Textual's own."""
    yield SystemCommand(
        "New session", "Start a new chat, a fresh conversation", app.action_new_session
    )
    yield SystemCommand("Help", "Keys, commands and how memory works (F1)", app.action_help)
    yield SystemCommand(
        "Switch session",
        "Open, reopen, resume or delete an earlier (old, previous) chat or conversation "
        "(Delete, twice, in the list)",
        app.action_switch_session,
    )
    yield SystemCommand(
        "Search chats", "Find a message in any past chat (Ctrl+F)", app.action_search_chats
    )
    yield SystemCommand(
        "Switch model", "Change to another installed model", app.action_switch_model
    )
    if app.config.model.provider == "ollama":
        yield from _ollama_commands(app)
    yield SystemCommand(
        "Toggle memory inspector",
        "Show or hide the memory panel (F2): what memchat knows about you; browse, search, "
        "edit, pin, forget (delete) and undo, see the history of a memory and restore it",
        app.action_toggle_inspector,
    )
    yield SystemCommand(
        "Toggle incognito",
        "A private mode: stop saving this session to memory (F4)",
        app.action_toggle_incognito,
    )
    inspector = app.inspector
    if inspector.last_forgotten is not None:
        # Found by a new user: "undo" offered only "Unload model now".
        key = inspector.last_forgotten.key
        yield SystemCommand(
            "Undo forget",
            # Escaped: Textual reads a command's help as markup, and a key is any text.
            f"Put back {escape(visible(key))}, the memory forgotten last, and its history",
            lambda: app.run_worker(inspector.undo_forget(), group="inspector-edit"),
        )
    yield SystemCommand(
        "Export memory",
        "Write every memory to a JSON-lines file (a backup)",
        lambda: app.run_worker(app.memory_view.export()),
    )
    yield SystemCommand(
        "Erase a memory for good",
        "Forget a secret so nothing can bring it back: memchat memory forget KEY --erase",
        lambda: app.notify(ERASE_HOW, timeout=20),
    )
    yield SystemCommand(
        "Import memory",
        "How to load an export or a backup: memchat memory import FILE, in a shell",
        lambda: app.notify(IMPORT_HOW, timeout=20),
    )
    yield SystemCommand("Copy last reply", "To the clipboard (F3)", app.action_copy_last)
    # A stopped reply's buttons, from the keyboard: a new user could not reach Regenerate
    # with Tab, and the palette had no such command.
    yield SystemCommand(
        "Regenerate last reply",
        "Answer a stopped or failed reply again (its Regenerate button)",
        lambda: app.stopped_reply_action("regenerate"),
    )
    yield SystemCommand(
        "Continue last reply",
        "Go on with a stopped or failed reply (its Continue button)",
        lambda: app.stopped_reply_action("continue"),
    )
    yield SystemCommand(
        "Settings",
        "Where the config file (settings, preferences, options) and the data are",
        lambda: app.notify(settings_how(), timeout=15),
    )


def settings_how() -> str:
    """Where the settings are, and how to change them.

    Found by a new user: "settings", "config" and "pref" found nothing in the palette.
    """
    from agent.paths import config_path, data_dir

    config = config_path()
    state = (
        "it is there"
        if config.is_file()
        else "not written yet: memchat writes it at your first change in the app, or create it"
    )
    # Escaped: Textual reads a notification as markup, and a path is any text.
    return escape(
        f"Settings are in {visible(str(config))} ({state}); memories and chats in "
        f"{visible(str(data_dir()))}. config.example.toml, beside the README, lists every "
        "setting with its default; the README's Configuration section says what each part "
        "does. Restart memchat after an edit. F4 (incognito), Ctrl+P then Switch model or "
        "Toggle thinking change settings from here."
    )


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


_NOT_ASKING = frozenset(
    "a an the my me i to of for about something some do does you your what is how can "
    "please want wanna".split()
)
"""Words of an everyday phrase that name no command ("forget something", "what do you
know about me")."""


def _word_forms(text: str) -> list[str]:
    # "sessions" asks for "session", "chats" for "chat": a plural is the same command.
    words = re.findall(r"\w+", text.casefold())
    return [_singular(word) for word in words]


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"  # "memories" asks for "memory" (found by a new user)
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _asked(query: str) -> list[str]:
    words = _word_forms(query)
    kept = [word for word in words if word not in _NOT_ASKING]
    return kept or words


def loosely_matches(query: str, title: str, help_text: str) -> bool:
    """Whether every word of `query` begins a word of the command's title or help.

    Words that name no command ("a", "my", "something") are left out of the query.
    """
    return _begins_words(query, f"{title} {help_text}")


def _begins_words(query: str, text: str) -> bool:
    asked = _asked(query)
    offered = _word_forms(text)
    return bool(asked) and all(any(word.startswith(a) for word in offered) for a in asked)


class MemchatCommands(SystemCommandsProvider):
    """The app's commands, found by the beginnings of the words of their titles and help.

    Not Textual's fuzzy match, which wants the query's letters in the title in order, in
    any words: "sessions" did not find "Switch session", and "undo", with nothing to undo,
    found "Unload model now" (u-n-…-d-o), which Enter ran (found by new users).
    """

    async def search(self, query: str) -> Hits:
        """Commands whose title the query names first; then those whose help it names."""
        for title, help_text, callback, *_ in self.app.get_system_commands(self.screen):
            if _begins_words(query, title):
                yield Hit(1.0, Content(title), callback, help=help_text)
            elif loosely_matches(query, title, help_text):
                yield Hit(_LOOSE_SCORE, Content(title), callback, help=help_text)
