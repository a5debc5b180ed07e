"""Dates as search terms: a memory is found by the dates it names and the day it was saved.

"What did I tell you on October 13?" shares no word with the message saved that day, so
every memory's index also holds its saving date (local time) as terms of five grains: the
day, the month of that year, the day and month of any year, the month of any year, and the
year, and the dates its text names. A query's date expressions ("13 October 2023", "Oct
13", "in June", "2023-10-13", "May 2024") become the term of the finest grain they name
(a full date also its day of the month). The terms cannot come from ordinary words: every
one starts with `dt` (a date named) or `ds` (the day saved) and ends in digits, so "May I
ask?" finds nothing by date, and only a date phrase can match them.

The day saved is asked for only by a question about what was said or done then
(`memory.text.query_terms`): with one term for both, "what do I have on today?" found
everything saved today at 1.0 and "December" everything saved in December (found by an
adversary and a new user), above "Dinner with Ana on December 4".

On LoCoMo's dev conversations this raised keyword recall@5 by 0.01 on the tuning half and
0.04 on the check half (bench/fusion_lab.py); 9% of its questions name a date.
"""

from __future__ import annotations

import bisect
import re
from calendar import monthrange
from collections.abc import Iterable
from datetime import date, datetime

from memory.date_ranges import days_between, gap_in_days, joins_a_range, ranges_written_out
from memory.date_term_names import (
    day_of_month_term,
    day_term,
    entry_date_terms,
    implied_terms,
    local_time,
    month_of_year_term,
    month_term,
    year_term,
)
from memory.day_first import days_said_day_first
from memory.lazy_patterns import lazy_compile
from memory.letters import in_ascii_digits
from memory.month_names import (
    MONTH_NAMES,
    MONTH_OF_ANY_LANGUAGE,
    MONTHS,
    OTHER_LANGUAGES,
    WELSH_ORDINAL,
    WELSH_SHORT,
)
from memory.short_words import (
    SHORT_WORDS,
    WEEKDAY_NAMES_ELSEWHERE,
    WEEKDAY_SHORTS,
    weekday_in_two_words_before,
)
from memory.weekly_days import WEEKDAYS

_MONTH = "(" + MONTH_NAMES + r")\.?"
_DAY = r"([0-9]{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)[0-9]{2})"
# Alone, these month words are more often something else ("may I", "to march", "Jan").
MAY_THE_VERB = (
    r"\s+(?:be|not|have|need|want|come|go|take|make|get|work|help|seem|look|feel|"
    r"cost|change|well|also|still|just|only|never|prefer|like|find|ask|bring|arrive|stay|leave|"
    r"happen|vary|apply|mean|show|say|try|use|sound|end|fit|join|pay|hurt|fall|drop|rise|turn|"
    r"struggle|decide|choose|cancel|skip|miss|win|lose|run)\b"
)
"""What follows "may" the verb: the index (here) and retention (`memory.days_to_keep`) read
it alike."""
_NO_MARK_AFTER = r"(?![\u00c0-\u024f])"
"""No Latin letter with a mark goes on the word: "\\b" reads ASCII only, and "Nováková" named
November (found beside a new user's Czech dates)."""
_NOT_MAY_AS_A_VERB = rf"(?!(?<=may){MAY_THE_VERB})"
""""8 may be too many" says nothing of 8 May (an adversary saw it indexed as that day)."""
_MAY_AFTER_A_DAY = lazy_compile(
    r"\b[0-9]{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?may\s+[a-z]", re.IGNORECASE | re.ASCII
)


def names_may_after_a_day(text: str) -> bool:
    """Whether `text` has "may" after a day's number and before a word ("8 may be …")."""
    return _MAY_AFTER_A_DAY.search(text) is not None


_AMBIGUOUS_ALONE = frozenset({"may", "march", "mar", "jan", "jun", "jul", "sep", "oct", "dec"})
_BEFORE_A_MONTH = frozenset(
    "in during since until till before after from through early late mid last next every".split()
)

