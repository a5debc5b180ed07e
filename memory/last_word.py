"""Saved messages that are the last word on a fact in effect: kept past their retention.

Found by a new user, a carer: "Dr Kelly doubled my atorvastatin, I'm on 40mg now",
"Siobhán's new mobile number is 087 999 1234" and "Nora's evening levodopa is now at 7
instead of 6" updated no fact (no rule read them as its new value), and at 30 days
retention deleted them: the old dose, number and time were all that was left, and were
given as current. A message said after a fact in effect, about the same thing (two words
of its subject or more) and in words of a change, stays while that fact does; once the
fact is replaced, retention takes it as any other.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache

from memory.asked_first import asked_first, hedged
from memory.attributes import alike
from memory.changes_to_come import a_change_to_come
from memory.entry import MemoryCategory, MemoryEntry
from memory.event_days import cancels_it, moves_an_appointment_of_none, moves_it
from memory.fact_subjects import change_terms
from memory.fact_values import new_value
from memory.health_values import health_values, in_digits, medicines_and_allergens
from memory.instead_of import not_them_any_more, takes_the_place_of
from memory.lazy_patterns import lazy_compile
from memory.long_texts import sentences_of
from memory.one_day_changes import one_day_of_change
from memory.other_ones import of_someone_else
from memory.questions import only_asks
from memory.short_words import written_out
from memory.stated_values import pays_off
from memory.text import analyze

_SAYS_A_CHANGE = lazy_compile(
    r"(?i)\b(?:now|new|changed?|instead|moved|no\s+longer|any\s*more|doubled|halved|"
    r"increased|decreased|raised|lowered|upped|reduced|(?:up|down)\s+to|stopped|took\s+me\s+off|"
    r"off\s+the|cancell?ed|called\s+off|postponed|rescheduled|switched|correction|mistake|"
    r"not\s+\S+\s+any\s*more|"
    # A dose put back or cut: "GP cut the ramipril back to 5mg", "has me back on the 5mg
    # ramipril" (a new user, a retired nurse: the 10mg stayed in effect, unmarked).
    r"back\s+(?:on|to|down\s+to)|cut|dropped|bumped|put\s+(?:me\s+)?(?:up|down|on|back)|"
    r"started\s+me\s+on|tapered|went\s+(?:up|down)|"
    # A value put right: "sorry i had Cian's birthday wrong, it's 3/8 not 2/8" left "…
    # Cian's is 2/8 …" unmarked (a new user, an allotment's secretary).
    r"wrong|\d\S*\s+not\s+\d|"
    # "Aoife's birthday is the 25th of March not the 23rd" (a new user, a retired nurse).
    r"\d\S*(?:\s+of)?\s+[a-z]+\s+not\s+(?:the\s+|on\s+the\s+)?\d+(?:st|nd|rd|th)?|"
    # "scratch that, IVA is due April 30 not April 20" (a new user, a contractor).
    r"[a-z]+\.?\s+\d+(?:st|nd|rd|th)?,?\s+not\s+(?:[a-z]+\.?\s+)?(?:the\s+)?\d+|scratch\s+that|"
    r"(?:it['\u2019]?s|is|are)\s+actually|"
    # "the Acme deadline is not the 23rd, it's the 25th" (an adversary).
    r"not\s+(?:on\s+)?the\s+\d+(?:st|nd|rd|th)[\s,;:-]+(?:it['\u2019]?s|it\s+is|but)|"
    # In German, Spanish, French, Italian, Portuguese: "Mein Stromabschlag ist jetzt 95
    # statt 80 Euro" marked nothing, and retention deleted it (an adversary).
    r"jetzt|statt|anstatt|neue[rsnm]?|ge(?:ä|ae)ndert|ahora|en\s+(?:vez|lugar)\s+de|nuev[oa]s?|"
    r"cambiad[oa]|maintenant|au\s+lieu\s+de|nouvel(?:le)?|nouveau|chang[ée]e?|adesso|"
    r"invece\s+di|nuov[oa]|cambiat[oa]|agora|em\s+vez\s+de|nov[oa]|mudou)\b"
)
_SUPPOSED = lazy_compile(
    r"(?i)(?:^|[,;.!?:]\s*)\W*(?:would|if|what\s+if|wenn|falls)\b|\bif\s+(?:i|we)\b|"
    r"\b(?:suppose|imagine|hypothetically|w(?:ü|ue)rde|w(?:ä|ae)re|ser[ií]a|sarebbe)\b|"
    # What may happen: "The hourly rate … shall be reviewed on 1 April 2027 and may be
    # increased by no more than 10%" (a new user's contract clause marked her rate changed).
    r"\b(?:may|might|could)\s+(?:well\s+|also\s+|possibly\s+)?(?:be\s+)?(?:chang|increas|"
    r"decreas|rais|reduc|lower|adjust|review|revis|go(?:ne)?\s+(?:up|down)|ris|mov)\w*"
)
"""A change supposed, not said: "would my parking permit be 40 instead of 25 if I had a
second car?" and "if my gym membership is now 45 instead of 30 I'm quitting" marked the fact
changed (adversaries). A clause that opens so, not an "if" anywhere: "my rent is now 950,
tell me if you need more" says a change."""
_SHARED_AT_LEAST = 2
_ENDED = lazy_compile(
    r"(?i)\b(?:not|no\s+longer|never|stopped|stop|quit|left|leaving|off|broke\s+up|split\s+up|"
    r"divorced|ended|over|paid|sent|transferred|settled|fine|cleared|cancell?ed|called\s+off|"
    r"done|finished|gone|moved|sold|retired|resigned|fired|closed)\b"
)
_DOSE_OF = "dose of "
_FEW_WORDS = 16
_COMMON = 100
"""Facts holding one word beyond which it tells none apart (`LastWords.keeps`)."""
_READ_AGAINST = 8
"""The facts sharing the most (and rarest) words a message is read against, as
`memory.changes_kept` reads a change: one ending a fact shares its words."""
CONVERSATION = MemoryCategory.CONVERSATION.value


