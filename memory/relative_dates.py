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

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from memory.date_term_names import (
    day_of_month_term,
    day_term,
    implied_terms,
    local_time,
    month_of_year_term,
    year_term,
)
from memory.lazy_patterns import lazy_compile
from memory.short_words import written_out
from memory.weekday_readings import (
    ITS_DAY_AFTER,
    TOLD_OF_THE_PAST,
    TOLD_OF_WHAT_COMES,
    clause_before,
    named_weekdays,
    weekday_days,
)

_RELATIVE = lazy_compile(
    r"(?i)\b(?:(?P<week>a\s+week\s+(?:today|tomorrow|from\s+tomorrow)|tomorrow\s+week)"
    r"|(?P<after_next>the\s+week\s+after\s+next)"
    r"|(?P<two>(?:the\s+)?day\s+(?:after\s+tomorrow|before\s+yesterday))"
    r"|(?<!from\s)(?P<day>today|tonight|tomorrow|yesterday)"
    r"|(?P<which>this|next|last|past|coming)\s+(?P<span>week(?:end)?|month|year))\b"
)
"""Found by adversaries: "Dentist day after tomorrow" was read as tomorrow, "the day
before yesterday" as yesterday, "a week tomorrow" and "tomorrow week" as tomorrow, and "the
week after next" as nothing."""
_SHIFT = {"this": 0, "coming": 1, "next": 1, "last": -1, "past": -1}
ASKED_AS_DATES_ONLY = lazy_compile(
    r"(?i)\b(?:today|tonight|tomorrow|(?:this|next|coming)\s+(?:week(?:end)?|month|year))\b"
)
"""Words a question means only as a date: an old "I have the dentist tomorrow" said them of
another day (found by an adversary, recalled for "what's on tomorrow?"), as a year-old
"Flight to Oslo next week" did for "what's on next week?" (a second adversary); a memory's
own days are indexed as dates (`said_relative_terms`). "Yesterday", "last week" and the
like stay words too: a memory telling of its past says them (LoCoMo's questions do)."""


_PAST = lazy_compile(r"(?i)yesterday|last|past|(?:the\s+)?day\s+before")
_NO_MONTH_AFTER = r"(?!\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
"""Not a day of a month named after it ("Friday 18 December" is read as that date)."""
_DAY_OF_MONTH = lazy_compile(
    r"(?i)\b(?:(?:on|by|until|till|before|for|to|from|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday),?\s+the|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun),?\s+([0-9]{1,2})(?:st|nd|rd|th)\b"
    + _NO_MONTH_AFTER
)
"""A day of the month alone: "Lily's dentist is on the 14th", "moved to the 16th" (a new user
found neither by "December 14"). The next such day from the day said (this month's, or the
next month's once it has gone by)."""
_WEEKDAY_THEN_ITS_DAY = lazy_compile(
    r"(?i)\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+"
    + ITS_DAY_AFTER
    + r"([0-9]{1,2})\b"
    + _NO_MONTH_AFTER
)
"""A weekday, then its day of the month without "th" (`ITS_DAY_AFTER`): as `_DAY_OF_MONTH`."""
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2,
}  # fmt: skip
_COUNT = "|".join(
    [r"\d{1,3}", *(word.replace(" ", r"\s+") for word in sorted(_NUMBER_WORDS, key=len)[::-1])]
)
"""A number of days or weeks, in digits or words (the longest words first: "a couple of"
before "a")."""
_IN_SOME = lazy_compile(
    rf"(?i)\b(?=in\s|(?:{_COUNT})\s+(?:days?|weeks?)\s+from\s+(?:today|now)\b)(?:in\s+)?"
    rf"(?P<count>{_COUNT})\s+(?P<unit>days?|weeks?|fortnights?)"
    r"(?:['\u2019]?\s*time|\s+from\s+(?:today|now))?\b"
)
"""A day some days or weeks from the day said: "Rent due in two weeks", "Tax return due in
3 days" (an adversary found neither by its date), "two weeks from today", "in a fortnight"
(a second adversary: the first was read as today)."""
_MONTH_END = lazy_compile(r"(?i)\b(?:the\s+)?end\s+of\s+(?:the|this)\s+month\b")
"""The last day of the month said in: "Conference at the end of the month"."""


