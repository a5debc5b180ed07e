"""A question about several things, asked of each: "when is my dentist and the car service?".

Found by an adversary: "when is my dentist and the car service and the flight?" recalled
the car service alone. Each stored fact holds a third of the question's words, below the
floor, but for the one with two of them. Asked of each part too, every part's best answer
is among what is recalled (`memory.front.MemoryFront.recall`).
"""

from __future__ import annotations

from memory.date_terms import asks_when, when_rank
from memory.entry import MemoryEntry, RecallResult
from memory.lazy_patterns import lazy_compile
from memory.questions import QUESTION_THEN_WHY
from memory.text import entry_terms, query_terms

_MOST_PARTS = 5
SURE_ANSWER = 0.6
"""A part's answer comes in only at this score or more: a part is fewer words than the
question, so easier to match by chance (a part of one word matches any memory holding it)."""
_BREAK = lazy_compile(
    r"(?i)\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|plus)\s+)(?=(?:the|my|our|his|her|their)\s)"
)
"""Where a question goes on to another thing it asks the same of: "… and the flight", "…,
my sister's". Not "Bob and Alice's wedding" (a name after "and" may be one thing with the
first), nor "… and when to use it" (a second question about the first thing: LoCoMo's
off-topic requests, split so, injected a memory twice as often)."""
_ASKS = lazy_compile(r"(?i)^\W*(?:when|where|what|what's|who|who's|which|how)\b")


_LIST_BREAK = lazy_compile(r"(?i)\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|plus)\s+")
_SHORT_ITEM = 3
"""Words of each thing of a list after the first ("…, car service, flight and boiler check")."""
_ASKED_LAST = lazy_compile(
    r"(?i)^(?P<things>[^?]+?)\s*(?:\s[-–—]\s*|:\s*|\s)(?P<asked>when|where|what|who)\s*\?*$"
)
"""Things named, then asked after: "dentist, car service and flight - when?"."""


def asked_parts(query: str) -> list[str]:
    """The parts of a question about several things; [] for one thing.

    Each part names something of its own (an index term): "what and when" is one question.
    A list with a comma is split at each item ("when are the dentist, car service, flight
    and boiler check?", or said first, "dentist, car service and flight - when?": found by
    an adversary, each recalled one or two of them); its items after the first are short,
    and none asks a question of its own.
    """
    if len(query) > _PASTED:
        # A pasted text is no list of questions; a question after it is asked alone too.
        return _asked_after_a_paste(query)
    if (why := QUESTION_THEN_WHY.match(query.strip())) is not None and query_terms(why["asked"]):
        # "when is chidis birthday, i need to send a card": the reason's words drowned the
        # question's (a new user, a carer: the birthday scored 0.25, and 1.0 asked alone).
        return [why["asked"]]
    last = _ASKED_LAST.match(query.strip())
    if last is not None and "," in last["things"] and not _ASKS.match(last["things"]):
        items = _listed(last["things"])
        return [f"{last['asked']} {item}" for item in items] if items else []
    if not _ASKS.match(query):
        return []  # a request is no list of questions
    parts = [part.strip(" ?!.") for part in _BREAK.split(query)]
    if len(parts) < 2 and "," in query:
        parts = _listed(query.strip(" ?!.")) or parts
    parts = [part for part in parts if part and query_terms(part)]
    return parts if 2 <= len(parts) <= _MOST_PARTS else []


_PASTED = 300
_LONGEST_QUESTION = 200
_SENTENCE_BREAK = lazy_compile(r"(?<=[.!?])\s+(?=\S)")
_LEAD_IN = lazy_compile(r"(?i)^[\s>*-]*(?:(?:so|and|ok|okay|anyway|also|then)\b[\s,]*)*")


def _asked_after_a_paste(query: str) -> list[str]:
    """The question asked after a pasted text, as a part of its own; or [].

    Found by a new user, a parent: an email thread pasted with "-- so who drives Mondays
    and Thursdays in January?" after it recalled nothing (the email's words drowned the
    question's: the carpool fact scored 0.2, and 0.75 asked alone).
    """
    line = query.rstrip().rsplit("\n", 1)[-1]
    last = _SENTENCE_BREAK.split(line)[-1]
    if not last.endswith("?"):
        return []
    asked = _LEAD_IN.sub("", last).strip()
    if not asked or len(asked) > _LONGEST_QUESTION or not query_terms(asked):
        return []
    return [asked]


def _listed(text: str) -> list[str]:
    """The items of a list with a comma, each short after the first, or []."""
    items = [item.strip(" ?!.") for item in _LIST_BREAK.split(text)]
    items = [item for item in items if item]
    if not 2 <= len(items) <= _MOST_PARTS:
        return []
    if any(len(item.split()) > _SHORT_ITEM or _ASKS.match(item) for item in items[1:]):
        return []
    return [item for item in items if query_terms(item)]


_TIED = 0.05
"""Answers of a part within this of its best score are as good as the best."""


def _best_answer(when: bool, sure: list[MemoryEntry]) -> MemoryEntry:
    """The part's best answer; asking when, one naming a day or a time among the best.

    Found by an adversary: "dentist, car service and flight - when?" showed "My dentist
    is Dr Ng" and "Flight attendants were lovely last time", each matching its part's
    word as well as the appointment and the flight did.
    """
    top = sure[0].score or 0.0
    tied = [entry for entry in sure if (entry.score or 0.0) >= top - _TIED]
    return min(
        tied,
        key=lambda e: when_rank(when, frozenset(entry_terms(e.key, e.content, e.timestamp))),
    )


def with_each_part(
    whole: RecallResult, answers: list[RecallResult], limit: int, query: str
) -> RecallResult:
    """`whole`'s entries, with each part's best answer among them, `limit` in all.

    The whole question's answers keep their order; a part's best answer it lacks takes
    the place of its last ones. Asked when (of every part: "when are the dentist, car
    service and flight?"), a part's best answer names a day or a time where one can.
    """
    when = asks_when(query)
    held = {entry.id for entry in whole.entries}
    missing: dict[str, MemoryEntry] = {}
    for answer in answers:
        sure = [e for e in answer.entries if (e.score or 0.0) >= SURE_ANSWER]
        best = _best_answer(when, sure) if sure else None
        if best is not None and best.id not in held:
            missing.setdefault(best.id, best)
    added = list(missing.values())[:limit]
    entries = [*whole.entries[: limit - len(added)], *added]
    shown = {entry.id for entry in entries}
    below = [e for e in whole.below_floor if e.id not in shown]
    return whole.model_copy(update={"entries": entries, "below_floor": below})
