"""An event moved by a span of time ("dentist pushed back six weeks") is kept to its new day.

Found by an adversary: "Dentist on 20/3 at 10am", then "dentist pushed back six weeks".
The move names no day, so no rule read it as one: both messages went at 30 days, on 2
April, and the appointment, now at the start of May, was forgotten before it came.
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import suppress
from datetime import date, timedelta

from memory.changes_kept import InOrder
from memory.days_gone import last_day_named
from memory.entry import MemoryCategory, MemoryEntry
from memory.lazy_patterns import lazy_compile
from memory.text import analyze

_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_COUNTS |= {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple of": 2, "few": 3}
_BY_A_SPAN = lazy_compile(
    r"(?i)\b(?:pushed|moved|put|postponed|delayed|set|bumped|shifted)\s+"
    r"(?:(?:it|them|this|that|the\s+\w+)\s+)?(?P<way>back|forward|out|on)?\s*(?:by\s+)?"
    r"(?P<count>(?:a\s+)?(?:couple\s+of|few)|an?|one|two|three|four|five|six|seven|eight|nine"
    r"|ten|\d{1,2})"
    r"\s+(?P<unit>days?|weeks?|months?)\b(?!\s+ago\b)(?:\s+(?P<when>later|earlier))?"
)
_DAYS_IN = {"day": 1, "week": 7, "month": 30}
_LOOKED_BACK = 5
"""Messages of its chat before a move that may be what it moves."""
_CONVERSATION = MemoryCategory.CONVERSATION.value


def moved_by_a_span(text: str) -> timedelta | None:
    """How far `text` says something moved, earlier when negative; None if it says not."""
    found = _BY_A_SPAN.search(text)
    if found is None:
        return None
    said = " ".join(found["count"].lower().split()).removeprefix("a ")
    count = int(said) if said.isdigit() else _COUNTS[said]
    days = count * _DAYS_IN[found["unit"].lower().rstrip("s")]
    way, when = (found["way"] or "").lower(), (found["when"] or "").lower()
    earlier = way == "forward" or when == "earlier"
    return timedelta(days=-days if earlier else days)


def moved_to_a_day_to_come(said: InOrder, doomed: Collection[str], today: date) -> set[str]:
    """The ids in `doomed` of a move by a span, and what it moves, while its new day is to come.

    What it moves is a message of its chat just before it that names a day and shares a
    word with it ("dentist").
    """
    kept: set[str] = set()
    by_chat: dict[str, list[MemoryEntry]] = {}
    for entry in said.entries:
        if entry.category == _CONVERSATION and entry.session_id:
            by_chat.setdefault(entry.session_id, []).append(entry)
    for chat in by_chat.values():
        for at, move in enumerate(chat):
            if move.id not in doomed or (span := moved_by_a_span(move.content)) is None:
                continue
            words = set(analyze(move.content))
            for earlier in reversed(chat[max(0, at - _LOOKED_BACK) : at]):
                day = last_day_named(earlier)
                if day is None or not words & set(analyze(earlier.content)):
                    continue
                with suppress(OverflowError):  # a day at the calendar's end
                    if day + span >= today:
                        kept |= {move.id, earlier.id}
                break
    return kept & set(doomed)
