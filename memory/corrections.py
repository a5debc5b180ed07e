"""A message that puts the one before it right without naming what it was about.

Found by a new user, a contractor: "Nube Verde wants a call wednesday at 9:30 to scope
phase 2", then "actually no, scratch that, Carla said it's thursday at 9:30". The second
names nothing of the first ("scratch that" is the first), so no rule read it as a move, and
both days were shown to the model as if each held.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

from memory.entry import MemoryCategory, MemoryEntry
from memory.event_days import days_named
from memory.lazy_patterns import lazy_compile
from memory.old_values import a_day_said_not_to_be, holds_the_old_value, said_not_to_be
from memory.questions import asks_only

_CORRECTS_THE_LAST = lazy_compile(
    r"(?i)^\W*(?:(?:actually|no|nope|oh|wait|sorry|oops|hmm|ah)[\s,!.:-]+)*"
    r"(?:scratch\s+that|correction|my\s+bad|i\s+was\s+wrong|i\s+meant|i\s+got\s+that\s+wrong"
    r"|typo)"
    r"(?![\s,:-]*(?:about|re|regarding|on\s+the|for\s+the)\b)"
)
"""Put right, with nothing named: "actually no, scratch that, Carla said it's thursday";
not "scratch that about the dentist, …", which names what it corrects
(`memory.event_days.moves_it`)."""
_DAY = r"(?:(?:the\s+)?[0-9]{1,2}(?:st|nd|rd|th)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
_ONLY_THE_DAY = lazy_compile(
    # Also "sorry, 19th not 18th", "actually it's the 19th", "make that the 19th" (a third
    # adversary: each correction was deleted at 30 days, the fact it put right kept).
    r"(?i)^\W*(?:no|nope|wait|sorry|oops|actually|make\s+(?:that|it)|i\s+mean)"
    r"(?:[\s,!.:-]+(?:no|nope|wait|sorry|oops|actually))*[\s,!.:-]+"
    rf"(?:not\s+(?:on\s+)?{_DAY}[\s,;:.!-]+)?(?:it['\u2019]?s\s+|it\s+is\s+)?(?:actually\s+)?"
    rf"(?:on\s+)?{_DAY}"
)
"""Put right by the day alone: "no, not the 23rd, it's the 25th", "no wait, the 25th" (an
adversary: each left the day before it unmarked)."""
_THE_DAY_NOT_THE_OTHER = lazy_compile(
    r"(?i)^\W*(?:(?:it['\u2019]?s|it\s+is)\s+)?(?:actually\s+)?(?:on\s+)?(?:the\s+)?"
    r"[0-9]{1,2}(?:st|nd|rd|th)[\s,;-]+not\s+(?:on\s+)?(?:the\s+)?[0-9]{1,2}(?:st|nd|rd|th)\b"
)
"""The day and the one it is not, with no word before: "it's the 19th not the 18th" (an
adversary saw the 18th left as it was)."""
_SORRY_WORD = (
    r"actually|no|nope|wait|sorry|oops|oh|correction|nee|wacht|oeps|eigenlijk|ach|nein|doch"
    r"|eigentlich|entschuldigung|perd[oó]n|perdona|espera|en\s+realidad|ali[áa]s|desculpa"
    r"|n[ãa]o|na\s+verdade|pardon|non|oups|en\s+fait|nahi|nahin|arre|arey"
)
_A_VALUE_NAHI = lazy_compile(r"(?i)(?<![\w.,])[0-9][^\s,]*\s+(?:nahi|nahin|nai)\b")
"""Hinglish's "not" after the value: "nahi, 12 nahi, 14 hai" (an adversary)."""
_OPENS_SORRY = lazy_compile(rf"(?i)^\W*(?:{_SORRY_WORD})[\s,!.:-]")
"""A word of sorry first, then anywhere the value it is not: "no, el pastel es para el
domingo, no el sábado" (a new user, a baker), "nahi, 15th nahi, 18th hai" (a new user, a
student): neither was read as a correction."""
_THIS_NOT_THAT = lazy_compile(
    rf"(?i)^\W*(?:(?:{_SORRY_WORD})[\s,!.:-]+)+"
    r"(?:(?:it['\u2019]?s|it\s+is|that['\u2019]?s|het\s+is|es\s+ist|es|é|c['\u2019]est)\s+)?"
    r"(?:(?:actually|eigentlich|the|de|der|den|el|dia|le|o)\s+)?"
    r"[0-9][0-9.,:/]*(?:[a-z]{1,3}\.?)?(?:\s+[^\W\d_]+)?[\s,;]+"
    r"(?:(?:and|e|y|und|en|et)\s+)?(?:not|niet|nicht|no|n[ãa]o|pas)\s+"
    r"(?:(?:the|de|der|den|el|dia|le|o)\s+)?[0-9]"
)
"""Put right by a value and the one it is not, after a word of sorry: "actually it's 100mg,
not 50", "nee wacht, het is de 11e niet de 4e", "ach nein, es ist der 21., nicht der 14.",
"perdón, es el 22, no el 20", "aliás, é dia 12 e não dia 10" (an adversary: each went at 30
days, and the message it put right stayed)."""
_WAIT_IT_IS = lazy_compile(
    r"(?i)^\W*(?:(?:no|oh|ah|hmm)[\s,!.:-]+)*(?:wait|oops|sorry|actually|correction|i\s+mean)"
    r"[\s,!.:-]+(?:(?:no|wait|sorry|actually)[\s,!.:-]+)*(?:it['\u2019]?s|it\s+is)\s+"
    r"(?:actually\s+)?\S+(?:\s+\S+){1,6}[\s.!]*$"
)
"""Put right in a few words of what it is: "no wait, it's under the red pot" (a second
adversary: the fact it put right stayed, unmarked, and the correction went)."""
_ONLY_THE_VALUE = lazy_compile(
    rf"(?i)^\W*(?:(?:{_SORRY_WORD})[\s,!.:-]+)+"
    r"(?:(?:it['\u2019]?s|it\s+is|make\s+(?:that|it)|that['\u2019]?s)\s+)?(?:actually\s+)?"
    r"[0-9][0-9.,:/]*\s?(?:[a-z%]{1,5}\b)?"
    r"(?:[\s.!,]+(?:final\s+answer|after\s+all|sorry|lol|then|instead|definitely))?[\s.!]*$"
)
"""Put right by the value alone: "no wait, 20mg. final answer", "no wait, it's 24" (a second
adversary: each went at 30 days, and the dose or number it put right stayed)."""
_NOT_THIS_BUT_THAT = lazy_compile(
    r"(?i)^\W*(?:(?:sorry|abeg|ehn|ah|oh|wait)[\s,!.:-]+)*(?:e\s+)?no\s+be\s+"
    r"[^,;.!?\n]{1,30}?(?:\s+o)?[\s,;.!-]+(?:e\s+)?na\s+\S"
)
"""Nigerian Pidgin's "it is not this, it is that": "no be Tuesday o, na Thursday 14/1", "no
be April again, na May now" (a new user, in Lagos: the wrong day was kept, its correction
went at 30 days)."""
_A_DAY = lazy_compile(
    rf"(?i)\b{_DAY}"
    # A day of the month alone in Dutch, German, Spanish, Portuguese and French: "de 11e",
    # "der 21.", "el 22", "dia 12", "le 22".
    r"|\b[0-9]{1,2}e\b|\b(?:der|den|am)\s+[0-9]{1,2}\.(?![0-9])"
    r"|\b(?:el|dia|le)\s+[0-9]{1,2}\b(?![.,:/][0-9])"
)
_CONVERSATION = MemoryCategory.CONVERSATION.value


