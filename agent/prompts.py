"""The system prompt, which never mentions tools the model was not given."""

from __future__ import annotations

from datetime import date

TOOLS_GUIDE = (
    "\n\nYou have memory tools. Call memory_store to remember durable facts the user shares "
    "(preferences, plans, people, decisions) under a short snake_case key; storing under an "
    "existing key replaces it. Write a fact about the user in the user's words (\"I live in "
    'Porto") or as "The user …", not by their name, so that a later fact replaces it. '
    "Call memory_recall to search memory when the recalled "
    "memories shown to you are not enough, memory_list to see what is stored, and "
    "memory_forget when the user asks you to forget something."
)

COMMANDS_GUIDE = (
    "\n\nYou cannot store memories yourself. If the user wants something remembered, tell "
    "them to type /remember followed by the fact; /forget KEY removes one."
)


def system_prompt(base: str, tools_available: bool, today: date | None = None) -> str:
    """The configured prompt, the memory guide that matches what the model can do, and the day.

    The day, not the time: the prompt stays the same all day, so the server keeps reusing
    what it computed for it. Found by an adversary: with nothing recalled, the model was
    told no date at all ("write a haiku about this season"). The recalled memories' block
    gives the time to the minute.
    """
    guide = TOOLS_GUIDE if tools_available else COMMANDS_GUIDE
    when = "" if today is None else f"\n\nToday is {today:%A, %B} {today.day}, {today.year}."
    return base + guide + when