# Finest grain first: a span claimed by one pattern is not read again by a coarser one.
# ASCII only: case-insensitive Unicode matching would let "ſ" or "İ" stand for s and i.
_FLAGS = re.IGNORECASE | re.ASCII
# "3/3/2026", "13.10.2024", "13-10-2024", "10/13/2024": with its year, so "1/2 cup" stays a
# fraction; one separator throughout. Year first ("2024/10/13", "2024.10.13") is y-m-d.
_NUMERIC_DATE = lazy_compile(
    r"(?<![\w/.\-])([0-9]{1,2})([/.\-])([0-9]{1,2})\2((?:19|20)[0-9]{2})(?![\w/\-])(?!\.[0-9])"
)
_YEAR_FIRST_DATE = lazy_compile(
    r"(?<![\w/.\-])((?:19|20)[0-9]{2})([/.])([0-9]{1,2})\2([0-9]{1,2})(?![\w/\-])(?!\.[0-9])"
)
_SHORT_DATE = lazy_compile(
    r"(?<![\w/.:$\u20ac\u00a3])(?<![^0-9]-)(?<!^-)([0-9]{1,2})"
    r"(?:/([0-9]{1,2})(?![\w/]|-(?![0-9]{1,2}/[0-9])|[.,][0-9])"
    r"|\.([0-9]{1,2})\.(?![\w.])"
    r"|\.([01][0-9])(?![\w%\u20ac$\u00a3]|[.,][0-9]|\s*(?:z[łl]|pln|eur|kg|km|ml|mg)\b))"
)
"""A day and a month without the year, as written where the day comes first: "rego due
14/1", "Night shift Mon 7/12", "am 14.1." (found by a new user in Sydney: none was a date;
`_short_date_terms` says which are). A dotted one without its last dot only after a word
naming a day or before a time ("Aneks to sign on 20.01", "Jasełka on 18.12 at 17:00": a new
user, a baker in Kraków, found neither by its day); "version 1.10" and "2.05 zł" are none."""
DOTTED_ALIKE = "april|august|september|november"
"""German months written as the English ones: after the day's dot, "29. April" (a new user,
an electrician: "Lenas Mathe-Klausur wurde auf den 29. April verschoben" named no day)."""
_MONTH_NAMES_ELSEWHERE = sorted(
    {name for names in OTHER_LANGUAGES.values() for name in names.split()} - set(MONTHS),
    key=len,
    reverse=True,
)
_MONTHS_ELSEWHERE = "|".join(_MONTH_NAMES_ELSEWHERE)
_WHOLE_MONTHS_ELSEWHERE = "|".join(
    name
    for name in _MONTH_NAMES_ELSEWHERE
    # Not a name ("marco"), nor Dutch "leden" (members); in Arabic script, however short.
    if (len(name) > 4 or not name.isascii() or name in WELSH_SHORT)
    and name not in ("marco", "leden")
)
_DAY_MONTH_ELSEWHERE = lazy_compile(
    # "(?!\w)", not "\b", after a name that may end in a letter with a mark ("15. září").
    rf"(?:\b([0-9]{{1,2}})(?:(?:\.|er)\s+|\s+(?:de|di)\s+|{WELSH_ORDINAL}?\s+o\s+)"
    rf"({_MONTHS_ELSEWHERE}|{DOTTED_ALIKE})(?!\w)\.?"
    rf"|\b([0-9]{{1,2}})(?:º|°|{WELSH_ORDINAL})?\s+({_WHOLE_MONTHS_ELSEWHERE})"
    r"(?![\w\u0600-\u06ff])"
    # Dutch months are written in lower case, short ones too: "vrijdag 4 juni 2027" (a new
    # user, a teacher in Utrecht: not found by "what's on June 4?").
    r"|\b([0-9]{1,2})(?:er)?\s+(?-i:(mars|mai|juin|juil|ao[uû]t|avr|janv|f[ée]vr|d[ée]c|juni|juli|"
    r"mei))(?!\w))"
    rf"(?:,?\s+(?:de\s+)?{_YEAR}\b)?",
    _FLAGS,
)
"""A day and a month in German, French, Spanish, Portuguese or Italian: "20 de diciembre",
"am 14. Januar", "le 3 février 2027", "15 gennaio" (a translator's "cena con Marc el 20
de diciembre" was not found by "what's on december 20?"). A short name only after "de",
"di" or the day's dot ("14. Juni", "12 de mayo", "1er mai"), or a French one in lower case
("3 mars": an adversary's was found by no "March 3"); alone, it is an English word too ("2
mayo", "3 days ago", "3 Mars bars")."""
CJK_DAY = lazy_compile(
    r"(?<![0-9])(?:(?P<year>[0-9]{4})\s*[년年]\s*)?(?P<month>[0-9]{1,2})\s*[월月]"
    r"(?:\s*(?P<day>[0-9]{1,2})\s*[일日号號])?(?!\s*[0-9])"
)
"""A date or a month in Korean, Japanese or Chinese, its year if said: "12월 18일", "2027년 1월
10일", "12月18日", "12월에 뭐 있지?" (a new user writing in Korean: "what do I have on December
18?" found no "치과 예약 12월 18일"). Retention reads it too (`memory.more_days`)."""
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("iso", re.compile(r"\b([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})\b", re.ASCII)),
    ("cjk", CJK_DAY),
    ("numeric", _NUMERIC_DATE),
    ("year-first", _YEAR_FIRST_DATE),
    ("short", _SHORT_DATE),
    (
        "day-month",
        re.compile(
            rf"\b{_DAY}(?:\s+of)?\s+{_MONTH}{_NO_MARK_AFTER}{_NOT_MAY_AS_A_VERB}(?:,?\s+{_YEAR})?\b",
            _FLAGS,
        ),
    ),
    ("month-day", re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?!:)(?:,?\s+{_YEAR})?\b", _FLAGS)),
    ("day-month-elsewhere", _DAY_MONTH_ELSEWHERE),
    ("month-year", re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b", _FLAGS)),
    ("month", re.compile(rf"\b{_MONTH}\b{_NO_MARK_AFTER}", _FLAGS)),
    ("year", re.compile(rf"\b(?:in|of|since|during|from|until|before|after)\s+{_YEAR}\b", _FLAGS)),
)
_WORD_BEFORE = lazy_compile(r"(?<![^\W\d_])([^\W\d_]+)[.,]?\s+\Z", re.IGNORECASE)
"""The word before a date, a comma or a dot after it: "Donnerstag, 11.2.", "sábado 9/1"."""


