"""Which recalled messages and facts state something a later fact or message gives otherwise.

Found by a new user: "Hi! My name is Sam and I live in Porto. I work at Acme." was
recalled beside the later fact "I live in Lisbon" for almost every personal question. The
message says more than the home, so no fact can replace it; instead the recall block says,
on the message's own line, which later memory changed what (`agent.injection.render`), and
so does the ◆ line's detail. Events moved or called off are read in `agent.events_moved`,
and the notes written in `agent.change_notes`.
"""

from __future__ import annotations

import asyncio
from contextlib import suppress
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from agent.asked_secrets import redacted_for_the_model
from agent.change_notes import (
    CONVERSATION,
    kept_as_is,
    only_asks_something,
    read_together,
    saying,
    written,
)
from agent.events_moved import MOVES_READ, events_moved, moves_said, newest_memories
from agent.put_right import put_right
from agent.secret_changes import facts_with_the_old_secret
from memory.changes_to_come import a_change_to_come, first_day_of_change
from memory.corrections import the_ones_corrected
from memory.date_term_names import local_time
from memory.entry import utc_now
from memory.errors import MemoryStoreError
from memory.event_days import puts_its_day_right
from memory.fact_endings import ends_the_fact, pays_what_was_unpaid, undoes_the_end
from memory.fact_values import claims_otherwise
from memory.health_values import medicines_and_allergens
from memory.instead_of import takes_the_place_of
from memory.last_word import (
    changes_its_value,
    names_which,
    said_anew,
    supposes,
)
from memory.long_texts import LONG, the_part_about
from memory.numbers_put_right import puts_its_number_right
from memory.one_day_changes import one_day_of_change
from memory.other_ones import of_someone_else
from memory.predicates import claim_of
from memory.stated_values import changed_topics, debt_changed, debt_owed, stated_values

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from memory.protocol import Memory

_FACTS_READ = 500
"""The newest core facts a recall compares its messages with (beside the recalled ones)."""


@lru_cache(maxsize=4096)
def _stated(text: str) -> dict[str, frozenset[str]]:
    # A fact is compared with each turn's messages: its values are read once.
    return stated_values(text)


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
        return await memory.list(namespace=namespace, category=CONVERSATION, limit=MOVES_READ)
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
        if not kept_as_is(e) and not only_asks_something(e) and not _not_yet(e, now)
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
        newest_said = max(later.values(), key=written)
        if _end_taken_back(list(said.values()), newest_said, fact):
            continue  # "Sam and I got back together!" after the break-up (an adversary)
        if names_which(newest_said, fact, in_effect):
            note = _change_note(fact.content, newest_said, said[newest_said.id], now)
            if note is not None:
                notes[fact.id] = note
    return notes


def _change_note(told: str, change: MemoryEntry, shown: MemoryEntry, now: datetime) -> str | None:
    """The note on what `change` changes: for good, for one day to come, or none (gone by).

    `shown` is the change as the note quotes it (the part about `told`).
    """
    one_day = one_day_of_change(told, change)
    if one_day is None:
        return f"since changed: {saying(shown, told)}"
    if one_day >= local_time(now).date():
        return f"changed for {one_day:%a %Y-%m-%d} only: {saying(shown, told)}"
    return None


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
            if changes_its_value(fact, part := _about(message, fact))
            or _ended_by(fact, part)
            or _number_put_right(fact, part)
            or _claimed_otherwise(fact, part)
        }
        for fact in facts
    }


def _claimed_otherwise(fact: MemoryEntry, message: MemoryEntry) -> bool:
    """Whether `message`, said after `fact`, gives its owner's home or employer otherwise.

    "My sister moved to Berlin" after "My sister lives in Lyon" (an adversary saw the fact
    given as current, and once the message was deleted, alone): someone else's, so no
    fact is replaced (`agent.said_changes`), but it is marked.
    """
    if written(message) <= written(fact):
        return False
    return claims_otherwise(claim_of(message.content), claim_of(fact.content))


def _number_put_right(fact: MemoryEntry, message: MemoryEntry) -> bool:
    """Whether `message`, said after `fact`, says a number of it is not so ("…, not 7 900").

    Not what is only supposed ("if my gym membership is now 45 instead of 30 I'm quitting")
    nor said of someone else ("Tom's gym membership is now 45 instead of 30").
    """
    later, earlier = message.content, fact.content
    if written(message) <= written(fact) or supposes(later) or of_someone_else(later, earlier):
        return False
    return puts_its_number_right(later, earlier)