_DONE_IN = lazy_compile(r"(?i)\b(?:i|we|he|she|they|you)\s+(?:\w*[^\We]ed|read)\b")
"""A subject and a verb in the past before "in 3 days": how long it took ("I read the whole
book in 3 days", "I finished it in two weeks"), no day (a second adversary)."""


def _a_time_it_took(found: re.Match[str]) -> bool:
    before = clause_before(found)
    if TOLD_OF_WHAT_COMES.search(before):
        return False
    return bool(TOLD_OF_THE_PAST.search(before) or _DONE_IN.search(before))


def _some_days_on(found: re.Match[str], said: date) -> date:
    count = found["count"].casefold()
    number = int(count) if count.isdigit() else _NUMBER_WORDS[" ".join(count.split())]
    unit = {"d": 1, "w": 7, "f": 14}[found["unit"][0].casefold()]
    return said + timedelta(days=number * unit)


def _month_end(said: date) -> date:
    return date(said.year, said.month, calendar.monthrange(said.year, said.month)[1])


_NAMES_A_DAY = lazy_compile(
    r"\b(?:today|tonight|tomorrow|yesterday|the\s+week\s+after\s+next|(?:this|next|last|past|coming)\s+"
    r"(?:week(?:end)?|month|year)|(?:this|next|coming|last|on|by|until|till|before|due|is)\s+"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+(?:at\s+)?[0-9]{1,2}"
    r"(?:[:.][0-9]{2}|\s*[ap]m)|"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:,?\s+at\s+[0-9]+|\s+[0-9]+|\s+"
    r"(?:morning|afternoon|evening|night|lunchtime))|"
    r"(?:the|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|weds|"
    r"thu|thur|thurs|fri|sat|sun),?\s+[0-9]{1,2}"
    rf"(?:st|nd|rd|th)|in\s+(?:{_COUNT})\s+(?:days?|weeks?|fortnights?)|(?:{_COUNT})\s+"
    r"(?:days?|weeks?)\s+from\s+(?:today|now)|end\s+of\s+(?:the|this)\s+month)\b"
)
"""Any of `_RELATIVE`, `_A_WEEKDAY`, `_DAY_OF_MONTH`, `_IN_SOME` and `_MONTH_END` may match,
in lower case: what `said_relative_terms` asks first (case-insensitive patterns scan a text a
few times slower). "This weekend" too (an adversary: "Yoga class this weekend" was given no
day)."""
_DAY_WORD_PARTS = ("day", "tonight", "tomorrow", "week", "month", "year", "fortnight")
"""A part of every word `_NAMES_A_DAY` needs but "the 14th" ("day" of each weekday): a text
without one, nor a digit, is passed over with a few substring scans, not the pattern's (a
tenth of what indexing a text cost)."""


def _may_name_a_day(lowered: str) -> bool:
    if not any(part in lowered for part in _DAY_WORD_PARTS) and not any(
        digit in lowered for digit in "0123456789"
    ):
        return False
    return _NAMES_A_DAY.search(lowered) is not None


def _days(first: date, count: int) -> list[str]:
    days = [first + timedelta(days=offset) for offset in range(count)]
    return [
        term
        for day in days
        for term in (day_term(day.year, day.month, day.day), day_of_month_term(day.month, day.day))
    ]


