"""What something costs, as a message states it: for marking a fact a later one changed.

Found by a new user, a landlord: "GAS DEBIT WENT UP TO $112", said in chat, left "gas
direct debit is $85 a month" recalled unmarked beside it, and the model answered $85.
"""

from __future__ import annotations

import re

from memory.changes_to_come import a_change_to_come
from memory.lazy_patterns import lazy_compile
from memory.numbers import NUMBER_WORDS
from memory.text import analyze

_MONEY = (
    r"[$€£¥₹]|eur|euros?|usd|dollars?|pounds?|quid|z[łl]|pln|chf|czk|k[čc]|sek|nok|dkk|kr|ron|lei"
)
_PER_UNIT = (
    r"[ \t]*/[ \t]*(?:kg|g|l|h|hr|hour|month|mo|m2|m²|szt|pc|piece|unit|day|week|night)\b|"
    r"\s+(?:per|a|an)\s+(?:kg|kilo|gram|g|litre|liter|l|hour|month|piece|unit|day|week|night)\b"
)
"""A price of so much a unit: "2,85 zł/kg", "2.85 per kg" (a new user, a baker)."""
_COSTS = lazy_compile(
    r"(?i)^\W*(?:(?:my|our|the|a|an)\s+)?(?P<what>[a-z][\w'\u2019-]*(?:\s+[\w'\u2019-]+){0,4}?)"
    r"\s+(?P<verb>is|are|costs?|(?:has\s+|have\s+)?(?:went|gone|go(?:es)?|rose|risen|increased|"
    r"dropped|fell|fallen|went\s+down|came\s+down|came)\s+(?:up\s+|down\s+)?to|comes?\s+to|"
    r"now(?=\s+[$€£¥₹]?\d))"
    r"(?:\s+now)?\s*(?:now\s+)?(?:about\s+|around\s+)?"
    r"(?P<amount>(?:[$€£¥₹]\s?)?(?:\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d[\d,]*)(?:\.\d+)?"
    rf"(?:\s?(?:{_MONEY}|k)\b|\s?[$€£¥₹])?)(?P<unit>{_PER_UNIT})?(?![\w/:-])"
)
_PRICED = frozenset(
    "rent bill debit price cost fee fees rate salary wage wages subscription membership fare "
    "premium insurance mortgage tax payment charge deposit budget allowance pension".split()
)
"""What holds a price even said without a currency: "rent is 950"."""
_WRITTEN_OUT = {"dd": "direct debit", "sub": "subscription", "elec": "electricity"}
"""'gas dd' is the gas direct debit (an adversary)."""
_LETTERS_THEN_DIGITS = lazy_compile(r"(?<=[a-z])(?=\d)")
_NOT_A_THING = frozenset("it that this which he she they who what there here".split())
_CURRENCY = lazy_compile(rf"(?i){_MONEY}")
_LEAD_IN = lazy_compile(r"^[^:\n]{1,60}:\s+(?=\S)")
"""'Flour price from Młyn Jasiński: typ 650 is 2,85 zł/kg': what costs it follows the colon."""


def price_stated(piece: str) -> tuple[str, frozenset[str]] | None:
    """("costs " + what costs it, {the amount}) of "gas direct debit is $85 a month"."""
    if "?" in piece:
        return None
    # After a lead-in, only what follows it: "Młyn Jasiński new cennik from 1.01: typ 650 now
    # 3,05 zł/kg" (whether its day has come is the caller's to weigh, as of the whole text).
    found = _COSTS.match(piece)
    if found is None:
        piece = _LEAD_IN.sub("", piece, count=1)
        found = _COSTS.match(piece)
    if found is None or a_change_to_come(piece):
        return None
    # "flat2" is flat 2 (an adversary: "flat2 rent is 1150" was another flat's).
    spaced = _LETTERS_THEN_DIGITS.sub(" ", found["what"].casefold())
    what = [
        part
        for word in spaced.split()
        for part in _WRITTEN_OUT.get(word, NUMBER_WORDS.get(word, word)).split()
    ]
    if what[0] in _NOT_A_THING:
        return None
    amount = found["amount"]
    priced = any(word in _PRICED or word.rstrip("s") in _PRICED for word in what)
    verb = found["verb"].casefold()
    if not (priced or found["unit"] or _CURRENCY.search(amount) or verb.startswith("cost")):
        return None
    number = re.sub(r"[^\d.]", "", amount).rstrip(".")  # "7 900" is 7900, "2,85" 285
    if amount.casefold().endswith("k"):
        number = f"{number}k"
    terms = frozenset(analyze(" ".join(what)))
    return ("costs " + " ".join(sorted(terms)), frozenset({number})) if terms else None


def same_priced_thing(earlier: str, later: str) -> bool:
    """Whether two "costs …" topics name one thing: "gas debit" and "gas direct debit".

    One's words hold the other's, and the numbers are the same ("rent" is not "flat 2
    rent").
    """
    ours, theirs = set(earlier.split()[1:]), set(later.split()[1:])
    if {w for w in ours if w.isdigit()} != {w for w in theirs if w.isdigit()}:
        return False
    return ours <= theirs or theirs <= ours


def new_price(new: str, old: str) -> bool:
    """Whether both are only the price of one thing, and `new` gives another amount.

    Found by an adversary: "Flat two rent is 1150" and "the rent for flat three is 990",
    stored under keys of their own, left "flat 2 rent is 1100" and "Flat 3's rent is 950"
    in effect beside them. One thing by the same words: "rent" is not "Breda's rent".
    """
    ours, theirs = price_stated(new), price_stated(old)
    return ours is not None and theirs is not None and ours[0] == theirs[0] and ours[1] != theirs[1]
