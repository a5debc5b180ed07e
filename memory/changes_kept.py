"""Retention keeps a message that puts right, moves or calls off a memory that stays.

Found by new users. A retired farmer: "mercy cardiology called and moved my appointment to
april 19 at 1:30", then "no wait its the 14th not the 19th"; at 30 days the correction went
and the message it put right, kept for its day, gave the 19th again. An engineer: "standup
is at 10:15 every day" was kept a year (it comes again), "standup moved to 9:45" went at
30 days. What changes a memory is kept as long as that memory is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from memory.asked_first import asked_first, hedged
from memory.corrections import corrections_made
from memory.entry import MemoryCategory, MemoryEntry
from memory.event_days import MOVED_OR_CALLED_OFF, cancels_it, moves_it
from memory.health_values import (
    medicines_and_allergens,
    medicines_dosed,
    names_a_dose,
    stops_a_medicine,
)
from memory.last_word import changes_its_value, says_a_change
from memory.lazy_patterns import lazy_compile
from memory.long_texts import LONG
from memory.questions import only_asks
from memory.text import analyze

_CONVERSATION = MemoryCategory.CONVERSATION.value
CHANGES_LOOKED_AT = 2_000
"""The newest messages to go looked at, each against what stays that shares its words."""


@dataclass(frozen=True)
class InOrder:
    """Entries in the order said, and each correction naming nothing with what it corrects.

    Read once a retention run, for each rule below.
    """

    entries: list[MemoryEntry]
    corrections: list[tuple[MemoryEntry, MemoryEntry]]
    """(what was said just before, the correction), as `memory.corrections` reads them."""

    @property
    def corrected(self) -> dict[str, MemoryEntry]:
        """Each correction's id → what it corrects."""
        return {after.id: before for before, after in self.corrections}


def in_order(entries: Sequence[MemoryEntry]) -> InOrder:
    """`entries` in the order said (equal times by id), with their corrections."""
    ordered = sorted(entries, key=lambda entry: (entry.timestamp, entry.id))
    return InOrder(ordered, corrections_made(ordered))


def changes_of_what_stays(said: InOrder, doomed: Collection[str]) -> frozenset[str]:
    """The ids in `doomed` of messages changing an entry said that is not doomed.

    `said`: every entry that may be changed or change one (what stays among them, facts in
    effect included).
    """
    if not doomed:
        return frozenset()  # most runs: nothing is old enough, and nothing need be read
    ordered = said.entries
    staying = {e.id for e in ordered if e.id not in doomed and e.superseded_by is None}
    corrected = said.corrected
    changes = [
        entry
        for entry in ordered
        if entry.id in doomed
        and entry.category == _CONVERSATION
        and (entry.id in corrected or _may_change(entry.content))
    ][-CHANGES_LOOKED_AT:]
    if not changes:
        return frozenset()
    subjects = _Subjects([e for e in ordered if e.id in staying])
    kept: set[str] = set()
    # In the order written: a change of a change ("moved to the 19th", then "no wait, the
    # 14th") is read once the one it changes is kept.
    for later in changes:
        before = corrected.get(later.id)
        if before is not None and {before.id, before.superseded_by} & (staying | kept):
            kept.add(later.id)
        elif any(_changes(later, earlier) for earlier in subjects.sharing(later)):
            kept.add(later.id)
        else:
            continue
        subjects.add(later)
    return frozenset(kept)


@lru_cache(maxsize=8192)
def _may_change(text: str) -> bool:
    """Whether `text` has a word some change is said in (most messages have none)."""
    if len(text) >= LONG:
        return False
    return (
        MOVED_OR_CALLED_OFF.search(text) is not None
        or says_a_change(text)
        or (_INSTEAD.search(text) is not None)
    )


_INSTEAD = lazy_compile(r"(?i)\b(?:instead|no\s+longer|any\s*more|not\s+the)\b")


class _Subjects:
    """Entries by the words they hold: a change names two words of what it changes."""

    def __init__(self, entries: Sequence[MemoryEntry]) -> None:
        self._by_word: dict[str, list[MemoryEntry]] = {}
        for entry in entries:
            self.add(entry)

    def add(self, entry: MemoryEntry) -> None:
        for word in _words(entry.content):
            self._by_word.setdefault(word, []).append(entry)

    def sharing(self, later: MemoryEntry) -> list[MemoryEntry]:
        """The entries written before `later` sharing most of its words, newest first."""
        counts: Counter[str] = Counter()
        found: dict[str, MemoryEntry] = {}
        for word in _words(later.content):
            for entry in self._by_word.get(word, ())[-_SAME_WORD_READ:]:
                if entry.timestamp < later.timestamp and entry.id != later.id:
                    counts[entry.id] += 1
                    found[entry.id] = entry
        best = sorted(counts, key=lambda i: (counts[i], found[i].timestamp), reverse=True)
        return [found[entry_id] for entry_id in best[:_READ_AGAINST]]


