"""Argument types for the `memchat` command line: every bad value is a one-line argparse error.

Numbers are bounded (SQLite cannot bind an integer beyond 64 bits, and a batch of 0 would
make `reindex` loop without embedding anything); text must be valid Unicode (bytes that are
not UTF-8 reach Python as lone surrogates, which no store can hold). Only the standard
library is imported, so the command starts fast.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import NoReturn

from agent.terminal_text import one_line

MAX_COUNT = 1_000_000_000
"""The largest --limit or --offset accepted: far beyond any store, well within SQLite."""


class CliParser(argparse.ArgumentParser):
    """An ArgumentParser whose error messages never carry raw control characters.

    argparse quotes what the user typed ("unrecognized arguments: …"); that text may hold
    an ESC sequence or undecodable bytes, so it is escaped before it reaches the terminal.
    """

    def error(self, message: str) -> NoReturn:
        """Print the usage and the escaped message to stderr, and exit with status 2."""
        for line in self.format_usage().rstrip("\n").split("\n"):
            sys.stderr.write(one_line(line) + "\n")
        sys.stderr.write(f"{one_line(self.prog)}: error: {one_line(message)}\n")
        raise SystemExit(2)


def _shown(value: str) -> str:
    """What the user typed, quoted and escaped, cut short if huge."""
    return repr(value if len(value) <= 40 else value[:39] + "…")


def bounded_int(minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse type: a whole number in [minimum, maximum], or a clear error."""

    def parse(value: str) -> int:
        digits = value.strip().removeprefix("-").removeprefix("+")
        try:
            number = int(value, 10)
        except ValueError:
            # int() refuses numbers of more than 4,300 digits: those are merely too large.
            if not digits.isdigit():
                raise argparse.ArgumentTypeError(
                    f"expected a whole number, got {_shown(value)}"
                ) from None
            number = maximum + 1 if not value.strip().startswith("-") else minimum - 1
        if not minimum <= number <= maximum:
            raise argparse.ArgumentTypeError(
                f"must be between {minimum:,} and {maximum:,}, got {_shown(value)}"
            )
        return number

    return parse


def bounded_float(minimum: float, maximum: float) -> Callable[[str], float]:
    """An argparse type: a finite number in [minimum, maximum], or a clear error."""

    def parse(value: str) -> float:
        try:
            number = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {_shown(value)}") from None
        if not math.isfinite(number) or not minimum <= number <= maximum:
            raise argparse.ArgumentTypeError(
                f"must be between {minimum:g} and {maximum:g}, got {_shown(value)}"
            )
        return number

    return parse


def text(value: str) -> str:
    """An argparse type: text that is valid Unicode (a key, a query, a namespace)."""
    for position, char in enumerate(value):
        if "\ud800" <= char <= "\udfff":
            # Python maps each undecodable argv byte 0xNN to the lone surrogate U+DCNN.
            code = ord(char)
            what = f"byte 0x{code - 0xDC00:02x}" if code >= 0xDC80 else f"U+{code:04X}"
            raise argparse.ArgumentTypeError(
                f"is not valid UTF-8 text ({what} at character {position + 1}); "
                "type it in UTF-8 or check the terminal's encoding"
            )
    return value


def namespace_name(value: str) -> str:
    """An argparse type: a namespace, valid Unicode and not blank."""
    if not text(value).strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return value


def filled_text(value: str) -> str:
    """An argparse type: text that is not blank (a category, a key, a query).

    An empty value is a mistake (an unset shell variable), never a request: `--category ''`
    would otherwise filter nothing and list every memory.
    """
    from memory.text import has_visible_text  # here: `--help` loads no memory module

    if not has_visible_text(text(value)):
        raise argparse.ArgumentTypeError("must not be empty (or only invisible characters)")
    return value


def file_path(value: str) -> str:
    """An argparse type: a file name that is not empty (`Path('')` is the current folder)."""
    if not text(value):
        raise argparse.ArgumentTypeError("the path is empty; give a file name")
    return value
