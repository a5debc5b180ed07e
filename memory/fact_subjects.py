"""Whether two facts worded alike are about one thing: what the write rules ask first.

Sharing most words is not enough. "Bob's phone number is 555-9876" shares two of three
words with "Alice's phone number is 555-1234", as "the user prefers Python" does with
"the user prefers Rust"; the first pair are two facts, the second one fact changed. Two
lexical signs tell them apart, each found by an adversary when it was missing:

- the subject, the words before the fact's verb ("Alice's phone number", "the user");
  when both facts name one and the two differ, they are two facts;
- where the words they do not share stand: a fact changed has its new words where the
  value is, after the words both share ("prefers Rust/Python"); when both facts have
  words of their own before a shared word ("Alice's/Bob's flight LH1234 … departs"),
  they are about different things.

Both err towards keeping two facts: a fact wrongly kept beside another costs a duplicate
in recall, one wrongly replaced answers with the other's value and is forgotten with it.
"""

from __future__ import annotations

import re
from functools import cache

from memory.kin_words import kin_named, kin_said_in_english
from memory.lazy_patterns import lazy_compile
from memory.letters import LOWER, UPPER
from memory.owners import whose_fact
from memory.predicates import words_of
from memory.text import analyze

# What a fact says about its subject starts at its first verb (a copula or a verb facts are
# usually stated with) or a colon that is not part of a time ("9:30").
PREDICATE = lazy_compile(
    r"(?i)(?:(?<!\S)(?:is|are|was|were|am|isn't|aren't|wasn't|lives?|lived|works?|worked|"
    r"prefers?|preferred|likes?|liked|loves?|loved|hates?|hated|uses?|used|owns?|owned|has|"
    r"have|had|drives?|plays?|played|leaves?|starts?|started|opens?|closes?|costs?|goes|went|"
    r"moved|got|gets|joined|joins|bought|took|takes|weighs?|weighed|measures?|measured|"
    # Who owes or lends whom: "I owe Tom 50 euros" is not "Tom owes me 50 euros" (an
    # adversary saw the one replace the other).
    r"owes?|owed|lends?|lent|borrows?|borrowed|"
    # What someone pays or charges is their fact: "Huber Verlag deadline is 20.12" is not
    # "Huber Verlag pays 0,09 € per word" (a new user saw the one replace the other).
    r"pays?|paid|charges?|charged|earns?|earned|bills?|billed|"
    # A value said to have changed: "My partner Alex's phone number changed to …" had no
    # subject, so nothing told it from the boss Alex's (an adversary).
    r"changed|changes|switched|increased|decreased|rose|dropped|"
    # German, Spanish, French, Portuguese, Italian ("Die Telefonnummer von Alice ist 123"):
    # their function words are not index terms, so the subject is what tells such facts
    # apart. Words that are English too ("hat", "war", "a") are not here.
    r"ist|sind|wohnt|arbeitet|es|est[aá]|vive|trabaja|est|sont|habite|travaille|é|s[aã]o|"
    r"mora|trabalha|è|sono|abita|lavora)"
    r"(?!\S)|(?<!\d):|=)"
)
_WORD = lazy_compile(r"\w+")
_POLISH_COPULA = lazy_compile(r"(?i)(?<!\S)(?:to|jest|s[aą]|mieszka|pracuje)(?=\s+\S)")
_POLISH = lazy_compile(
    r"(?i)[ąćęłńśźż]|\b(?:karty|karta|kod|kodu|has[lł]o|numer|konta|konto|m[oó]j|moja|moje|"
    r"drzwi|domu|bramy|alarmu|telefonu|banku|jest)\b"
)


def _polish_copula(text: str) -> re.Match[str] | None:
    """Polish "to"/"jest" (is) where no other verb is: "PIN karty mBank to 5555".

    Found by an adversary: with no subject read, "PIN karty Revolut to 6666" replaced the
    mBank card's PIN (two words shared); "to" is read so only in Polish words.
    """
    return _POLISH_COPULA.search(text) if _POLISH.search(text) else None


WHOSE = frozenset({"my", "your", "his", "her", "its", "our", "their"})
"""Possessives say whose the subject is: "his phone number" is not "her phone number"."""
_CHANGE_WORDS = frozenset(
    "now new actually currently still also recently already anymore longer got finally "
    "renewed updated changed latest just".split()
)
"""Words that announce a change of value, not another subject ("my new phone number", "Got
my new study permit! It now expires …")."""
_NEGATIONS = frozenset("not no never nor none nobody nothing cannot".split())


