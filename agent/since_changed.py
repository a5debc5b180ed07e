"""Which recalled messages and facts state something a later fact or message gives otherwise.

Found by a new user: "Hi! My name is Sam and I live in Porto. I work at Acme." was
recalled beside the later fact "I live in Lisbon" for almost every personal question. The
message says more than the home, so no fact can replace it; instead the recall block says,
on the message's own line, which later memory changed what (`agent.injection.render`), and
so does the ◆ line's detail.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from contextlib import suppress
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, TypeAlias

from agent.asked_secrets import key_without_secrets, redacted_for_the_model
from agent.corrections import the_ones_corrected
from agent.excerpts import excerpt
from agent.secret_changes import facts_with_the_old_secret
from memory.changes_to_come import a_change_to_come, first_day_of_change
from memory.date_terms import local_time
from memory.entry import MemoryCategory, utc_now
from memory.errors import MemoryStoreError
from memory.event_days import (
    MOVED_OR_CALLED_OFF,
    cancels_it,
    days_named,
    moves_it,
    several_events,
)
from memory.fact_endings import ends_the_fact, pays_what_was_unpaid, undoes_the_end
from memory.health_values import medicines_and_allergens
from memory.instead_of import takes_the_place_of
from memory.last_word import (
    changes_its_value,
    names_which,
    said_anew,
    says_a_new_value,
    supposes,
)
from memory.long_texts import LONG, the_part_about
from memory.other_ones import of_someone_else
from memory.questions import only_asks
from memory.stated_values import changed_topics, debt_changed, debt_owed, stated_values
from memory.text import analyze

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from memory.protocol import Memory

_FACTS_READ = 500
"""The newest core facts a recall compares its messages with (beside the recalled ones)."""
_SHOWN_CHARS = 160
"""Of the later memory said in a note: at 80, "big news, mudei-me! we moved flats last
weekend, i'm at Rua Morais Soares 88, 1…" cut the new address off (a new user)."""


@lru_cache(maxsize=4096)
def _stated(text: str) -> dict[str, frozenset[str]]:
    # A fact is compared with each turn's messages: its values are read once.
    return stated_values(text)


def _only_asks(entry: MemoryEntry) -> bool:
    """Whether `entry` is a saved message that only asks: it changes nothing.

    Found by a new user, a translator: "do i need to tell the gestoria my new address is
    calle sueca 12 if we move in feb?" marked the address changed, and "Is the dentist
    moved to 21/12?" the appointment.
    """
    return entry.category == CONVERSATION and only_asks(entry.content)


def _written(entry: MemoryEntry) -> datetime:
    # When it was said: a core fact's new value is a new version with its own time, while
    # pinning or re-storing the same text only moves `updated_at` (found by an adversary:
    # a pinned old home marked the newer message that changed it as changed since).
    return entry.timestamp


