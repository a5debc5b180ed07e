"""A fact putting a day right, read in the month of the fact it replaced.

Left by an adversary: "Dentist appointment on March 18 at 10am", then "/remember Dentist is
on the 19th, not the 18th". The new fact replaced the old, and the model was shown only
"on the 19th", read as the next 19th from the day it was said (19 December): the month and
the time were gone.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING

from agent.asked_secrets import redacted_for_the_model
from memory.date_term_names import local_time
from memory.entry import MemoryCategory
from memory.errors import MemoryStoreError
from memory.event_days import days_named
from memory.relative_dates import a_day_of_the_month_alone, named_days

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from memory.protocol import Memory

FACTS_READ = 500
"""The newest facts, history included, looked through for the one a fact replaced."""

_NEAR = timedelta(days=15)
"""The day a number alone names is the one of that number nearest the day it puts right."""


@dataclass(frozen=True)
class DayPutRight:
    """The fact a newer one replaced, and the day it named."""

    replaced: str
    """Its text, its secrets redacted (an adversary saw a door code shown in clear)."""
    day: date

    def read_from(self) -> datetime:
        """Whence "the 19th" is read: the next 19th from here is the one nearest `day`."""
        return _read_near(self.day)


def _read_near(day: date) -> datetime:
    return datetime.combine(day - _NEAR, time(12), UTC)


async def days_put_right(
    memory: Memory, injected: list[MemoryEntry], namespace: str
) -> dict[str, DayPutRight]:
    """Each injected fact naming a day by its number alone → the dated fact it replaced."""
    facts = [
        entry
        for entry in injected
        if entry.category != MemoryCategory.CONVERSATION.value
        and await asyncio.to_thread(a_day_of_the_month_alone, entry.content)
    ]
    if not facts:
        return {}
    try:
        newest = await memory.list(
            namespace=namespace, category=MemoryCategory.CORE.value,
            include_superseded=True, limit=FACTS_READ,
        )  # fmt: skip
    except MemoryStoreError:
        return {}
    return await asyncio.to_thread(_put_right, facts, newest)


def _put_right(facts: list[MemoryEntry], newest: list[MemoryEntry]) -> dict[str, DayPutRight]:
    found: dict[str, DayPutRight] = {}
    replaced = {old.superseded_by: old for old in newest if old.superseded_by is not None}
    for fact in facts:
        if (day := _day_of(fact.id, replaced)) is not None:
            found[fact.id] = DayPutRight(redacted_for_the_model(replaced[fact.id].content), day)
    return found


_CHAIN_READ = 10
"""How many corrections back a day is followed: "19th, not the 18th", then "20th, not the
19th" (an adversary saw the second read from when it was said, 20 December, not March)."""


def _day_of(fact_id: str, replaced: dict[str, MemoryEntry]) -> date | None:
    """The day the fact `fact_id` replaced named, itself read in the month of what it put right."""
    chain: list[MemoryEntry] = []
    at = fact_id
    while at in replaced and len(chain) < _CHAIN_READ:
        chain.append(replaced[at])
        at = replaced[at].id
    day: date | None = None
    for old in reversed(chain):  # the oldest first: each read from the one before it
        if day is not None and a_day_of_the_month_alone(old.content):
            named = named_days(old.content, _read_near(day))
            day = named[0].spans[0][0] if named and named[0].spans else day
        else:
            day = _day_named(old)
    return day


def _day_named(entry: MemoryEntry) -> date | None:
    """The first day `entry` names: by its date, its month and day, or relatively."""
    terms = sorted(days_named(entry.content))
    said = local_time(entry.timestamp).date()
    try:
        for term in terms:
            if term.startswith("dtd") and len(term) == 11:
                return date(int(term[3:7]), int(term[7:9]), int(term[9:11]))
        for term in terms:
            if term.startswith("dtmd") and len(term) == 8:
                meant = date(said.year, int(term[4:6]), int(term[6:8]))
                return meant if meant >= said - _NEAR else meant.replace(year=said.year + 1)
    except ValueError:
        return None  # the 29th of February of a year without one
    named = named_days(entry.content, entry.timestamp)
    return named[0].spans[0][0] if named and named[0].spans else None
