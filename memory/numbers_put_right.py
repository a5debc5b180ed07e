"""Whether a later text puts right a number an earlier one gave: "…7 150 zł, not 7 900".

Found by a new user, a baker in Kraków: "Kowalczyk agreed: rent from 1 February will be 7 150
zł netto, not 7 900" left "rent is going up to 7 900 zł netto from 1 lutego" recalled first,
unmarked, for "what's the rent going to be?" three months on. Neither is a price the other
rules read (a change to come, a lead-in), but the later one names the old number as not so.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.function_words import STOP_WORDS
from memory.lazy_patterns import lazy_compile
from memory.text import analyze

_AMOUNT = r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)*"
"""A number as people write amounts: "7 900", "7,900", "2,85", "1.150"."""
_NOT_THAT_NUMBER = lazy_compile(
    rf"(?i)(?<![\w.,])(?P<new>{_AMOUNT})(?![\w])[^.;!?\n\d]{{0,30}}?"
    rf"(?:[,;:\u2013\u2014-]\s*|\s+)(?:and\s+|but\s+)?not\s+(?:the\s+)?(?P<old>{_AMOUNT})"
    r"(?![\w.,]?\d)(?!\s*(?:%|percent|per\s+cent))"
    rf"|(?<![\w.,])(?P<instead>{_AMOUNT})(?![\w])[^.;!?\n\d]{{0,30}}?\s+instead\s+of\s+"
    rf"(?:the\s+)?(?P<replaced>{_AMOUNT})(?![\w.,]?\d)"
)
"""'7 150 zł netto, not 7 900'; '3,05 instead of 2,85'."""
_NUMBER = lazy_compile(rf"(?<![\w.,]){_AMOUNT}(?![\w])")


def _digits(amount: str) -> str:
    return re.sub(r"\D", "", amount)


@lru_cache(maxsize=2048)
def _put_right(text: str) -> tuple[tuple[str, str], ...]:
    """(new, old) digits of each number `text` says is not so."""
    pairs = []
    for found in _NOT_THAT_NUMBER.finditer(text):
        new = _digits(found["new"] or found["instead"])
        old = _digits(found["old"] or found["replaced"])
        if new != old:
            pairs.append((new, old))
    return tuple(pairs)


def _words(text: str) -> set[str]:
    return {term for term in analyze(text) if term.isalpha() and term not in STOP_WORDS}


def puts_its_number_right(new: str, old: str) -> bool:
    """Whether `new` says a number `old` gives is not so, another in its place.

    The old number must be in `old` and the new one not, and both must share a word beyond
    the numbers ("rent"): "3 eggs, not 4" says nothing of "the 4 of us".
    """
    pairs = _put_right(new)
    if not pairs:
        return False
    numbers = {_digits(found) for found in _NUMBER.findall(old)}
    if not any(was in numbers and now not in numbers for now, was in pairs):
        return False
    return bool(_words(new) & _words(old))
