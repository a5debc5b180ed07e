"""What a fact's earlier text said that its new text, stored under the same key, does not.

Found by a new user, a wedding photographer: the model stored "Fiona & Raj wedding balance
now fully paid" under the key of "Fiona & Raj wedding 14 Aug 2027 at Prestonfield, deposit
£500 paid, balance £1,750 due 2 weeks before", and the date, the venue and the deposit left
what recall finds; the chat said only "replacing its earlier text". The model and the chat's
tool line are told which values went, so they can be stored again if they still hold.
"""

from __future__ import annotations

import re

from memory.lazy_patterns import lazy_compile

_A_VALUE = lazy_compile(
    # A day and month, with its year: "14 Aug 2027", "Aug 14".
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?-i:[A-Z][a-z]{2,8})\.?(?:\s+\d{4})?\b"
    r"|\b(?-i:[A-Z][a-z]{2,8})\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b"
    # A flight's, a train's or a room's number: "TP1350", "B12".
    r"|\b(?-i:[A-Z]{1,4})\d[\d-]*\b"
    # An amount or a number as written: "£1,750", "50mg", "9:30", "14/8".
    r"|[£€$]?\d[\d,./:]*(?:\s?(?:am|pm|mg|ml|kg|km|k|%))?(?![\w])"
    # A name, not opening the text: "Prestonfield", "Dr Shah"; not a word in capitals
    # ("PIN"), nor a redaction's mark.
    r"|(?<=\s)(?<!\[)(?-i:[A-Z][a-z][\w'\u2019&-]*(?:\s+[A-Z][a-z][\w'\u2019-]*)*)"
)
_MOST_SHOWN = 6


_LEADING_ZEROS = lazy_compile(r"(?<!\d)0+(?=\d)")
_A_TIMES_HALF = lazy_compile(r"\s?[ap]m$")
_NEGATION = lazy_compile(r"(?i)\b(?:not|no\s+longer|never)\b|n['\u2019]t\b")


def values_dropped(earlier: str, now: str) -> list[str]:
    """The values `earlier` says (days, amounts, names) that `now` does not, in its order.

    None where one went and the new text gives another: that one is the value given anew
    ("My cat is called Tofu" after "… Tom"). One that went with nothing in its place is
    said: an adversary saw "the car insurance is with Allianz" drop "€420 a year", and
    "physio on 14/1" drop "3pm", unsaid. A "not" the earlier text said is said too ("Leo is
    allergic to peanuts" after "Leo is not allergic …" turned it around).
    """
    kept = _LEADING_ZEROS.sub("", now.casefold())
    said = [_plain(found) for found in _A_VALUE.finditer(earlier)]
    dropped: list[str] = []
    for value in said:
        plain = _LEADING_ZEROS.sub("", value.casefold())  # "07:30" is still said as "7:30am"
        if len(value) > 1 and plain not in kept and value not in dropped:
            dropped.append(value)
    if _NEGATION.search(earlier) and not _NEGATION.search(now):
        dropped.insert(0, "not")
    if len(dropped) == 1 and dropped[0] != "not":
        earlier_folded = _LEADING_ZEROS.sub("", earlier.casefold())
        given = [
            value
            for found in _A_VALUE.finditer(now)
            if (value := _plain(found))
            and _A_TIMES_HALF.sub("", _LEADING_ZEROS.sub("", value.casefold()))
            not in earlier_folded
        ]
        if given:
            return []
    return dropped[:_MOST_SHOWN]


def _plain(found: re.Match[str]) -> str:
    return found.group().strip().rstrip(".,")
