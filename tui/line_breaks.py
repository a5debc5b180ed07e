"""Line breaks a text editor would rewrite, held as they are while a memory is edited.

Textual's editor splits lines at every kind of line break (form feed, vertical tab, NEL,
U+2028, U+2029, a carriage return) and writes them all back as one kind. Found by an
adversary: adding "!" to a memory holding a form feed saved it with a newline in its
place, and a lone carriage return came back with a newline after it. While edited, each
such break is a private-use character of its own, drawn as a visible symbol, and written
back as it was.
"""

from __future__ import annotations

_OTHER_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_FIRST_HELD = 0xE000
_PICTURES = "\u240d\u240b\u240c\u241c\u241d\u241e\u2424\u21b5\u00b6"  # ␍ ␋ ␌ ␜ ␝ ␞ ␤ ↵ ¶

_HOLD = {ord(char): chr(_FIRST_HELD + i) for i, char in enumerate(_OTHER_BREAKS)}
_WRITE_BACK = {_FIRST_HELD + i: char for i, char in enumerate(_OTHER_BREAKS)}
SHOWN_HELD = {_FIRST_HELD + i: picture for i, picture in enumerate(_PICTURES)}
"""For `str.translate`: each held break as the symbol an editor draws."""


def can_hold(text: str) -> bool:
    """Whether `text` can be held: it has none of the characters that stand for breaks."""
    return not any(chr(code) in text for code in _WRITE_BACK)


def held(text: str) -> str:
    """`text` with each line break the editor would rewrite made a character of its own."""
    return text.translate(_HOLD)


def written_back(text: str) -> str:
    """`text` from the editor with each held line break as it was."""
    return text.translate(_WRITE_BACK)