def corrects_the_last(text: str) -> bool:
    """Whether `text` opens by taking the message before it back to put it right."""
    if _OPENS_SORRY.match(text) and (a_day_said_not_to_be(text) or _A_VALUE_NAHI.search(text)):
        return True
    return any(
        rule.match(text) is not None
        for rule in (
            _CORRECTS_THE_LAST,
            _ONLY_THE_DAY,
            _THE_DAY_NOT_THE_OTHER,
            _THIS_NOT_THAT,
            _ONLY_THE_VALUE,
            _WAIT_IT_IS,
            _NOT_THIS_BUT_THAT,
        )
    )


def fits(corrected: str, correction: str) -> bool:
    """Whether `correction` may put `corrected` right: a value of the kind it holds.

    "/remember my car is a blue Golf" between a message and its correction "no wait, the
    25th" holds nothing it puts right (a second adversary); "no wait, it's 24" puts right
    "My gym locker is number 42" (a later one). A time a time, a date a date, a sum a
    number that is neither: "sorry I meant 5pm" put right "bought 2 bags of dog food", not
    the vet at 4pm before it, and "sorry, I meant 4/5" the weather "today, 24 degrees" (an
    adversary).
    """
    if _A_CLOCK.search(correction):
        return _A_CLOCK.search(corrected) is not None
    if _A_DATE_SAID.search(correction):
        return _A_DATE_SAID.search(corrected) is not None
    if names_a_day(correction):
        return names_a_day(corrected)
    if _A_DIGIT.search(correction):
        return _holds_a_number_like(corrected, correction)
    return True