@cache
def change_terms() -> frozenset[str]:
    """`_CHANGE_WORDS` as analysed terms ("anymore" is "anymor").

    Made on first use, so commands that store nothing do not load the stemmer.
    """
    return frozenset(term for word in _CHANGE_WORDS for term in analyze(word))


def subject_words(text: str) -> frozenset[str] | None:
    """The words of what a fact is about: those before its first verb, if it has one.

    "Alice's phone number" in "Alice's phone number is 555-1234", "the user" in "the user
    prefers Rust", "server 1 ip" in "Server 1 IP is 10.0.0.1": analysed terms, numbers and
    possessives kept, other stop words and words announcing a change left out, so "I
    live in Porto" has none and neither has "I now live in Lisbon". None when no verb is
    found.
    """
    found = PREDICATE.search(text) or _polish_copula(text)
    if found is None:
        return None
    before = kin_said_in_english(text[: found.start()])
    whose = {word for word in _WORD.findall(before.casefold()) if word in WHOSE}
    return frozenset({t for t in analyze(before) if t not in change_terms()} | whose)


def subject_terms_in_order(text: str) -> tuple[str, ...] | None:
    """`subject_words` in the order said, possessives left out: "gym locker code"."""
    found = PREDICATE.search(text) or _polish_copula(text)
    if found is None:
        return None
    before = kin_said_in_english(text[: found.start()])
    return tuple(t for t in analyze(before) if t not in change_terms())


_RELATIONS = (
    "partner wife husband spouse girlfriend boyfriend fiance fiancee friend mother mom mum "
    "father dad brother sister son daughter boss colleague coworker neighbour neighbor aunt "
    "uncle cousin niece nephew grandmother grandma grandfather grandpa roommate flatmate best "
    "manager teacher doctor dentist coach landlord client"
)


@cache
def _whose_words() -> frozenset[str]:
    """Words that say only whose a named subject is ("my partner Alex's birthday")."""
    return frozenset(analyze(_RELATIONS)) | WHOSE


def same_subject(new: str, old: str) -> bool:
    """Whether two facts' subjects agree: false only when both name one and they differ.

    A name said with whose it is agrees with the name alone: "Alex's birthday is March 16"
    is the birthday of "My partner Alex's birthday is on March 14" (a new user saw both
    stay in effect).
    """
    ours, theirs = subject_words(new), subject_words(old)
    if ours is None or theirs is None or ours == theirs:
        return True
    (fewer, fewer_text), (more, _) = sorted(((ours, new), (theirs, old)), key=lambda p: len(p[0]))
    return fewer < more and bool(_named_owners(fewer_text)) and more - fewer <= _whose_words()


def relation_terms() -> frozenset[str]:
    """The analysed words that say how someone is the user's ("partner", "son" …)."""
    return _whose_words() - WHOSE


_CAPITALISED = lazy_compile(rf"\b{UPPER}(?:{LOWER}|['\u2019-])+\b")


def names_in(text: str) -> frozenset[str]:
    """The analysed capitalised words of `text` that are not function words ("Sam")."""
    words = " ".join(_CAPITALISED.findall(text))
    return frozenset(analyze(words)) - relation_terms() - WHOSE


def only_a_person_shared(new: str, old: str) -> bool:
    """Whether the words two facts share only name someone ("my son Leo"), no attribute.

    Found by an adversary: "My son Leo is allergic to peanuts" replaced "My son Leo is 7",
    and "My sister Anna lives in Madrid" "My sister Anna is a nurse": two words shared
    made them one subject, though both words are the person the facts are about.
    """
    if _AN_AGE.search(new) and _AN_AGE.search(old):
        return False  # "My son Leo is 8 now" is his age said again (an adversary)
    ours, theirs = set(analyze(new)), set(analyze(old))
    shared = {term for term in ours & theirs if not term[:1].isdigit()}
    person = relation_terms() | _pet_terms() | (names_in(new) & names_in(old))
    return bool(shared) and shared <= person


_A_MEASURE = lazy_compile(
    r"(?i)\d+(?:[.,]\d+)?\s*(?:kg|kilos?|lbs?|pounds?|cm|metres?|meters?|ft|feet|inch(?:es)?|%)"
    r"(?!\w)"
)


