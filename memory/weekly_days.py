"""Days of the week something happens on, every week: "Kenji's lesson every Monday at 7pm".

Found by a new user keeping a tutoring schedule: "who do I tutor this week?", "what do I
have on Monday?" and "who do I tutor today?" (on a Monday) found none of the weekly
lessons, "every Monday" being no day (`memory.relative_dates` reads a weekday named
once). A memory that says something happens every Monday, or on Mondays, is indexed by a
weekday term; a question naming days ("this week", "today", "December 14") asks for each
day's weekday too. The weekday terms are date terms (`memory.date_term_names.is_date_term`):
any one found is the date found.
"""

from __future__ import annotations

from datetime import date

from memory.lazy_patterns import lazy_compile

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NAMES = "|".join(WEEKDAYS)
_WEEKLY = lazy_compile(
    rf"(?i)\b(?:every|each)\s+(?:other\s+)?(?P<every>{_NAMES})\b"
    rf"|\b(?P<plural>{_NAMES})s\b"
    rf"|\b(?P<part>{_NAMES})\s+(?:mornings|afternoons|evenings|nights)\b"
    # A rota's day: "Saturday shift: Jo and Priya 6am-2pm" (a new user, a baker: "who's on
    # Saturday 30th?" found her café orders "every Sat", not the shift).
    rf"|\b(?P<rota>{_NAMES})\s+(?:shifts?|rotas?|rosters?|opening\s+hours)\b"
    r"|\b(?:(?:every|each)\s+(?P<every_end>weekend)\b|(?P<ends>weekends)\b"
    r"|(?:on|at)\s+the\s+(?P<the_end>weekend)s?\b)"
)
"""A weekday something happens on every week: "every Monday", "on Wednesdays", "Tuesday
evenings", "Saturday shift"."""
_DAY_TERM = lazy_compile(r"dtd([0-9]{4})([0-9]{2})([0-9]{2})")
WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"
"""A weekday's name, whole or cut short ("thurs", "sat")."""
_SHORT = tuple(day[:3] for day in WEEKDAYS)
_A_DAY_IN_A_LIST = rf"{WEEKDAY}s?\.?"
_AND_ANOTHER = lazy_compile(rf"(?i)(?:\s*(?:,|and|&|\+|/|or)\s*{_A_DAY_IN_A_LIST}(?![\w-]))+")
_LISTED_DAY = lazy_compile(rf"(?i)(?<![\w-]){_A_DAY_IN_A_LIST}(?![\w-])")


def weekday_term(weekday: int) -> str:
    """The term of a weekday (0 Monday … 6 Sunday): "dtwd1" … "dtwd7"."""
    return f"dtwd{weekday + 1}"


def is_weekday_term(term: str) -> bool:
    """Whether an index term is a weekday of every week ("dtwd1")."""
    return term.startswith("dtwd")


def weekly_terms(content: str) -> list[str]:
    """The weekday terms of what `content` says happens every week."""
    lowered = content.lower()
    if "day" not in lowered and "weekend" not in lowered:
        return []  # every weekday's name holds it: most texts are passed over here
    found = []
    for match in _WEEKLY.finditer(content):
        ends = match["every_end"] or match["ends"] or match["the_end"]
        if ends is not None:
            # "I work only on weekends": Saturdays and Sundays (a new user asked "when do I
            # work on saturday?" and found nothing).
            # Not "weekdays": five days of every week would answer most days asked about
            # ("need it by friday" would recall "I run on weekdays").
            found += [weekday_term(day) for day in (5, 6)]
            continue
        name = (match["every"] or match["plural"] or match["part"] or match["rota"]).casefold()
        found.append(weekday_term(WEEKDAYS.index(name)))
        if match["every"]:
            # "every Tues and Fri": each day of the list (a new user, a baker: the Friday
            # of a café's standing order was no day).
            listed = _AND_ANOTHER.match(content, match.end())
            found += [
                weekday_term(_SHORT.index(day.casefold()[:3]))
                for day in _LISTED_DAY.findall(listed.group() if listed else "")
            ]
    return list(dict.fromkeys(found))


def names_a_weekly_day(content: str) -> bool:
    """Whether `content` says something happens on a weekday every week (read since 0021)."""
    return bool(weekly_terms(content))


def weekday_terms(terms: list[str]) -> list[str]:
    """The weekday terms of the days among a query's date terms ("dtd20261207" → Monday)."""
    found = []
    for term in terms:
        day = _DAY_TERM.fullmatch(term)
        if day is None:
            continue
        try:
            weekday = date(int(day[1]), int(day[2]), int(day[3])).weekday()
        except ValueError:
            continue  # a day no calendar has: no weekday
        found.append(weekday_term(weekday))
    return list(dict.fromkeys(found))