def _saying(entry: MemoryEntry, about: str = "") -> str:
    # Its secrets redacted, asked for or not: a fact keeps its secret, and a saved message
    # a bike lock's code (an adversary saw "the bike lock code is 7702" go to the model,
    # unasked, in the note on the fact it changed).
    said = redacted_for_the_model(entry.content)
    text = " ".join(said.split())
    if len(text) > _SHOWN_CHARS and about:
        # Where it speaks of what it changes: a pasted email's note quoted its header
        # ("From: Lisa Chen Sent: Monday, …"), not the line that moved the checkup (a new
        # user, a parent).
        text = _the_sentence_about(said, about) or excerpt(text, about, _SHOWN_CHARS)
    elif len(text) > _SHOWN_CHARS:
        cut = text[: _SHOWN_CHARS - 1]
        text = (cut.rsplit(" ", 1)[0] if " " in cut[_SHOWN_CHARS // 2 :] else cut) + "…"
    if entry.category == MemoryCategory.CONVERSATION.value:
        return f"a later message says {text!r}"
    return f"{key_without_secrets(entry.key, entry.content, said)!r} says {text!r}"


_SENTENCE_BREAK = re.compile(
    r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bSt\.)(?<!\bvs\.)(?<=[.!?])\s+|\s*\n\s*"
)
"""Where a sentence ends: not after "Dr." ("… with Dr. Sharma got rescheduled"); a line's
end too (an email's header ran into its first sentence, too long to quote)."""


def _the_sentence_about(text: str, about: str) -> str | None:
    """The sentence of a long `text` sharing most words with `about`, as a quote's middle."""
    wanted = set(analyze(about))
    best, rank = "", (False, 1)
    # Among the sentences of its part about it: a pasted page was analysed whole. The one
    # saying a new value first, then the one sharing most words.
    for line in _SENTENCE_BREAK.split(the_part_about(text, about)):
        sentence = " ".join(line.split())
        held = len(set(analyze(sentence)) & wanted)
        if held <= 1 or len(sentence) > _SHOWN_CHARS - 2:
            continue
        if (ranked := (says_a_new_value(sentence, about), held)) > rank:
            best, rank = sentence, ranked
    if not best:
        return None
    flat = " ".join(text.split())
    return ("" if flat.startswith(best) else "…") + best + ("" if flat.endswith(best) else "…")


CONVERSATION = MemoryCategory.CONVERSATION.value
_DEBTS = ("owes ", "owed by ")
_PAYMENTS_READ = 10


async def _about_debts(
    memory: Memory, messages: list[MemoryEntry], namespace: str
) -> list[MemoryEntry]:
    """The memories naming whom a recalled message says the user owes (or is owed by).

    "paid Priya the $42" shares no word with "do I owe anyone money?": it is not recalled
    with "owe Priya $42 for power", and would not mark it paid (found by a new user).
    """
    owed = {who for message in messages if (who := debt_owed(message.content)) is not None}
    found: list[MemoryEntry] = []
    for who in sorted(owed):
        result = await memory.recall(f"{who} paid", limit=_PAYMENTS_READ, namespace=namespace)
        found += result.entries
    return found


_MOVES_READ = 200
"""The newest saved messages and facts looked through for one moving a recalled event."""


_Moves: TypeAlias = "tuple[list[MemoryEntry], list[MemoryEntry], dict[str, str]]"
"""The moves said, the events they may mean, and each correction → what it puts right."""


async def _moves_said(memory: Memory, recalled: list[MemoryEntry], namespace: str) -> _Moves:
    """The newest memories that may move or call off a recalled event, and the newest events.

    None if no recalled memory is an event; the newest events are those such a move may
    mean as well. "Dentist moved to 21/1" names not the 14th: "what's on 14 January?"
    recalls the event and not its move. And each correction naming nothing → the message
    before it (`agent.corrections`).
    """
    if not await asyncio.to_thread(_any_event, recalled):
        return [], [], {}
    try:
        newest = await memory.list(namespace=namespace, limit=_MOVES_READ)
    except MemoryStoreError:
        return [], [], {}
    return await asyncio.to_thread(_moves_and_events, newest)


def _moves_and_events(newest: list[MemoryEntry]) -> _Moves:
    moves = [entry for entry in newest if _says_a_move(entry.content)]
    events = [entry for entry in newest if days_named(entry.content)]
    return moves, events, the_ones_corrected(newest)


def _any_event(recalled: list[MemoryEntry]) -> bool:
    return any(days_named(entry.content) for entry in recalled if not entry.pinned)


@lru_cache(maxsize=2048)
def _says_a_move(text: str) -> bool:
    # Read once per text: the newest memories are read each turn (a pasted log took 35 ms).
    return MOVED_OR_CALLED_OFF.search(text) is not None


def _events_moved(
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
        if event.pinned:
            continue
        for later in sorted(candidates, key=_written, reverse=True):
            if _written(later) <= _written(event) or later.id == event.id or _only_asks(later):
                continue
            put_right = corrects.get(later.id) == event.id and bool(days_named(later.content))
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
            and not other.pinned
            and _written(other) < _written(later)
            and _moves_or_calls_off(later, other)
        ]
    contents = {entry.id: entry.content for entry in recalled}
    return {
        event_id: f"since changed: {_saying(later, contents.get(event_id, ''))}"
        for event_id, later in marks.items()
        if not several_events([event.content for event in moved[later.id]])
    }


def _moves_or_calls_off(later: MemoryEntry, event: MemoryEntry) -> bool:
    said, told = _read_together(later.content, event.content)
    return moves_it(said, told) or cancels_it(said, told)


def _read_together(later: str, earlier: str) -> tuple[str, str]:
    """Two texts as a comparison reads them: a long one by its part about the other.

    A pasted page of 300 KB was read whole by every reader, for every fact it was
    compared with, each turn (`memory.long_texts`).
    """
    return the_part_about(later, earlier), the_part_about(earlier, later)


def _about(message: MemoryEntry, fact: MemoryEntry) -> MemoryEntry:
    """`message`, or a long one cut to its part about `fact` (`_read_together`)."""
    if len(message.content) < LONG:
        return message
    return message.model_copy(update={"content": the_part_about(message.content, fact.content)})


class _NewestFacts:
    """The newest core facts of a store, read once a recall: both comparisons need them."""

    def __init__(self, memory: Memory, namespace: str) -> None:
        self._memory, self._namespace = memory, namespace
        self._facts: list[MemoryEntry] | None = None
        self._failed = False

    async def read(self) -> list[MemoryEntry] | None:
        """The facts, or None when the store cannot list them."""
        if self._facts is None and not self._failed:
            try:
                self._facts = await self._memory.list(
                    namespace=self._namespace, category="core", limit=_FACTS_READ
                )
            except MemoryStoreError:
                self._failed = True
        return self._facts


async def _newest_said(memory: Memory, namespace: str) -> list[MemoryEntry]:
    """The newest saved messages, which may change a recalled fact though not recalled."""
    try:
        return await memory.list(namespace=namespace, category=CONVERSATION, limit=_MOVES_READ)
    except MemoryStoreError:
        return []


async def _values_said_changed(
    recalled: list[MemoryEntry],
    facts: list[MemoryEntry],
    newest: list[MemoryEntry],
    now: datetime,
    newest_facts: _NewestFacts,
) -> dict[str, str]:
    """Each recalled fact's id → the newest later message saying its value changed.

    A message no rule reads as the fact's new value (`memory.last_word.changes_its_value`):
    found by a new user, a carer, "what time is Nora's next tablet" gave the 6 pm dose
    first, unmarked, a week after "Nora's evening levodopa is now at 7 instead of 6".
    """
    if not facts:
        return {}
    # Not a change whose day has not come: "Starting next week my swimming lesson costs 15
    # euros instead of 12" marked the 12 euros changed beside "not yet in effect" (an
    # adversary).
    # A later fact too: "/remember medium dogs now 50", kept beside "Grooming prices: large
    # dogs are 60, medium 45, small 35" (a list keeps its other values), left the list
    # unmarked (an adversary).
    said = {
        e.id: e
        for e in [*recalled, *newest]
        if (e.category == CONVERSATION or not e.pinned)
        and not _only_asks(e)
        and not _not_yet(e, now)
    }
    notes: dict[str, str] = {}
    in_effect: list[MemoryEntry] | None = None
    changes = await asyncio.to_thread(_changes_said, facts, list(said.values()))
    for fact in facts:
        later = changes[fact.id]
        if not later:
            continue
        if in_effect is None:
            # The recalled facts and the newest in effect: what else the change may mean.
            in_effect = [entry for entry in recalled if entry.category != CONVERSATION]
            in_effect += await newest_facts.read() or []
        newest_said = max(later.values(), key=_written)
        if _end_taken_back(list(said.values()), newest_said, fact):
            continue  # "Sam and I got back together!" after the break-up (an adversary)
        if names_which(newest_said, fact, in_effect):
            notes[fact.id] = f"since changed: {_saying(said[newest_said.id], fact.content)}"
    return notes


def _changes_said(
    facts: list[MemoryEntry], said: list[MemoryEntry]
) -> dict[str, dict[str, MemoryEntry]]:
    """Each fact's id → the messages (by id) that change it, each as the part about it.

    Read on a thread of its own, as the other comparisons of long texts: the chat's screen
    stood still while a pasted page was read (an adversary).
    """
    return {
        fact.id: {
            message.id: part
            for message in said
            if changes_its_value(fact, part := _about(message, fact)) or _ended_by(fact, part)
        }
        for fact in facts
    }


def _ended_by(fact: MemoryEntry, message: MemoryEntry) -> bool:
    """Whether `message`, a saved message said after `fact`, ends it (`fact_endings`).

    "Sam and I broke up" after "My partner is Sam", "Sarah left the company, Tom is my
    manager now" after "Sarah is my manager": an adversary saw each fact given as current.
    """
    return (
        message.category == CONVERSATION
        and _written(message) > _written(fact)
        and ends_the_fact(message.content, fact.content)
    )


def _old_secrets(
    recalled: list[MemoryEntry], facts: list[MemoryEntry], newest: list[MemoryEntry]
) -> dict[str, str]:
    """Each recalled fact's id → the later message saying its secret changed.

    A message among the newest too: "the key safe code changed to 6677" (saved redacted)
    was not recalled for "is the cottage key safe by the door?", and the old code's fact
    went unmarked (an adversary).
    """
    if not facts:
        return {}
    notes: dict[str, str] = {}
    messages = {entry.id: entry for entry in [*recalled, *newest]}
    for message in sorted(messages.values(), key=_written, reverse=True):
        if _only_asks(message):
            continue
        # A later fact too, read as the model is shown it: "my plumbcenter trade counter pin
        # is 5096 now", kept beside the fact holding the old PIN (it says more), left both
        # in effect unmarked (a new user, a plumber).
        said = (
            message.content
            if message.category == CONVERSATION
            else redacted_for_the_model(message.content)
        )
        for fact in facts_with_the_old_secret(said, facts):
            if fact.id != message.id and _written(fact) < _written(message):
                notes.setdefault(fact.id, f"since changed: {_saying(message, fact.content)}")
    return notes


def _not_yet(entry: MemoryEntry, now: datetime) -> bool:
    """Whether `entry` says a change to come whose day has not come (or is not known).

    Found by an adversary: "From Monday I take 20mg of citalopram", said on a Saturday,
    marked the 10mg dose "since changed" under "the later one holds".
    """
    if not a_change_to_come(entry.content):
        return False
    first = first_day_of_change(entry.content, entry.timestamp)
    return first is None or first > local_time(now).date()


async def since_changed(
    memory: Memory, recalled: list[MemoryEntry], namespace: str, now: datetime | None = None
) -> dict[str, str]:
    """Each recalled saved message's id → what later memory gives one of its values otherwise.

    A message is compared with the recalled entries and the newest core facts; only a
    memory written after it counts. A store that cannot list its facts leaves the
    recalled ones to compare with.
    """
    # A fact too: one that says more than the value changed is left as it is ("Flatmates
    # are Joana and Rui, rent is 900€, we live in Arroios" after "we live in Alvalade now"),
    # and a debt's payment said in chat replaces no fact ("I owe Joana 23€ for internet"
    # after "paid Joana back the 23€ today"): found by a new user, both recalled unmarked.
    # A pinned fact is kept as the user chose: no later message marks it.
    now = now or utc_now()
    moves, events, corrects = await _moves_said(memory, recalled, namespace)
    newest_facts = _NewestFacts(memory, namespace)
    # The recalled facts a later memory may mark; only for them are the newest messages read.
    marked = [e for e in recalled if e.category != CONVERSATION and not e.pinned]
    newest = await _newest_said(memory, namespace) if marked else []
    notes = await _values_said_changed(recalled, marked, newest, now, newest_facts)
    notes |= await asyncio.to_thread(_old_secrets, recalled, marked, newest)
    notes |= await asyncio.to_thread(_events_moved, recalled, recalled + moves, events, corrects)
    messages = await asyncio.to_thread(_messages_compared, recalled)
    if not messages:
        return notes
    others = list(recalled)
    facts = await newest_facts.read()
    if facts is not None:
        others += facts
        with suppress(MemoryStoreError):
            others += await _about_debts(memory, messages, namespace)
    return notes | await asyncio.to_thread(_messages_changed, messages, others, now)


def _messages_compared(recalled: list[MemoryEntry]) -> list[MemoryEntry]:
    # Every one, stated values or not: "Sam works Saturdays" holds none, and "Sam now works
    # Mondays" said after it takes its place (`memory.instead_of`; an adversary saw it kept).
    return [
        entry
        for entry in recalled
        if not entry.pinned and (entry.category == CONVERSATION or _stated(entry.content))
    ]


def _messages_changed(
    messages: list[MemoryEntry], others: list[MemoryEntry], now: datetime
) -> dict[str, str]:
    """Each of `messages`' id → the note on the later one of `others` that changes it."""
    notes: dict[str, str] = {}
    for message in messages:
        said = _stated(message.content)
        for other in sorted(others, key=_written, reverse=True):
            if other.id == message.id or _written(other) <= _written(message):
                continue
            if _not_yet(other, now):
                continue  # "From Monday I take 20mg" changes no dose before Monday
            later, earlier = _read_together(other.content, message.content)
            if (
                _only_asks(other)
                or (other.category == CONVERSATION and supposes(later))
                or of_someone_else(later, earlier)
            ):
                continue  # "Tom's gym membership is now 45" changes not the user's
            topics = changed_topics(said, _stated(other.content)) if said else []
            if not topics and message.category == CONVERSATION:
                # A dose an older message gave, said changed: "the ramipril dose went up to
                # 10mg", then "GP cut the ramipril back to 5mg" (a new user, a retired nurse,
                # saw the 10mg recalled unmarked beside it). Not an appointment's time: a move
                # naming not which of two is no change of either (`_events_moved`).
                replaced = (
                    takes_the_place_of(later, earlier)
                    or pays_what_was_unpaid(later, earlier)
                    or (other.category == CONVERSATION and said_anew(earlier, later))
                    or (
                        bool(medicines_and_allergens(message.content))
                        and changes_its_value(message, _about(other, message))
                    )
                )
                topics = ["instead"] if replaced else []
            if topics and all(topic.startswith(_DEBTS) for topic in topics):
                # A payment or a debt of another thing changes no debt: "paid Priya the
                # $42" marked "I owe Priya $15 for lunch" (an adversary).
                if not debt_changed(other.content, message.content):
                    continue
            if topics and not _end_taken_back(others, other, message):
                notes[message.id] = f"since changed: {_saying(other, message.content)}"
            if topics:
                break
    return notes


def _end_taken_back(others: list[MemoryEntry], change: MemoryEntry, told: MemoryEntry) -> bool:
    """Whether one of `others`, said with or after `change`, takes back the end it told."""
    return any(
        _written(other) >= _written(change) and undoes_the_end(other.content, told.content)
        for other in others
    )
