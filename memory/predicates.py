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
            r"(?i)\b(?:lives?|living|resides?|residing|moved|relocated|based)\s+(?:in|to)\b"
        ),
        "live move reside relocated based",
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
    "i we i'm we're i've we've the user user's have has am are is now currently just recently "
    "finally actually officially also".split()
)
"""The only words a statement about the user's own home or job may open with."""
SECOND_CLAUSE = re.compile(r"(?i)\b(?:and|but)\b|;")
"""A text saying two things: replacing it for one of them would lose the other."""
_NOT_PLAIN = re.compile(
    r"(?i)\b(?:if|would|could|might|should|will|'ll|'d|when|before|after|until|since|used to|"
    r"next|soon|maybe|perhaps|wish|hope|plan|want)\b|\?"
)
"""A condition, a time other than now, a wish or a question."""
_NOT_A_VALUE = re.compile(
    r"(?i)\s*(?:(?:a|an|the|my|your|his|her|our|their|night|nights|day|days|weekends?|home|"
    r"least|times|the moment)\b|\d)"
)
"""A value starting so describes or times the predicate ("a small flat", "at 8am")."""


def user_claim(text: str) -> tuple[str, str] | None:
    """(predicate, value) when `text` plainly says where the user lives or works now."""
    # The predicate first: most texts (every one indexed) state none, and fail there.
    for name, pattern, _ in ONE_VALUE:
        found = pattern.search(text)
        if found is None:
            continue
        if _NOT_PLAIN.search(text) or SECOND_CLAUSE.search(text):
            return None
        opening = words_of(text[: found.start()])
        value = text[found.end() :]
        if set(opening) <= _THE_USER_WORDS and not _NOT_A_VALUE.match(value) and value.strip():
            return name, value
        return None
    return None


def wordings_of(text: str) -> str:
    """The words of every wording of the user's one-valued predicate `text` states."""
    claim = user_claim(text)
    if claim is None:
        return ""
    return next(words for name, _, words in ONE_VALUE if name == claim[0])