def a_measure_beside_an_age(new: str, old: str) -> bool:
    """Whether one says an age and the other a measure.

    "My son Leo is 7 kg heavier than last year" was merged into "My son Leo is 7", and his
    age was gone (an adversary).
    """
    ages = (_AN_AGE.search(new) is not None, _AN_AGE.search(old) is not None)
    measures = (_A_MEASURE.search(new) is not None, _A_MEASURE.search(old) is not None)
    return (ages[1] and measures[0] and not ages[0]) or (ages[0] and measures[1] and not ages[1])


@cache
def _pet_terms() -> frozenset[str]:
    """A pet is who a fact is about, as a person is.

    "My dog Rex is 30 kg" replaced "My dog Rex is 4" (an adversary).
    """
    return frozenset(analyze("dog cat puppy kitten pet horse pony rabbit bunny hamster parrot"))


_AN_AGE = lazy_compile(
    r"(?i)\b(?:is|turned|turns)\s+(?:now\s+)?\d{1,3}(?:\s+(?:years?|yrs?)(?:\s+old)?)?"
    r"(?:\s+(?:now|today|already))?[\s.!]*$"
)


def family_or_a_name(new: str, old: str) -> bool:
    """Whether one names one of the family by a word the other, naming none, has as a name.

    Found by an adversary: "Mae's phone is 913 000 111" replaced "Mãe's phone is 912 345
    678" (mother's), the accent folded away; "Mom's phone" is hers.
    """
    for one, other in ((new, old), (old, new)):
        family = {term for word in kin_named(one) for term in analyze(word)}
        if family & set(analyze(other)) and not kin_named(other):
            return True
    return False


def related_apart(new: str, old: str) -> bool:
    """Whether both subjects say whose they are, and say it otherwise.

    Found by an adversary: "My boss Alex's birthday is July 9" replaced "My partner
    Alex's birthday is May 3" (one attribute, "Alex's birthday", read in both).
    """
    ours, theirs = subject_words(new), subject_words(old)
    if ours is None or theirs is None:
        return False
    relations = relation_terms()
    return (
        bool(ours & relations)
        and bool(theirs & relations)
        and ours & relations != (theirs & relations)
    )


def one_name_two_people(bare: str, one: str, other: str) -> bool:
    """Whether `bare` names someone `one` and `other` tell apart, and does not say whose.

    "Alex's birthday" when "my partner Alex" and "my boss Alex" are two people.
    """
    subject = subject_words(bare)
    if subject is None or subject & relation_terms() or not related_apart(one, other):
        return False
    named = _subject_names(bare)
    return bool(named & _subject_names(one) & _subject_names(other))


def _subject_names(text: str) -> frozenset[str]:
    found = PREDICATE.search(text)
    return names_in(text if found is None else text[: found.start()])


_NAMED_OWNER = lazy_compile(r"\b([A-Z][\w-]*)['\u2019]s\b")


def _named_owners(text: str) -> frozenset[str]:
    """The names whose subject a fact's subject is ("Alex" of "Alex's birthday is …")."""
    found = PREDICATE.search(text)
    before = text if found is None else text[: found.start()]
    return frozenset(t for name in _NAMED_OWNER.findall(before) for t in analyze(name))


def _own_words_first(terms: list[str], shared: set[str]) -> bool:
    """Whether a word not in `shared` comes before the last shared word."""
    last = max(at for at, term in enumerate(terms) if term in shared)
    return any(term not in shared and term not in change_terms() for term in terms[:last])


def renamed(new: str, old: str) -> bool:
    """Whether both facts have words of their own before a word they share.

    Numbers are left out: they are values ("rent is 900 / went up to 950 euros").
    """
    changing = change_terms()
    ours = [term for term in analyze(new) if not term[:1].isdigit() and term not in changing]
    theirs = [term for term in analyze(old) if not term[:1].isdigit() and term not in changing]
    shared = set(ours) & set(theirs)
    if not shared:
        return False
    return _own_words_first(ours, shared) and _own_words_first(theirs, shared)


# Predicates that hold many values at once: a second value adds to the first.
_ADDITIVE = lazy_compile(
    r"(?i)\b(allergic|intolerant|afraid|scared|likes?|liked|loves?|loved|enjoys?|hates?|"
    r"dislikes?|speaks?|plays?|collects?|owns?|has|have|visited|studied|knows?|uses?|using|"
    r"drinks?|eats?|reads?|watches?|listens?|wears?|follows?|practi[cs]es?|teaches?|cooks?|"
    r"grows?|keeps?)\b"
)
""""The user uses Linux" and "The user uses vim" are both true (found by an adversary: the
second replaced the first); "prefers" holds one value, so Rust → Python replaces."""


