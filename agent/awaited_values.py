"""A secret's label said at a line's or a message's end, its value still to come.

Split from `agent.said_secrets`, which reads a chat's messages in turn ("my bank card pin
is", then "4821"); `agent.redact` reads a text's lines so ("my new card PIN is", a new
line, "6543": an adversary saw it kept). A label ends in English or in the other languages
the wordings read ("Il PIN della carta è", "Meine PIN lautet", "Mój PIN do karty to").
"""

from __future__ import annotations

from agent.redact import redacted_with_values
from memory.lazy_patterns import lazy_compile

_PROBES = ("4821", "Zq7kP2xw", "admin / Zq7kP2xw", "X1234567", "046 454 286", "44051401359")
"""Values a label said alone would take: a PIN's or a code's, a password's, a login's, an ID
number's ("my passport number is", then "X1234567": an adversary saw both kept)."""
_ENDS_AS_A_LABEL = lazy_compile(
    r"(?i)(?:[:=\u2013\u2014-]|\.{2,}|\b(?:is|was|are|pin|code|pw|pwd|password|passcode"
    r"|combination|combo|answer|è|é|es|ist|lautet|est|to|jest|là|passwort|kennwort|hasło|"
    r"haslo|kod|contraseña|contrasena|clave|senha|codice|khẩu)"
    r"|\b(?:pin|code|combo|combination|password|passcode)\s+(?:for|to|of)\s+(?:the\s+|my\s+)?"
    r"[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?|\b(?:below|next|follows|coming(?:\s+up)?)"
    r"|\bnext\s+(?:msg|message|text))\s*[:.]?\s*$"
)
"""Also what it opens ("pin for the garage door") and a value said to come ("new wifi
password below"): an adversary sent the value next, and it was kept as typed."""
_STILL_TO_COME = lazy_compile(
    r"(?i)\s+(?:is\s+)?(?:below|next|follows|coming(?:\s+up)?|(?:coming\s+)?in\s+(?:the|my|a)\s+"
    r"next\s+(?:msg|message|text))\s*[:.]?$"
)
"""Said to come: "new wifi password below", "the pw is in the next msg" (an adversary)."""
_WHAT_IT_OPENS = lazy_compile(
    r"(?i)\b(?:pin|code|combo|combination|password|passcode)\s+(?:for|to|of)\s+(?:the\s+|my\s+)?"
    r"[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?\s*$"
)


def with_its_verb(label: str) -> str:
    """A label as it would be said with its value: "new wifi password below" → "… is"."""
    label = label.rstrip()
    if _STILL_TO_COME.search(label):
        return _STILL_TO_COME.sub(" is", label)
    return f"{label} is" if _WHAT_IT_OPENS.search(label) else label


POINTING_AT_IT = lazy_compile(r"(?i)^(?:it['\u2019]?s|it\s+is|that['\u2019]?s|the\s+code\s+is)\s+")
_FORGOTTEN = lazy_compile(r"(?i)\b(?:forgot|forget|forgotten|lost|can['\u2019]?t\s+remember)\b")
""""I forgot my pin", then "2024": no value was coming (an adversary saw the year go)."""
MOST_WORDS = 4
"""A value sent after its label, and a word or two ("4821 thanks"); more is a message."""
_ASKING = lazy_compile(
    r"(?i)^\W*(?:what|where|when|who|which|how|why|do|does|did|is|are|can|could|would|"
    r"any\s+idea|tell\s+me)\b"
)
NO_VALUE = frozenset(
    "thanks thank thx ok okay cool great cheers perfect sure yes yeah yep nope never wait hmm "
    "hold sorry later nothing "
    "cancel what why huh lol haha hello hey nvm forget alright dunno idk nah nevermind "
    "actually anyway".split()
)
"""A word sent alone that answers, not a password ("thanks", "wait")."""


def awaits_a_value(text: str) -> bool:
    """Whether `text` ends on a secret's label, its value not said.

    Not a question: "what was the pin", then "2023", asked nothing to keep (an adversary).
    """
    if len(text) > 400 or "?" in text or _ASKING.match(text) or _FORGOTTEN.search(text):
        return False
    if not _ENDS_AS_A_LABEL.search(text):
        return False
    for probe in _PROBES:
        clean, kinds, _values = redacted_with_values(f"{with_its_verb(text)} {probe}")
        if kinds and not clean.rstrip().endswith(probe):
            return True
    return False


def given_after(label: str, value: str) -> tuple[str, list[str], list[tuple[str, str]]] | None:
    """`value` redacted as said right after `label`, its kinds and values; None if no secret.

    Read as the label and the value said in one text would be: "my wifi is", then "down",
    is no secret, as "my wifi is down" is none.
    """
    opening = f"{with_its_verb(label)} "
    joined, kinds, values = redacted_with_values(opening + value)
    if not kinds or not joined.startswith(opening) or joined[len(opening) :] == value:
        return None
    return joined[len(opening) :], kinds, values


_MOST_WORDS_BELOW = 2
"""A value on the line below its label: a word or two; more is the text going on."""


def values_below_labels(text: str) -> list[tuple[str, str]]:
    """(kind, value) of each secret given alone on the line below its label.

    "my new card PIN is", then "6543" on the next line; "Mein Passwort lautet", then
    "Geheim123" (an adversary saw both kept as typed, in the chat and on import).
    """
    lines = text.split("\n")
    found: list[tuple[str, str]] = []
    for line, below in zip(lines, lines[1:], strict=False):
        value = below.strip()
        if (
            not value
            or "[REDACTED:" in value
            or len(value.split()) > _MOST_WORDS_BELOW
            or value.split()[0].casefold() in NO_VALUE
            or not awaits_a_value(line.strip())
        ):
            continue
        if (given := given_after(line.strip(), value)) is not None:
            found += given[2]
    return found
