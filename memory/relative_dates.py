"""Days a question names relative to today: "tomorrow", "yesterday", "next week", and so on.

Only questions are read so: a stored message's "tomorrow" was said on a day of its own.
The days become the date terms a memory is indexed with (`memory.date_terms`): a week is
its seven days, each as written with and without the year, and any one of them found is
the date found (`memory.retrieval.keyword_coverage`). Found by a new user: "remind me of
my appointments next week" recalled nothing of "Physio on December 9".
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from memory.date_terms import day_of_month_term, day_term, month_of_year_term, year_term

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
