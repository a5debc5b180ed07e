"""A roster is found by "shift", and shifts by "roster" and "rota".

Found by a new user, a nurse: "when's my next night shift" recalled her first message
("rotating shifts days nights …") at 1.00 and kept out the rosters that answer it ("Roster
next week: tue 15/12 night …"): they hold "night" but not "shift".
"""

from __future__ import annotations

from memory.lazy_patterns import lazy_compile

SHIFT_WORDINGS = "shift roster rota"
_SHIFTS = lazy_compile(r"(?i)\b(?:roster(?:ed|s)?|rotas?|shifts?)\b")


def names_shifts(text: str) -> bool:
    """Whether `text` names a roster, a rota or a shift."""
    return _SHIFTS.search(text) is not None


def shift_wordings(text: str) -> str:
    """`SHIFT_WORDINGS` for a text naming a roster or a shift, else nothing."""
    return SHIFT_WORDINGS if names_shifts(text) else ""
