"""What the user eats: vegetarian, vegan, pescatarian, or meat again.

Found by a new user demoing memchat: "I eat fish now", and even "/remember I eat fish now,
I'm pescatarian (no longer strictly vegetarian)", left "I'm vegetarian" in effect and
unmarked, and both were shown to the model; "am I vegetarian?" did not find the change. A
diet is one value of the user's: a new one replaces the old, and each is found by the words
of every diet (`DIET_WORDINGS`).
"""

from __future__ import annotations

from functools import lru_cache

from memory.lazy_patterns import lazy_compile

_I = (
    r"(?:i['\u2019]?m|i\s+am|i['\u2019]ve\s+(?:gone|become)|i\s+(?:went|became|have\s+gone)"
    r"|(?:the\s+)?user\s+is)"
)
_NOW = r"(?:\s+(?:now|again|these\s+days|from\s+now\s+on|anymore|any\s+more))?"
_DIET = r"(?P<diet>vegetarian|veggie|vegan|pescatarian|pescetarian|flexitarian)"
_IS_A_DIET = lazy_compile(
    rf"(?i)\b{_I}\s+(?:now\s+)?(?:(?P<no>no\s+longer|not|not\s+a)\s+(?:(?:strictly|fully|a)\s+)?)?"
    rf"(?:an?\s+|strictly\s+|fully\s+)?{_DIET}\b(?!\s+(?:food|restaurant|place|recipe|option|dish|"
    r"menu|cook|friend|friends|partner|guest|guests)s?\b)"
)
""""I'm vegetarian", "I am a vegan", "I've gone vegan", "I'm no longer vegetarian"; not
"I'm a vegetarian cook", a guest's ("my partner is vegan") or a question ("am I …?")."""
_EATS = lazy_compile(
    rf"(?i)\b(?:i|(?:the\s+)?user)\s+(?:now\s+)?(?:(?P<no>don['\u2019]?t|do\s+not|no\s+longer)\s+)?"
    rf"(?:eat|eats)\s+(?P<what>fish|seafood|meat|chicken|dairy|eggs|animal\s+products){_NOW}\b"
    r"(?!\s+(?:today|tonight|yesterday|for\s+(?:dinner|lunch|breakfast)))"
)
""""I eat fish now", "I don't eat meat", "I eat meat again"; not a meal ("I eat fish for
dinner")."""


_ELSEWHERE = lazy_compile(
    r"(?i)\b(?P<no>ya\s+no\s+soy|no\s+soy|ich\s+bin\s+(?:kein(?:e)?|nicht\s+mehr)|"
    r"je\s+ne\s+suis\s+plus|non\s+sono\s+pi[uù]|j[aá]\s+n[aã]o\s+sou)?"
    r"(?(no)|(?:soy|ich\s+bin(?:\s+jetzt)?|je\s+suis|sono|sou))\s+(?:un[ae]?\s+)?"
    r"(?P<diet>vegetarian[oa]|vegan[oa]|vegetarier(?:in)?|veganer(?:in)?|v[ée]g[ée]tarien(?:ne)?|"
    r"v[ée]gan(?:e)?|pescetarian[oa])\b"
)
"""A diet in Spanish, German, French, Italian or Portuguese: "Ya no soy vegana, ahora como
de todo" (a second adversary: it changed nothing)."""


def _in_english(diet: str) -> str:
    """A diet's one English name, whichever way or language it was said in."""
    folded = diet.casefold()
    if folded.startswith(("vegetar", "végétar")) or folded == "veggie":
        return "vegetarian"
    if folded.startswith("pesc"):
        return "pescatarian"
    return "flexitarian" if folded == "flexitarian" else "vegan"


@lru_cache(maxsize=1024)
def diet_of(text: str) -> frozenset[str]:
    """What `text` says the user eats, as diets ("vegetarian", "not vegetarian" …)."""
    folded = text.casefold()
    if not any(hint in folded for hint in ("veg", "vég", "pesc", "eat")):
        return frozenset()
    said: set[str] = set()
    for found in (*_IS_A_DIET.finditer(text), *_ELSEWHERE.finditer(text)):
        diet = _in_english(found["diet"])
        said.add(f"not {diet}" if found["no"] else diet)
    for found in _EATS.finditer(text):
        what = found["what"].casefold()
        if found["no"]:
            said.add("vegan" if what in ("dairy", "eggs", "animal products") else "vegetarian")
        elif what in ("fish", "seafood"):
            said.add("pescatarian")
        elif what in ("meat", "chicken"):
            said.add("not vegetarian")
    return frozenset(said)


def diet_changed(new: str, old: str) -> bool:
    """Whether `new` says the user eats otherwise than `old` says."""
    ours, theirs = diet_of(new), diet_of(old)
    return bool(ours) and bool(theirs) and ours != theirs and not ours <= theirs


DIET_WORDINGS = "diet vegetarian vegan pescatarian meat fish eat"
"""What a question about the user's diet asks with: "am I vegetarian?" finds "I eat fish
now", and "I eat fish now" finds the "I'm vegetarian" it changes."""


def diet_wordings(text: str) -> str:
    """`DIET_WORDINGS` if `text` says what the user eats, else ""."""
    return DIET_WORDINGS if diet_of(text) else ""