def supposes(text: str) -> bool:
    """Whether `text` supposes a change rather than says one (`_SUPPOSED`)."""
    return _SUPPOSED.search(text) is not None


@lru_cache(maxsize=4096)
def says_a_change(text: str) -> bool:
    """In words of a change, and no question (read once per text, not once per fact).

    A change to come is one: "From 1 January my rent is 1500 euros" is the last word on
    the rent once January has come (an adversary saw retention delete it, and 1400 left).
    """
    if only_asks(text) or _SUPPOSED.search(text) or asked_first(text) or hedged(text):
        return False
    return _SAYS_A_CHANGE.search(text) is not None or a_change_to_come(text)


@lru_cache(maxsize=4096)
def _subject(text: str) -> frozenset[str]:
    """The words a text is about: not its numbers, nor the words of a change."""
    return (
        frozenset(term for term in analyze(text) if not any(c.isdigit() for c in term))
        - change_terms()
    )


@cache
def _months_and_going() -> frozenset[str]:
    # Analysed when first asked: `memchat memory stats` loads no stemmer.
    return frozenset(
        analyze(
            "january february march april may june july august september october november "
            "december goes going go went rises rising rose drops dropping falls falling starting"
        )
    )


def _about_it_all(later: str, fact: str) -> bool:
    """Whether every word `later` is about the fact says too, or a word alike, or when.

    "Acme rate goes up to 62 EUR/hour from 1 March 2027" is all about "my client Acme pays
    me 55 EUR/hour" ("rate" of "pays"): a new user saw the 55 given as current in March.
    """
    theirs = _subject(fact)
    rest = _subject(later) - theirs - _months_and_going()
    return all(alike(word) & theirs for word in rest)


class LastWords:
    """The facts in effect of one store, to tell which saved messages change one."""

    def __init__(self, facts: Iterable[MemoryEntry]) -> None:
        # By each word of their subjects: a message is compared with the facts sharing a
        # word with it, not with every fact (a run reads every expired message).
        self._by_word: dict[str, list[MemoryEntry]] = {}
        for fact in facts:
            # A pinned message too: kept for good, it is a fact in all but name, and the
            # message changing it was deleted at 30 days ("my gym locker is now number 22"
            # after a pinned "… number 14": a second adversary).
            if (fact.category != CONVERSATION or fact.pinned) and fact.superseded_by is None:
                for word in _subject(fact.content):
                    self._by_word.setdefault(word, []).append(fact)

    def keeps(self, message: MemoryEntry) -> bool:
        """Whether `message` is a saved message saying a fact in effect changed or ended."""
        if message.category != CONVERSATION or only_asks(message.content):
            return False
        shared: dict[str, int] = {}
        weight: dict[str, float] = {}
        facts: dict[str, MemoryEntry] = {}
        buckets = sorted(
            (found for word in _subject(message.content) if (found := self._by_word.get(word))),
            key=len,
        )
        # A word many facts hold tells none of them apart ("note", "meeting"); read through
        # it, every message was read against most facts, and hygiene took minutes at 2,000
        # memories (an adversary). It counts only when the message shares no rarer one.
        for bucket in [b for b in buckets if len(b) <= _COMMON] or buckets[:1]:
            for fact in bucket:
                if fact.namespace == message.namespace and fact.timestamp < message.timestamp:
                    shared[fact.id] = shared.get(fact.id, 0) + 1
                    weight[fact.id] = weight.get(fact.id, 0.0) + 1 / len(bucket)
                    facts[fact.id] = fact
        changed = says_a_change(message.content)
        # Read against each fact only when short: a run reads every expired message, and a
        # longer one that ends a fact shares more of its words.
        short = len(message.content.split()) <= _FEW_WORDS
        nearest = sorted(
            shared,
            key=lambda id_: (shared[id_], weight[id_], facts[id_].timestamp),  # the newest
            reverse=True,
        )
        return any(
            not of_someone_else(message.content, facts[id_].content)
            and (
                (changed and shared[id_] >= _SHARED_AT_LEAST)
                or (short and ends_or_replaces(message.content, facts[id_].content))
            )
            # A change for one day is kept for that day only (by the day it names): "farda
            # Reza pickup 8:00 not 7:30" was kept for years as the last word on the
            # weekday pickup (an adversary). Asked last: it reads the message's days.
            and one_day_of_change(facts[id_].content, message) is None
            for id_ in nearest[:_READ_AGAINST]
        )


