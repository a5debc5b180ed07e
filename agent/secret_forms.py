"""A secret found again however it is written: in other groups, spaced, or joined to a word.

Found by an adversary: after "my locker PIN is 918273" and "my wifi password is
Zebra-Quartz-7719", the chat and its memories kept "locker 918-273 is on the left", "wrote
pin918273 on my hand", "ZebraQuartz7719" and "Zebra-Quartz-7719x", both where a later
message of the chat said them again and after `memchat memory forget --erase`.

A value's form: its runs of letters and digits in order, anything of up to two
non-word characters between them ("Zebra Quartz 7719"); a number's digits with at most
one space, dot or hyphen between any two ("918 273", "9-1-8-2-7-3"), never inside a
longer number ("phone 555 918273 1"). What matches is taken out with the whole word
around it ("pin918273", "Zebra-Quartz-7719x"): what is joined to a secret is part of how
it was written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

_SEPARATOR = r"[ .\-]"
_RUN = re.compile(r"[^\W_]+")
_JOINED = frozenset("_-")


def skeleton(value: str) -> str:
    """A value's letters and digits, case folded: what every form of it shares."""
    return "".join(_RUN.findall(value)).casefold()


def digits_form(digits: str) -> str:
    """A pattern for a number in any grouping, not part of a longer number."""
    body = f"{_SEPARATOR}?".join(digits)
    return rf"(?<!\d)(?<!\d{_SEPARATOR})(?:{body})(?!{_SEPARATOR}?\d)"


def value_form(value: str) -> str | None:
    """A pattern for `value` in any of its forms (see the module); None for no letters or digits."""
    runs = _RUN.findall(value)
    if not runs:
        return None
    joined = "".join(runs)
    if joined.isdigit():
        return digits_form(joined)
    return r"[\W_]{0,2}".join(re.escape(run) for run in runs)


def forms_pattern(values: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern for every value's forms, the longest first (None for none)."""
    forms = [
        form
        for value in sorted(set(values), key=len, reverse=True)
        if (form := value_form(value)) is not None
    ]
    return re.compile("|".join(f"(?:{form})" for form in forms), re.IGNORECASE) if forms else None


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
