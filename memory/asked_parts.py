"""A question about several things, asked of each: "when is my dentist and the car service?".

Found by an adversary: "when is my dentist and the car service and the flight?" recalled
the car service alone. Each stored fact holds a third of the question's words, below the
floor, but for the one with two of them. Asked of each part too, every part's best answer
is among what is recalled (`memory.front.MemoryFront.recall`).
"""

from __future__ import annotations

import re

from memory.entry import MemoryEntry, RecallResult
from memory.text import query_terms

_MOST_PARTS = 4
SURE_ANSWER = 0.6
"""A part's answer comes in only at this score or more: a part is fewer words than the
question, so easier to match by chance (a part of one word matches any memory holding it)."""
_BREAK = re.compile(
    r"(?i)\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|plus)\s+)(?=(?:the|my|our|his|her|their)\s)"
)
"""Where a question goes on to another thing it asks the same of: "… and the flight", "…,
my sister's". Not "Bob and Alice's wedding" (a name after "and" may be one thing with the
first), nor "… and when to use it" (a second question about the first thing: LoCoMo's
off-topic requests, split so, injected a memory twice as often)."""
_ASKS = re.compile(r"(?i)^\W*(?:when|where|what|what's|who|who's|which|how)\b")


def asked_parts(query: str) -> list[str]:
    """The parts of a question about several things; [] for one thing.

    Each part names something of its own (an index term): "what and when" is one question.
    """
    if len(query) > 300 or not _ASKS.match(query):
        return []  # a pasted text, or a request, is no list of questions
    parts = [part.strip(" ?!.") for part in _BREAK.split(query)]
    parts = [part for part in parts if part and query_terms(part)]
    return parts if 2 <= len(parts) <= _MOST_PARTS else []


def with_each_part(whole: RecallResult, answers: list[RecallResult], limit: int) -> RecallResult:
    """`whole`'s entries, with each part's best answer among them, `limit` in all.

    The whole question's answers keep their order; a part's best answer it lacks takes
    the place of its last ones.
    """
    held = {entry.id for entry in whole.entries}
    missing: dict[str, MemoryEntry] = {}
    for answer in answers:
        sure = [e for e in answer.entries if (e.score or 0.0) >= SURE_ANSWER]
        if sure and sure[0].id not in held:
            missing.setdefault(sure[0].id, sure[0])
    added = list(missing.values())[:limit]
    entries = [*whole.entries[: limit - len(added)], *added]
    shown = {entry.id for entry in entries}
    below = [e for e in whole.below_floor if e.id not in shown]
    return whole.model_copy(update={"entries": entries, "below_floor": below})
