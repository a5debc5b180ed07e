"""A secret found again however it is written: in other groups, spaced, or joined to a word.

Found by an adversary: after "my locker PIN is 918273" and "my wifi password is
Zebra-Quartz-7719", the chat and its memories kept "locker 918-273 is on the left", "wrote
pin918273 on my hand", "ZebraQuartz7719" and "Zebra-Quartz-7719x", both where a later
message of the chat said them again and after `memchat memory forget --erase`.

A value's form: its runs of letters and digits in order, up to three non-word characters
between them ("Zebra Quartz 7719" for "Zebra-Quartz-7719"), and a hyphen or an underscore
within a run where letters meet digits or a capital starts a word ("Zebra-Quartz-7719" for
"ZebraQuartz7719"); a number of five digits or more with spaces, a hyphen, a dash or a
slash between any two ("918 273", "918 - 273", "506-17"), a shorter one whole, digit by
digit ("4 4 7 1", "4.4.7.1") or, of four digits, in pairs that are no date ("48 21"),
never inside a longer number or a decimal; any number said digit by digit in words ("four
eight two one"). A value is found joined to a word only where letters meet digits
("pin918273", "Zebra-Quartz-7719x"), and taken out with the whole word around it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from memory.lazy_patterns import lazy_compile

_SEPARATOR = r"(?:[ \t]{0,2}[-\u2013\u2014/_][ \t]{0,2}|[ \t]{1,3})"
"""What may stand between a number's digits: spaces, a hyphen or a dash, a slash ("918 -
273", "918–273", "918/273"), not a dot or a comma ("$44.71", "08.15" and "v20.24" are a
price, a time and a version, not 4471, 0815 and 2024: adversaries)."""
_SHORTEST_REGROUPED = 5
"""Digits of a number found in any grouping ("918-273", "506-17"). A shorter one is found
whole or one digit at a time ("4 4 7 1"): "12-25" and "20-24" are a date and a range."""
_RUN = lazy_compile(r"[^\W_]+")
_PART = lazy_compile(r"\d+|[^\W\d_][^\W\d_A-Z]*|[A-Z]+(?![a-z])")
"""A run's parts: digits, a word in any case, capitals: "ZebraQuartz7719" is Zebra, Quartz,
7719, found as "Zebra-Quartz-7719" too (a third adversary: only the other way)."""
_JOINED = frozenset("_-")


def skeleton(value: str) -> str:
    """A value's letters and digits, case folded: what every form of it shares."""
    return "".join(_RUN.findall(value)).casefold()


