"""Two things said of two days are two events, unless one says the other moved.

Found while fixing a new user's roster: "Night shift on 16.12. at 9pm" replaced "night
shift again tmrw 9pm-7am, ugh" (the same two words, so "the same subject"), and a nurse's
shifts, a parent's appointments, a baker's deliveries, each of another day, replaced one
another. A change says so ("moved to", "rescheduled", "now", "instead"); a one-valued fact
(a deadline, a birthday) is compared by its value elsewhere (`memory.fact_values`).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from memory.date_terms import find_dates
from memory.fact_values import attribute_terms
from memory.relative_dates import named_days
from memory.text import analyze
from memory.weekly_days import weekly_terms

_SAYS_CHANGE = re.compile(
    r"(?i)\b(?:moved|changed|rescheduled|rebooked|postponed|pushed|shifted|brought\s+forward|"
    r"instead|now|cancel(?:l?ed)?|no\s+longer)\b"
)
_DAY_GRAIN = ("dtd", "dtmd")
_READ_ON = datetime(2000, 1, 3, 12, tzinfo=UTC)
"""Relative days are compared by their words ("tomorrow", "on Friday"), read on any day."""


def days_named(text: str) -> frozenset[str]:
    """The days `text` names: its dates' day terms, and the words of days named relatively."""
    dates, _ = find_dates(text)
    absolute = {term for term in dates if term.startswith(_DAY_GRAIN)}
    relative = {f"said:{named.words.casefold()}" for named in named_days(text, _READ_ON)}
    # Every week too: "Night shift every Friday" took four dated shifts out of effect (a
    # third adversary); "every Monday at 10" still changes to "every Monday at 11".
    weekly = set(weekly_terms(text))
    return frozenset(absolute | relative | weekly)


def on_other_days(new: str, old: str) -> bool:
    """Whether both name days, not the same ones, and `new` does not say `old` moved."""
    ours, theirs = days_named(new), days_named(old)
    if not ours or not theirs or ours & theirs:
        return False
    if attribute_terms() & set(analyze(new)):
        return False  # "Alex's birthday is March 16" gives the birthday another day
    return _SAYS_CHANGE.search(new) is None