def adds_to(new: str, old: str) -> bool:
    """Whether both state a value of a predicate that holds many, and each names its own.

    Found by a new user: "Sam is allergic to latex" replaced "Sam is allergic to peanuts
    and shellfish" (same subject, a new value), so recall said Sam was allergic to latex
    alone. A denial of the same value still replaces ("… is not allergic to peanuts"), and
    a value list that takes in the other one is the same fact, grown.
    """
    ours, theirs = _ADDITIVE.search(new), _ADDITIVE.search(old)
    if ours is None or theirs is None or ours.group(1)[:4].lower() != theirs.group(1)[:4].lower():
        return False
    # A denial is about the values it names: "not allergic to peanuts (anymore)" replaces
    # the peanut allergy and leaves latex alone (found by an adversary).
    own = set(analyze(new[ours.end() :])) - change_terms()
    their = set(analyze(old[theirs.end() :])) - change_terms()
    return bool(own - their) and bool(their - own)


_LABELLED_NUMBER = lazy_compile(
    r"(?i)\b(number|no\.?|nr\.?|item|step|part|rule|tip|point|question|chapter|section|"
    r"lesson|exercise|episode|season|volume|vol\.?|page|room|floor|level|week|day|ticket|"
    r"issue|order|case|seat|gate|platform|track|table|server|host|node|phase|stage|round|"
    r"invoice|bill|receipt|po|contract|account|project|job|booking|reservation|policy|claim|"
    r"quote|offer|ref|reference|version|release|bug|task|flat|apartment|unit|lot|batch)"
    r"\s*#?\s*(\d(?:[\w./-]*\d)?)\b|#(\d+)\b"
)
"""A numbered thing: "room 4", "invoice 2026-114" (a number written in parts is one)."""


def _labelled_numbers(text: str) -> dict[str, str]:
    # Only in what the fact is about: in "My flight leaves from gate 12" the gate is its
    # value, and a new gate replaces it.
    verb = PREDICATE.search(text)
    labels: dict[str, str] = {}
    for found in _LABELLED_NUMBER.finditer(text, 0, verb.start() if verb else len(text)):
        label = (found.group(1) or "#").casefold().rstrip(".")
        labels.setdefault(label, found.group(2) or found.group(3))
    return labels


def numbered_alike(new: str, old: str) -> bool:
    """Whether both name one numbered thing by one number ("Ticket 5512", "Order #4471")."""
    ours, theirs = _labelled_numbers(new), _labelled_numbers(old)
    return any(theirs.get(label) == number for label, number in ours.items())


def numbered_apart(new: str, old: str) -> bool:
    """Whether the two name one kind of numbered thing by different numbers.

    "Fact number 1 about apples" and "Fact number 2 about apples" are two facts, as are
    "Room 4 has no heating" and "Room 5 …": such a number before the verb names what the
    fact is about, where "rent is 900" or "leaves from gate 12" gives a value (found by an
    adversary: the second replaced the first). So do "Invoice 2026-115 paid" and "Invoice
    2026-114 to Müller GmbH …" (a new user: the paid one replaced the other invoice).
    """
    ours, theirs = _labelled_numbers(new), _labelled_numbers(old)
    return any(label in theirs and theirs[label] != number for label, number in ours.items())


def of_the_user_and_of_another(new: str, old: str) -> bool:
    """Whether one fact is the user's own (or says no one's) and the other another's.

    Found by adversaries: "My daughter is allergic to penicillin" was merged into "I'm
    allergic to penicillin" as its near-duplicate, and "what am I allergic to?" found
    only the daughter's ("I'm" names no verb for `subject_words`); so were "My father
    takes 10mg of lisinopril" and "I take 10mg of lisinopril", then "Sam is allergic to
    cats" and "I'm allergic to cats", and "Dentist appointment tomorrow at 9am" was
    already remembered as "Sam has a dentist appointment tomorrow at 9am".
    """
    pair = {whose_fact(new), whose_fact(old)}
    return pair == {"user", "theirs"} or ("someone" in pair and bool(pair & {"user", None}))


_OWED = lazy_compile(r"(?i)\b(?:owes?|owed|lends?|lent)\s+([\w'\u2019-]+)")


def owed_apart(new: str, old: str) -> bool:
    """Whether the two are debts to different people: "Tom owes Lisa …" is not "… owes me".

    Found by an adversary: "Tom owes Lisa 30 euros" replaced "Tom owes me 80 euros".
    """
    ours, theirs = _OWED.search(new), _OWED.search(old)
    if ours is None or theirs is None:
        return False
    return ours.group(1).casefold() != theirs.group(1).casefold()