def _span_of(found: re.Match[str], said: date) -> tuple[date, date]:
    word = (found["day"] or "").casefold()
    offsets = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}
    if found["week"]:
        day = said + timedelta(days=8 if "tomorrow" in found["week"].casefold() else 7)
        return day, day
    if found["after_next"]:
        monday = said - timedelta(days=said.weekday()) + timedelta(weeks=2)
        return monday, monday + timedelta(days=6)
    if found["two"]:
        day = said + timedelta(days=-2 if "before" in found["two"].casefold() else 2)
        return day, day
    if word:
        day = said + timedelta(days=offsets[word])
        return day, day
    shift = _SHIFT[found["which"].casefold()]
    span = found["span"].casefold()
    if span.startswith("week"):
        monday = said - timedelta(days=said.weekday()) + timedelta(weeks=shift)
        first = monday + timedelta(days=5) if span == "weekend" else monday
        return first, monday + timedelta(days=6)
    if span == "month":
        year, month = divmod(said.year * 12 + said.month - 1 + shift, 12)
        last = calendar.monthrange(year, month + 1)[1]
        return date(year, month + 1, 1), date(year, month + 1, last)
    return date(said.year + shift, 1, 1), date(said.year + shift, 12, 31)


def _terms(found: re.Match[str], today: date) -> list[str]:
    first, last = _span_of(found, today)
    span = (found["span"] or "").casefold()
    if span == "month":
        return [month_of_year_term(first.year, first.month)]
    if span == "year":
        return [year_term(first.year)]
    return _days(first, (last - first).days + 1)


def _on_the(found: re.Match[str], said: date) -> date | None:
    """The next day of that number from `said` (the 31st in a month of 30: the next month's).

    With a weekday, the next such day that falls on it: "Sat 16th" said on 5 December
    2026 is 16 January, not Wednesday 16 December (an adversary).
    """
    day = int(found[1])
    weekday = _WEEKDAY_OF.get(found.group(0).split()[0].strip(",").casefold()[:3])
    year, month = said.year, said.month
    if day < said.day:
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    first: date | None = None
    for _ in range(13 if weekday is not None else 2):
        try:
            meant = date(year, month, day)
        except ValueError:
            meant = None
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        if meant is None:
            continue
        if weekday is None or meant.weekday() == weekday:
            return meant
        first = first or meant
    return first  # None: the 0th, the 45th


_WEEKDAY_OF = {name: number for number, name in enumerate("mon tue wed thu fri sat sun".split())}


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
        except (OverflowError, ValueError):
            pass  # a day before year 1 or after 9999: no date to ask about
    days: list[date] = []
    for found in named_weekdays(text):
        if not past_only or (found["which"] or "").casefold() == "last":
            days += weekday_days(found, today)
    if not past_only:
        days += [
            day
            for rule in (_DAY_OF_MONTH, _WEEKDAY_THEN_ITS_DAY)
            for found in rule.finditer(text)
            if (day := _on_the(found, today))
        ]
        days += [
            _some_days_on(found, today)
            for found in _IN_SOME.finditer(text)
            if not _a_time_it_took(found)
        ]
        days += [_month_end(today) for _ in _MONTH_END.finditer(text)]
    for day in days:
        terms += [day_term(day.year, day.month, day.day), day_of_month_term(day.month, day.day)]
    return list(dict.fromkeys(terms))


def said_relative_terms(content: str, saved: datetime | None) -> list[str]:
    """The date terms of the days `content` names relative to the day it was saved.

    "tomorrow", "next week", "next Friday", "on Monday" (the coming one), "last Tuesday";
    with the months and years those days lie in, as for a date written out. `content` is
    read as given: words typed short are the caller's to write out (`written_out`).
    """
    if saved is None:
        return []
    if not _may_name_a_day(content.lower()):
        return []  # most texts: one scan of the lower-cased text instead of three
    try:
        days = relative_date_terms(content, local_time(saved).date())
    except OverflowError:
        return []  # a day before year 1 or after 9999
    # Its year is known: a day of the month of any year ("dtmd…") would make a Friday said
    # in 2022 answer a question about this year's (LoCoMo's off-topic requests).
    terms = [term for term in days if not term.startswith("dtmd")]
    implied = [t for term in terms for t in implied_terms(term)]
    return list(dict.fromkeys(terms + implied))


