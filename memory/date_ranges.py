"""The days a range of dates spans: "Away 20/12 to 2/1" is also away on 24 December.

Found by a new user's candidate list: asked "what's on 24/12?", the range was not found, since
only its two ends were dates. A memory that names a range of at most a month holds the
terms of the days between its ends too; a longer range ("Jan to June") is a span of months,
not of days anyone asks about one by one. A query keeps its ends alone: a range asked about
with its every day would count a memory naming one of them as covering little of it.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from memory.lazy_patterns import lazy_compile
from memory.month_names import MONTH_NAMES, OTHER_LANGUAGES

LONGEST_RANGE_DAYS = 31
_JOINED = lazy_compile(
    r"\s*(?:to|till|til|until|thru|through|[-\u2013\u2014]|al|bis|au|alla|hasta(?:\s+el)?|"
    r"at[ée](?:\s+(?:o|a))?)\s*",
    re.IGNORECASE,
)
"""What stands between a range's two ends: "20/12 to 2/1", "Dec 20 – Jan 2"."""
_A_DIGIT = lazy_compile(r"\d")
_A_LEAP_YEAR = 2000
"""Where neither end says its year: 29 February may lie between."""


_MONTH = f"(?:{MONTH_NAMES})"
_DAYS_OF_ONE_MONTH = lazy_compile(
    r"(?<![/.\d])\b(\d{1,2})\s*[-\u2013]\s*(\d{1,2})([/.])(\d{1,2})\b(?![/.]?\d)"
)
_DAYS_THEN_MONTH = lazy_compile(
    rf"(?i)\b(\d{{1,2}})(?:st|nd|rd|th)?\s*(?:to|till|until|[-\u2013])\s*(\d{{1,2}})"
    rf"(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})\b"
)
_ELSEWHERE = "|".join(
    sorted(
        {name for names in OTHER_LANGUAGES.values() for name in names.split() if len(name) > 3},
        key=len,
        reverse=True,
    )
)
_DAYS_THEN_MONTH_ELSEWHERE = lazy_compile(
    rf"(?i)\b(\d{{1,2}})\.?\s+(?:al|a|hasta(?:\s+el)?|au|bis(?:\s+zum)?|[-\u2013])\s+"
    rf"(\d{{1,2}})(\.|\s+de|\s+di)?\s+({_ELSEWHERE})\b"
)
"""'del 20 al 23 de diciembre', 'vom 20. bis 23. Dezember', 'du 20 au 23 décembre' (an
adversary: not found by a day between)."""
_BETWEEN = lazy_compile(
    rf"(?i)\b(between\s+(?:\d{{1,2}}[/.]\d{{1,2}}(?:[/.]\d{{2,4}})?|\d{{1,2}}(?:st|nd|rd|th)?"
    rf"\s+(?:of\s+)?{_MONTH}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?))\s+and\s+(?=\d|{_MONTH})"
)


def ranges_written_out(text: str) -> str:
    """`text` with each range's ends written as dates: "20-23/1" as "20/1 - 23/1".

    Found by an adversary: "Conference 20-23/1", "Trip from 3 to 7 February" and "Kids at
    grandma's between 10/2 and 14/2" were not found by a day between their ends.
    """
    if _A_DIGIT.search(text) is None:  # most texts: a scan in C, not a loop per character
        return text
    text = _DAYS_OF_ONE_MONTH.sub(lambda m: f"{m[1]}{m[3]}{m[4]} - {m[2]}{m[3]}{m[4]}", text)
    text = _DAYS_THEN_MONTH.sub(lambda m: f"{m[1]} {m[3]} to {m[2]} {m[3]}", text)
    text = _DAYS_THEN_MONTH_ELSEWHERE.sub(
        lambda m: f"{m[1]}{m[3] or ''} {m[4]} al {m[2]}{m[3] or ''} {m[4]}", text
    )
    text = _BETWEEN.sub(lambda m: f"{m[1]} to ", text)
    return _TWO_ENDS.sub(_in_one_order, text)