_DAY_WORD_THEN_DATE = lazy_compile(
    r"(?i)(?<![^\W\d_])([^\W\d_]+)[.,]?\s+[0-3]?[0-9][/.][01]?[0-9](?![0-9])"
)


def names_a_date_after_a_day_word(text: str) -> bool:
    """Whether a day's word stands before a day and month, read as a date since 0050.

    A weekday in another language ("sábado 9/1"), or one with a comma ("Donnerstag, 11.2.").
    """
    return any(
        found[1].lower() in _DAY_WORDS_BEFORE for found in _DAY_WORD_THEN_DATE.finditer(text)
    )


def names_numeric_date(text: str) -> bool:
    """Whether `text` holds a date such as "3/3/2026" (indexed as a date since then)."""
    return _NUMERIC_DATE.search(text) is not None or _YEAR_FIRST_DATE.search(text) is not None


_ASKS_WHEN = lazy_compile(
    r"(?i)\b(?:when|what\s+time|what\s+day|which\s+day|wann|cu[aá]ndo|quand|quando)\b"
)
_CLOCK_TERM = lazy_compile(r"(?:1[0-2]|[1-9])[ap]m|[0-9]{1,2}h[0-9]{2}")
_WEEKDAY_WORDS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday tonight tomorrow".split()
)


def asks_when(query: str) -> bool:
    """Whether `query` asks when something is ("dentist - when?", "what time is my flight")."""
    return _ASKS_WHEN.search(query) is not None


def when_rank(asked_when: bool, terms: frozenset[str]) -> int:
    """0 for a memory naming a day or a time, 1 for the others, when the question asks when.

    Found by an adversary: "dentist, car service and flight - when?" showed "My dentist is
    Dr Ng" and "Flight attendants were lovely last time" (each matched its word alone, as
    well as the appointment and the flight did) and not the dentist's day or the flight's.
    """
    if not asked_when:
        return 0
    timed = any(
        term.startswith("dt") or term in _WEEKDAY_WORDS or _CLOCK_TERM.fullmatch(term)
        for term in terms
    )
    return 0 if timed else 1


