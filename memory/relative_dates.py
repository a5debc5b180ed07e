"""Days named relative to a day: "tomorrow", "yesterday", "next week", "next Friday", and so on.

A question names them from today (`relative_date_terms`); a memory from the day it was
saved (`said_relative_terms`): "Müller job due next Friday", saved on Friday 4 December
2026, is due on 11 December, and found by "what is due next week?" or "11.12.2026" (a new
user found neither did). The days become the date terms a memory is indexed with
(`memory.date_terms`): a week is its seven days, each as written with and without the
year, and any one of them found is the date found (`memory.retrieval.keyword_coverage`).
Found by a new user: "remind me of my appointments next week" recalled nothing of "Physio
on December 9".
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from memory.date_terms import (
    day_of_month_term,
    day_term,
    implied_terms,
    local_time,
    month_of_year_term,
    year_term,
)

_RELATIVE = re.compile(
    r"(?i)\b(?:(?P<day>today|tonight|tomorrow|yesterday)|the\s+day\s+after\s+tomorrow"
    r"|(?P<which>this|next|last|past|coming)\s+(?P<span>week(?:end)?|month|year))\b"
)
_SHIFT = {"this": 0, "coming": 1, "next": 1, "last": -1, "past": -1}
ASKED_AS_DATES_ONLY = re.compile(r"(?i)\b(?:today|tonight|tomorrow)\b")
"""Words a question means only as a date: an old "I have the dentist tomorrow" said them of
another day (found by an adversary, recalled for "what's on tomorrow?"). "Yesterday",
"last week" and the like stay words too: a memory telling of its past says them."""


def _days(first: date, count: int) -> list[str]:
    days = [first + timedelta(days=offset) for offset in range(count)]
    return [
        term
        for day in days
        for term in (day_term(day.year, day.month, day.day), day_of_month_term(day.month, day.day))
    ]


def _terms(found: re.Match[str], today: date) -> list[str]:
    word = (found["day"] or "").casefold()
    if word in ("today", "tonight"):
        return _days(today, 1)
    if word == "tomorrow":
        return _days(today + timedelta(days=1), 1)
    if word == "yesterday":
        return _days(today - timedelta(days=1), 1)
    if not found["which"]:
        return _days(today + timedelta(days=2), 1)  # the day after tomorrow
    shift = _SHIFT[found["which"].casefold()]
    span = found["span"].casefold()
    if span.startswith("week"):
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=shift)
        return _days(monday + timedelta(days=5), 2) if span == "weekend" else _days(monday, 7)
    if span == "month":
        month_index = today.year * 12 + today.month - 1 + shift
        year, month = divmod(month_index, 12)
        return [month_of_year_term(year, month + 1)] if 1 <= year <= 9999 else []
    year = today.year + shift
    return [year_term(year)] if 1 <= year <= 9999 else []


def relative_date_terms(
    text: str, today: date | None = None, *, past_only: bool = False
) -> list[str]:
    """The date terms of the days `text` names relative to `today` (the local date).

    The words stay in the query too ("last week" said in a memory is found by its words),
    but for those `ASKED_AS_DATES_ONLY`. `past_only`: only the days gone by ("yesterday",
    "last week"), not today's or those to come.
    """
    today = today or date.today()
    terms: list[str] = []
    for found in _RELATIVE.finditer(text):
        if past_only and not _PAST.match(found.group()):
            continue
        try:
            terms.extend(_terms(found, today))
        except OverflowError:
            pass  # a day before year 1 or after 9999: no date to ask about
    return list(dict.fromkeys(terms))


_PAST = re.compile(r"(?i)yesterday|last|past")


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_A_WEEKDAY = re.compile(
    r"(?i)\b(?P<which>this|next|coming|last|on|by|until|till|before)\s+"
    r"(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?!s)"
)
"""A weekday named once ("due next Friday", "the plumber comes on Monday"): not "Mondays",
"every Monday" or "Sunday mornings are lovely" (a habit, no day)."""
_NAMES_A_DAY = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|(?:this|next|last|past|coming)\s+(?:week|month|year)"
    r"|(?:this|next|coming|last|on|by|until|till|before)\s+"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b"
)
"""Either of `_RELATIVE` and `_A_WEEKDAY`, in lower case: what `said_relative_terms` asks
first (case-insensitive patterns scan a text a few times slower)."""


def _weekday_days(found: re.Match[str], said: date) -> list[date]:
    weekday = _WEEKDAYS.index(found["weekday"].casefold())
    which = (found["which"] or "").casefold()
    ahead = (weekday - said.weekday()) % 7
    if which == "last":
        return [said - timedelta(days=(said.weekday() - weekday) % 7 or 7)]
    if which == "next":
        # "Next Friday", said on a Wednesday, is this week's Friday to some and the
        # following week's to others: both days are read.
        following = said - timedelta(days=said.weekday()) + timedelta(weeks=1, days=weekday)
        return list(dict.fromkeys([said + timedelta(days=ahead or 7), following]))
    return [said + timedelta(days=ahead)]


def said_relative_terms(content: str, saved: datetime | None) -> list[str]:
    """The date terms of the days `content` names relative to the day it was saved.

    "tomorrow", "next week", "next Friday", "on Monday" (the coming one), "last Tuesday";
    with the months and years those days lie in, as for a date written out.
    """
    if saved is None:
        return []
    if _NAMES_A_DAY.search(content.lower()) is None:
        return []  # most texts: one scan of the lower-cased text instead of two
    relative = _RELATIVE.search(content) is not None
    weekdays = list(_A_WEEKDAY.finditer(content))
    try:
        said = local_time(saved).date()
        terms = relative_date_terms(content, said) if relative else []
        for found in weekdays:
            for day in _weekday_days(found, said):
                terms += [day_term(day.year, day.month, day.day)]
                terms += [day_of_month_term(day.month, day.day)]
    except OverflowError:
        return []  # a day before year 1 or after 9999
    implied = [t for term in terms for t in implied_terms(term)]
    return list(dict.fromkeys(terms + implied))


def names_a_relative_day(content: str) -> bool:
    """Whether `content` names a day relative to when it was said (indexed since then)."""
    return _RELATIVE.search(content) is not None or _A_WEEKDAY.search(content) is not None
