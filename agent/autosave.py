"""Which user messages are saved as conversation memories, and under what key."""

from __future__ import annotations

import uuid

from agent.injection import FENCE_OPEN
from memory.text import analyze, asks_nothing

CONTINUE_PROMPT = "Continue from where you stopped."
"""What the Continue button under a stopped reply sends: memchat's words, not the user's."""


def should_autosave(text: str, min_chars: int) -> bool:
    """Skip small talk, slash commands, Continue and pasted recalled-context text.

    Small talk by its words ("ok", "thanks!", "sounds good"), not by its length: "Aiko
    quit." was ten characters, under the twelve a message needed, and was never
    remembered, nothing said (found by a new user).
    """
    stripped = text.strip()
    if len(stripped) < min_chars or stripped == CONTINUE_PROMPT or asks_nothing(stripped):
        return False
    if not analyze(stripped):
        return False  # no word to be found by ("You too!", "Same here!"): small talk too
    if stripped.startswith("/"):
        return False
    return FENCE_OPEN not in stripped


def conversation_key(session_id: str) -> str:
    """A unique key for one auto-saved message."""
    return f"conversation/{session_id}/{uuid.uuid4().hex[:12]}"
