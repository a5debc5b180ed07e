"""A message that asks about several things recalls for each of them too.

Found by new users: "I'm packing for a trip, what should I tell the airline about my
allergies, and where do I work now?" recalled nothing. Each memory's keyword score is the
share of the message's words it holds, so in a long message of several topics every
memory held too small a share and fell under the floor. Each part is recalled on its own
as well, and every part's best memory is kept beside the whole message's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memory.entry import RecallResult
from memory.lazy_patterns import lazy_compile
from memory.text import asks_nothing, query_terms

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from memory.entry import MemoryEntry

_ASKING = (
    r"(?i:what|where|who|whom|when|how|which|why|do|does|did|is|are|was|were|can|could|"
    r"should|would|will|tell|remind)\b"
)
_PART_BREAK = lazy_compile(
    r"[.?!]\s+|;\s*|\n+|,\s*(?:and|but|also|plus)\s+|\s+and\s+also\s+"
    rf"|(?:,|\s+and)\s+(?={_ASKING})|\b(?i:also),\s*|(?:\s+and|,)\s+(?=(?i:my)\s)"
    rf"|:\s+(?={_ASKING})"
)
_ASKS = lazy_compile(rf"^\s*{_ASKING}|\?\s*$")
_PASTED = lazy_compile(r"```|~~~|^\s*\||^\s{4}|^\s*[\[<{]|^\S+:\d|^\d{4}-\d\d-\d\d", re.MULTILINE)
"""Code, a table, a log or data: its lines are no questions (an adversary's log
recalled a memory for each of its first lines)."""
MOST_LINES = 6
MOST_PARTS = 4
"""Parts recalled on their own at most: each may cost a call to the embedding model."""
_FEWEST_TERMS = 1
"""A part needs this many searchable words to be worth a recall of its own."""


_LEANS_BACK = lazy_compile(r"(?i)\b(?:it|that|them|this|those|these|there)\b")
_FEW_OF_ITS_OWN = 2
"""Searchable words of a part that leans back on the one before by "it": it is asked with it."""


def question_parts(text: str) -> list[str]:
    """The parts of a message that asks about several things; [] for a message of one.

    Only a message that asks something is split, and never pasted text (code, a table, a
    log) or more than a few lines: their lines are no topics of a question.
    """
    if _PASTED.search(text) or len(text.strip().splitlines()) > MOST_LINES:
        return []
    parts = [part.strip(" ,.") for part in _PART_BREAK.split(text)]
    seen: set[str] = set()
    kept: list[str] = []
    leaning = 0
    for part in parts:
        said = " ".join(part.lower().split())
        if kept and _LEANS_BACK.search(part) and len(query_terms(part)) <= _FEW_OF_ITS_OWN:
            # "when is the oven service and who's coming to do it?": "it" is the service;
            # alone, "coming" recalled every supplier who "comes" (a new user, a baker).
            # Asked with the whole message only; the part before it is still one of its own.
            leaning += 1
            continue
        if len(query_terms(part)) >= _FEWEST_TERMS and not asks_nothing(part) and said not in seen:
            seen.add(said)
            kept.append(part)
    asking = [part for part in kept if _ASKS.search(part)]
    if len(kept) + leaning < 2 or not asking:
        return []
    # The questions first: "Quick check before my appointment: who is my doctor, …" lost
    # its last question to the lead-in (found by a new user).
    return [*asking, *(part for part in kept if part not in asking)][:MOST_PARTS]


def _best_first(entries: list[MemoryEntry]) -> list[MemoryEntry]:
    return sorted(entries, key=lambda entry: -(entry.score or 0.0))


def found_for_part(result: RecallResult, part: str) -> RecallResult:
    """`result` with each entry's scores naming `part` and how it was searched.

    The inspector explains a score by the search's mode: a part settled by its keywords
    while the whole message was searched by meaning too said "this memory has no vector".
    """
    entries = [
        entry.model_copy(
            update={
                "scores": entry.scores.model_copy(update={"part": part, "part_mode": result.mode})
            }
        )
        if entry.scores is not None
        else entry
        for entry in result.entries
    ]
    return result.model_copy(update={"entries": entries})


def merged(whole: RecallResult, parts: list[RecallResult], limit: int) -> RecallResult:
    """The whole message's recall with each part's best memory, best first, `limit` at most.

    A memory found more than once keeps its best score; each part's best memory that
    passed the floor is kept first, so no topic of the message goes without its memory.
    """
    best: dict[str, MemoryEntry] = {}
    for entry in [*whole.entries, *(e for part in parts for e in part.entries)]:
        held = best.get(entry.id)
        if held is None or (entry.score or 0.0) > (held.score or 0.0):
            best[entry.id] = entry
    leaders = [part.entries[0].id for part in parts if part.entries]
    chosen = list(dict.fromkeys(leaders))[:limit]
    rest = [entry for entry in _best_first(list(best.values())) if entry.id not in chosen]
    entries = _best_first([best[entry_id] for entry_id in chosen] + rest[: limit - len(chosen)])
    used = {entry.id for entry in entries}
    below: dict[str, MemoryEntry] = {}
    for entry in [*whole.below_floor, *(e for part in parts for e in part.below_floor)]:
        if entry.id not in used and entry.id not in below:
            below[entry.id] = entry
    return whole.model_copy(update={"entries": entries, "below_floor": list(below.values())})


async def recall_in_parts(
    recall: Callable[[str], Awaitable[RecallResult]], text: str, limit: int
) -> RecallResult:
    """`recall` of the whole message, and of each of its parts when it asks about several."""
    whole = await recall(text)
    parts = question_parts(text)
    if not parts:
        return whole
    return merged(whole, [found_for_part(await recall(part), part) for part in parts], limit)
