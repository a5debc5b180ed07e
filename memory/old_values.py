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
from memory.short_words import WEEKDAY_NAMES_ELSEWHERE

_NOT_THE_VALUE = lazy_compile(
    r"(?i)\b(?:not|nicht|niet|no|n[ãa]o|pas)\s+(?:(?:on|am|the|de|der|den|el|dia|le|o)\s+)*"
    r"(?P<value>[0-9]+(?:[.:,][0-9]+)*)(?:\s?(?P<unit>[a-zºªè%µ]{1,4})(?![a-z]))?"
)
_THE_VALUE_NOT = lazy_compile(
    r"(?i)(?<![\w.,:])(?P<value>[0-9]+(?:[.:,][0-9]+)*)(?:\s?(?P<unit>[a-zºªè%µ]{1,4})(?![a-z]))?"
    r"\s+(?:nahi|nahin|nai)\b"
)
"""Hinglish says "not" after the value: "nahi, 15th nahi, 18th hai" (a new user, a student in
Bengaluru: the correction went at 30 days and the wrong deadline stayed)."""
_ENGLISH_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_NAMES = {
    **{name: name for name in _ENGLISH_WEEKDAYS},
    **{name[:3]: name for name in _ENGLISH_WEEKDAYS},
    **{"tues": "tuesday", "thur": "thursday", "thurs": "thursday"},
    **WEEKDAY_NAMES_ELSEWHERE,
}
_ANY_WEEKDAY = "|".join(sorted(map(re.escape, _WEEKDAY_NAMES), key=len, reverse=True))
_NOT_THE_WEEKDAY = lazy_compile(
    r"(?i)\b(?:not|nicht|niet|no|n[ãa]o|pas)\s+(?:(?:on|am|the|el|le|o|no|na|dia)\s+)*"
    rf"(?P<weekday>{_ANY_WEEKDAY})(?![\w-])"
)
"""A weekday it is not: "no, el pastel es para el domingo, no el sábado" (a new user, a baker
in Guadalajara: the Saturday was kept, unmarked)."""
WEEKDAY_UNIT = "weekday"
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
    values = [
        (found["value"], (found["unit"] or "").lower())
        for rule in (_NOT_THE_VALUE, _THE_VALUE_NOT)
        for found in rule.finditer(correction)
    ]
    return values + [
        (_WEEKDAY_NAMES[found["weekday"].lower()], WEEKDAY_UNIT)
        for found in _NOT_THE_WEEKDAY.finditer(correction)
    ]


def a_day_said_not_to_be(correction: str) -> bool:
    """Whether `correction` says a day it is not: "…, no el sábado", "15th nahi"."""
    return any(unit == WEEKDAY_UNIT or unit in _ORDINALS for _, unit in said_not_to_be(correction))


def holds_the_old_value(corrected: str, correction: str) -> bool:
    """Whether `corrected` holds each value `correction` says it is not (True if it says none)."""
    return all(_holds(corrected, value, unit) for value, unit in said_not_to_be(correction))


def _holds(text: str, value: str, unit: str) -> bool:
    if unit == WEEKDAY_UNIT:
        return _weekday(value).search(text) is not None
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


@lru_cache(maxsize=8)
def _weekday(english: str) -> re.Pattern[str]:
    names = [name for name, meant in _WEEKDAY_NAMES.items() if meant == english]
    return re.compile(
        r"(?i)(?<![\w-])(?:"
        + "|".join(sorted(map(re.escape, names), key=len, reverse=True))
        + r")(?![\w-])"
    )
