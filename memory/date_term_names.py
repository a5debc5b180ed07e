"""The spelling of date terms in the index, and the day a memory was saved as its terms.

Every date term starts with `dt` (a date a text names) or `ds` (the day it was saved) and
ends in digits; `memory.date_terms` finds the dates a text names and spells them here.
"""

from __future__ import annotations

import time
from datetime import date, datetime
from functools import lru_cache

from memory.lazy_patterns import lazy_compile

_DATE_TERM = lazy_compile(r"d[ts](?:d[0-9]{8}|ym[0-9]{6}|md[0-9]{4}|m[0-9]{2}|y[0-9]{4}|wd[1-7])")
"""A date term: a day, a month of a year, a day of a month, a month, a year, or a weekday
of every week (`memory.weekly_days`)."""


@lru_cache(maxsize=8192)  # asked of every query term for every candidate a recall scores
def is_date_term(term: str) -> bool:
    """Whether an index term is one of the date terms made here."""
    return _DATE_TERM.fullmatch(term) is not None


def is_day_term(term: str) -> bool:
    """Whether an index term names one day ("dtd20261210"), not a month or a year."""
    return term.startswith("dtd") and _DATE_TERM.fullmatch(term) is not None


def day_term(y: int, m: int, d: int) -> str:
    """The term of one day ("dtd20261210")."""
    return f"dtd{y:04d}{m:02d}{d:02d}"


def day_of_month_term(m: int, d: int) -> str:
    """The term of a day of a month, any year ("dtmd1210")."""
    return f"dtmd{m:02d}{d:02d}"


def month_of_year_term(y: int, m: int) -> str:
    """The term of a month of a year ("dtym202612")."""
    return f"dtym{y:04d}{m:02d}"


def month_term(m: int) -> str:
    """The term of a month of any year ("dtm12")."""
    return f"dtm{m:02d}"


def year_term(y: int) -> str:
    """The term of a year ("dty2026")."""
    return f"dty{y:04d}"


def local_time(when: datetime) -> datetime:
    """`when` in this machine's time zone: the calendar dates are searched in.

    At the ends of the calendar, where the local date would fall outside years 1-9999,
    `when` itself (its own, UTC, date).
    """
    try:
        return when.astimezone() if when.tzinfo is not None else when
    except (OverflowError, ValueError, OSError):
        return when


def entry_date_terms(when: datetime) -> list[str]:
    """The date terms an entry saved at `when` is indexed with (local calendar date)."""
    # The zone is part of the key: `time.tzset` changes these, and with them the day.
    zone = (time.timezone, time.altzone, time.daylight, *time.tzname)
    return list(_saved_on(when, zone))


@lru_cache(maxsize=256)
def _saved_on(when: datetime, zone: tuple[object, ...]) -> tuple[str, ...]:
    # A bulk import saves thousands of entries at one moment: each asked for its day.
    del zone  # only a cache key
    local = local_time(when)
    y, m, d = local.year, local.month, local.day
    return tuple(
        saved_term(term)
        for term in (
            day_term(y, m, d),
            month_of_year_term(y, m),
            day_of_month_term(m, d),
            month_term(m),
            year_term(y),
        )
    )


def named_in_the_past(terms: list[str], asks_of_the_past: bool, today: date | None = None) -> bool:
    """Whether the dates a query names (`terms`, its "dt" terms) lie before today.

    What happened on a day gone by was, as a rule, told that day: LoCoMo's "What inspired
    my new screenplay on 25 February, 2022?" is answered by what was said then (keyword
    recall@5 0.025 lower on its check half without the day saved). A date without a year
    is gone by when the question asks what happened (`asks_of_the_past`: "When did I go
    camping in June?"); "December" alone or "what is due on 11.12.2026?" asks of what a
    memory names.
    """
    today = today or date.today()
    now = {"d": today.strftime("%Y%m%d"), "ym": today.strftime("%Y%m"), "y": f"{today.year:04d}"}
    dated = False
    for term in terms:
        for grain in ("ym", "d", "y"):  # "ym" before "y": the longer prefix first
            if term.startswith("dt" + grain) and term[2 + len(grain) :].isdigit():
                if len(term) - 2 - len(grain) != len(now[grain]):
                    continue
                dated = True
                if term[2 + len(grain) :] >= now[grain]:
                    return False
                break
    return dated or (bool(terms) and asks_of_the_past)


def saved_term(term: str) -> str:
    """The term of the same date as a day something was saved ("dtd…" → "dsd…")."""
    return "ds" + term[2:] if term.startswith("dt") else term


SAVED_DAY_AS_NAMED = lazy_compile(
    r"dtd([0-9]{4})([0-9]{2})([0-9]{2}) dtym\1\2 dtmd\2\3 dtm\2 dty\1(?![^ ])"
)
"""The saving day's terms as indexed before they had terms of their own: five in a row, in
an order no named date's terms come in (`mentioned_date_terms` puts the day of the month
second)."""


def saved_day_apart(terms: str) -> str:
    """An index text of before: its (last) run of saving-day terms as `saved_term`s."""
    found = list(SAVED_DAY_AS_NAMED.finditer(terms))
    if not found:
        return terms
    start, end = found[-1].span()
    saved = " ".join(saved_term(term) for term in terms[start:end].split())
    return terms[:start] + saved + terms[end:]


def implied_terms(term: str) -> list[str]:
    """The coarser dates a date term lies in: a day is in its month of its year, and so on.

    Only for what an entry mentions: "on 21 June 2023" is one of "my notes from June
    2023". A query keeps its own grain (asking about 21 June is not asking about June).
    """
    if term.startswith("dtd") and len(term) == 11:
        year, month = term[3:7], term[7:9]
        return [f"dtym{year}{month}", f"dtm{month}", f"dty{year}"]
    if term.startswith("dtym") and len(term) == 10:
        return [f"dtm{term[8:10]}", f"dty{term[4:8]}"]
    if term.startswith("dtmd") and len(term) == 8:
        return [f"dtm{term[4:6]}"]
    return []


def with_implied_terms(terms: list[str]) -> list[str]:
    """`terms` and, after them, the coarser date terms its date terms imply that it lacks.

    For stores indexed before mentioned dates implied their months and years.
    """
    present = set(terms)
    implied = [t for term in terms if term.startswith("dt") for t in implied_terms(term)]
    return terms + [t for t in dict.fromkeys(implied) if t not in present]
