"""What something costs, as a message states it: for marking a fact a later one changed.

Found by a new user, a landlord: "GAS DEBIT WENT UP TO $112", said in chat, left "gas
direct debit is $85 a month" recalled unmarked beside it, and the model answered $85.
"""

from __future__ import annotations

import re

from memory.changes_to_come import a_change_to_come
from memory.numbers import NUMBER_WORDS
from memory.text import analyze

_COSTS = re.compile(
    r"(?i)^\W*(?:(?:my|our|the|a|an)\s+)?(?P<what>[a-z][\w'\u2019-]*(?:\s+[\w'\u2019-]+){0,4}?)"
    r"\s+(?P<verb>is|are|costs?|(?:has\s+|have\s+)?(?:went|gone|go(?:es)?|rose|risen|increased|"
    r"dropped|fell|fallen|went\s+down|came\s+down|came)\s+(?:up\s+|down\s+)?to|comes?\s+to)"
    r"(?:\s+now)?\s*(?:now\s+)?(?:about\s+|around\s+)?"
    r"(?P<amount>[$€£]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:[$€£]|eur|euros?|usd|"
    r"dollars?|pounds?|quid|k)?)(?![\w/:-])"
)
_PRICED = frozenset(
    "rent bill debit price cost fee fees rate salary wage wages subscription membership fare "
    "premium insurance mortgage tax payment charge deposit budget allowance pension".split()
)
"""What holds a price even said without a currency: "rent is 950"."""
_WRITTEN_OUT = {"dd": "direct debit", "sub": "subscription", "elec": "electricity"}
"""'gas dd' is the gas direct debit (an adversary)."""
_LETTERS_THEN_DIGITS = re.compile(r"(?<=[a-z])(?=\d)")
_NOT_A_THING = frozenset("it that this which he she they who what there here".split())
_CURRENCY = re.compile(r"(?i)[$€£]|eur|euro|usd|dollar|pound|quid")


def price_stated(piece: str) -> tuple[str, frozenset[str]] | None:
    """("costs " + what costs it, {the amount}) of "gas direct debit is $85 a month"."""
    if "?" in piece or a_change_to_come(piece):
        return None
    found = _COSTS.match(piece)
    if found is None:
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
    if not (priced or _CURRENCY.search(amount) or found["verb"].casefold().startswith("cost")):
        return None
    number = re.sub(r"[^\d.]", "", amount).rstrip(".")
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