_TWO_ENDS = lazy_compile(
    r"(?<![/.\d])\b(\d{1,2})[/.](\d{1,2})(\s*(?:to|till|until|thru|through|[-\u2013\u2014])\s*)"
    r"(\d{1,2})[/.](\d{1,2})\b(?![/.]\d)",
    re.IGNORECASE,
)
_MONTH_NAMES = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def _in_one_order(found: re.Match[str]) -> str:
    """A range's two ends in the order one of them shows: "10/2 to 14/2" is February's."""
    a, b, joined, c, d = found.groups()
    first, second, third, fourth = int(a), int(b), int(c), int(d)
    if first > 12 or third > 12:  # day first
        if 1 <= second <= 12 and 1 <= fourth <= 12:
            return f"{a} {_MONTH_NAMES[second - 1]}{joined}{c} {_MONTH_NAMES[fourth - 1]}"
    elif (second > 12 or fourth > 12) and 1 <= first <= 12 and 1 <= third <= 12:
        return f"{_MONTH_NAMES[first - 1]} {b}{joined}{_MONTH_NAMES[third - 1]} {d}"
    return found.group(0)


def joins_a_range(text: str, end: int, start: int) -> bool:
    """Whether `text` between a date ending at `end` and one starting at `start` joins them."""
    return _JOINED.fullmatch(text, end, start) is not None


def _one_day(terms: list[str]) -> tuple[int | None, int, int] | None:
    """(year or None, month, day) of the one day an end names; None if it names no one day."""
    days_of_months = [t for t in terms if t.startswith("dtmd")]
    if len(days_of_months) != 1:
        return None  # no day, or two readings ("3/4" is 3 April or March 4)
    month, day = int(days_of_months[0][4:6]), int(days_of_months[0][6:8])
    years = {int(t[3:7]) for t in terms if t.startswith("dtd")}
    return (years.pop() if len(years) == 1 else None, month, day)


def _dated(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None  # 29 February of a year without it


def gap_in_days(first: list[str], second: list[str]) -> int | None:
    """Days from the day `first` names to the day `second` names, read as a range."""
    ends = _ends(first, second)
    return None if ends is None else (ends[1] - ends[0]).days


def _ends(first: list[str], second: list[str]) -> tuple[date, date] | None:
    start, end = _one_day(first), _one_day(second)
    if start is None or end is None:
        return None
    (start_year, start_month, start_day), (end_year, end_month, end_day) = start, end
    crosses_new_year = (end_month, end_day) < (start_month, start_day)
    if start_year is None and end_year is None:
        start_year = _A_LEAP_YEAR
    if start_year is None:
        assert end_year is not None
        start_year = end_year - 1 if crosses_new_year else end_year
    if end_year is None:
        end_year = start_year + 1 if crosses_new_year else start_year
    opening, closing = _dated(start_year, start_month, start_day), _dated(end_year, *end[1:])
    return None if opening is None or closing is None else (opening, closing)


def days_between(first: list[str], second: list[str]) -> list[str]:
    """The day terms of the days strictly between two ends of a range, in order.

    With their years where an end says one ("20 Dec to 2 Jan 2027"); only the day and the
    month otherwise. None for a range longer than `LONGEST_RANGE_DAYS` or going backwards.
    """
    ends = _ends(first, second)
    if ends is None or not 1 < (ends[1] - ends[0]).days <= LONGEST_RANGE_DAYS:
        return []
    with_years = any(t.startswith("dtd") for t in [*first, *second])
    terms: list[str] = []
    for offset in range(1, (ends[1] - ends[0]).days):
        day = ends[0] + timedelta(days=offset)
        if with_years:
            terms.append(f"dtd{day.year:04d}{day.month:02d}{day.day:02d}")
        terms.append(f"dtmd{day.month:02d}{day.day:02d}")
    return terms
