"""The year of a month a change to come names without one.

Found by a new user, an allotment's secretary: "the committee agreed the fee goes up to
€45 from January", said in December, was indexed as January of any year, so "how much is
the fee for next year?" found it no better than every memory that named a day of next year.
A day and month said without a year already take the year they mean (`memory.date_terms`);
a month alone is read so only where a change takes effect from it ("from January", "goes
up in February"): "I was born in March" names no year.
"""

from __future__ import annotations

from datetime import datetime

from memory.changes_to_come import a_change_to_come, first_day_of_change
from memory.date_term_names import month_of_year_term, year_term

_MONTH_TERM_LENGTH = len("dtm01")


def month_to_come_terms(content: str, saved: datetime | None, terms: list[str]) -> list[str]:
    """The month and year terms of the month a change to come in `content` takes effect.

    `terms`: the date terms already read (a month named with its year or a day gives none).
    """
    months = {term for term in terms if term.startswith("dtm") and len(term) == _MONTH_TERM_LENGTH}
    if saved is None or not months or not a_change_to_come(content):
        return []
    first = first_day_of_change(content, saved)
    if first is None or f"dtm{first.month:02d}" not in months:
        return []
    if any(term.startswith("dtym") and term.endswith(f"{first.month:02d}") for term in terms):
        return []  # said with its year, or with a day that has one
    return [month_of_year_term(first.year, first.month), year_term(first.year)]
