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

_DRIVERS = ("textual.drivers.linux_driver", "textual.drivers.linux_inline_driver")


def lenient_decoder(encoding: str) -> Callable[..., codecs.IncrementalDecoder]:
    """`codecs.getincrementaldecoder`, its decoders replacing what they cannot decode."""
    return functools.partial(codecs.getincrementaldecoder(encoding), errors="replace")


def read_input_leniently() -> None:
    """Have Textual's terminal drivers decode input with `lenient_decoder`."""
    for name in _DRIVERS:
        try:
            driver = importlib.import_module(name)
        except ImportError:  # not on this system (termios is POSIX only)
            continue
        if "getincrementaldecoder" in vars(driver):
            vars(driver)["getincrementaldecoder"] = lenient_decoder