def _ended_by(fact: MemoryEntry, message: MemoryEntry) -> bool:
    """Whether `message`, a saved message said after `fact`, ends it (`fact_endings`).

    "Sam and I broke up" after "My partner is Sam", "Sarah left the company, Tom is my
    manager now" after "Sarah is my manager": an adversary saw each fact given as current.
    """
    return (
        message.category == CONVERSATION
        and written(message) > written(fact)
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
    for message in sorted(messages.values(), key=written, reverse=True):
        if only_asks_something(message):
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
            if fact.id != message.id and written(fact) < written(message):
                notes.setdefault(fact.id, f"since changed: {saying(message, fact.content)}")
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
    newest_listed = await newest_memories(memory, namespace) if recalled else []
    corrects = await asyncio.to_thread(the_ones_corrected, newest_listed)
    moves, events = await asyncio.to_thread(moves_said, recalled, newest_listed, corrects)
    newest_facts = _NewestFacts(memory, namespace)
    # The recalled facts a later memory may mark; only for them are the newest messages read.
    marked = [e for e in recalled if e.category != CONVERSATION and not e.pinned]
    newest = await _newest_said(memory, namespace) if marked else []
    notes = await _values_said_changed(recalled, marked, newest, now, newest_facts)
    notes |= await asyncio.to_thread(_old_secrets, recalled, marked, newest)
    notes |= await asyncio.to_thread(events_moved, recalled, recalled + moves, events, corrects)
    notes = await asyncio.to_thread(put_right, recalled, newest_listed, corrects) | notes
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
        # A pinned message too: pinned to be kept (brought back after hygiene removed it),
        # it held an old home in effect over the move after it (a new user, a nurse).
        if entry.category == CONVERSATION or (not entry.pinned and _stated(entry.content))
    ]


def _messages_changed(
    messages: list[MemoryEntry], others: list[MemoryEntry], now: datetime
) -> dict[str, str]:
    """Each of `messages`' id → the note on the later one of `others` that changes it."""
    notes: dict[str, str] = {}
    for message in messages:
        said = _stated(message.content)
        for other in sorted(others, key=written, reverse=True):
            if other.id == message.id or written(other) <= written(message):
                continue
            if _not_yet(other, now):
                continue  # "From Monday I take 20mg" changes no dose before Monday
            later, earlier = read_together(other.content, message.content)
            if (
                only_asks_something(other)
                or (other.category == CONVERSATION and supposes(later))
                or of_someone_else(later, earlier)
            ):
                continue  # "Tom's gym membership is now 45" changes not the user's
            topics = changed_topics(said, _stated(other.content)) if said else []
            if not topics and message.category == CONVERSATION:
                # A dose an older message gave, said changed: "the ramipril dose went up to
                # 10mg", then "GP cut the ramipril back to 5mg" (a new user, a retired nurse,
                # saw the 10mg recalled unmarked beside it). Not an appointment's time: a move
                # naming not which of two is no change of either (`agent.events_moved`).
                replaced = (
                    takes_the_place_of(later, earlier)
                    or pays_what_was_unpaid(later, earlier)
                    or puts_its_day_right(later, earlier)
                    or puts_its_number_right(later, earlier)
                    or (other.category == CONVERSATION and said_anew(earlier, later))
                    or (
                        # A pinned message too: kept for good, it held "my gym locker is
                        # number 14" unmarked over "… is now number 22" (a second adversary).
                        (message.pinned or bool(medicines_and_allergens(message.content)))
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
                # A message telling what comes again, changed for one day: "standup every
                # weekday at 9:30", then "tomorrow my standup is at 10 not 9:30" (an
                # adversary saw it marked for good, as a fact is not).
                if (note := _change_note(message.content, other, other, now)) is not None:
                    notes[message.id] = note
            if topics:
                break
    return notes


def _end_taken_back(others: list[MemoryEntry], change: MemoryEntry, told: MemoryEntry) -> bool:
    """Whether one of `others`, said with or after `change`, takes back the end it told."""
    return any(
        written(other) >= written(change) and undoes_the_end(other.content, told.content)
        for other in others
    )