def names_a_day_elsewhere(text: str) -> bool:
    """Whether `text` names a day and month in another language ("20 de diciembre")."""
    return _DAY_MONTH_ELSEWHERE.search(text) is not None


def names_short_date(text: str) -> bool:
    """Whether `text` may hold a day and month without the year ("14/1", "am 14.1.")."""
    return _SHORT_DATE.search(text) is not None


# Every pattern needs a digit, a month word, or both: a text with neither (most of what
# is saved or asked) is one cheap scan instead of six.
_NEEDS_DIGIT = frozenset(
    {
        *("iso", "numeric", "year-first", "short", "day-month", "month-day", "month-year"),
        *("year", "day-month-elsewhere", "cjk"),
    }
)
_NEEDS_MONTH = frozenset({"day-month", "month-day", "month-year", "month"})
_DIGIT = lazy_compile(r"[0-9]")
_LETTERS = lazy_compile(r"[A-Za-z]+")
_MONTH_WORDS = frozenset(MONTHS)
_MONTH_STARTS = tuple(dict.fromkeys(word[:3] for word in MONTHS))


def _has_month_word(text: str) -> bool:
    """Whether a month's name or abbreviation stands in `text` as a run of ASCII letters.

    Every pattern needs one. A set lookup of the letter runs: the patterns' own
    case-insensitive alternation took 11 µs a text, and read "mar" in "married" and "dec"
    in "decided" as reasons to run them (a third of LoCoMo's messages). The runs are read
    from the text as written, as the patterns (ASCII only) read it: lower-casing first
    would join "APR" to "İ" ("i̇") or "Oct" to the Kelvin sign ("k").
    """
    lowered = text.lower()  # only adds letters, so it can only let more texts through
    if not any(start in lowered for start in _MONTH_STARTS):
        return False  # each month word begins with one of these: a dozen quick scans
    return not _MONTH_WORDS.isdisjoint(map(str.lower, _LETTERS.findall(text)))


def mentioned_date_terms(content: str, said: date | None = None) -> list[str]:
    """The date terms of the dates a text names, with the coarser ones they lie in.

    A range's days between its ends too (`memory.date_ranges`). `said`: the day the text
    was said, which a weekday before a day and month reads by.
    """
    content = ranges_written_out(content)
    found = _found_dates(content, said)
    mentioned = list(dict.fromkeys(t for _, _, terms in found for t in terms))
    if len(found) > 1:
        mentioned = [*mentioned, *_range_day_terms(content, found)]
    return list(dict.fromkeys([*mentioned, *(t for m in mentioned for t in implied_terms(m))]))


def date_terms_of(content: str, saved: datetime | None) -> list[str]:
    """Every date term of an entry: those its content names, then its saving day's.

    A day and month said without the year is also that day in the year it comes next
    from the day said (`year_of`).
    """
    said = local_time(saved).date() if saved is not None else None
    mentioned = mentioned_date_terms(content, said)
    if said is not None:
        mentioned = list(dict.fromkeys(mentioned + _with_their_years(mentioned, said)))
    return mentioned + (entry_date_terms(saved) if saved is not None else [])


_STILL_AHEAD_DAYS = 31
"""A day and month this many days before the day said is still this year's: "Rent was due
on Dec 1" said on December 5; earlier, it is next year's ("Tax return due 31/1")."""


def year_of(month: int, day: int, said: date) -> int:
    """The year a day and month said without one on `said` means."""
    if month == 2 and day == 29:
        year = said.year
        while not _valid(2, 29, year):
            year += 1
        return year
    this_year = date(said.year, month, day) if _valid(month, day, said.year) else None
    if this_year is not None and (said - this_year).days <= _STILL_AHEAD_DAYS:
        return said.year
    return said.year + 1


def _with_their_years(terms: list[str], said: date) -> list[str]:
    """Each year-less day's term in the year `year_of` gives, with its month and year.

    Found by a new user: "acme deadline pushed to Dec 12" was not found by "what's due
    this month?" (December 2026): it named December of no year.
    """
    named = {term[3:] for term in terms if term.startswith("dtd")}
    added: list[str] = []
    for term in terms:
        if not term.startswith("dtmd") or not _valid(int(term[4:6]), int(term[6:8])):
            continue
        month, day = int(term[4:6]), int(term[6:8])
        if any(full.endswith(f"{month:02d}{day:02d}") for full in named):
            continue  # said with its year
        year = year_of(month, day, said)
        added += [day_term(year, month, day), *implied_terms(day_term(year, month, day))]
    return added


