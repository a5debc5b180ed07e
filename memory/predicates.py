"""Predicates that hold one value at a time, and every way they are worded.

Shared by the write rules (`memory.fact_values`: "I moved to Lisbon" replaces "I live in
Porto") and the index (`memory.text.entry_terms`: "where do I live?" finds "I moved to
Lisbon"). Both only concern the user's own present home or employer, said plainly:
adversaries found other people ("Some of them live in …"), the past ("I lived in Paris as
a student"), plans and wishes ("If I lived in Madrid …", "I'll live in …"), times ("I work
at 8am") and things ("The printer moved to room 4") taken for one.
"""

from __future__ import annotations

import re

# Present forms only: "lived", "worked" tell of the past; "moving to" is a plan.
ONE_VALUE = (
    (
        "home",
        re.compile(
            r"(?i)\b(?:lives?|living|resides?|residing|moved|relocated|based|home\s+is(?:\s+now)?)"
            r"\s+(?:in|to)\b"
        ),
        "live move reside relocated based home",
    ),
    (
        "employer",
        re.compile(r"(?i)\b(?:(?:works?|working)\s+(?:at|for)|employed\s+(?:at|by))\b"),
        "work employed",
    ),
)
"""(name, pattern, the words of all its wordings)."""

_WORD = re.compile(r"[\w']+")


def words_of(text: str) -> list[str]:
    """Lower-case words with their apostrophes ("i'm", "can't"; ’ read as ')."""
    return _WORD.findall(text.casefold().replace("\u2019", "'"))


_THE_USER_WORDS = frozenset(
    "i we i'm we're i've we've the user user's my our have has am are is now currently just "
    "recently finally actually officially also started began".split()
)
"""The only words a statement about the user's own home or job may open with ("my" and
"our" only before "home is in": "my sister lives in …" opens with another word)."""
_WHEN_IT_HAPPENED = re.compile(
    r"(?i)^\s*(?:last\s+(?:week|month|year|spring|summer|autumn|fall|winter)|yesterday|"
    r"this\s+(?:week|month|year)|(?:a|one|two|three|four|five|six|a\s+few|several)\s+"
    r"(?:days?|weeks?|months?|years?)\s+ago|in\s+(?:january|february|march|april|may|june|"
    r"july|august|september|october|november|december|\d{4}))\s*,?\s+"
)
"""A time a move or a new job is dated by ("Last month I moved to Lisbon"): the statement
still says where the user lives or works now."""
SECOND_CLAUSE = re.compile(r"(?i)\b(?:and|but)\b|;")
"""A text saying two things: replacing it for one of them would lose the other."""
_NOT_PLAIN = re.compile(
    r"(?i)\b(?:if|would|could|might|should|will|'ll|'d|when|before|after|until|since|used to|"
    r"next|soon|maybe|perhaps|wish|hope|plan|want)\b|\?"
)
"""A condition, a time other than now, a wish or a question."""
_NOT_A_VALUE = re.compile(
    r"(?i)\s*(?:(?:a|an|the(?!\s+(?-i:[A-Z]))|my|your|his|her|our|their|night|nights|day|days|"
    r"weekends?|home|least|times|the moment)\b|\d)"
)
"""A value starting so describes or times the predicate ("a small flat", "at 8am"); "the"
before a name is a value ("the Netherlands")."""


_A_PLACE = re.compile(r"\s*(?:the\s+)?[A-Z]")
"""Where a home "is in": a place's name, not a state ("in good shape")."""
_NAME = re.compile(r"[A-Z][a-z][\w'-]*")
_NOT_A_NAME = frozenset(
    "i we you he she it they this that these those there here someone somebody everyone "
    "everybody nobody people some many most all both each one another who which".split()
)
"""Capitalised openers that are not one person's name ("They live in Berlin")."""
USER = "user"
"""The owner of a claim the user makes about themselves."""


def claim_of(text: str) -> tuple[str, str, str] | None:
    """(owner, predicate, value) when `text` plainly says where someone lives or works now.

    The owner is `USER` for the user's own claim ("I moved to Lisbon"), or the casefolded
    name of the one person a claim opens with ("Bob moved to Coimbra"). Other openers
    ("My sister lives in …", "They live in …") make no claim.
    """
    # The predicate first: most texts (every one indexed) state none, and fail there.
    for name, pattern, _ in ONE_VALUE:
        found = pattern.search(text)
        if found is None:
            continue
        if _NOT_PLAIN.search(text) or SECOND_CLAUSE.search(text):
            return None
        dated = _WHEN_IT_HAPPENED.match(text)
        before = text[dated.end() if dated else 0 : found.start()]
        opening = words_of(before)
        value = text[found.end() :]
        if _NOT_A_VALUE.match(value) or not value.strip():
            return None
        if "home" in found.group().casefold() and not _A_PLACE.match(value):
            return None  # "My home is in disarray", "… in escrow" (an adversary)
        if set(opening) <= _THE_USER_WORDS:
            return USER, name, value
        named = before.split()
        if (
            len(named) == 1
            and _NAME.fullmatch(named[0])
            and named[0].casefold() not in _NOT_A_NAME
            and named[0].casefold() != USER
        ):
            return named[0].casefold(), name, value
        return None
    return None


def user_claim(text: str) -> tuple[str, str] | None:
    """(predicate, value) when `text` plainly says where the user lives or works now."""
    claim = claim_of(text)
    return None if claim is None or claim[0] != USER else (claim[1], claim[2])


def wordings_of(text: str) -> str:
    """The words of every wording of the one-valued predicate `text` states of someone.

    "Bob moved to Coimbra" is found by "where does Bob live" as "I moved to Lisbon" is by
    "where do I live" (found by a new user).
    """
    claim = claim_of(text)
    if claim is None:
        return ""
    return next(words for name, _, words in ONE_VALUE if name == claim[1])
