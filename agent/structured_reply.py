"""Reading a structured reply as it streams: `{"answer": "..."}` or a tool call.

The answer's text is decoded from the JSON string while it arrives, so it streams to the
chat like any reply; anything else is read whole at the end. A reply that is not JSON at
all (a server that ignored the schema) is shown as the plain text it is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from memory.lazy_patterns import lazy_compile

_FIRST_KEY = lazy_compile(r'\s*\{\s*"((?:[^"\\]|\\.)*)"\s*:\s*')
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


MAX_UNDECIDED = 2_000
"""Characters a reply may open with before its first key is read whole instead (a model
padding with whitespace would otherwise be re-read on every chunk)."""
MAX_BLANK_RUN = 4_000
"""Whitespace in a row, outside the answer's text, that ends the reply as a runaway."""
MAX_WHOLE = 262_144
"""Characters of a reply that is not an answer (a tool call) before it is a runaway: the
largest valid call is a few tens of thousands."""
MAX_DEPTH = 32
"""Nesting of a call's arguments: no tool takes more than two levels; far deeper JSON
cannot even be saved with the chat."""


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a decoded JSON value (iterative: no recursion)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            level += 1
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                return deepest
            stack.extend(
                (child, level) for child in (item.values() if isinstance(item, dict) else item)
            )
    return deepest


class ReplyParser:
    """Feed it the reply's text as it streams; it gives back the answer's text so far.

    Each piece is looked at once (plus a cut escape): a long reply costs time in
    proportion to its length, not to its length squared.
    """

    def __init__(self) -> None:
        self._pieces: list[str] = []
        self._length = 0
        self._mode: Literal["undecided", "answer", "answered", "whole", "plain"] = "undecided"
        self._pending = ""
        """Arrived text not yet decided or decoded (the answer's undecoded tail)."""
        self._blank_run = 0
        self.runaway: str | None = None
        """Set when the reply should be stopped: why, for the model."""

    @property
    def raw(self) -> str:
        """Everything that arrived."""
        if len(self._pieces) > 1:
            self._pieces = ["".join(self._pieces)]
        return self._pieces[0] if self._pieces else ""

    def feed(self, piece: str) -> str:
        """Add what arrived; return the answer text it completes (often "")."""
        self._pieces.append(piece)
        self._length += len(piece)
        if self._mode == "plain":
            return piece
        if self._mode == "answer":
            self._pending += piece
            return self._decode(final=False)
        self._watch_runaway(piece)  # whole, answered or undecided: no text shown
        if self._mode == "undecided":
            self._pending += piece
            return self._decide()
        return ""

    def _watch_runaway(self, piece: str) -> None:
        stripped = piece.rstrip()
        self._blank_run = (
            self._blank_run + len(piece) if not stripped else len(piece) - len(stripped)
        )
        if self._blank_run > MAX_BLANK_RUN:
            self.runaway = (
                f"the reply went on with only whitespace ({self._blank_run:,} characters)"
            )
        elif self._mode != "answered" and self._length > MAX_WHOLE:
            self.runaway = f"the reply grew past {MAX_WHOLE:,} characters without an answer"

    def _decide(self) -> str:
        stripped = self._pending.lstrip()
        if not stripped:
            self._pending = ""
            return ""
        self._pending = stripped
        if not stripped.startswith("{"):
            self._mode = "plain"
            return self.raw  # held back until now
        match = _FIRST_KEY.match(stripped)
        if match is None:
            if len(stripped) > MAX_UNDECIDED:
                self._mode, self._pending = "whole", ""
            return ""
        rest = stripped[match.end() :]
        if match.group(1) != "answer":
            self._mode, self._pending = "whole", ""
        elif rest:
            if not rest.startswith('"'):
                self._mode, self._pending = "whole", ""
                return ""
            self._mode, self._pending = "answer", rest[1:]
            return self._decode(final=False)
        return ""

    def _decode(self, final: bool) -> str:
        text, at, closed = decode_string(self._pending, 0, final)
        self._pending = self._pending[at:]
        if closed:
            self._mode, self._pending = "answered", ""
        return text

    def finish(self) -> ReplyEnding:
        """The reply has ended: the rest of the answer, or the call, or what was wrong."""
        raw = self.raw
        if self.runaway is not None:
            return ReplyEnding(problem=f"{self.runaway}{_FORMS}", raw=raw)
        if self._mode == "plain":
            return ReplyEnding(raw=raw)
        if self._mode == "undecided" and not raw.strip():
            return ReplyEnding(problem=f"the reply was empty{_FORMS}", raw=raw)
        if self._mode == "answer":
            # Cut inside the answer (the length limit): what arrived is the reply.
            return ReplyEnding(text=self._decode(final=True), raw=raw)
        if self._mode == "answered":
            return ReplyEnding(raw=raw)
        return self._whole(raw)

    def _whole(self, raw: str) -> ReplyEnding:
        try:
            value = json.loads(raw)
            too_deep = _depth(value) > MAX_DEPTH
        except json.JSONDecodeError as exc:
            problem = f"the reply is not valid JSON ({exc.msg}: character {exc.pos})"
            return ReplyEnding(problem=problem + _FORMS, raw=raw)
        except RecursionError:
            too_deep = True
        if too_deep:
            problem = f"the reply nests lists or objects more than {MAX_DEPTH} deep"
            return ReplyEnding(problem=problem + _FORMS, raw=raw)
        if isinstance(value, dict) and isinstance(value.get("answer"), str):
            return ReplyEnding(text=value["answer"], raw=raw)
        if isinstance(value, dict) and isinstance(value.get("tool"), str):
            return ReplyEnding(call=(value["tool"], value.get("arguments", {})), raw=raw)
        return ReplyEnding(problem="the reply has neither an answer nor a tool" + _FORMS, raw=raw)


_FORMS = '; reply with {"answer": "..."} or {"tool": "...", "arguments": {...}}'
