"""A value said to change from a day to come, and the day it takes effect.

Found by a new user, a landlord: "rent on flat 1 is going up to 1520 from february"
replaced "Rent on flat 1 is 1450 a month, due on the 1st" in December, and the rent due
now was gone. A change to come is kept beside what holds until then (`memory.other_ones`),
and what the model is shown says whether its day has come (`agent.injection`).
"""

from __future__ import annotations

import re
from datetime import date, datetime

from memory.date_terms import date_terms_of, year_of
from memory.event_days import WEEKDAY
from memory.month_names import MONTH_NAMES
from memory.relative_dates import named_days

_TO_CHANGE = re.compile(
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
_FROM_LATER = re.compile(
    rf"(?i)\b(?:(?:from|starting|as\s+of|beginning|effective|in)\s+(?:the\s+)?"
    rf"(?:next\s+(?:week|month|year)|(?:{MONTH_NAMES})\b|\d{{1,2}}(?:st|nd|rd|th)?\b|"
    rf"new\s+year)|next\s+(?:month|year))"
)
_WEEKDAY = rf"{WEEKDAY}\b"
_STARTING = re.compile(
    rf"(?i)\b(?:(?:starting|as\s+of|effective|beginning)\s+(?:on\s+|from\s+)?(?:the\s+)?"
    rf"(?:(?:next|this|coming)\s+)?(?:(?:{MONTH_NAMES})\b|{_WEEKDAY}|tomorrow|next\s+\w+|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\b(?:/\d{{1,2}})?)"
    rf"|from\s+(?:(?:next|this|coming)\s+)?(?:{_WEEKDAY}|tomorrow|next\s+\w+|"
    rf"the\s+\d{{1,2}}(?:st|nd|rd|th)\b|\d{{1,2}}/\d{{1,2}}\b))"
    r"(?!\s*(?:to|till|until|through|thru|[-\u2013])\b)"
)
"""A value with the day it starts and no word of a change: "Rent costs 1520 starting 1/1",
"From Monday I take 20mg" (a fourth trial: each replaced what holds now). Not a span of
days ("from Monday to Friday")."""
_FROM_A_WEEKDAY = re.compile(
    rf"(?i)\b(?:from|starting|as\s+of|effective|beginning)\s+(?=(?:this\s+|coming\s+)?{_WEEKDAY})"
)
_STARTING_ON = re.compile(
    r"(?i)\b(starting|from|as\s+of|effective|beginning)\s+([0-3]?\d/[01]?\d)(?![\d/])"
)
_A_VALUE = re.compile(r"\d|\b(?:costs?|takes?|pays?|is|are)\b", re.IGNORECASE)
_DONE = re.compile(r"(?i)\b(?:was|were|had|did|used\s+to|since|ago)\b")
"""Said of the past: "From Monday I was on nights" started no change to come."""


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
    Monday; a day it does not write out ("starting 1/1" reads as no date) gives none.
    """
    days: list[date] = []
    said_day = said.date()
    # "starting 1/1": a day and month after the word starting it, however short.
    text = _STARTING_ON.sub(lambda found: f"{found[1]} on {found[2]}", text)
    for term in date_terms_of(text, said):
        if term.startswith("dtd"):
            days.append(date(int(term[3:7]), int(term[7:9]), int(term[9:11])))
        elif term.startswith("dtym"):
            days.append(date(int(term[4:8]), int(term[8:10]), 1))
        elif term.startswith("dtm") and not term.startswith("dtmd"):
            month = int(term[3:5])
            days.append(date(year_of(month, 1, said_day), month, 1))
    # "From Monday" is the coming Monday, as "on Monday" is read.
    for named in named_days(_FROM_A_WEEKDAY.sub("on ", text), said):
        days += [first for first, _last in named.spans[:1]]
    return min(days, default=None)
