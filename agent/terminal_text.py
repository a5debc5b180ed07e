"""Text the CLI prints, made inert: stored memories never drive the user's terminal.

A memory can hold anything a user typed, a model said or a file held: ESC sequences that
clear the screen or set the window title, a BEL, a carriage return that overwrites the line
with a fake error, bidi overrides that reverse what follows. Every line the CLI writes goes
through `one_line` (or `safe_json` for JSON), which shows such characters as visible escapes.
"""

from __future__ import annotations

import re

NEWLINE_MARK = "⏎"
"""How a newline inside a value is shown in one-line output."""

# C0 controls, DEL, C1 controls, the bidi marks, overrides and isolates, the zero-width
# characters (space, word joiner, invisible operators, BOM, stray joiners: two keys that
# differ only by one look identical, and columns slip), the Unicode line and paragraph separators
# (some terminals and Python's splitlines break on them) and lone surrogates (how Python
# carries undecodable argv bytes; they cannot be encoded for output).
_HIDING = "\x00-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff"
STRAY_JOINER = f"(?<![^{_HIDING}])[\u200c\u200d]|[\u200c\u200d](?![^{_HIDING}])"
"""A zero-width (non-)joiner beside ASCII, another invisible character or nothing.

Between two other characters it does real work (three emoji joined into one family;
Persian and Indic scripts need ZWNJ) and is kept; beside ASCII it only hides
(pass + ZWJ + word looks like password)."""

_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff\ud800-\udfff]|" + STRAY_JOINER
)
_NAMED = {"\n": NEWLINE_MARK, "\t": "\\t", "\r": "\\r"}

# In JSON text the structure's own whitespace (indentation) is legal; every other character
# above is escaped as \uXXXX, which any JSON reader turns back into the same character.
_JSON_UNSAFE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e"
    "\u2060-\u2064\u2066-\u2069\ufeff\ud800-\udfff]|" + STRAY_JOINER
)


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def one_line(value: object) -> str:
    r"""`value` as text that is safe on a terminal and stays on one line.

    Newlines show as ⏎, tabs and carriage returns as \t and \r, every other control,
    bidi or separator character as a \xNN or \uNNNN escape.
    """
    return _UNSAFE.sub(_visible, str(value))


def lines(value: object) -> str:
    """`value` as safe terminal text that keeps its own line breaks (our multi-line errors).

    Each line is made inert as by `one_line`; only a plain newline still breaks the line.
    """
    return "\n".join(one_line(line) for line in str(value).split("\n"))


def safe_json(text: str) -> str:
    r"""JSON text with control, bidi and separator characters escaped as \uXXXX.

    `text` must be JSON produced by a serializer (pydantic, json.dumps): such characters then
    only occur inside strings, where the escape stands for the very same character.
    """
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def shortened(text: str, limit: int) -> str:
    """`text` on one line of at most `limit` characters, cut with "…".

    Runs of spaces and line breaks read as one space.
    """
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def one_line_key(key: str) -> str:
    """A key as memory_store stores it: one line of visible characters.

    A key the model writes is one the user types later (/forget KEY) and reads in a list:
    line breaks, control and invisible characters become single spaces. The recalled
    block writes keys and categories this way too.
    """
    return " ".join("".join(c if c.isprintable() else " " for c in key).split())