_LONGEST_MONTHS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _valid(month: int, day: int, year: int | None = None) -> bool:
    if not 1 <= month <= 12:
        return False
    longest = _LONGEST_MONTHS[month - 1] if year is None else monthrange(year, month)[1]
    return 1 <= day <= longest


def _full_date(y: int, m: int, d: int) -> list[str]:
    # With the day of the month too: "my birthday is October 13" is about every year's.
    return [day_term(y, m, d), day_of_month_term(m, d)] if 1 <= y and _valid(m, d, y) else []


def _terms_of(kind: str, groups: tuple[str | None, ...], before: str) -> list[str]:
    """The terms one date expression names: its own grain (and the day of the month).

    `before` is the word just before the expression.
    """
    g = [x or "" for x in groups]
    if kind == "iso":
        return _full_date(int(g[0]), int(g[1]), int(g[2]))
    if kind == "year-first":
        return _full_date(int(g[0]), int(g[2]), int(g[3]))
    if kind == "cjk":
        return _cjk_terms(g)
    if kind == "numeric":
        # Day first or month first: where both can be, both are (10/04 is 10 April in
        # most of the world and 4 October in the United States).
        first, second, numeric_year = int(g[0]), int(g[2]), int(g[3])
        both = _full_date(numeric_year, second, first) + _full_date(numeric_year, first, second)
        return list(dict.fromkeys(both))
    if kind in ("day-month", "month-day"):
        day, word, year = (g[0], g[1], g[2]) if kind == "day-month" else (g[1], g[0], g[2])
        month = MONTHS[word.lower()]
        if year:
            return _full_date(int(year), month, int(day))
        return [day_of_month_term(month, int(day))] if _valid(month, int(day)) else []
    if kind == "day-month-elsewhere":
        on_day = int(g[0] or g[2] or g[4])
        month = MONTH_OF_ANY_LANGUAGE[(g[1] or g[3] or g[5]).lower()]
        if g[6]:
            return _full_date(int(g[6]), month, on_day)
        return [day_of_month_term(month, on_day)] if _valid(month, on_day) else []
    if kind == "month-year":
        return [month_of_year_term(int(g[1]), MONTHS[g[0].lower()])]
    if kind == "month":
        word = g[0].lower()
        if word in _AMBIGUOUS_ALONE and before.lower() not in _BEFORE_A_MONTH:
            return []
        return [month_term(MONTHS[word])]
    return [year_term(int(g[0]))]


def _cjk_terms(g: list[str]) -> list[str]:
    """A date or a month in Korean, Japanese or Chinese: year, month and, if said, day."""
    year, month = (int(g[0]) if g[0] else None), int(g[1])
    if g[2]:
        on_day = int(g[2])
        if not _valid(month, on_day, year):
            return []
        return _full_date(year, month, on_day) if year else [day_of_month_term(month, on_day)]
    if not 1 <= month <= 12:
        return []
    return [month_of_year_term(year, month)] if year else [month_term(month)]


