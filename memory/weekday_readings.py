"""Weekdays named once ("on Friday", "next Monday", "the deadline is Friday"), read in their clause.

Split from `memory.relative_dates`, which reads them with the other days named relative to
the day said: which day a weekday means depends on the day said, on whether its clause
tells of the past ("I lent my drill to Tom on Saturday" was the one before), and on a
date written beside it ("on Friday 18 December" is that date).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta

from memory.lazy_patterns import lazy_compile

_CLAUSE_MARKS = ".!?;,:\n"
_CLAUSE_WORDS = (" and ", " but ", " so ")
_CLAUSE_WINDOW = 200


def clause_before(found: re.Match[str]) -> str:
    """What the clause holding `found` says before it (at most its last 200 characters).

    Found by an adversary: "I ordered a sofa from IKEA, it arrives in two weeks" told of
    the past before its comma, and the sofa's day was read as how long something took.
    Only the 200 characters before the match are read: from the text's start, each match
    of a long paste read all that went before it (76 KB of "Meeting on Friday." took 3 s).
    """
    text = found.string
    window_start = max(0, found.start() - _CLAUSE_WINDOW)
    window = text[window_start : found.start()]
    lowered = window.lower()
    start = max(
        0,
        *(window.rfind(mark) + 1 for mark in _CLAUSE_MARKS),
        *(lowered.rfind(word) + len(word) for word in _CLAUSE_WORDS if word in lowered),
    )
    return window[start:]


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_A_WEEKDAY = lazy_compile(
    r"(?i)(?<!\bevery\s)(?<!\beach\s)\b(?:(?P<which>this|next|coming|last|on|by|until|till|"
    r"before|due|is)\s+)?"
    r"(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?!s)"
    r"(?(which)|(?=,?\s+(?:at\s+)?\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)\b|,?\s+(?:at\s+)?\d{1,2}:\d\d\b"
    r"|,?\s+at\s+\d{1,2}(?![\d:.,])(?!\s*(?:%|percent|degrees|°|kg|km|miles?|people|of)\b)"
    r"|\s+(?:morning|afternoon|evening|night|lunchtime)\b(?!\s+(?:was|were|had)\b)))"
)
"""A weekday named once ("due next Friday", "the plumber comes on Monday", "the deadline is
Friday": a new user found the last by no date), or alone before a clock time ("dentist
friday 9am": an adversary found it by no date; "dentist with Dr Byrne tuesday at 3", "the
ESB man is coming friday morning": a new user, a retired nurse): not "Mondays", "every
Monday" or "Sunday mornings are lovely" (a habit, no day)."""
ITS_DAY_AFTER = (
    r"(?=(?:1[3-9]|2[0-9]|3[01])(?![0-9:.,/-])(?!\s*(?:am|pm|h|hrs?|hours?|mins?|minutes?|%|"
    r"people|of|x|kg|km|k|euros?|eur|dollars?|quid|pounds?)\b)"
    r"|[0-9]{1,2}\s+(?:at|a\s+las?|um|à|alle|@)\s+[0-9])"
)
"""A bare day of the month after a weekday, before the number: "friday 29 at 11:00", "el
jueves 28 a las 16:00" (a new user, a contractor: neither was read as a day). A number of
12 or less is one only before a time: "dentist friday 9" is nine o'clock."""
_MONTH_NAME = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE_WRITTEN_NEXT = lazy_compile(
    rf"(?i)\s*,?\s*(?:the\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\.?\s*(?:of\s+)?{_MONTH_NAME}"
    rf"|{_MONTH_NAME}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\d{{1,2}}[./-]\d{{1,2}}\b"
    r"|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b|" + ITS_DAY_AFTER + r"\d{1,2}\b)"
)
"""A date written beside the weekday: "on Friday 18 December", "on Monday, January 4",
"Friday 18.12.", "Friday the 18th": that date is the day (`memory.date_terms` and
`memory.relative_dates` read it), not the weekday's next one (adversaries saw "on Friday"
told as the Friday a week earlier)."""
_NOT_A_DAY_BEFORE_IS = lazy_compile(r"(?i)\b(?:today|tonight|tomorrow|yesterday|it|day)\s*$")
""""Today is Friday" names no day to come."""


def named_weekdays(text: str) -> Iterator[re.Match[str]]:
    """The weekdays `text` names once, less those dated beside them or said of today."""
    for found in _A_WEEKDAY.finditer(text):
        if _DATE_WRITTEN_NEXT.match(text, found.end()):
            continue
        if (found["which"] or "").casefold() == "is" and _NOT_A_DAY_BEFORE_IS.search(
            text, 0, found.start()
        ):
            continue
        yield found


TOLD_OF_THE_PAST = lazy_compile(
    r"(?i)\b(?:was|were|had|did|went|lent|borrowed|got|saw|met|bought|gave|took|came|made|"
    r"left|found|lost|sold|sent|spent|told|said|ran|won|ate|drove|flew|paid|kept|brought|"
    r"heard|broke|wrote|fell|forgot|began|visited|finished|started|returned|called|"
    r"happened|celebrated|played|watched|tried)\b"
)
"""A past tense before "on Saturday": "I lent my drill to Tom on Saturday", said on a Friday,
was the Saturday before (a new user found it filed under the coming one)."""
TOLD_OF_WHAT_COMES = lazy_compile(
    r"(?i)\b(?:will|shall|gonna|going\s+to|plan(?:s|ned)?\s+to|\w+['\u2019]ll)\b"
)


def _told_of_the_past(found: re.Match[str]) -> bool:
    """Whether the clause says before "on <weekday>" that it tells of what was."""
    before = clause_before(found)
    return bool(TOLD_OF_THE_PAST.search(before)) and not TOLD_OF_WHAT_COMES.search(before)


def weekday_days(found: re.Match[str], said: date) -> list[date]:
    """The days a weekday named once (a match of `named_weekdays`) means, said on `said`."""
    weekday = _WEEKDAYS.index(found["weekday"].casefold())
    which = (found["which"] or "").casefold()
    if which in ("on", "") and _told_of_the_past(found):
        which = "last"
    ahead = (weekday - said.weekday()) % 7
    if which != "this" and not ahead:
        ahead = 7  # "on Friday", said on a Friday, is next week's (an adversary: today's)
    if which == "last":
        return [said - timedelta(days=(said.weekday() - weekday) % 7 or 7)]
    if which == "next":
        # "Next Friday", said on a Wednesday, is this week's Friday to some and the
        # following week's to others: both days are read.
        following = said - timedelta(days=said.weekday()) + timedelta(weeks=1, days=weekday)
        return list(dict.fromkeys([said + timedelta(days=ahead or 7), following]))
    return [said + timedelta(days=ahead)]