def ends_or_replaces(message: str, fact: str) -> bool:
    """Whether `message` gives `fact` a new value, pays it, calls it off or stops its dose.

    Short, they share one word: "I stopped taking metformin", "paid Priya the 42", "Dentist
    cancelled", "Alex is my partner now" (an adversary saw each deleted at 30 days, and
    the fact it ended given as current again).
    """
    if supposes(message):
        return False
    if _ENDED.search(message):
        # In other words: "quit Siemens", "I left Siemens", "off metformin now", "turns out
        # not allergic to penicillin", "sent Priya the 42", "Sam and I broke up" (a second
        # adversary saw each deleted). Read only of a short message sharing a word with the
        # fact: keeping one a little longer costs nothing. The word first: the readings
        # below cost more.
        return True
    if new_value(message, fact) or pays_off(message, fact) or cancels_it(message, fact):
        return True
    stopped = {
        topic.removeprefix(_DOSE_OF)
        for topic, values in health_values(message).items()
        if topic.startswith(_DOSE_OF) and "stopped" in values
    }
    return bool(stopped & medicines_and_allergens(fact))


_A_NUMBER = lazy_compile(r"\d+(?:[/.:-]\d+)*")
"""A number as written: "3/8" is no number of "14/3, … 2/8" (a new user's correction of a
birthday was taken for the same digits)."""
_A_VALUE = lazy_compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|" + _A_NUMBER.pattern)
"""A number, or an address: "Tom's wife has a new email, mary@new.ie" left "Tom's wife's
email is mary@old.com" unmarked (a new user)."""
_A_YEAR_SAID = lazy_compile(r"(?i)\b(?:in|since|from|of|back\s+in|until|till)\s+(?:19|20)\d\d\b")
"""When a change was, not what it changed to: "the door code changed in 2023 but I still
know it" marked both flats' codes changed since (an adversary)."""


def _all_it_is_about(message: MemoryEntry, shared: frozenset[str]) -> bool:
    """A short message whose one subject word the fact holds: "Standup moved to 10:00".

    A new user saw "Standup is at 9:30 every day" recalled unmarked beside it (one word of
    its subject, and two were wanted).
    """
    said = message.content.split()
    return bool(shared) and shared == _about(message.content) and len(said) <= _FEW_SAID


_FEW_SAID = 6


def _about(text: str) -> frozenset[str]:
    """What a change is of: its subject less its words of a change ("moved")."""
    return _subject(_SAYS_A_CHANGE.sub(" ", text))


def said_anew(older: str, newer: str) -> bool:
    """Whether two short changes of one thing give it another value.

    "Standup moved to 10:00", then "Standup moved to 9:45": a new user saw both recalled
    unmarked, the older first.
    """
    if len(older.split()) > _FEW_SAID or len(newer.split()) > _FEW_SAID:
        return False
    if not (says_a_change(older) and says_a_change(newer)):
        return False
    about = _about(newer)
    if not about or about != _about(older):
        return False
    return bool(set(_A_VALUE.findall(newer)) - set(_A_VALUE.findall(older)))


