"""A price is found by the words asking for it: "how much is flour now?", "price of flour".

Found by a new user, a baker: "flour from Odlums €38 a sack" was found by neither "price
of flour" nor "what does flour cost?" with the word "flour" alone (below the floor once
the fact said a little more). A text naming an amount of money is indexed with the words
a question about a price asks with (`MONEY_WORDINGS`), as a dose is with "meds"; what is
charged too ("how much do I charge Bluefin?" missed "Bluefin rate is $135/hr": a new user).
"""

from __future__ import annotations

from memory.lazy_patterns import lazy_compile

MONEY_WORDINGS = "price cost pay charge rate fee"
_MONEY = lazy_compile(
    r"[$\u20ac\u00a3\u00a5]\s?\d|\d(?:[.,]\d+)?\s?(?:[$\u20ac\u00a3]|eur|usd|gbp)\b"
    r"|(?i:\b\d+(?:[.,]\d+)?\s?(?:euros?|dollars?|pounds?|quid|bucks)\b)"
)


_MONEY_PARTS = (
    "$",
    "\u20ac",
    "\u00a3",
    "\u00a5",
    "eur",
    "usd",
    "gbp",
    "dollar",
    "pound",
    "quid",
    "buck",
)
"""A part of every amount `_MONEY` finds: most texts pass with a few substring tests."""


def names_money(text: str) -> bool:
    """Whether `text` names an amount of money ("€38", "38 euros", "$42")."""
    lowered = text.lower()
    return any(part in lowered for part in _MONEY_PARTS) and _MONEY.search(text) is not None


def money_wordings(text: str) -> str:
    """`MONEY_WORDINGS` for a text naming an amount of money, else nothing."""
    return MONEY_WORDINGS if names_money(text) else ""
