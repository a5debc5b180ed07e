"""The value a correction says it is not ("…, not the 12th"), and what holds it.

Found by a new user: "correction: the B1 exam is on the 19th of May, not the 12th", said
after "sorry, the flat handover is on the 29th not the 30th", marked the handover "since
changed". Found by an adversary: "no it's the 14th not the 12th", said after "I have 12
eggs left in the fridge", marked the eggs, and "Team lunch on the 12th" before them was
left as it was. A value is held as it was said: a day as a day ("the 12th", "12/1"), a
time or a dose with its unit ("8pm", "50mg"), a plain number anywhere.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.lazy_patterns import lazy_compile
from memory.month_names import MONTH_OF_ANY_LANGUAGE

_NOT_THE_VALUE = lazy_compile(
    r"(?i)\b(?:not|nicht|niet|no|n[ãa]o|pas)\s+(?:(?:on|am|the|de|der|den|el|dia|le|o)\s+)*"
    r"(?P<value>[0-9]+(?:[.:,][0-9]+)*)(?:\s?(?P<unit>[a-zºªè%µ]{1,4})(?![a-z]))?"
)
_NUMBERS = lazy_compile(r"[0-9]+")
_MONTH = (
    "(?:"
    + "|".join(sorted((re.escape(name) for name in MONTH_OF_ANY_LANGUAGE), key=len, reverse=True))
    + r")\b\.?"
)
_ORDINALS = ("st", "nd", "rd", "th", "e", "er", "ème", "º", "ª")
"""A day's endings, English and other: "the 12th", Dutch "de 4e", French "le 3e"."""


def said_not_to_be(correction: str) -> list[tuple[str, str]]:
    """(value, unit) of each value `correction` says it is not; the unit "" if none."""
    return [
        (found["value"], (found["unit"] or "").lower())
        for found in _NOT_THE_VALUE.finditer(correction)
    ]


def holds_the_old_value(corrected: str, correction: str) -> bool:
    """Whether `corrected` holds each value `correction` says it is not (True if it says none)."""
    return all(_holds(corrected, value, unit) for value, unit in said_not_to_be(correction))


def _holds(text: str, value: str, unit: str) -> bool:
    numbers = _NUMBERS.findall(value)
    if len(numbers) > 1 or not unit:
        held = {int(number) for number in _NUMBERS.findall(text)}
        return {int(number) for number in numbers} <= held
    number = str(int(numbers[0]))
    if unit in _ORDINALS:
        # A day: "the 12th", "12/1", "1/12", "12 May", "May 12".
        found = _day_of(number).search(text)
    else:
        found = _with_unit(number, unit).search(text)
    return found is not None


@lru_cache(maxsize=256)
def _day_of(number: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?i)(?<![0-9])0?{number}(?:{'|'.join(_ORDINALS)})(?![a-z])"
        rf"|(?<![0-9./])0?{number}[/.][0-9]"
        rf"|[0-9][/.]0?{number}(?![0-9])|(?<![0-9])0?{number}\.?\s+{_MONTH}"
        rf"|{_MONTH}\s+0?{number}(?![0-9])"
    )


@lru_cache(maxsize=256)
def _with_unit(number: str, unit: str) -> re.Pattern[str]:
    return re.compile(rf"(?i)(?<![0-9.]){number}\s?{re.escape(unit)}(?![a-z])")