def changes_its_value(fact: MemoryEntry, message: MemoryEntry, *, in_order: bool = True) -> bool:
    """Whether `message` (a saved message or a fact), said after `fact`, says its value changed.

    About the same thing (two words of its subject), in words of a change, with a number
    the fact does not hold (said after it, unless not `in_order`): "Nora's evening levodopa
    is now at 7 instead of 6" after "Nora takes levodopa … 6 in the evening" (a new user, a
    carer: recalled first, unmarked). A short message of several sentences is read whole
    and by each: "Standup moved to 10:00. The printer is fixed." was about the printer too,
    and changed nothing (an adversary).
    """
    if message.id == fact.id or (in_order and message.timestamp <= fact.timestamp):
        return False
    if (in_numbers := in_digits(message.content)) != message.content:
        # A dose in words: "doctor put amlodipine up to ten mg" (a new user, a taxi driver).
        message = message.model_copy(update={"content": in_numbers})
    if _QUOTED.search(message.content):
        # What someone else wrote, quoted: "don't answer the scam saying 'your email is now
        # ana@scam.example'" changed no email (an adversary saw it marked). A value alone in
        # quotes ("my new email is 'ana@new.example'") is the user's.
        unquoted = _QUOTED.sub(lambda q: " " if len(q[0].split()) >= 3 else q[0], message.content)
        message = message.model_copy(update={"content": unquoted})
    if _changes_its_value(fact, message):
        return True
    sentences = sentences_of(message.content)
    return 1 < len(sentences) <= _SENTENCES_READ_ALONE and any(
        _changes_its_value(fact, message.model_copy(update={"content": sentence}))
        for sentence in sentences
    )


_QUOTED = lazy_compile(
    r"(?:^|(?<=[\s:(]))(?:\"[^\"\n]{3,}\"|“[^”\n]{3,}”|'[^'\n]{3,}'|‘[^’\n]{3,}’|„[^“”\n]{3,}[“”]|"
    r"«[^»\n]{3,}»)(?=[\s.,;:!?)]|$)"
)
"""A passage in quotation marks: an apostrophe ("don't") opens none."""
_SENTENCES_READ_ALONE = 8
"""A longer message is a pasted text: read whole only (each sentence read alone, for each
fact, would take a page of them times the facts)."""


def _changes_its_value(fact: MemoryEntry, message: MemoryEntry) -> bool:
    if takes_the_place_of(message.content, fact.content) or not_them_any_more(
        message.content, fact.content
    ):
        return True  # "Aoife now does Saturdays instead of Ciarán" (`memory.instead_of`)
    if not says_a_change(message.content):
        return False
    if moves_an_appointment_of_none(message.content, fact.content) or moves_it(
        message.content, fact.content
    ):
        # A move of an event is `agent.events_moved`'s: "the dentist moved to Fri 21/1"
        # names not which of Friday 14/1's and 28/1's, and marked both (an adversary).
        return False
    said = _A_YEAR_SAID.sub(" ", message.content)
    numbers = set(_A_VALUE.findall(said)) - set(_A_VALUE.findall(fact.content))
    other_day = not numbers and _another_weekday(message.content, fact.content)
    shared = _subject(message.content) & _subject(fact.content)
    if not (numbers or other_day) or not (
        len(shared) >= _SHARED_AT_LEAST or _all_it_is_about(message, shared)
    ):
        return False
    if not other_day and not _said_together(said, fact.content, shared):
        return False
    if message.category != CONVERSATION and not _about_it_all(message.content, fact.content):
        # A later fact says what it is about whole: "Beach house wifi password is now
        # waves2025" marked "Beach house gutters need cleaning …" (a second adversary).
        return False
    # Another's news: "Tom's gym membership is now 45 instead of 30" marked "My gym
    # membership costs 30 a month" (an adversary).
    if of_someone_else(message.content, fact.content):
        return False
    # Others named: "gutted, Lauren & Priya have cancelled their wedding, refunded the £300
    # deposit today" marked "Mhairi & Tom wedding 28 Aug 2027 at Cromlix, deposit £450
    # paid" (a new user, a wedding photographer).
    named, theirs = _names(message.content), _names(fact.content)
    return not (named and theirs and named.isdisjoint(theirs))


_A_WEEKDAY = lazy_compile(
    r"(?i)\b(?:(first|second|third|fourth|last|1st|2nd|3rd|4th|other)\s+)?"
    r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b"
)


def _weekdays_of(text: str) -> set[str]:
    """The weekdays `text` names, each with its "first", "other" … ("second wednesday")."""
    return {
        f"{which or ''} {day}".strip().lower()
        for which, day in _A_WEEKDAY.findall(written_out(text))
    }


