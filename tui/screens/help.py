"""Keys and commands."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# memchat

Esc or q closes this help.

| Key | Does |
|---|---|
| Enter | send |
| Ctrl+J | new line |
| ↑ (empty prompt) | edit your last message: Enter replaces it and its reply, Esc cancels |
| ↑ ↓ | earlier messages, sent as new ones (on the first / last line) |
| Esc | stop the reply (keeps what arrived); then Continue goes on, Regenerate answers anew |
| F2 | memory inspector |
| F5 | memory inspector across the whole window (each memory's text in full), or back |
| F3 | copy the last reply |
| F4 | incognito: this session saves nothing (no messages, no session file, no memory changes) |
| Ctrl+N | new session |
| Delete, twice, in the session list | delete that chat (its file goes to sessions/deleted) |
| Ctrl+F | search every past chat (any case or accent); Enter opens it at the message found |
| Ctrl+P | palette: switch session or model, pull, thinking, keep-alive, unload, export memory |
| Tab, Shift+Tab | move between the prompt, the messages and the memory panel |
| Enter, on a ◆ or tool line | open it: the memories shown and their scores, a tool call's result |
| c | on a focused reply: copy it |
| Ctrl+Q | quit |

| Command | Does |
|---|---|
| /remember TEXT | store a core memory |
| /recall QUERY | search memory |
| /forget KEY | delete a memory (Undo forget brings it back; for good: see the palette) |
| /new, /sessions, /model | new session, switch session, switch model |
| /help, /incognito | this help, incognito (F4) |

| In the memory inspector (F2) | Does |
|---|---|
| type in the search box | search with the agent's own recall (each result shows its scores) |
| Tab, Shift+Tab | move between the search box, the filters and the list (Space ticks a filter) |
| Enter on a row | details: edit, pin, forget; an earlier version offers Restore |
| Ctrl+S, Ctrl+R (in the details) | save, restore an earlier version (Esc closes) |
| superseded / deleted | also list earlier versions / what was deleted: when, its text and why |
| Undo forget (button) | bring back the last forgotten memory (by /forget or the model), whole |
| Enter on a deleted row | store that memory again from the audit log (after a restart too) |
| category, namespace | show one category or namespace only |
| ● ▲ ↺ before a row | shown to the model this turn · pinned · an earlier version (history) |

Every message you send is remembered (unless incognito, or small talk); relevant memories
are shown to the model before your message, and the ◆ line under it says which, and why.
A message is kept for 30 days, or longer when it gives a day still to come, a birthday,
your own details or what happens regularly; what you /remember is kept until you forget it.

From a shell, `memchat memory --help` lists the memory commands: `audit` shows what was
deleted, with ids, and `restore ID` brings an earlier version or a deleted memory back.
"""


_HOW_LONG = (
    "A message is kept for 30 days, or longer when it gives a day still to come, a birthday,\n"
    "your own details or what happens regularly; what you /remember is kept until you forget it."
)


def help_text(conversation_days: int) -> str:
    """The help, saying how long a message is kept as the config has it (0: for good)."""
    if conversation_days == 0:
        said = "Messages, and what you /remember, are kept until you forget them."
    else:
        said = _HOW_LONG.replace("30 days", f"{conversation_days} days")
    return HELP.replace(_HOW_LONG, said)


class HelpScreen(ModalScreen[None]):
    """Esc or q closes."""

    def __init__(self, conversation_days: int = 30) -> None:
        super().__init__()
        self._text = help_text(conversation_days)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        """The help text, scrollable (↑ ↓, Page Up/Down, Home/End) in a short terminal."""
        with VerticalScroll(id="help"):
            yield Markdown(self._text)

    def on_mount(self) -> None:
        """Scroll keys go to the text."""
        self.query_one("#help", VerticalScroll).focus()

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)
