"""Memory slash commands, for models without tool support (and for people who like them)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from agent.messages import ToolCall
from agent.redact import redact
from memory.text import fold

_WORD = re.compile(r"[^\W_]+")
_WORD_CHARS = 24
COMMANDS = ("/remember", "/forget", "/recall")
_ARGUMENT = {"/remember": "TEXT", "/forget": "KEY", "/recall": "QUERY"}
COMMAND_CALL_ID = "command"
"""The id of the tool call a slash command stands for (no model made it)."""


@dataclass(frozen=True)
class MemoryCommand:
    """A parsed slash command, as the tool call it stands for."""

    call: ToolCall
    name: str = ""
    """The command as typed: /remember, /forget or /recall."""


def key_words(text: str, count: int) -> list[str]:
    """The first `count` words of `text` as a key holds them: lower case, marks left off.

    Letters of any script stay: "Jürgen" became "j_rgen" and "Привет" nothing at all
    (found by a new user).
    """
    # A key is at most 512 characters: one very long word cut short keeps it well inside.
    return [word[:_WORD_CHARS] for word in _WORD.findall(fold(text))[:count]]


def key_for(text: str) -> str:
    """The key /remember stores TEXT under (a few of its words and a short hash).

    The words come from the text with its secrets redacted: a key is shown in lists, the
    chat and every recall, and "my_password_is_hunter2" put the password in all of them
    (found by a new user). The text itself is kept as the user asked.
    """
    words = key_words(redact(text)[0], 5)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return "_".join([*words, digest]) if words else f"note_{digest}"


def parse_command(text: str) -> MemoryCommand | None | str:
    """The command in `text`; None if it is not one; a usage message if it is malformed."""
    head, _, rest = text.strip().partition(" ")
    if head not in COMMANDS:
        return None
    rest = rest.strip()
    if not rest:
        return f"usage: {head} {_ARGUMENT[head]}"
    if head == "/remember":
        call = ToolCall(
            id=COMMAND_CALL_ID,
            name="memory_store",
            arguments={"key": key_for(rest), "content": rest, "category": "core"},
        )
    elif head == "/forget":
        call = ToolCall(id=COMMAND_CALL_ID, name="memory_forget", arguments={"key": rest})
    else:
        call = ToolCall(id=COMMAND_CALL_ID, name="memory_recall", arguments={"query": rest})
    return MemoryCommand(call, head)