_DIGIT_WORDS = ("zero|oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _in_words(digits: str) -> str:
    """A number said digit by digit in words: "four eight two one" (an adversary)."""
    words = [f"(?:{_DIGIT_WORDS[int(digit)]})" for digit in digits]
    return r"\b" + r"[ \t,-]{1,3}".join(words) + r"\b"


def _in_pairs(digits: str) -> str | None:
    """A four-digit number said in two pairs ("48 21", "50-91": an adversary).

    Not where the pairs may be a date or a year ("12-25", "20 24").
    """
    first, second = int(digits[:2]), int(digits[2:])
    if digits[:2] in ("19", "20") or (first <= 31 and second <= 31):
        return None
    return f"{digits[:2]}[ \t-]{digits[2:]}"


def digits_form(digits: str) -> str:
    """A pattern for a number in its groupings, not part of a longer number."""
    return f"{_number_form(digits)}|{_in_words(digits)}"


def _number_form(digits: str) -> str:
    if len(digits) >= _SHORTEST_REGROUPED:
        body = f"{_SEPARATOR}?".join(digits)
    else:
        pairs = _in_pairs(digits) if len(digits) == 4 else None
        one_by_one = [" ".join(digits), "-".join(digits), r"\.".join(digits)]
        body = "|".join([digits, *one_by_one, *([pairs] if pairs else [])])
    # Not inside a longer number ("918-273-4455", "0918273"); beside another one, yes: "I
    # typed 918273 918273" and "4471 3 times" kept the code (a fourth adversary).
    return rf"(?<![\d.,])(?<!\d[-/])(?:{body})(?![.,]?\d)(?![-/]\d)"


def value_form(value: str) -> str | None:
    """A pattern for `value` in any of its forms (see the module); None for no letters or digits."""
    runs = _RUN.findall(value)
    if not runs:
        return None
    joined = "".join(runs)
    # Decimal digits only: "²" is a digit to `isdigit` and no number (hypothesis found
    # `int("²")` failing on "00:²").
    if joined.isdecimal() and joined.isascii():
        return digits_form(joined)
    # Apart where the value had something between its parts ("Zebra-Quartz-7719" as
    # "Zebra Quartz 7719"); within a part written whole only by a hyphen or an underscore
    # ("ZebraQuartz7719" as "Zebra-Quartz-7719"): "Summer 2024 was the best holiday" is no
    # form of the password Summer2024 (a fourth adversary).
    body = r"[\W_]{0,3}".join(
        r"[-_]?".join(re.escape(part) for part in (_PART.findall(run) or [run])) for run in runs
    )
    # Joined to a word only where letters meet digits ("pin918273", "Zebra-Quartz-7719x"):
    # "Paris" is no part of "Comparison", "hunter2" of "Hunter2000" (a third adversary).
    before = r"(?<!\d)" if joined[0].isdigit() else r"(?<![^\W\d_])"
    after = r"(?!\d)" if joined[-1].isdigit() else r"(?![^\W\d_])"
    return f"{before}{body}{after}"


def forms_pattern(values: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern for every value's forms, the longest first (None for none).

    The forms are grouped by the letters or digits they begin with, each group behind a
    look at the next character: an adversary's pasted list of 3,000 passwords took 25 s
    to save, every form tried at every character of it.
    """
    groups: dict[str, list[str]] = {}
    for value in sorted(set(values), key=len, reverse=True):
        for starts, form in _forms_by_start(value):
            groups.setdefault(starts, []).append(f"(?:{form})")
    branches = [
        (f"(?=(?-i:[{starts}]))" if starts else "") + f"(?:{'|'.join(forms)})"
        for starts, forms in groups.items()
    ]
    return re.compile("|".join(branches), re.IGNORECASE) if branches else None


def _forms_by_start(value: str) -> list[tuple[str, str]]:
    """`value_form` in parts, each with the characters it may begin with ("": any)."""
    runs = _RUN.findall(value)
    joined = "".join(runs)
    if joined.isdecimal() and joined.isascii():
        words = _DIGIT_WORDS[int(joined[0])]
        letters = "".join(sorted({word[0] for word in words.split("|")}))
        return [(joined[0], _number_form(joined)), (_both_cases(letters), _in_words(joined))]
    form = value_form(value)
    return [] if form is None else [(_both_cases(joined[0]), form)]


def _both_cases(letters: str) -> str:
    # Only where both cases are all there is: a character whose case folds otherwise
    # ("ß", "İ", "K" the Kelvin sign) is looked for by its forms alone.
    if not letters.isascii():
        return ""
    return "".join(sorted(set(letters.lower() + letters.upper())))


def replace_words(
    pattern: re.Pattern[str], text: str, replacement: Callable[[str], str] | str
) -> str:
    """`text` with each word holding a match of `pattern` replaced, the whole word.

    `replacement` gets the matched value (not the word around it) when it is a function.
    """
    pieces: list[str] = []
    last = 0
    for found in pattern.finditer(text):
        start, end = found.span()
        if start < last or start == end:
            continue
        while start > last and (text[start - 1].isalnum() or text[start - 1] in _JOINED):
            start -= 1
        while end < len(text) and (text[end].isalnum() or text[end] in _JOINED):
            end += 1
        pieces.append(text[last:start])
        pieces.append(replacement if isinstance(replacement, str) else replacement(found[0]))
        last = end
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)
