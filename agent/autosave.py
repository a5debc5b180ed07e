"""Which user messages are saved as conversation memories, and under what key."""

from __future__ import annotations

import re
import uuid

from agent.injection import FENCE_CLOSE, FENCE_OPEN
from memory.text import analyze, asks_nothing

CONTINUE_PROMPT = "Continue from where you stopped."
"""What the Continue button under a stopped reply sends: memchat's words, not the user's."""


_RECALLED_BLOCK = re.compile(re.escape(FENCE_OPEN) + r".*?" + re.escape(FENCE_CLOSE), re.DOTALL)


def saved_text(text: str) -> str:
    """The message as saved: without a block of recalled memories pasted into it.

    The block's memories are kept already. A message only naming the marker ("I wrote
    <memory-context> in my notes and my car is a blue Fiat") is kept whole: found by an
    adversary, such messages were never saved, and nothing said so.
    """
    if FENCE_OPEN not in text:
        return text
    return _RECALLED_BLOCK.sub(_left_out_if_recalled, text).strip()


def _left_out_if_recalled(block: re.Match[str]) -> str:
    # Only what memchat wrote: "<memory-context>Cat is called Biscuit</memory-context>",
    # the user's own label, was left out too (a later adversary).
    return "" if _WRITTEN_BY_MEMCHAT.search(block.group()) else block.group()


_WRITTEN_BY_MEMCHAT = re.compile(
    r"Memories recalled for this message|^Current time: |^- \[(?:core|conversation|daily|[\w-]+)\]",
    re.MULTILINE,
)


def should_autosave(text: str, min_chars: int) -> bool:
    """Skip small talk, slash commands, Continue and pasted recalled-context blocks.

    Small talk by its words ("ok", "thanks!", "sounds good"), not by its length: "Aiko
    quit." was ten characters, under the twelve a message needed, and was never
    remembered, nothing said (found by a new user).
    """
    stripped = saved_text(text).strip()
    if len(stripped) < min_chars or stripped == CONTINUE_PROMPT or asks_nothing(stripped):
        return False
    if not analyze(stripped):
        return False  # no word to be found by ("You too!", "Same here!"): small talk too
    return not stripped.startswith("/")


def conversation_key(session_id: str) -> str:
    """A unique key for one auto-saved message."""
    return f"conversation/{session_id}/{uuid.uuid4().hex[:12]}"