def _another_weekday(said: str, fact: str) -> bool:
    """Whether `said` names a weekday `fact`, which names one, does not.

    Found by a new user in Wales: "The council has changed the black bin to every other
    Wednesday from now on" left "The black bin goes out every other Tuesday" unmarked, and
    "Book club has moved to the second Wednesday of the month" "… the first Wednesday".
    """
    theirs = _weekdays_of(fact)
    return bool(theirs) and bool(_weekdays_of(said) - theirs)


_A_WHEN = lazy_compile(
    r"(?i)\b\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\b\d{1,2}:\d\d\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"(?:(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d\b)?"
    r"|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
    r"(?:[a-z]*\.?,?\s+(?:19|20)\d\d\b)?"
    r"|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"
)
"""A day or a time: what an appointment's change says, not a dose's or a price's."""


def _said_together(said: str, fact: str, shared: frozenset[str]) -> bool:
    """Whether one sentence of `said` holds the fact's word, a change and a new value.

    The value of the kind the fact holds: a day or a time changes no dose.

    Found by a new user, a parent: a pasted email ("… the ROM trip is now on Thursday
    December 10 … Arjun needs a peanut-free lunch, the school changed the rules") marked
    "Arjun has a peanut allergy" changed, and "Arjun's checkup with Dr. Sharma got
    rescheduled to December 18 at 4pm" marked his dose (a day and a time change no dose).
    """
    theirs = set(_A_VALUE.findall(fact))
    their_times = _when_values(fact)
    for sentence in sentences_of(said):
        new = set(_A_VALUE.findall(sentence)) - theirs
        if not new or not (_subject(sentence) & shared) or not says_a_change(sentence):
            continue
        times = _when_values(sentence)
        if new <= times and not their_times:
            continue  # only a day or a time, of a fact that holds none (a dose, an allergy)
        if not new & times and theirs and theirs <= their_times:
            continue  # no day nor time, of a fact that holds only those (a checkup)
        return True
    return False


def says_a_new_value(sentence: str, fact: str) -> bool:
    """Whether `sentence` says a change, with a value `fact` does not hold.

    What a note quotes of a long message: "we're happy to move your rate to 62 EUR/hour
    starting 1 March 2027", not "Invoices stay net 30" beside it, which shares more of the
    fact's words (a new user was pointed at the wrong sentence).
    """
    new = set(_A_VALUE.findall(sentence)) - set(_A_VALUE.findall(fact))
    return bool(new) and says_a_change(sentence)


def _when_values(text: str) -> set[str]:
    """The values of `text` that say a day or a time."""
    return {value for found in _A_WHEN.finditer(text) for value in _A_VALUE.findall(found[0])}


_A_NAME = lazy_compile(
    r"(?:(?<![.!?]\s)(?<!^)\b|(?=[A-Z][a-z\u00e0-\u00ff]+(?:['\u2019]s\b|\s+(?:(?:&|and)\s+)?[A-Z])))"
    r"[A-Z][a-z\u00e0-\u00ff]+(?:['\u2019]s)?\b"
)
"""A word in capitals not opening a sentence, or opening one as a name does ("Mhairi & Tom",
"Nora's", "Noreen Kelly")."""
_NO_NAMES = frozenset(
    "I Mr Mrs Ms Dr Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February "
    "March April May June July August September October November December Jan Feb Mar Apr Jun "
    "Jul Aug Sep Sept Oct Nov Dec Mon Tue Tues Wed Thu Thur Thurs Fri Sat Sun".split()
)


def _names(text: str) -> frozenset[str]:
    """The names a text gives, in capitals not opening a sentence: not a day nor a month."""
    found = {m.group().removesuffix("'s").removesuffix("\u2019s") for m in _A_NAME.finditer(text)}
    return frozenset(name.casefold() for name in found - _NO_NAMES)


def names_which(message: MemoryEntry, fact: MemoryEntry, others: Iterable[MemoryEntry]) -> bool:
    """Whether `message`, changing `fact`, names it and none of `others` it may mean as well.

    "I got Noreen's new number, 085 …" beside "Noreen Kelly's number is 087 …" and
    "Noreen Walsh's number is 086 …" marked both changed since (a new user): it says the
    same of each, and each holds a word it lacks (her surname).
    """
    said = _subject(message.content)
    lacking = _subject(fact.content) - said
    if not lacking:
        return True
    shared = _subject(fact.content) & said
    return not any(
        other.id != fact.id
        and other.category != CONVERSATION
        and _subject(other.content) & said == shared
        and _subject(other.content) - said not in (frozenset(), lacking)
        # Whenever the other was written: "Anna has a new email: …" was said of neither Anna
        # Silva nor Anna Costa, and once Anna Costa's fact was written anew after it, it
        # marked Anna Silva's (an adversary).
        and changes_its_value(other, message, in_order=False)
        for other in others
    )