DAY_WORDS_ELSEWHERE = frozenset("il al dal entro fino el hasta desde até ate au dnia od".split())
"""The same in Italian, Spanish, Portuguese, French and Polish: "la cena con Marco è spostata
al 22.02" moved not "cena con Marco il 20.02", neither read as a day (an adversary)."""
_DAY_WORDS_BEFORE = frozenset(
    "on due by until till til from before after since next this every am ab bis vom le "
    "mon tue tues wed weds thu thur thurs fri sat sun monday tuesday wednesday thursday "
    "friday saturday sunday".split()
) | frozenset(WEEKDAY_NAMES_ELSEWHERE)
"""Words after which a day and month without the year are a date, not "1/2 cup"; a weekday
in another language too ("Termin Donnerstag 11.02.": an adversary found it by no "February
11")."""
_TIME_AFTER = lazy_compile(
    r"\s*(?:,\s*)?(?:at\s+|@\s*)?(?:[0-9]{1,2}(?::[0-9]{2})?\s*(?:am|pm)\b|[0-9]{1,2}:[0-9]{2}\b"
    r"|[0-9]{4}\s*-\s*[0-9]{4}\b)",
    _FLAGS,
)
"""A clock time right after: "19/12 at 8am", "7/12 21:00", "16/12 2100-0730"."""
EVENTS_SAID_ON = (
    r"(?:appointment|appt|dentist|doctor|gp|vet|check-?up|meeting|interview|exam|flight|"
    r"surgery|operation|scan|hearing|concert|visit)(?:['\u2019]s)?\s*(?:is|:)"
    r"(?:\s+(?:now|still))?"
)
"""An event, then the day it is on: "Dentist is 10/9" (left no date by a fraction's shape,
found by an adversary); not "was", a score as often ("Interview was 7/10, they liked me")."""
_A_DAY_NAMED_BEFORE = lazy_compile(
    r"(?:(?:birthday|bday|b-day|anniversary|deadline|due\s+date|wedding|funeral|party)"
    r"(?:['\u2019]s)?\s*(?:is|was|:|=|-)?|(?:moved|rescheduled|postponed|pushed(?:\s+back)?|"
    r"changed|brought\s+forward|shifted)\s+(?:to|till|until)|" + EVENTS_SAID_ON + r")\s*\Z",
    _FLAGS,
)
"""A day named just before: "Mum's birthday is 3/4" (an adversary: no date, so a birthday
dinner on another day replaced the birthday), "Dinner moved to 9/4" (a second one: the
move replaced nothing)."""
_SCORED = frozenset(
    "passed scored score got marks rated grade won lost beat drew ratio section chapter "
    "version verse page step".split()
)
_PART_OF = lazy_compile(
    r"\s*(?:of\b|tablets?|pills?|caps(?:ules)?|cups?|tsp|tbsp|teaspoons?|tablespoons?|doses?|"
    r"ml|mg|glass(?:es)?|slices?|portions?|servings?|bottles?|cans?|scoops?|inch(?:es)?|"
    r"strength)\b",
    _FLAGS,
)
"""A part of something, even after "on": "Max is on 1/2 tablet of Apoquel", "Mum is on 2/3
of her old dose" (an adversary: both were dates)."""
_AMOUNT_AFTER = lazy_compile(r"\s*(?:an?|full|empty|done|over|through|way|hours?)\b", _FLAGS)
"""What a half or a quarter is of, not a date's: "my visit was 1/2 an hour", "3/4 full"."""
_REACH_BEFORE = 200
"""How far before a date the words naming it are read ("blood pressure was", "moved to", and
retention's "by", "in", "room"): from the text's start, a pasted page of "1/2 " or of "may"
took minutes (adversaries)."""


def said_just_before(pattern: re.Pattern[str], text: str, at: int) -> bool:
    """Whether `pattern` (ending at the text's end) matches the words right before `at`."""
    start = at
    while start > 0 and text[start - 1].isspace():
        start -= 1  # each run of spaces is walked once, by the date after it
    return pattern.search(text, max(0, start - _REACH_BEFORE), at) is not None


_MEASURED = lazy_compile(
    r"(?:blood\s+pressure|\bbp|\bpressure)(?:\s+(?:was|is|of|at|reading|reads|read))?\s*:?\s*\Z",
    _FLAGS,
)
"""A blood pressure written as a fraction: "My blood pressure was 13/8"."""
_COUNTED = lazy_compile(
    r"\s*(?:tests?|questions?|points?|marks?|correct|right|answers?|items?|reps?|stars?|"
    r"done|complete|passed|attempts?)\b",
    _FLAGS,
)
"""A count out of a total, not a date: "12/12 tests", "scored 12/12"."""
_NOT_DATES = frozenset({(24, 7)})
"""Written as day and month, but said of something else: "open 24/7"."""


