"""Letters as regex classes: capital and small Latin, Greek and Cyrillic ones, and CJK ones.

Python's `re` has no class for "a capital letter": `[A-Z]` leaves out "Ł", "Ó", "Ü" and
"Ẹ". A name opening with one read as no name ("Łukasz takes 10mg of lisinopril" was merged
into "I take 10mg of lisinopril", the user's own dose, by an adversary). `CJK_LETTER` is one
letter of Japanese, Chinese or Korean.
"""

from __future__ import annotations

from memory.lazy_patterns import lazy_compile

_LAST = 0x2000
"""Up to the general punctuation block: every Latin, Greek and Cyrillic letter is below."""

UPPER = "[" + "".join(c for c in map(chr, range(0x41, _LAST)) if c.isupper()) + "]"
LOWER = "[" + "".join(c for c in map(chr, range(0x61, _LAST)) if c.islower()) + "]"

CJK_LETTER = lazy_compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
"""A kana, a Han character or a Hangul syllable: a text holding none is passed over by every
rule for the scripts written without spaces."""