_PAYING = lazy_compile(
    r"(?i)\b(?:pays?|paid|charges?|charged|bills?|billed|earns?|earned)\b(?P<rest>[^.;!?]*)"
)
_AN_AMOUNT = lazy_compile(r"\d|[€$£¥]|\b(?:euros?|dollars?|pounds?|yen|francs?|cents?)\b", re.I)
_PAID_FOR = lazy_compile(r"(?i)\bfor\s+(?:the\s+|a\s+|an\s+|my\s+)?(?P<what>[\w'\u2019-]+)")


def paid_apart(new: str, old: str) -> bool:
    """Whether two payments are of different things: an amount and a manner, or two buys.

    Found by a second adversary: "Schmidt pays on time" replaced "Schmidt pays 80 euros an
    hour", and "Lisa pays 25 euros for parking" replaced "… 20 euros for the ticket".
    """
    ours, theirs = _PAYING.search(new), _PAYING.search(old)
    if ours is None or theirs is None:
        return False
    if bool(_AN_AMOUNT.search(ours["rest"])) != bool(_AN_AMOUNT.search(theirs["rest"])):
        return True
    our_how, their_how = _manner(ours["rest"]), _manner(theirs["rest"])
    if our_how and their_how and our_how != their_how:
        return True  # "pays by bank transfer" is not "pays late" (a third adversary)
    our_for, their_for = _PAID_FOR.search(ours["rest"]), _PAID_FOR.search(theirs["rest"])
    if our_for is None and their_for is None:
        return False
    if our_for is None or their_for is None:
        # A rate for some work beside the general one: "Müller pays 90 euros an hour for
        # weekend work" replaced "Müller pays 80 euros an hour" (a third adversary).
        return True
    return our_for["what"].casefold() != their_for["what"].casefold()


_BY_WAY = lazy_compile(r"(?i)^\s*(?:by|via|with|in|through|per)\s+(?!\d)")
_ON_TIME = lazy_compile(r"(?i)\b(?:late|on\s+time|early|promptly|slowly|eventually|within|after)\b")


def _manner(rest: str) -> str:
    """How a payment is said to be made: "way" (by transfer, in cash), "time" (late)."""
    if _BY_WAY.match(rest):
        return "way"
    return "time" if _ON_TIME.search(rest) else ""


def one_fact(new: str, old: str) -> bool:
    """Whether `new` may be the same fact as `old`, changed or repeated."""
    return (
        not of_the_user_and_of_another(new, old)
        and not owed_apart(new, old)
        and not paid_apart(new, old)
        and same_subject(new, old)
        and not renamed(new, old)
        and not adds_to(new, old)
        and not numbered_apart(new, old)
    )


WRITTEN_WITH_DOTS = lazy_compile(r"(?<![\w+-])[\w+-]+(?:[.@/][\w+-]+)+")
"""An e-mail, a web address or another value written with dots, an "@" or slashes, read as
one: "per@club.no" says no "no" (an adversary: a Norwegian e-mail read as a denial never
replaced the one before it). From a word's start: tried at each letter of a 50,000-letter
word, it took 30 s to store."""


def negated(text: str) -> bool:
    """Whether a text says "not" (or no, never, can't …)."""
    words = words_of(WRITTEN_WITH_DOTS.sub(" ", text))
    return any(word in _NEGATIONS or word.endswith("n't") for word in words)


_BEFORE = lazy_compile(
    r"(?i)\b(?:was|were|used\s+to|had|back\s+then|formerly|previously|once|as\s+an?\s+"
    r"(?:child|kid|boy|girl|teen|teenager|student))\b"
)
_NOW = lazy_compile(r"(?i)\b(?:is|are|am|now|currently|nowadays|these\s+days)\b")


def told_of_before(new: str, old: str) -> bool:
    """Whether `new` tells of the past where `old` tells of now: not its change.

    Found by an adversary: "My favourite colour was blue as a child" replaced "My
    favourite colour is green" (same subject, another value).
    """
    return bool(_BEFORE.search(new)) and not _NOW.search(new) and not _BEFORE.search(old)


def contradicts(new: str, old: str) -> bool:
    """Whether one of two texts denies what the other says (one negated, one not).

    Found by an adversary: "The user is allergic to peanuts" added nothing to "The user is
    not allergic to peanuts" by its words, so it was dropped as already remembered.
    """
    return negated(new) != negated(old)
