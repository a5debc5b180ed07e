"""A byte the terminal's encoding cannot read is shown as a stand-in, not a crash.

Found by an adversary: "café" typed in a Latin-1 terminal stopped the app (Textual's
input thread decodes strictly), and the exit status was 0.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import pytest
from textual._xterm_parser import XTermParser

from tui.lenient_input import lenient_decoder, read_input_leniently


def test_the_decoder_replaces_what_it_cannot_read() -> None:
    decode = lenient_decoder("utf-8")().decode
    assert decode(b"caf\xe9 ok") == "caf\ufffd ok"
    # A character cut between two reads is still read whole.
    assert decode(b"\xc3", final=False) + decode(b"\xa9") == "é"


def test_textuals_terminal_driver_is_given_it() -> None:
    driver = importlib.import_module("textual.drivers.linux_driver")
    read_input_leniently()
    made = vars(driver)["getincrementaldecoder"]("utf-8")()
    assert made.decode(b"\xe9", final=True) == "\ufffd"


def _pasted(decode: Callable[..., str], data: bytes, cut: int) -> list[tuple[str, str]]:
    text = decode(data[:cut]) + decode(data[cut:])
    parser = XTermParser(debug=False)
    return [(type(event).__name__, str(getattr(event, "text", ""))) for event in parser.feed(text)]


@pytest.mark.parametrize("cut", [5, 18, 23, 30, 60])
def test_a_paste_of_coloured_output_comes_whole_and_in_order(cut: int) -> None:
    """Found by an adversary: "\\x1b[31mFAILED\\x1b[0m" in a paste made the text after the
    first escape come before the text ahead of it (Textual took the escape for the paste's
    end). Wherever the reads cut it."""
    data = (
        b"\x1b[200~ERROR line one\n\x1b[31mFAILED\x1b[0m test_two\x1b]0;title\x07\x1bc\n"
        b"end\x1bx\n\x1b[201~"
    )
    decode = lenient_decoder("utf-8")().decode
    assert _pasted(decode, data, cut) == [
        ("Paste", "ERROR line one\nFAILED test_two\nend\u241bx\n")
    ]


def test_an_escape_key_outside_a_paste_is_passed_at_once() -> None:
    decode = lenient_decoder("utf-8")().decode
    assert decode(b"\x1b") == "\x1b"
    assert decode(b"\x1b[A") == "\x1b[A"
