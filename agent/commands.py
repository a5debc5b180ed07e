"""Memory slash commands, for models without tool support (and for people who like them)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from agent.messages import ToolCall

COMMANDS = ("/remember", "/forget", "/recall")
_ARGUMENT = {"/remember": "TEXT", "/forget": "KEY", "/recall": "QUERY"}


@dataclass(frozen=True)
class MemoryCommand:
    """A parsed slash command, as the tool call it stands for."""

    call: ToolCall
    name: str = ""
    """The command as typed: /remember, /forget or /recall."""


def key_for(text: str) -> str:
    """The key /remember stores TEXT under (a few of its words and a short hash)."""
    words = re.findall(r"[a-z0-9]+", text.lower())[:5]
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
            id="command",
            name="memory_store",
            arguments={"key": key_for(rest), "content": rest, "category": "core"},
        )
    elif head == "/forget":
        call = ToolCall(id="command", name="memory_forget", arguments={"key": rest})
    else:
        call = ToolCall(id="command", name="memory_recall", arguments={"query": rest})
    return MemoryCommand(call, head)
