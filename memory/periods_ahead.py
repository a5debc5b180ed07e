"""The last day of a period to come a message names without a date, for keeping it till then.

Found by an adversary: "big trip to Japan next year", "renovation next summer", "sales
start in the new year", "dentist in 3 months", "visa expires in six months" and "exam in
the spring", said on 1 October, were deleted at 30 days, before the time they name
(`memory.days_to_keep` reads the days and months said as dates).
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from memory.numbers import NUMBER_WORDS

_COUNT = rf"(?P<count>\d{{1,2}}|an?|{'|'.join(sorted(NUMBER_WORDS, key=len, reverse=True))})"
_IN_SOME = re.compile(rf"(?i)\bin\s+(?:about\s+|around\s+)?{_COUNT}\s+(?P<unit>months?|years?)\b")
_NEXT_YEAR = re.compile(
    r"(?i)\b(?:next\s+year|(?:in|after|early\s+in)\s+the\s+new\s+year)\b(?!['\u2019]s)"
)
_THIS_YEAR = re.compile(
    r"(?i)\b(?:(?:the\s+)?end\s+of\s+(?:the|this)\s+year|year[ -]end|(?:later|by\s+the\s+end\s+of)"
    r"\s+this\s+year|this\s+year)\b"
)
"""'before the end of the year', 'bonus paid at year end', 'later this year' (a second
adversary: each deleted at 30 days)."""
_SEASON = re.compile(
    r"(?i)\b(?P<which>next|this|in\s+the|coming|over\s+the)\s+(?P<season>spring|summer|"
    r"autumn|fall|winter)\b"
)
_SEASON_ENDS = {"spring": 5, "summer": 8, "autumn": 11, "fall": 11, "winter": 2}
"""The month each season ends in (the northern one: the app's users say it so)."""


def last_day_of_periods(text: str, said: date) -> list[date]:
    """The last day of each period to come `text`, said on `said`, names."""
    days: list[date] = []
    for found in _IN_SOME.finditer(text):
        count = _count(found["count"])
        if found["unit"].casefold().startswith("month"):
            month_index = said.month - 1 + count
            days.append(month_end(said.year + month_index // 12, month_index % 12 + 1))
        else:
            days.append(date(said.year + count, 12, 31))
    for found in _NEXT_YEAR.finditer(text):
        new_year = found.group().casefold().endswith("new year")
        days.append(date(said.year + 1, 1, 31) if new_year else date(said.year + 1, 12, 31))
    if _THIS_YEAR.search(text):
        days.append(date(said.year, 12, 31))
    for found in _SEASON.finditer(text):
        days.append(_season_end(found["season"].casefold(), said, found["which"].casefold()))
    return days


def _count(said: str) -> int:
    folded = said.casefold()
    if folded in ("a", "an"):
        return 1
    return int(folded) if folded.isdigit() else int(NUMBER_WORDS.get(folded, "1"))


def month_end(year: int, month: int) -> date:
    """The last day of a month."""
    return date(year, month, calendar.monthrange(year, month)[1])


def _season_end(season: str, said: date, which: str) -> date:
    """The end of the season meant: this one or the next to come, or the one after that."""
    ends = _SEASON_ENDS[season]
    year = said.year + 1 if season == "winter" and said.month >= 3 else said.year
    end = month_end(year, ends)
    if end < said:
        end = month_end(year + 1, ends)
    if which == "next" and end.month - 2 <= said.month <= end.month and end.year == said.year:
        end = month_end(year + 1, ends)  # said in the season: next is a year on
    return end
