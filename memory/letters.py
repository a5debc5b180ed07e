"""Letters as regex classes (capital and small Latin, Greek, Cyrillic; CJK), and digits.

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


DIGIT_ZEROS = (0x0660, 0x06F0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66)
"""The zero of each script's own digits: Arabic-Indic, Persian, Devanagari, Bengali,
Gurmukhi, Gujarati, Tamil, Telugu, Kannada, Malayalam. Folded to 0-9: "١٢٠٠ جنيه" was found
by no "1200" (a new user, a pharmacist in Cairo)."""
OTHER_DIGITS = {chr(first + n): str(n) for first in DIGIT_ZEROS for n in range(10)}
_AS_ASCII = str.maketrans(OTHER_DIGITS)


def in_ascii_digits(text: str) -> str:
    """`text` with every other script's digits (`DIGIT_ZEROS`) as 0-9, one for one."""
    return text if text.isascii() else text.translate(_AS_ASCII)