@dataclass(frozen=True)
class NamedDays:
    """Days a text named relative to the day it was said, as `said_relative_terms` reads them."""

    words: str
    """As written: "tomorrow", "next Friday", "on the 14th"."""
    spans: tuple[tuple[date, date], ...]
    """Each reading's first and last day (one day, a week, a month, a year); "next Friday"
    said on a Wednesday has two readings."""


def named_days(content: str, saved: datetime) -> list[NamedDays]:
    """The days `content` named relative to `saved`, in the order written.

    For whoever reads the memory on another day: "Dentist tomorrow", said yesterday, was
    about today, and a small model told "tomorrow" answers "what's on tomorrow?" with it.
    """
    content = written_out(content)
    if not _may_name_a_day(content.lower()):
        return []
    said = local_time(saved).date()
    found: list[tuple[int, NamedDays]] = []
    try:
        for match in _RELATIVE.finditer(content):
            found.append((match.start(), NamedDays(match.group(), (_span_of(match, said),))))
        for match in named_weekdays(content):
            days = tuple((day, day) for day in weekday_days(match, said))
            found.append((match.start(), NamedDays(match.group(), days)))
        for match in [*_DAY_OF_MONTH.finditer(content), *_WEEKDAY_THEN_ITS_DAY.finditer(content)]:
            if (day := _on_the(match, said)) is not None:
                found.append((match.start(), NamedDays(match.group(), ((day, day),))))
        for match in _IN_SOME.finditer(content):
            if _a_time_it_took(match):
                continue
            day = _some_days_on(match, said)
            found.append((match.start(), NamedDays(match.group(), ((day, day),))))
        for match in _MONTH_END.finditer(content):
            day = _month_end(said)
            found.append((match.start(), NamedDays(match.group(), ((day, day),))))
    except (OverflowError, ValueError):
        return []  # a day before year 1 or after 9999
    return [named for _, named in sorted(found, key=lambda pair: pair[0])]


def a_day_of_the_month_alone(content: str) -> bool:
    """Whether `content` names a day by its number alone: "on the 19th", "Friday 19"."""
    content = written_out(content)
    if not _may_name_a_day(content.lower()):
        return False
    return any(pattern.search(content) for pattern in (_DAY_OF_MONTH, _WEEKDAY_THEN_ITS_DAY))


def names_days_ahead(content: str) -> bool:
    """Whether `content` says "in two weeks" or "the end of the month" (read since 0020)."""
    return bool(_IN_SOME.search(content) or _MONTH_END.search(content))


def names_a_relative_day(content: str) -> bool:
    """Whether `content` names a day relative to when it was said (indexed since then)."""
    return _may_name_a_day(content.lower())


def this_years(terms: list[str], today: date | None = None) -> list[str]:
    """For each day of a month a query names without a year, that day this year (and next).

    "dtmd1211" is also December 11 this year, and next year's once this year's has gone
    by: the days a memory named from the day it was said are indexed with their year alone
    (`said_relative_terms`), so "what's on December 11?" finds "due next Friday" said on
    December 4.
    """
    today = today or date.today()
    dated = {term[7:11] for term in terms if term.startswith("dtd") and len(term) == 11}
    days: list[str] = []
    for term in terms:
        if not (term.startswith("dtmd") and len(term) == 8 and term[4:].isdigit()):
            continue
        if term[4:] in dated:
            continue  # named with its year ("October 13, 2023")
        month, day = int(term[4:6]), int(term[6:8])
        for year in (today.year, today.year + 1):
            try:
                when = date(year, month, day)
            except ValueError:
                continue  # February 29 of a year without it
            days.append(day_term(when.year, when.month, when.day))
            if when >= today:
                break
    return days
