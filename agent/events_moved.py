"""Which recalled events a later memory moves or calls off, or a correction puts right.

Split from `agent.since_changed`: found by an adversary, "Dentist moved to 21/1" said in
chat left "Dentist on 14/1 at 3pm" recalled unmarked (a message is no fact, so nothing
replaced it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING

from agent.change_notes import kept_as_is, only_asks_something, read_together, saying, written
from memory.corrections import names_a_day
from memory.errors import MemoryStoreError
from memory.event_days import (
    MOVED_OR_CALLED_OFF,
    cancels_it,
    days_named,
    moves_it,
    several_events,
)

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from memory.protocol import Memory

MOVES_READ = 200
"""The newest saved messages and facts looked through for one moving a recalled event."""


async def newest_memories(memory: Memory, namespace: str) -> list[MemoryEntry]:
    """The newest memories, history too (a message made a fact is corrected in the fact).

    Read once a turn, for the moves of `moves_said` and the corrections of
    `agent.put_right`; none when the store cannot list them.
    """
    try:
        return await memory.list(namespace=namespace, limit=MOVES_READ, include_superseded=True)
    except MemoryStoreError:
        return []


def moves_said(
    recalled: list[MemoryEntry], newest: list[MemoryEntry], corrects: Mapping[str, str]
) -> tuple[list[MemoryEntry], list[MemoryEntry]]:
    """Of `newest`, those that may move or call off a recalled event, and the events.

    None if no recalled memory is an event; the newest events are those such a move may
    mean as well. "Dentist moved to 21/1" names not the 14th: "what's on 14 January?"
    recalls the event and not its move. `corrects`: each correction naming nothing → the
    message before it (`memory.corrections.the_ones_corrected`); a message made a fact is
    the fact's history, read only for what a correction after it puts right ("remember the
    team meeting is on Tuesday at 10", then "no wait, Wednesday": an adversary saw the
    correction put right the message before that one).
    """
    if not _any_event(recalled):
        return [], []
    in_effect = [entry for entry in newest if entry.superseded_by is None]
    moves = [entry for entry in in_effect if entry.id in corrects or _says_a_move(entry.content)]
    events = [entry for entry in in_effect if days_named(entry.content)]
    return moves, events


def _any_event(recalled: list[MemoryEntry]) -> bool:
    return any(names_a_day(entry.content) for entry in recalled if not kept_as_is(entry))


@lru_cache(maxsize=2048)
def _says_a_move(text: str) -> bool:
    # Read once per text: the newest memories are read each turn (a pasted log took 35 ms).
    return MOVED_OR_CALLED_OFF.search(text) is not None


def events_moved(
    recalled: list[MemoryEntry],
    candidates: list[MemoryEntry],
    others: Sequence[MemoryEntry] = (),
    corrects: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Each recalled event's id → the later memory among `candidates` moving or calling it off.

    Found by an adversary: "Dentist moved to 21/1" said in chat, "what's on 14 January?"
    was shown "Dentist on 14/1 at 3pm" unmarked (a message is no fact, so nothing
    replaced it). `others`: events not recalled that the move may mean too. `corrects`: a
    correction naming nothing → the message before it, which it moves if it names a day.
    """
    corrects = corrects or {}
    moved: dict[str, list[MemoryEntry]] = {}  # a move's id → the events it names
    moves: dict[str, MemoryEntry] = {}  # a move's id → the move
    marks: dict[str, MemoryEntry] = {}
    for event in recalled:
        if kept_as_is(event):
            continue
        for later in sorted(candidates, key=written, reverse=True):
            if (
                written(later) <= written(event)
                or later.id == event.id
                or only_asks_something(later)
            ):
                continue
            put_right = corrects.get(later.id) == event.id and names_a_day(later.content)
            if put_right or _moves_or_calls_off(later, event):
                marks[event.id] = moves[later.id] = later
                moved.setdefault(later.id, []).append(event)
                break
    # A move naming not which of two events it moves marks neither (an adversary: "Dentist
    # moved to 21/1" marked the dentist on 14/1 and on 28/1), recalled or not (a later one:
    # "Daisy moved to mon 14/12" marked whichever of her two bookings was recalled).
    for later_id, events in moved.items():
        later = moves[later_id]
        seen = {event.id for event in events}
        events += [
            other
            for other in others
            if other.id not in seen
            and other.id != later.id
            and not kept_as_is(other)
            and written(other) < written(later)
            and _moves_or_calls_off(later, other)
        ]
    contents = {entry.id: entry.content for entry in recalled}
    return {
        event_id: f"since changed: {saying(later, contents.get(event_id, ''))}"
        for event_id, later in marks.items()
        if not several_events(_events_moved(moved[later.id]))
        or _the_one_near(later, moved[later.id]) == event_id
    }


def _events_moved(events: list[MemoryEntry]) -> list[str]:
    """The texts of the events themselves, not of an earlier move among them.

    "Mark pushed my deadline to 20/9", then "… again, to 30/9": the first move is the
    deadline's, no second event, and the 10/9 deadline stood unmarked (an adversary).
    """
    return [event.content for event in events if not _says_a_move(event.content)]


_NEAR = 7
_FAR = 21


def _the_one_near(later: MemoryEntry, events: list[MemoryEntry]) -> str | None:
    """The event a move names the day near of, when every other is weeks from it.

    "the reading group moved to Friday 17/9" moves the one of Thursday 16/9, not the
    October meeting (a new user saw that one marked, for months, and not the other); a
    night shift moved to Thursday is still neither of Monday's and Wednesday's.
    """
    to = _month_days(later.content)
    if not to:
        return None
    apart = sorted(
        (min((_days_apart(a, b) for a in to for b in _month_days(e.content)), default=366), e.id)
        for e in events
    )
    if len(apart) < 2 or apart[0][0] > _NEAR or apart[1][0] < _FAR:
        return None
    return apart[0][1]


def _month_days(text: str) -> list[int]:
    """The days of the year (as in a leap year) `text` names by month and day."""
    return [
        date(2000, int(term[4:6]), int(term[6:8])).timetuple().tm_yday
        for term in days_named(text)
        if term.startswith("dtmd") and len(term) == 8
    ]


def _days_apart(a: int, b: int) -> int:
    return min(abs(a - b), 366 - abs(a - b))


def _moves_or_calls_off(later: MemoryEntry, event: MemoryEntry) -> bool:
    said, told = read_together(later.content, event.content)
    return moves_it(said, told) or cancels_it(said, told)