def _short_date_terms(
    match: re.Match[str],
    text: str,
    before: str,
    range_start: list[str] | None = None,
    said: date | None = None,
) -> list[str]:
    """The days a day and month without the year may be, when the words around say it is one.

    A month above 12 reads the other way ("12/19" is December 19). Where either reading
    can be, both are, as with a year; a fraction's shape ("1/2 cup", "3/4") or a section's
    ("chapter 4.5.") is a date only after a word that names a day ("on", "due", "Mon",
    "am") or before a clock time.
    """
    first = int(match[1])
    second = int(match[2] or match[3] or match[4])
    if (first, second) in _NOT_DATES:
        return []
    day_first = _valid(second, first)
    month_first = match[2] is not None and _valid(first, second)
    if not (day_first or month_first):
        return []
    if _PART_OF.match(text, match.end()) or said_just_before(_MEASURED, text, match.start()):
        return []  # "on 1/2 tablet of Apoquel", "2/3 of her dose", "BP was 13/8"
    if first < second <= 4 and _AMOUNT_AFTER.match(text, match.end()):
        return []  # "the visit was 1/2 an hour", "the flight is 3/4 full"
    said_as_day = (
        before.lower() in _DAY_WORDS_BEFORE
        # Not a fraction after them: "il 1/2 litro" is half a litre.
        or (before.lower() in DAY_WORDS_ELSEWHERE and (match[2] is None or first > 9))
        or bool(_TIME_AFTER.match(text, match.end()))
        or said_just_before(_A_DAY_NAMED_BEFORE, text, match.start())
    )
    if match[4] is not None and not (said_as_day and day_first):
        return []  # "20.01" with no last dot: a day only where the words say so
    if not said_as_day and (before.lower() in _SCORED or _COUNTED.match(text, match.end())):
        return []  # "Passed 12/12 tests", "scored 14/20", "won 21/7", "ratio 16/9"
    if range_start is not None:
        # "20/12 to 2/1": a date's range ends on a date, the reading a month or less after.
        readings = ([day_of_month_term(second, first)] if day_first else []) + (
            [day_of_month_term(first, second)] if month_first else []
        )
        ahead = [r for r in readings if 0 < (gap_in_days(range_start, [r]) or 0) <= 31]
        return ahead if len(ahead) == 1 else readings
    weekday = _WEEKDAY_NUMBERS.get(before.lower())
    if said is not None and weekday is not None and day_first and month_first and first != second:
        # "Wed 2/12" said in December 2026 is 2 December (a Wednesday), not 12 February (a
        # Friday): both readings made a past shift look ahead (an adversary).
        that_day = the_weekdays_reading(((second, first), (first, second)), weekday, said)
        if that_day is not None:
            return [day_of_month_term(*that_day)]
    # "version 1.2." and "chapter 4.5." end sentences too: dotted, a day above 12 is a date.
    # "12/12" reads one way only; "5/5" and "10/10" are scores as often.
    same = first == second > 10
    told_apart = first > 12 if match[3] is not None else day_first != month_first or same
    # Another date of the text said plainly day first ("OS 15/03") reads this one so too:
    # "Mid-sem exams: DSA 10/03, DBMS 12/03, OS 15/03" found only the OS exam in March (a new
    # user, a student), and "… charged on 01/03. Your loan payment of £450 is due 15/06" was
    # kept to 3 January (a later adversary).
    beside = day_first and match[2] is not None and days_said_day_first(text)
    if not (said_as_day or told_apart):
        return [day_of_month_term(second, first)] if beside else []
    terms = [day_of_month_term(second, first)] if day_first else []
    if month_first and not beside:
        terms.append(day_of_month_term(first, second))
    return list(dict.fromkeys(terms))


_WEEKDAY_NUMBERS = {
    name: WEEKDAYS.index(full)
    for name, full in (
        *((full, full) for full in WEEKDAYS),
        *WEEKDAY_SHORTS.items(),
        *SHORT_WORDS.items(),
        *WEEKDAY_NAMES_ELSEWHERE.items(),
    )
    if full in WEEKDAYS
}
"""A weekday's number (0 Monday) by its name, written out or short ("mon", "tues"), or in
another language ("Samstag 9.1.", "sábado 9/1": an adversary saw each read both ways)."""


def weekday_before(text: str, at: int) -> int | None:
    """The number (0 Monday) of the weekday named just before `at` ("Tue 5/1"), or None."""
    # Read as the index reads the word before a date (`_found_dates`).
    if in_two_words := weekday_in_two_words_before(text, at):
        return _WEEKDAY_NUMBERS[in_two_words]
    named = _WORD_BEFORE.search(text, max(0, at - 32), at)
    return None if named is None else _WEEKDAY_NUMBERS.get(named[1].lower())


