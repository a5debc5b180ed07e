"""A recalled correction that shares only a day, a number or its sorry with the message.

Found by an adversary: "Flight to Oslo is SK4021 on the 19th of April" recalled "no wait,
it's the 14th not the 19th", a correction of a parents' evening in another chat, by the
19th alone; "no wait it's the 20th" recalled "no wait, it's under the red pot" by "wait".
Alone, a correction names nothing of what it puts right: what it corrects, when recalled,
is shown "since changed" with it (`agent.put_right`).
"""

from __future__ import annotations

from functools import cache

from agent.events import CutMemory
from memory.corrections import corrects_the_last
from memory.date_term_names import is_date_term
from memory.entry import MemoryCategory, MemoryEntry
from memory.text import analyze, query_terms

_SORRY = "no nope wait sorry oops actually correction typo mean meant scratch that make it my bad"


@cache
def _sorry_terms() -> frozenset[str]:
    return frozenset(analyze(_SORRY, keep_stop_words=True))


def corrections_alone(
    injected: list[MemoryEntry], message: str
) -> tuple[list[MemoryEntry], list[CutMemory]]:
    """`injected` without the corrections that share nothing else with `message`, and those."""
    if not any(corrects_the_last(entry.content) for entry in injected):
        return injected, []
    asked = {
        term
        for term in query_terms(message)
        if not is_date_term(term)
        and not any(char.isdigit() for char in term)  # "19th", "10mg": values, not topics
        and term not in _sorry_terms()
    }
    kept: list[MemoryEntry] = []
    alone: list[CutMemory] = []
    for entry in injected:
        if (
            entry.category == MemoryCategory.CONVERSATION.value
            and corrects_the_last(entry.content)
            and not asked & set(analyze(entry.content))
        ):
            alone.append(CutMemory(entry, "a correction of something else"))
        else:
            kept.append(entry)
    return kept, alone
