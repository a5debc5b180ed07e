"""A clause that asks from its first word, its question mark typed or not.

`memory.questions.only_asks` tells a message that is one question from one that also says
something, and keeps the follow-up rule honest; this is narrower and stricter: whether a
clause read for a fact's new value asks rather than tells. "should mom take Concor 5mg?",
"can mom take Concor 5mg with food?" and "does mom take Concor 5mg now" each replaced "mom
takes Concor 10mg every morning" as the dose in effect (an adversary).
"""

from __future__ import annotations

from memory.lazy_patterns import lazy_compile

_INVERTED = lazy_compile(
    r"(?i)^\W*(?:and\s+|so\s+|but\s+|ok(?:ay)?\s*,?\s+|hey\s*,?\s+)?"
    # Not "had": "Had the GP raise my dose to 20mg" tells.
    r"(?:should|shall|can|could|would|will|do|does|did|is|are|am|was|were|has|have|may|"
    r"might|must)(?:n['\u2019]?t)?\s+"
    # Not "you": "can you note that mum's Concor is 5mg now" asks the assistant to keep what
    # it tells.
    r"(?:i|we|he|she|they|it|there|this|that|these|those|my|our|his|her|their|the|"
    r"mum|mom|mam|mama|mother|dad|father|nan|nana|gran|granny|grandma|grandpa|maman|baba|"
    r"(?-i:[A-Z])\w+)(?![\w'\u2019])"
)
"""An auxiliary before its subject, as English asks a yes-or-no question."""
_TAG_ASKED = lazy_compile(
    r"(?i)[,;]?\s*(?:right|yeah|yes|correct|no|ok(?:ay)?|true|eh|innit|or\s+not|"
    r"(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)n['\u2019]?t\s+"
    r"(?:i|we|you|he|she|they|it)|or\s+(?:was|is|were|are|did|does)\s+(?:it|that|they)\b[^?]*|"
    r"or\s+\S+[^?]{0,20})\s*\?+[\s\W]*$"
)
"""A statement made a question by what follows it: "Mom takes Concor 5mg, right?", "…,
doesn't she?", "…, or was it 10?" (an adversary saw each replace the dose in effect)."""
_ASKED_BY_WORD = lazy_compile(r"(?i)^\W*(?:what|when|where|who|whom|whose|which|why|how)\b")
_CLAUSE_BREAK = lazy_compile(r"[,;:]\s+|(?<!\s)\s+[-\u2013\u2014]\s+")
"""A comma and the like, or a dash between words: read once along a run of spaces, not from
each of them."""
_HEDGED = lazy_compile(
    r"(?i)(?:^|[.!?]\s+)\W*(?:maybe|perhaps|possibly)\b|"
    # Not any "thinking about" or "considering": "considering my dose went up to 20mg, I
    # feel fine" tells.
    r"\b(?:(?:thinking|considering)\s+(?:of\s+|about\s+)?(?:switching|changing|taking|"
    r"moving|going|asking|upping|lowering|cutting|stopping)|wondering\s+(?:if|whether)|"
    r"not\s+sure\s+(?:if|whether)|should\s+(?:i|we)\s+ask)\b|"
    r"\bthinking\s+(?:mum|mom|mam|mama|dad|she|he|we|i)\s+should\b|"
    # Unsure, last: "mom takes Concor 5mg I think"; hoped: "hopefully mom can go down to
    # Concor 5mg soon" (an adversary saw the first replace the dose, the second mark it).
    r"\b(?:i\s+think|i\s+guess|i\s+believe|if\s+i\s+remember\s+(?:right|correctly)|"
    r"not\s+sure)\s*[.!?]*\s*$|(?:^|[.!?]\s+)\W*hopefully\b|"
    r"\bi\s+(?:think|guess|wonder\s+if)\s+(?:mum|mom|mam|mama|dad|she|he|we|i)\s+should\b"
)
"""A change mused on, not said: "maybe mom should take Concor 5mg instead" marked the 10 mg
fact "since changed" (an adversary)."""


def asked_first(clause: str) -> bool:
    """Whether `clause` asks: it opens as a question, or it is one part ending in "?".

    "mom's Concor went up to 20mg, can you remind her tomorrow?" tells first and asks
    after: it is no question here.
    """
    # One space for each run: a pasted run of 60,000 spaces was read from each of them.
    clause = " ".join(clause.split())
    first = _CLAUSE_BREAK.split(clause, maxsplit=1)
    if _INVERTED.match(first[0]) or _ASKED_BY_WORD.match(first[0]):
        return True
    if _TAG_ASKED.search(clause):
        return True
    return len(first) == 1 and first[0].rstrip().endswith(("?", "\uff1f", "\u061f"))


def told_before_asking(clause: str) -> str:
    """`clause` up to where it goes on to ask ("…went up to 20mg, can you remind her?")."""
    for found in _CLAUSE_BREAK.finditer(clause):
        after = clause[found.end() :]
        if _INVERTED.match(after) or _A_REQUEST.match(after) or _ASKED_BY_WORD.match(after):
            return clause[: found.start()]
    return clause


_A_REQUEST = lazy_compile(r"(?i)\W*(?:can|could|would|will)\s+you\b|\W*please\b")


def hedged(text: str) -> bool:
    """Whether `text` muses on a change ("maybe …", "thinking of …") rather than says it."""
    return _HEDGED.search(" ".join(text.split())) is not None
