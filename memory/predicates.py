"""Predicates that hold one value at a time, and every way they are worded.

Shared by the write rules (`memory.fact_values`: "I moved to Lisbon" replaces "I live in
Porto") and the index (`memory.text.entry_terms`: a fact worded one way is found by a
question worded the other, "where do I live?" finding "I moved to Lisbon").
"""

from __future__ import annotations

import re

# Plans ("moving to") are left out: the fact they would replace is still true.
ONE_VALUE = (
    (
        "home",
        re.compile(
            r"(?i)\b(?:lives?|lived|living|resides?|resided|residing|moved|relocated|based)"
            r"\s+(?:in|to)\b"
        ),
        "live move reside relocated based",
    ),
    (
        "employer",
        re.compile(r"(?i)\b(?:(?:works?|worked|working)\s+(?:at|for)|employed\s+(?:at|by))\b"),
        "work employed",
    ),
)
"""(name, pattern, the words of all its wordings)."""


def wordings_of(text: str) -> str:
    """The words of every wording of the one-valued predicate `text` states ('' if none)."""
    for _, pattern, words in ONE_VALUE:
        if pattern.search(text):
            return words
    return ""
