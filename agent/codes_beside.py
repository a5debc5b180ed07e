"""Codes said beside a redacted PIN or code, in its sentence: redacted with it.

"the PIN is 4471 - no wait, 4417", "pin 1111 for the shed and 2222 for the garage": the
wordings read the first; the others are numbers of four to eight digits beside it, not a
date's, a price's or a time's.
"""

from __future__ import annotations

import bisect
import re

from agent.code_wordings import CODE, bike_code_spans
from agent.not_secret_codes import CLOCK, a_year
from memory.date_terms import said_just_before
from memory.lazy_patterns import lazy_compile

_A_CODES_MARK = lazy_compile(r"\[REDACTED:(code|pin)\]")
_SENTENCE_END = lazy_compile(r"[.!?](?=\s|$)|\n")
"""A line's end too, whatever follows it: "my netflix pin: 4387", then "laptop is grey 2020",
lost its year (a second adversary)."""
_ANOTHER_CODE = lazy_compile(r"(?<![\w.,/:€$£#*\]-])" + CODE)
_FEWEST_DIGITS, _MOST_DIGITS = 4, 8
"""A code's digits: fewer is a count, more a phone or an account number."""
_A_TIME_AFTER = lazy_compile(r"(?i)(?:\b(?:at|by|until|till|before|after|around)|@)\s*$")
_A_YEAR_AFTER = lazy_compile(
    r"(?i)\b(?:since|in|of|year|until|till|back\s+in|from|expires?|expiry|exp|valid|bought|"
    r"rok|roku|od|w)\s*$"
)
""""my card pin 1234 expires 2027", "PIN karty to 1234, a rok 2019" (a second adversary)."""
_AN_AMOUNT_OR_A_DATE_AFTER = lazy_compile(
    r"(?i)(?:\b(?:rent|price|cost|costs|fee|fees|bill|salary|budget|deposit|balance|pay|paid|"
    r"owe|owes|charge|charges|total|birthday|born|anniversary|year|mileage|miles|km|phone|"
    r"number|postcode|zip|(?:error|fault|postal|zip|post|booking|icd|discount|promo|tracking)"
    r"[ \t]+code)\b[^\d.;!?\n]{0,12}|[£€$₹₦]\s*"
    # "OTP for txn of INR 5000.00 … is 839201" lost its amount (a new user's bank text).
    r"|\b(?:rs\.?|inr|usd|eur|gbp|mxn|ngn|kes|zar|aud|cad|chf|a/c|acct|account)\s*"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?)$"
)
"""What says a number beside a code is an amount, a date or another number: "Wedding 14 Aug
2027, gate code 5521" lost its year (found checking a second adversary's key)."""


_A_DATE = lazy_compile(r"(?:19|20)\d\d-[01]?\d-[0-3]?\d|[0-3]?\d[./-][01]?\d[./-](?:19|20)?\d\d")


def more_codes_beside(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of the other codes of the sentences a PIN or a code was redacted in.

    Found by a second adversary, each kept as typed after the first was redacted: "the PIN
    is 4471 - no wait, 4417", "… from 4471 to 9932, and the shed from 1212 to 3434", "pin
    1111 for the shed and 2222 for the garage", "alarm code 2468 (backup 1359)", "safe code
    4-4-7-1, old one 9-9-1-1". Four to eight digits; not a date's, a price's or a time's.
    """
    marks = list(_A_CODES_MARK.finditer(text))
    if not marks:
        return []
    spans: dict[tuple[int, int], str] = {}
    bikes: list[tuple[int, int]] | None = None
    # Each sentence holding a mark is read once, its codes given the kind of the nearest
    # mark before them (the first one's if none is): read once per mark, from the text's
    # start, a pasted line of 20,000 PINs took minutes.
    ends = [found.end() for found in _SENTENCE_END.finditer(text)]
    starts = [mark.start() for mark in marks]
    sentence = 0
    while sentence <= len(ends):
        opening = ends[sentence - 1] if sentence else 0
        closing = ends[sentence] - 1 if sentence < len(ends) else len(text)
        sentence += 1
        first = bisect.bisect_left(starts, opening)
        if first == len(starts) or starts[first] >= closing:
            continue
        for found in _ANOTHER_CODE.finditer(text, opening, closing):
            if not _a_code_beside(text, found):
                continue
            # A bike lock's code is kept in what is saved (`agent.code_wordings`). Read only
            # when there is a code beside: the whole text is read for them, and a pasted
            # page took seconds more to save (an adversary).
            bikes = bike_code_spans(text) if bikes is None else bikes
            start, end = found.span(1)
            if any(start < b and a < end for a, b in bikes):
                continue
            nearest = max(first, bisect.bisect_left(starts, found.start(1)) - 1)
            spans[found.span(1)] = marks[nearest][1]
    return [(kind, span) for span, kind in sorted(spans.items())]


def _a_code_beside(text: str, found: re.Match[str]) -> bool:
    """Whether a number beside a redacted code is one too: not a date, a price or a time."""
    value = found[1]
    at = found.start(1)
    if not _FEWEST_DIGITS <= sum(c.isdigit() for c in value) <= _MOST_DIGITS:
        return False
    if sum(c.isdigit() for c in _digits_around(text, *found.span(1))) > _MOST_DIGITS:
        return False  # a part of a longer number: "Zoom meeting ID 853 1234 5678, passcode …"
    if CLOCK.fullmatch(value) and said_just_before(_A_TIME_AFTER, text, at):
        return False  # "arriving 14/12 at 1530"
    if a_year(value) and said_just_before(_A_YEAR_AFTER, text, at):
        return False  # "door code 4471 since 2019"
    if _A_DATE.fullmatch(value):
        return False  # "door code 4590 valid until 2027-01-31" (a second adversary)
    # "… and the rent is 1200", "Anna's birthday is 1985" (an adversary)
    return not said_just_before(_AN_AMOUNT_OR_A_DATE_AFTER, text, at)


_DIGIT_GROUPS_BEFORE = lazy_compile(r"(?:\d+[ \t-])+$")
_DIGIT_GROUPS_AFTER = lazy_compile(r"(?:[ \t-]\d+)+")


def _digits_around(text: str, start: int, end: int) -> str:
    """The number `text[start:end]` is a group of, with the groups before and after it."""
    before = _DIGIT_GROUPS_BEFORE.search(text, max(0, start - 40), start)
    after = _DIGIT_GROUPS_AFTER.match(text, end)
    return (before[0] if before else "") + text[start:end] + (after[0] if after else "")
