"""Capital and small letters of the Latin, Greek and Cyrillic scripts, as regex classes.

Python's `re` has no class for "a capital letter": `[A-Z]` leaves out "Ł", "Ó", "Ü" and
"Ẹ". A name opening with one read as no name ("Łukasz takes 10mg of lisinopril" was merged
into "I take 10mg of lisinopril", the user's own dose, by an adversary).
"""

from __future__ import annotations

_LAST = 0x2000
"""Up to the general punctuation block: every Latin, Greek and Cyrillic letter is below."""

UPPER = "[" + "".join(c for c in map(chr, range(0x41, _LAST)) if c.isupper()) + "]"
LOWER = "[" + "".join(c for c in map(chr, range(0x61, _LAST)) if c.islower()) + "]"
