"""Reading a structured reply as it streams: `{"answer": "..."}` or a tool call.

The answer's text is decoded from the JSON string while it arrives, so it streams to the
chat like any reply; anything else is read whole at the end. A reply that is not JSON at
all (a server that ignored the schema) is shown as the plain text it is.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

_FIRST_KEY = re.compile(r'\s*\{\s*"((?:[^"\\]|\\.)*)"\s*:\s*')
_SIMPLE_ESCAPES = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
REPLACEMENT = "\ufffd"
"""Shown for half a surrogate pair: text that cannot be saved never reaches the chat."""


@dataclass(frozen=True)
class ReplyEnding:
    """What the whole reply was, once it has ended."""

    text: str = ""
    """Answer text not yet given out (an answer whose key was not first)."""
    call: tuple[str, Any] | None = None
    """The tool's name and its arguments."""
    problem: str | None = None
    """Why the reply fits neither form; it goes back to the model as the call's error."""
    raw: str = ""


def _hex4(text: str, at: int) -> int | None:
    digits = text[at : at + 4]
    if len(digits) < 4 or not all(c in "0123456789abcdefABCDEF" for c in digits):
        return None
    return int(digits, 16)


def decode_string(text: str, at: int, final: bool) -> tuple[str, int, bool]:
    """Decode a JSON string body from `at` as far as it is complete.

    Returns the text, where decoding stopped, and whether the closing quote was reached.
    An escape cut by the end of what has arrived waits for more, unless `final`.
    """
    out: list[str] = []
    i = at
    while i < len(text):
        char = text[i]
        if char == '"':
            return "".join(out), i + 1, True
        if char != "\\":
            out.append(char)
            i += 1
            continue
        if i + 1 >= len(text):
            break
        kind = text[i + 1]
        if kind != "u":
            out.append(_SIMPLE_ESCAPES.get(kind, kind))
            i += 2
            continue
        code = _hex4(text, i + 2)
        if code is None:
            if len(text) - i < 6 and not final:
                break
            out.append(REPLACEMENT)
            i += 2
            continue
        if 0xD800 <= code < 0xDC00:
            if len(text) - i < 12 and not final:
                break  # the low half may still come
            low = _hex4(text, i + 8) if text[i + 6 : i + 8] == "\\u" else None
            if low is not None and 0xDC00 <= low < 0xE000:
                out.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
                i += 12
                continue
            out.append(REPLACEMENT)
        elif 0xDC00 <= code < 0xE000:
            out.append(REPLACEMENT)
        else:
            out.append(chr(code))
        i += 6
    return "".join(out), i, False


class ReplyParser:
    """Feed it the reply's text as it streams; it gives back the answer's text so far."""

    def __init__(self) -> None:
        self.raw = ""
        self._mode: Literal["undecided", "answer", "answered", "whole", "plain"] = "undecided"
        self._at = 0
        """Where undecoded answer text starts in `raw`."""

    def feed(self, piece: str) -> str:
        """Add what arrived; return the answer text it completes (often "")."""
        self.raw += piece
        if self._mode == "undecided":
            return self._decide()
        if self._mode == "plain":
            return piece
        if self._mode == "answer":
            return self._decode(final=False)
        return ""

    def _decide(self) -> str:
        stripped = self.raw.lstrip()
        if not stripped:
            return ""
        if not stripped.startswith("{"):
            self._mode = "plain"
            return self.raw  # held back until now
        match = _FIRST_KEY.match(self.raw)
        if match is None:
            return ""
        rest = self.raw[match.end() :]
        if match.group(1) != "answer":
            self._mode = "whole"
        elif rest:
            if not rest.startswith('"'):
                self._mode = "whole"
                return ""
            self._mode, self._at = "answer", match.end() + 1
            return self._decode(final=False)
        return ""

    def _decode(self, final: bool) -> str:
        text, self._at, closed = decode_string(self.raw, self._at, final)
        if closed:
            self._mode = "answered"
        return text

    def finish(self) -> ReplyEnding:
        """The reply has ended: the rest of the answer, or the call, or what was wrong."""
        if self._mode == "plain" or (self._mode == "undecided" and not self.raw.strip()):
            return ReplyEnding(raw=self.raw)
        if self._mode == "answer":
            # Cut inside the answer (the length limit): what arrived is the reply.
            return ReplyEnding(text=self._decode(final=True), raw=self.raw)
        if self._mode == "answered":
            return ReplyEnding(raw=self.raw)
        return self._whole()

    def _whole(self) -> ReplyEnding:
        try:
            value = json.loads(self.raw)
        except json.JSONDecodeError as exc:
            problem = f"the reply is not valid JSON ({exc.msg} at character {exc.pos})"
            return ReplyEnding(problem=problem + _FORMS, raw=self.raw)
        if isinstance(value, dict) and isinstance(value.get("answer"), str):
            return ReplyEnding(text=value["answer"], raw=self.raw)
        if isinstance(value, dict) and isinstance(value.get("tool"), str):
            return ReplyEnding(call=(value["tool"], value.get("arguments", {})), raw=self.raw)
        return ReplyEnding(
            problem="the reply has neither an answer nor a tool" + _FORMS, raw=self.raw
        )


_FORMS = '; reply with {"answer": "..."} or {"tool": "...", "arguments": {...}}'