def _holds_a_number_like(corrected: str, correction: str) -> bool:
    """Whether `corrected` holds a number as `correction` says its own.

    With its currency, with its unit, or of about as many digits:
    "sorry, I meant £300" put right "it's 2 degrees outside" said between it and the
    plumber's £250; "sorry, I meant 1500" "I have 2 kids and 3 cats" (a later adversary).
    """
    rest = _A_CLOCK.sub(" ", _A_DATE_SAID.sub(" ", corrected))
    if _MONEY.search(correction):
        return _MONEY.search(rest) is not None and _A_DIGIT.search(rest) is not None
    unit = _A_UNIT.search(correction)
    if unit is not None:
        return re.search(rf"(?i)\d\s?{re.escape(unit[1])}\b", rest) is not None
    said = [len(number) for number in _NUMBER.findall(correction)]
    held = [len(number) for number in _NUMBER.findall(rest)]
    return any(abs(one - other) <= 1 for one in said for other in held)


_MONEY = lazy_compile(
    r"(?i)[£€$₹₦¥]|\b(?:rs|inr|usd|eur|gbp|mxn|ngn|pesos?|dollars?|euros?|pounds?|rupees?|"
    r"naira|quid|bucks|zł|pln)\b"
)
_A_UNIT = lazy_compile(r"(?i)\d\s?(mg|mcg|ml|kg|g|km|mi|miles|cm|mm|m|%|degrees?|°c?|lbs?|h)\b")
_NUMBER = lazy_compile(r"\d+(?:[.,]\d+)*")


_A_CLOCK = lazy_compile(
    r"(?i)(?<![\w/.])[0-9]{1,2}(?::[0-9]{2})?\s*(?:am|pm|a\.m\.|p\.m\.)(?!\w)"
    r"|(?<![\w/.:])[0-9]{1,2}:[0-9]{2}(?![\w/:])|(?<![\w/.])[0-9]{1,2}h[0-9]{0,2}(?!\w)"
)
_A_DATE_SAID = lazy_compile(
    r"(?i)(?<![\w/.])[0-9]{1,2}[/.][0-9]{1,2}(?:[/.][0-9]{2,4})?(?![\w/])"
    r"|(?<![\w])[0-9]{1,2}(?:st|nd|rd|th|e|er)\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
)
"""A day said as a date or a weekday, not "today": a correction of a date puts right one."""
_A_DIGIT = lazy_compile(r"[0-9]")


def names_a_day(text: str) -> bool:
    """Whether `text` names a day, or a weekday or a day of the month said alone.

    "it's Thursday", "the 23rd": an adversary's "scratch that, it's Thursday" moved nothing.
    """
    return bool(days_named(text)) or _A_DAY.search(text) is not None


def the_ones_corrected(newest: list[MemoryEntry]) -> dict[str, str]:
    """Each correction's id → the id of the message said just before it, in its chat.

    A message made a fact (`superseded_by` the fact) is corrected in the fact: "remember
    the team meeting is on Tuesday at 10", then "no wait, Wednesday" (an adversary saw the
    message before the first one put right, and the fact left as it was). The correction
    is one still in effect.
    """
    return {after.id: before.superseded_by or before.id for before, after in _corrections(newest)}