_SAME_WORD_READ = 100
"""The newest entries holding a word looked at for each change (a word said every day)."""
_READ_AGAINST = 8
"""The entries each change is read against: those sharing the most of its words."""


def _words(text: str) -> frozenset[str]:
    return frozenset(analyze(text[:LONG]))


def _changes(later: MemoryEntry, earlier: MemoryEntry) -> bool:
    if changes_its_value(earlier, later):
        return True
    if MOVED_OR_CALLED_OFF.search(later.content) is None:
        return False
    return moves_it(later.content, earlier.content) or cancels_it(later.content, earlier.content)


def last_words_on_medicines(said: InOrder, doomed: Collection[str]) -> frozenset[str]:
    """The ids in `doomed` of the newest message on each medicine, when nothing newer stays.

    Found by a new user, a retired farmer: "DOCTOR SAYS TAKE THE METOPROLOL 25MG TWICE A
    DAY NOW", said in chat and made no fact, went at 30 days; "what pills do i take" then
    knew only his warfarin. A dose or a stop said in a message is kept while it is the last
    word on that medicine: a later one, or a fact naming it, takes its place.
    """
    if not doomed:
        return frozenset()
    corrected = said.corrected
    newest: dict[str, MemoryEntry] = {}
    for entry in said.entries:
        if entry.superseded_by is not None or len(entry.content) >= LONG:
            continue
        if entry.id in doomed and entry.category != _CONVERSATION:
            continue
        if only_asks(entry.content) or asked_first(entry.content) or hedged(entry.content):
            # A question says no dose: "should mom take Concor 5mg?" took the place of "Mom
            # takes Concor 10mg", which went at 30 days, and was itself kept for good (an
            # adversary).
            continue
        medicines = _medicines_of(entry, corrected)
        for medicine in medicines:
            newest[medicine] = entry
    # A correction naming no medicine is read with what it corrects, back to the message
    # naming the medicine: all are kept.
    words = []
    for entry in newest.values():
        for earlier in _back_along(entry, corrected):
            words.append(earlier)
            if medicines_and_allergens(earlier.content):
                break
    return frozenset(entry.id for entry in words if entry.id in doomed)


def _back_along(entry: MemoryEntry, corrected: dict[str, MemoryEntry]) -> Iterator[MemoryEntry]:
    """`entry`, what it corrects, what that corrects …, `_CHAIN_READ` of them at most."""
    said: MemoryEntry | None = entry
    for _ in range(_CHAIN_READ):
        if said is None:
            return
        yield said
        said = corrected.get(said.id)


def _medicines_of(entry: MemoryEntry, corrected: dict[str, MemoryEntry]) -> frozenset[str]:
    """The medicines `entry` gives a dose or a stop of, or those of what it corrects.

    A fact only naming one is no word on it: "I keep the metoprolol in the kitchen drawer"
    took the dose's place (an adversary). A correction naming none is read with what it
    corrects, along a chain of them: "actually it's 100mg, not 50" after "I take sertraline
    50mg" (an adversary saw it go at 30 days, and the 50mg stay); "sorry typo, 20mg", "oops
    I meant 10mg after all", "no wait, 20mg. final answer" (a later one).
    """
    for said in _back_along(entry, corrected):
        if names_a_dose(said.content) or stops_a_medicine(said.content):
            named = medicines_and_allergens(said.content) | medicines_dosed(said.content)
            if named:
                return named
    return frozenset()


_CHAIN_READ = 10
"""Corrections of corrections followed back for the medicine they are of."""


def corrections_of_what_stays(said: InOrder, doomed: Collection[str]) -> frozenset[str]:
    """The ids in `doomed` of corrections of a message that stays, and of what they correct.

    Whatever kept the message (its day, a number in it, being the newest dose), its
    correction is the last word on it: "Zahnarzt am 14. Mai", then "ach nein, es ist der
    21., nicht der 14." (an adversary saw the correction go at 30 days, and the 14th given
    again). A correction of a correction is kept while the one it corrects is, read in the
    order said; and a message while a correction of it stays, for its own day or the like.
    """
    if not doomed:
        return frozenset()
    gone = set(doomed)
    for before, after in said.corrections:
        if after.id in gone and before.id not in gone and before.superseded_by is None:
            gone.discard(after.id)
    # And what a correction kept for its own day puts right, read newest first: alone,
    # "sorry, I meant 30/4" says nothing of the parking permit it moved (an adversary saw
    # "when is the parking permit renewal due?" find nothing once the first message went).
    for before, after in reversed(said.corrections):
        if before.id in gone and after.id not in gone and before.superseded_by is None:
            gone.discard(before.id)
    return frozenset(set(doomed) - gone)