def the_weekdays_reading(
    readings: Iterable[tuple[int, int]], weekday: int, said: date
) -> tuple[int, int] | None:
    """Of (month, day) `readings`, the one falling on `weekday`, or None if not one alone.

    Read in the year a day without one is given (`year_of`), then, if that tells none
    apart, at the nearest: "Tuesday 12/1" said on 4 January 2027 is 12 January (a Tuesday),
    though 1 December 2026, a month gone, was a Tuesday too (a new user saw it kept until
    December 2027 while its correction went).
    """
    valid = [(month, day) for month, day in readings if _valid(month, day)]
    for days in (
        [date(year_of(month, day, said), month, day) for month, day in valid],
        [nearest_day(month, day, said) for month, day in valid],
    ):
        that_day = [(one.month, one.day) for one in days if one.weekday() == weekday]
        if len(that_day) == 1:
            return that_day[0]
    return None


def nearest_day(month: int, day: int, said: date) -> date:
    """The day and month nearest to `said`, in its year or the one before or after."""
    days = []
    for year in (said.year - 1, said.year, said.year + 1):
        try:
            days.append(date(year, month, day))
        except ValueError:
            continue  # 29 February of a year without it
    return min(days, key=lambda day: abs((day - said).days))


def find_dates(text: str, said: date | None = None) -> tuple[list[str], str]:
    """The date terms a text's date expressions name, and the text without them.

    A query's date words are replaced by the date's terms, not searched as well: as words
    they would count against every memory saved that day that does not repeat them.
    `said`: the day a memory's text was said; a weekday before a day and month written
    without the year picks the reading that falls on it near that day.
    """
    found = _found_dates(text, said)
    if not found:
        return [], text
    pieces, position = [], 0
    for start, end, _ in found:
        pieces.append(text[position:start])
        position = end
    rest = " ".join([*pieces, text[position:]])
    return list(dict.fromkeys(t for _, _, terms in found for t in terms)), rest


def _found_dates(text: str, said: date | None = None) -> list[tuple[int, int, list[str]]]:
    """(start, end, terms) of each date expression in `text`, in the order written.

    Another script's digits read as 0-9 ("١٥/٢", one character for one: the places hold).
    """
    text = in_ascii_digits(text)
    has_digit = _DIGIT.search(text) is not None
    has_month = _has_month_word(text)
    if not (has_digit or has_month):
        return []
    claimed = bytearray(len(text))
    found: list[tuple[int, int, list[str]]] = []
    # Where each date found ends, in order: only the nearest before a date can join it in a
    # range (what stands between is a joiner alone). Asking each one was a page of dates
    # times itself (an adversary's page of "moved to 3/4" took minutes).
    ends: list[tuple[int, list[str]]] = []
    for kind, pattern in _PATTERNS:
        if (kind in _NEEDS_DIGIT and not has_digit) or (kind in _NEEDS_MONTH and not has_month):
            continue
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(claimed[start:end]):
                continue
            leading = kind in ("month", "short")
            lead = _WORD_BEFORE.search(text, max(0, start - 32), start) if leading else None
            before = lead.group(1) if lead else ""
            if kind == "short":
                before = weekday_in_two_words_before(text, start) or before
            if kind == "short":
                nearest = bisect.bisect_right(ends, start, key=lambda item: item[0]) - 1
                start_of_range = None
                if nearest >= 0 and joins_a_range(text, ends[nearest][0], start):
                    start_of_range = ends[nearest][1]
                terms = _short_date_terms(match, text, before, start_of_range, said)
            else:
                terms = _terms_of(kind, match.groups(), before)
            if terms:
                claimed[start:end] = b"\x01" * (end - start)
                found.append((start, end, terms))
                bisect.insort(ends, (end, terms), key=lambda item: item[0])
    return sorted(found)


def _range_day_terms(text: str, found: list[tuple[int, int, list[str]]]) -> list[str]:
    """The day terms of the days between the two ends of each range `text` names.

    `found`: its dates, as `_found_dates` gives them (read once for both).
    """
    return [
        term
        for (_, end, first), (start, _, second) in zip(found, found[1:], strict=False)
        if joins_a_range(text, end, start)
        for term in days_between(first, second)
    ]
