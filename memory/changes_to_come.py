"""A value said to change from a day to come, and the day it takes effect.

Found by a new user, a landlord: "rent on flat 1 is going up to 1520 from february"
replaced "Rent on flat 1 is 1450 a month, due on the 1st" in December, and the rent due
now was gone. A change to come is kept beside what holds until then (`memory.other_ones`),
and what the model is shown says whether its day has come (`agent.injection`).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache

from memory.date_term_names import local_time
from memory.date_terms import mentioned_date_terms, nearest_day, year_of
from memory.lazy_patterns import lazy_compile
from memory.month_names import MONTH_NAMES, MONTH_OF_ANY_LANGUAGE
from memory.relative_dates import named_days
from memory.weekly_days import WEEKDAY

_TO_CHANGE = lazy_compile(
    r"(?i)\b(?:(?:is|are)\s+)?(?:going\s+(?:up|down)|goes\s+(?:up|down)|go\s+(?:up|down)|"
    r"rising|rises|increasing|increases|dropping|drops|decreasing|decreases|"
    r"will\s+(?:be|cost|pay|go\s+(?:up|down)|rise|drop|increase|decrease|change|start|switch|"
    r"move)|['\u2019]ll\s+(?:be|cost|pay|start)|(?:is|are)\s+going\s+to\s+(?:be|cost|go|rise)|"
    r"(?:is|are)\s+(?:set|due)\s+to\s+(?:rise|go\s+up|increase|drop|change)|"
    r"changes?\s+to|switch(?:es)?\s+to|becomes?|"
    r"(?:am|is|are)\s+(?:starting|switching|moving)\s+(?:at|to|on|with)|"
    r"start(?:s|ing)?\s+(?:at|on|with|taking|a\s+new)|begins?\s+at|"
    r"new\s+[\w-]+(?:\s+[\w-]+)?(?=\s+(?:from|starting|as\s+of|effective)\b))\b"
)
"""A word of a change: "going up to", "rises to", "will cost", "I start at Google"."""
_FROM_LATER = lazy_compile(
    rf"(?i)\b(?:(?:from|starting|as\s+of|beginning|effective|in)\s+(?:the\s+)?"
    rf"(?:next\s+(?:week|month|year)|(?:{MONTH_NAMES})\b|\d{{1,2}}(?:st|nd|rd|th)?\b|"
    rf"new\s+year)|next\s+(?:month|year))"
)
_WEEKDAY = rf"{WEEKDAY}\b"
_A_WEEKDAY = lazy_compile(rf"(?i)\b{_WEEKDAY}")
_ELSEWHERE_FROM = (
    r"(?:ab(?:\s+(?:dem|den))?|a\s+partir\s+d(?:e|o|a|el)|desde|[àa]\s+partir\s+d[eu]|"
    r"d[èe]s|a\s+partire\s+da(?:l)?|da(?:l)?)"
)
"""'from' in German, Spanish, Portuguese, French, Italian: "Ab Januar zahle ich 950 Euro
Miete", "A partir de enero el alquiler sube a 1520" (an adversary: each replaced the rent
now)."""
_ANY_MONTH = "|".join(sorted(MONTH_OF_ANY_LANGUAGE, key=len, reverse=True))
_ORDINAL_WORDS = r"(?:twenty|thirty)[\s-]+(?:first|second|third|\w+th)|first|second|third|\w+th"
"""'Starting the twenty-eighth of December my rent is 1450' (an adversary)."""
_STARTING = lazy_compile(
    rf"(?i)\b(?:(?:starting|as\s+of|effective|beginning)\s+(?:on\s+|from\s+)?(?:the\s+)?"
    rf"(?:(?:next|this|coming)\s+)?(?:(?:{MONTH_NAMES})\b|{_WEEKDAY}|tomorrow|next\s+\w+|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\b(?:/\d{{1,2}})?)"
    rf"|^\W*next\s+(?:week|month|year)\b(?=.*\d)"
    rf"|after\s+(?:christmas|xmas|new\s+year|easter|the\s+holidays)\b"
    rf"|(?:from|form|fron|frm)\s+(?:(?:next|this|coming)\s+)?(?:{_WEEKDAY}|tomorrow|next\s+\w+|"
    rf"the\s+\d{{1,2}}(?:st|nd|rd|th)\b|\d{{1,2}}/\d{{1,2}}\b|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTH_NAMES})\b|"
    rf"(?:{MONTH_NAMES})\s+\d{{1,2}}(?:st|nd|rd|th)?\b|(?!may\b|mar\b)(?:{MONTH_NAMES})\b)"
    rf"|(?:starting|from)\s+the\s+(?:{_ORDINAL_WORDS})(?:\s+of)?\s+(?:{MONTH_NAMES})\b"
    rf"|{_ELSEWHERE_FROM}\s+(?:(?:el|le|o|il)\s+)?(?:\d{{1,2}}\.?\s+(?:de\s+)?)?"
    rf"(?:{_ANY_MONTH})\b)"
    r"(?!\s*(?:to|till|until|through|thru|[-\u2013])\b)"
)
"""A value with the day it starts and no word of a change: "Rent costs 1520 starting 1/1",
"From Monday I take 20mg" (a fourth trial: each replaced what holds now). Not a span of
days ("from Monday to Friday")."""
_FROM_A_WEEKDAY = lazy_compile(
    rf"(?i)\b(?:from|starting|as\s+of|effective|beginning)\s+"
    rf"(?=(?:this\s+|coming\s+|next\s+)?{_WEEKDAY}(?!['\u2019]s))"
)
_A_WEEKDAYS_REACH = 24
"""The words after "from" read for the weekday it names: "from next Monday"."""
_FROM_NEXT = lazy_compile(
    r"(?i)\b(?:from|starting|as\s+of|effective|beginning)\s+(next\s+(?:week|month|year))\b"
)
_FROM_TOMORROW = lazy_compile(r"(?i)\b(?:from|starting|as\s+of|effective|beginning)\s+tomorrow\b")
"""Found by a new user, a baker: "she lowered my amlodipine to 7.5mg from tomorrow" had no
first day (a day "from" starts is no day of an event, `memory.relative_dates`), and the 10mg
dose stayed unmarked for months."""
_STARTING_ON = lazy_compile(
    r"(?i)\b(starting|from|as\s+of|effective|beginning)\s+([0-3]?\d/[01]?\d)(?![\d/])"
)
_A_VALUE = lazy_compile(r"\d|\b(?:costs?|takes?|pays?|is|are)\b", re.IGNORECASE)
_DONE = lazy_compile(r"(?i)\b(?:was|were|had|did|used\s+to|since|ago)\b")
"""Said of the past: "From Monday I was on nights" started no change to come."""


@lru_cache(maxsize=2048)
def a_change_to_come(text: str) -> bool:
    """Whether `text` says a value changes from a day to come, not what it is now."""
    if _TO_CHANGE.search(text) is not None and _FROM_LATER.search(text) is not None:
        return True
    starting = _STARTING.search(text)
    if starting is None or _DONE.search(text):
        return False
    rest = text[: starting.start()] + text[starting.end() :]
    return _A_VALUE.search(rest) is not None


def first_day_of_change(text: str, said: datetime) -> date | None:
    """The first day `text`, said at `said`, names: the day its change takes effect.

    "from February" said in December is 1 February next year; "From Monday" the coming
    Monday; "from 20/12" the 20th, not December's first (an adversary saw "in effect since
    1 December" on 5 December). A day and month without a year is the one nearest the day
    said: "rent is 1450 from 1/11" said on 5 December took effect on 1 November; "1/11" is
    a day first. A day it does not write out gives none.
    """
    days: list[date] = []
    said_day = local_time(said).date()
    # "starting 1/1": a day and month after the word starting it, however short.
    text = _STARTING_ON.sub(lambda found: f"{found[1]} on {found[2]}", text)
    named = mentioned_date_terms(text, said_day)
    first = next((t for t in named if t.startswith(("dtd", "dtmd", "dtm", "dtym"))), None)
    if first is not None:
        days.append(_day_of(first, said_day))
    else:
        elsewhere = _ELSEWHERE_MONTH.search(text)
        if elsewhere is not None:
            month = MONTH_OF_ANY_LANGUAGE[elsewhere[1].casefold()]
            days.append(date(year_of(month, 1, said_day), month, 1))
    # "From Monday" is the coming Monday, as "on Monday" is read: only a weekday the word of
    # a start names. "The rent goes up to 16 500 Kč from June, Mr. Dvořák emailed today"
    # took effect the day it was said (a new user saw the rent now marked "since changed"
    # in April), "The landlord wrote on Friday, from June the rent is 1520" the Friday
    # before (an adversary).
    for start in _FROM_A_WEEKDAY.finditer(text):
        after = f"on {text[start.end() : start.end() + _A_WEEKDAYS_REACH]}"
        for weekday in named_days(after, said)[:1]:
            if _A_WEEKDAY.search(weekday.words):
                days += [first_day for first_day, _last in weekday.spans[:1]]
    # "from next week", "starting next month": the first day of that week or month (an
    # adversary: "my lisinopril goes up to 20mg from next week" was never in effect).
    for start in _FROM_NEXT.finditer(text):
        for period in named_days(start[1], said)[:1]:
            days += [first_day for first_day, _last in period.spans[:1]]
    if not days and _FROM_TOMORROW.search(text):
        # Only when no other day is named, so that what `memory.month_to_come` indexes stays.
        days.append(said_day + timedelta(days=1))
    return min(days, default=None)


_ELSEWHERE_MONTH = lazy_compile(rf"(?i){_ELSEWHERE_FROM}\s+(?:\S+\s+){{0,3}}?({_ANY_MONTH})\b")


def _day_of(term: str, said: date) -> date:
    """The first day a date term names: a month's first day, a year-less day the nearest."""
    if term.startswith("dtd"):
        return date(int(term[3:7]), int(term[7:9]), int(term[9:11]))
    if term.startswith("dtmd"):
        return nearest_day(int(term[4:6]), int(term[6:8]), said)
    if term.startswith("dtym"):
        return date(int(term[4:8]), int(term[8:10]), 1)
    month = int(term[3:5])
    return date(year_of(month, 1, said), month, 1)