def _corrections(entries: list[MemoryEntry]) -> Iterator[tuple[MemoryEntry, MemoryEntry]]:
    """(what was said just before, correction in effect) of each correction naming nothing.

    What was said before is the message before it in its chat, or a fact kept after that
    message: "/remember Jack's party is on the 18th", then "sorry, 19th not 18th" (an
    adversary saw the fact left as it was; a fact keeps no chat, so it is the one kept
    between the two).
    """
    by_chat: dict[str, list[MemoryEntry]] = {}
    facts: list[MemoryEntry] = []
    for entry in entries:
        if entry.category == _CONVERSATION and entry.session_id:
            by_chat.setdefault(entry.session_id, []).append(entry)
        elif entry.category != _CONVERSATION and entry.superseded_by is None:
            facts.append(entry)
    facts.sort(key=lambda entry: entry.timestamp)
    for said in by_chat.values():
        said.sort(key=lambda entry: entry.timestamp)
        for at, after in enumerate(said):
            if after.superseded_by is not None or not corrects_the_last(after.content):
                continue
            before = said[at - 1] if at else None
            since = before.timestamp if before else after.timestamp - _A_FACT_JUST_KEPT
            # Of a day, what it puts right: "/remember my car is a blue Golf" between holds
            # none (a second adversary saw the party's day left unmarked).
            kept = [
                fact
                for fact in facts
                if since < fact.timestamp < after.timestamp
                and fits(fact.content, after.content)
                and holds_the_old_value(fact.content, after.content)
            ]
            if kept and (before is None or before.superseded_by is None):
                yield kept[-1], after
            elif (holding := _holding(said[max(0, at - _LOOKED_BACK) : at], after)) is not None:
                yield holding, after


def _holding(earlier: list[MemoryEntry], correction: MemoryEntry) -> MemoryEntry | None:
    """What `correction` puts right of the messages said before it in its chat.

    The nearest it fits (`fits`: "sorry, I meant 30/4" a message naming a day, "also need to
    buy milk and bread" between them none: an adversary saw the shopping marked changed and
    the permit forgotten before its day), or, when it says the value it is not, the nearest
    holding that value ("Book club is on the 12th", "Gym induction on the 19th", "no wait
    its the 14th not the 12th": an adversary saw no book club put right).
    """
    if not earlier:
        return None
    told = correction.content
    if not said_not_to_be(told):
        # Not a question: "what's 3/4 of 20?" said between "Flight to Delhi on 28/5" and
        # "sorry, I meant 30/5" (a later adversary).
        return next(
            (
                said
                for said in reversed(earlier)
                if fits(said.content, told) and not asks_only(said.content)
            ),
            None,
        )
    return next(
        (said for said in reversed(earlier) if holds_the_old_value(said.content, told)), None
    )


_LOOKED_BACK = 5
"""Messages of its chat before a correction that may be what it puts right (`_holding`)."""
_A_FACT_JUST_KEPT = timedelta(hours=1)
"""How long before a chat's first saved message a fact kept in it may be (`_corrections`)."""


def corrections_made(entries: list[MemoryEntry]) -> list[tuple[MemoryEntry, MemoryEntry]]:
    """(what was said just before, the correction) of each correction naming nothing."""
    return list(_corrections(entries))


def corrections_of_facts(
    entries: list[MemoryEntry],
    corrections: list[tuple[MemoryEntry, MemoryEntry]] | None = None,
) -> frozenset[str]:
    """The ids of the corrections that put right a fact in effect, and of what they correct.

    "remember the concert is on 18.03 at 19:00" (made a fact), then "no wait, the 19th":
    the correction was deleted at 30 days and the fact, kept for good, was wrong again (an
    adversary). Kept while the fact is: a correction that fits it (`fits`), and the message made
    the fact before it (without which it would correct the message before that one).
    `corrections`: those of `entries`, when they were read already (`corrections_made`).
    """
    facts = {
        entry.id
        for entry in entries
        if entry.category != _CONVERSATION and entry.superseded_by is None
    }
    kept: set[str] = set()
    for before, after in _corrections(entries) if corrections is None else corrections:
        # One after another: the last word is kept too ("no wait, the 19th", then "no wait,
        # the 20th": a third adversary saw the 20th go and the 19th stay).
        if (before.superseded_by in facts or before.id in facts or before.id in kept) and fits(
            before.content, after.content
        ):
            kept |= {before.id, after.id}
    return frozenset(kept)
