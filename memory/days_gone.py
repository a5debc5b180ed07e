"""A question about what comes next is answered by what is still to come first.

Found by a new user, a nurse: "night shift again tmrw 9pm-7am, ugh", said on 20 November,
was the first answer to "when's my next night shift?" on 5 December, above the shifts to
come: the words matched as well, and its day had passed. Each recalled memory whose days
(those its text names, read on the day it was said) have all passed comes after those
that name none gone by; the order is otherwise kept, and so are the scores.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import lru_cache

from memory.date_term_names import local_time
from memory.days_to_keep import FURTHEST_YEARS, last_day_said, tells_of_the_past
from memory.entry import MemoryEntry
from memory.lazy_patterns import lazy_compile
from memory.text import entry_terms

_ASKS_AHEAD = lazy_compile(r"(?i)\b(?:next|upcoming|coming\s+up|still\s+to\s+come)\b")
_DAY_TERM = "dtd"


_OF_THE_PAST = lazy_compile(
    r"(?i)\b(?:did|was|were|had|went|happened|ago|last|before|after|then|used\s+to)\b"
)
"""'What did Caroline do next?' asks what came after, in the past (LoCoMo's questions)."""


def asks_ahead(query: str) -> bool:
    """Whether `query` asks what comes next ("when's my next night shift?")."""
    return _ASKS_AHEAD.search(query) is not None and _OF_THE_PAST.search(query) is None


_ANY_YEAR = "dtmd"
_LOOKED_BACK = 30
"""A day and month said without the year, up to this many days before the day it was said,
is that day gone ("Flu shot done 5/12"); earlier, it is next year's ("rego due 14/1")."""


def days_gone_by(entry: MemoryEntry, today: date) -> bool:
    """Whether every day `entry` names lies before `today` (False when it names none).

    A day and month without the year ("Night shift on 1.12.") is read from the day the
    memory was said: a third adversary saw every such shift count as still to come.
    """
    last = _last_day_named(entry, kept=False)
    return last is not None and last < f"{today:%Y%m%d}"


def names_a_day_to_come(entry: MemoryEntry, today: date) -> bool:
    """Whether a day `entry` names is `today` or after it (see `days_gone_by`)."""
    last = _last_day_named(entry)
    return last is not None and f"{today:%Y%m%d}" <= last < _NO_DAY


_NO_DAY = "99991231"


def last_day_named(entry: MemoryEntry) -> date | None:
    """The last day `entry` names as a day to come or gone (not one it is kept until)."""
    last = _last_day_named(entry, kept=False)
    return None if last is None or last == _NO_DAY else date.fromisoformat(last)


def _last_day_named(entry: MemoryEntry, *, kept: bool = True) -> str | None:
    """The last day `entry` names, as YYYYMMDD; None when it names none.

    `kept`: and the day it is kept until as one's own details (`last_day_said`), which
    retention reads, not what comes next.
    """
    local = local_time(entry.timestamp)
    return _last_day_of(entry.key, entry.content, entry.timestamp, local.utcoffset(), kept)


@lru_cache(maxsize=2048)
def _last_day_of(
    key: str, content: str, timestamp: datetime, offset: timedelta | None, kept: bool
) -> str | None:
    # Read once per text (and time zone, `offset`): recalled for a question asking ahead,
    # a pasted page was read whole for its index terms each turn, on the event loop (an
    # adversary).
    said = local_time(timestamp).date()
    terms = entry_terms(key, content, timestamp)
    days = [term[len(_DAY_TERM) :] for term in terms if term.startswith(_DAY_TERM)]
    dated = {day[4:] for day in days}  # a full date's day and month, named with its year
    # No plan is that far off, written in full either: "lol 12/12/2099" was kept 72 years
    # (an adversary), as `memory.days_to_keep` already keeps no day so said.
    days = [day for day in days if int(day[:4]) <= said.year + FURTHEST_YEARS]
    # Of what was, a day without its year is the one gone, not the next: "your card … was
    # charged £32.50 … on 01/03" was kept to 3 January next year (a new user, a taxi driver).
    gone = tells_of_the_past(content)
    if gone:
        today = f"{said:%Y%m%d}"
        days = [day for day in days if day <= today or day[:4] in content]
    for term in terms:
        month_day = term[len(_ANY_YEAR) :]
        if term.startswith(_ANY_YEAR) and len(month_day) == 4 and month_day not in dated:
            month, day = int(month_day[:2]), int(month_day[2:])
            days.append(_gone(said, month, day) if gone else _from(said, month, day))
    # Named in ways the index reads no day ("mammogram 8/1", "Termin am 14. Januar", "MOT
    # due in January"): read here too, so that retention keeps it until then.
    if (more := last_day_said(content, said, kept=kept)) is not None:
        days.append(more)
    return max(days) if days else None


def _gone(said: date, month: int, day: int) -> str:
    """The last day and month without the year on or before `said` (as YYYYMMDD)."""
    for year in (said.year, said.year - 1):
        try:
            meant = date(year, month, day)
        except ValueError:
            continue  # 29 February
        if meant <= said:
            return f"{meant:%Y%m%d}"
    return _NO_DAY


def _from(said: date, month: int, day: int) -> str:
    """The day a day and month without the year meant, said on `said` (as YYYYMMDD)."""
    for year in (said.year, said.year + 1):
        try:
            meant = date(year, month, day)
        except ValueError:
            continue  # 29 February
        if (said - meant).days <= _LOOKED_BACK:
            return f"{meant:%Y%m%d}"
    return _NO_DAY


def upcoming_first(
    query: str, entries: list[MemoryEntry], now: datetime | None = None
) -> list[MemoryEntry]:
    """`entries`, those whose days are gone after the others when `query` asks ahead."""
    if not asks_ahead(query) or len(entries) < 2:
        return entries
    today = local_time(now or datetime.now().astimezone()).date()
    return sorted(entries, key=lambda entry: days_gone_by(entry, today))
