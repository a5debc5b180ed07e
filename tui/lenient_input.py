"""Keys typed in another encoding are read with a stand-in, not a crash.

Found by an adversary: "café" typed in a Latin-1 terminal (one byte 0xE9) stopped the app
with a traceback from Textual's input thread, and the exit status was 0; so did a paste cut
in the middle of a character. Textual decodes the terminal's bytes strictly (its issue
#6456, open): its drivers are given a decoder that puts U+FFFD for a byte it cannot read.
"""

from __future__ import annotations

import codecs
import functools
import importlib
from collections.abc import Callable

from memory.lazy_patterns import lazy_compile

_DRIVERS = ("textual.drivers.linux_driver", "textual.drivers.linux_inline_driver")


_PASTE_START = "\x1b[200~"
_PASTE_END = "\x1b[201~"
_COLOURS_AND_MOVES = lazy_compile(
    r"\x1b\[[0-9;:?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[c78=>]"
)
"""A colour or cursor sequence, a window title (OSC), a reset: what a terminal's output
holds besides its text (a second adversary saw a title shown as "␛]0;title␇")."""
_LONGEST_HELD = 16
"""Of a paste's end, what may be the start of an escape sequence the next read completes."""


class PastedEscapes:
    r"""A decoder whose pastes hold no escape character: colours dropped, the rest shown.

    Found by an adversary: coloured terminal output pasted ("ERROR line one", then
    "\x1b[31mFAILED\x1b[0m test_two") came into the prompt as the text after the first
    escape, then the text before it: Textual's parser takes an escape inside a paste for
    the paste's end. In a paste, a colour or cursor sequence is dropped and any other
    escape character is shown as "\u241b".
    """

    def __init__(self, inner: codecs.IncrementalDecoder) -> None:
        self._inner = inner
        self._in_paste = False
        self._held = ""

    def decode(self, data: bytes, final: bool = False) -> str:
        """The text of `data`, as the wrapped decoder reads it, pastes cleaned."""
        text = self._held + self._inner.decode(data, final)
        self._held = ""
        out: list[str] = []
        while text:
            if not self._in_paste:
                start = text.find(_PASTE_START)
                if start < 0:
                    cut = _start_cut_at_the_end(text)
                    if cut and not final:
                        text, self._held = text[:-cut], text[-cut:]
                    out.append(text)
                    break
                out.append(text[: start + len(_PASTE_START)])
                text = text[start + len(_PASTE_START) :]
                self._in_paste = True
                continue
            end = text.find(_PASTE_END)
            if end < 0:
                escape = text.rfind("\x1b")
                if escape >= 0 and len(text) - escape < _LONGEST_HELD and not final:
                    text, self._held = text[:escape], text[escape:]
                out.append(_cleaned(text))
                break
            out.append(_cleaned(text[:end]) + _PASTE_END)
            text = text[end + len(_PASTE_END) :]
            self._in_paste = False
        return "".join(out)

    def reset(self) -> None:
        """Forget what was read (`codecs.IncrementalDecoder.reset`)."""
        self._inner.reset()
        self._in_paste, self._held = False, ""


def _start_cut_at_the_end(text: str) -> int:
    """How much of a paste's start `text` ends with, cut by the read (0 if none).

    Its rest comes with the next read. Not an escape alone, which is the Esc key.
    """
    return next(
        (n for n in range(len(_PASTE_START) - 1, 2, -1) if text.endswith(_PASTE_START[:n])),
        0,
    )


def _cleaned(pasted: str) -> str:
    return _COLOURS_AND_MOVES.sub("", pasted).replace("\x1b", "\u241b")


def lenient_decoder(encoding: str) -> Callable[..., PastedEscapes]:
    """`codecs.getincrementaldecoder`, its decoders replacing what they cannot decode.

    And reading pastes with `PastedEscapes`.
    """
    make = functools.partial(codecs.getincrementaldecoder(encoding), errors="replace")
    return lambda *args, **kwargs: PastedEscapes(make(*args, **kwargs))


def read_input_leniently() -> None:
    """Have Textual's terminal drivers decode input with `lenient_decoder`."""
    for name in _DRIVERS:
        try:
            driver = importlib.import_module(name)
        except ImportError:  # not on this system (termios is POSIX only)
            continue
        if "getincrementaldecoder" in vars(driver):
            vars(driver)["getincrementaldecoder"] = lenient_decoder
