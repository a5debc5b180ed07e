"""A byte the terminal's encoding cannot read is shown as a stand-in, not a crash.

Found by an adversary: "café" typed in a Latin-1 terminal stopped the app (Textual's
input thread decodes strictly), and the exit status was 0.
"""

from __future__ import annotations

import importlib

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
