"""What a fact's earlier text said that its new text, stored under the same key, does not.

Found by a new user, a wedding photographer: the model stored "Fiona & Raj wedding balance
now fully paid" under the key of "Fiona & Raj wedding 14 Aug 2027 at Prestonfield, deposit
£500 paid, balance £1,750 due 2 weeks before", and the date, the venue and the deposit left
what recall finds; the chat said only "replacing its earlier text". The model and the chat's
tool line are told which values went, so they can be stored again if they still hold.
"""

from __future__ import annotations

import re

_A_VALUE = re.compile(
    # A day and month, with its year: "14 Aug 2027", "Aug 14".
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?-i:[A-Z][a-z]{2,8})\.?(?:\s+\d{4})?\b"
    r"|\b(?-i:[A-Z][a-z]{2,8})\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b"
    # An amount or a number as written: "£1,750", "50mg", "9:30", "14/8".
    r"|[£€$]?\d[\d,./:]*(?:\s?(?:am|pm|mg|ml|kg|km|k|%))?(?![\w])"
    # A name, not opening the text: "Prestonfield", "Dr Shah"; not a word in capitals
    # ("PIN"), nor a redaction's mark.
    r"|(?<=\s)(?<!\[)(?-i:[A-Z][a-z][\w'\u2019&-]*(?:\s+[A-Z][a-z][\w'\u2019-]*)*)"
)
_MOST_SHOWN = 6


def values_dropped(earlier: str, now: str) -> list[str]:
    """The values `earlier` says (days, amounts, names) that `now` does not, in its order.

    None where at most one went: that one is the value the new text gives anew ("My cat is
    called Tofu" after "… Tom").
    """
    kept = now.casefold()
    dropped: list[str] = []
    for found in _A_VALUE.finditer(earlier):
        value = found.group().strip().rstrip(".,")
        if len(value) > 1 and value.casefold() not in kept and value not in dropped:
            dropped.append(value)
    return dropped[:_MOST_SHOWN] if len(dropped) > 1 else []
