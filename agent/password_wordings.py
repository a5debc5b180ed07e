"""Passwords given in everyday wordings that a label and its separator do not cover.

`agent.redact` reads "my password is X", "password: X" and "DB_PASSWORD=X". An adversary
had these stored as said: "I changed my bank password to Blue42horse", "I use hunter2 as
my password", "My password's hunter2", "my password, hunter2, is weak", "password
hunter2", "the password I use everywhere is hunter2", "password:" with the value on the
next line (as pasted from a password manager), "login: ana / hunter2", and a CVV or a
social security number after its label. Each rule takes a value only when it looks like
one: where a wording is also ordinary English ("reset my password to access email",
"password manager"), the value must hold a digit, a capital or a symbol.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

_PASSWORD = r"pass(?:word|wd|phrase|code)|pass[ \t]word|p[a@4][s$5][s$5]w[o0]rd|pwd|pword|pw"
_VALUE = r"(?P<value>[^\s,;]+)"
_TRAILING = ".,;:!?)]}>\"'`"

_AFTER_TO = re.compile(rf"(?i)\b(?:{_PASSWORD})\b[ \t]+(?:to|into)[ \t]+{_VALUE}")
_POSSESSIVE = re.compile(rf"(?i)\b(?:{_PASSWORD})['\u2019]s[ \t]+{_VALUE}")
_BETWEEN_COMMAS = re.compile(rf"(?i)\b(?:{_PASSWORD})[ \t]*,[ \t]*{_VALUE}[ \t]*,")
_ARROW = re.compile(rf"(?i)\b(?:{_PASSWORD})[ \t]*(?:→|->|⇒)[ \t]*{_VALUE}")
_BARE = re.compile(rf"(?i)\b(?:{_PASSWORD}|pass)[ \t]+{_VALUE}")
_NEXT_LINE = re.compile(rf"(?i)\b(?:{_PASSWORD})[ \t]*[:=][ \t]*\r?\n[ \t]*{_VALUE}")
_RELATIVE = re.compile(
    rf"(?i)\b(?:{_PASSWORD})[ \t]+(?:that[ \t]+|which[ \t]+)?(?:i|we|you)[ \t]+"
    rf"(?:[\w'-]+[ \t]+){{0,3}}?(?:is|was)[ \t]+{_VALUE}"
)
_AS_MY = re.compile(
    rf"(?i)(?<!\S){_VALUE}[ \t]+as[ \t]+(?:my|the|our|your|a)[ \t]+(?:[\w-]+[ \t]+)?"
    rf"(?:{_PASSWORD}|pin)\b"
)
_LOGIN_PAIR = re.compile(r"(?i)\blog[ -]?in[ \t]*[:=][ \t]*[^\s/]+[ \t]*/[ \t]*" + _VALUE)
_CARD_CODE = re.compile(r"(?i)\b(?:cvv2?|cvc2?|csc|security[ \t]+code)\b\D{0,12}?(\d{3,4})\b")
_SSN = re.compile(
    r"(?i)\b(?:ssn|social[ \t]+security(?:[ \t]+(?:number|no\.?|#))?)\b\D{0,12}?"
    r"(\d{3}[- ]?\d{2}[- ]?\d{4})\b"
)
_HINTS = ("pass", "pw", "p@ss", "pa$$", "p4ss", "login", "log in", "cvv", "cvc", "csc")
_PLAIN_WORDS = frozenset(
    "the a an my your our their his her it this that one same new old it's is was".split()
)


def _marked(value: str) -> bool:
    """Whether a value holds a digit, a capital or a symbol: no ordinary lower-case word."""
    return not value.isalpha() or not value.islower()


def _span(found: re.Match[str], group: str | int, check: Callable[[str], bool]) -> tuple[int, int]:
    start, end = found.span(group)
    while end > start + 1 and found.string[end - 1] in _TRAILING:
        end -= 1
    value = found.string[start:end]
    if value.startswith("[REDACTED") or value.casefold() in _PLAIN_WORDS or not check(value):
        return (0, 0)
    return start, end


def width_folded(text: str) -> str:
    """`text` with full-width and other compatibility letters as plain ones, one for one.

    "my ｐａｓｓｗｏｒｄ is hunter2" was stored as said (an adversary). Only characters that
    fold to one character are folded, so every position still points at the same place.
    """
    if text.isascii():
        return text
    folded = []
    for char in text:
        plain = unicodedata.normalize("NFKC", char)
        folded.append(plain if len(plain) == 1 else char)
    return "".join(folded)


def wording_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each password, card code or social security number found."""
    lowered = text.lower()
    spans: list[tuple[str, tuple[int, int]]] = []
    if any(hint in lowered for hint in _HINTS):
        for rule, check in (
            (_AFTER_TO, _marked),
            (_POSSESSIVE, _marked),
            (_BETWEEN_COMMAS, _marked),
            (_ARROW, _anything),
            (_BARE, _looks_like_a_password),
            (_NEXT_LINE, _anything),
            (_RELATIVE, _marked),
            (_AS_MY, _looks_like_a_password),
            (_LOGIN_PAIR, _anything),
        ):
            spans += [("secret", _span(found, "value", check)) for found in rule.finditer(text)]
    if any(hint in lowered for hint in ("cvv", "cvc", "csc", "security code")):
        spans += [
            ("card-code", _span(found, 1, str.isdigit)) for found in _CARD_CODE.finditer(text)
        ]
    if "ssn" in lowered or "social security" in lowered:
        spans += [("ssn", _span(found, 1, _anything)) for found in _SSN.finditer(text)]
    return [(kind, span) for kind, span in spans if span[1] > span[0]]


def _anything(value: str) -> bool:
    return True


def _looks_like_a_password(value: str) -> bool:
    """A word and a number, or a word and symbols: "hunter2", "Tr0ub4dor&3"; not "reset"."""
    letters = any(c.isalpha() for c in value)
    if len(value) >= 6 and letters and any(c.isdigit() for c in value):
        return True
    return len(value) >= 8 and letters and any(not c.isalnum() for c in value)
