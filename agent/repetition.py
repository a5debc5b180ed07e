"""Noticing a reply stuck in a loop: the same passage again and again at its end.

Small local models at low temperature fall into loops ("I'm happy to help you with your
bees. I'm happy to help …") and, with no reply limit, fill the whole context before they
stop; with Ollama's context shifting they may never stop. A loop is a passage of 8–400
characters repeated at least four times in a row at the end of the reply, covering at
least 800 characters: real loops pass that within a few seconds, while ordinary text
(a row of dashes, a few identical code lines) stays far below it.
"""

from __future__ import annotations

MIN_PERIOD = 8
MAX_PERIOD = 400
MIN_REPEATS = 4
MIN_SPAN = 800
CHECK_EVERY = 64
"""Characters of new text between two checks (each check costs tens of microseconds)."""


def loop_start(text: str) -> int | None:
    """The length to keep: the text up to the end of the loop's first copy; None: no loop."""
    for period in range(MIN_PERIOD, min(MAX_PERIOD, len(text) // MIN_REPEATS) + 1):
        unit = text[-period:]
        repeats = 1
        while (repeats + 1) * period <= len(text) and (
            text[-(repeats + 1) * period : -repeats * period] == unit
        ):
            repeats += 1
        if repeats >= MIN_REPEATS and repeats * period >= MIN_SPAN:
            # The stream may have stopped mid-copy: walk back to where the periodic run
            # really begins, so exactly one whole copy is kept.
            start = len(text) - repeats * period
            while start > 0 and text[start - 1] == text[start - 1 + period]:
                start -= 1
            return start + period
    return None


class LoopGuard:
    """Follows a streamed reply; says where to cut it once it loops."""

    def __init__(self) -> None:
        self._length = 0
        self._checked = 0

    def feed(self, fragments: list[str]) -> int | None:
        """The reply so far (its fragments, newest last); `loop_start` of it now and then.

        The fragments are joined and searched once per CHECK_EVERY new characters only.
        """
        self._length += len(fragments[-1]) if fragments else 0
        if self._length - self._checked < CHECK_EVERY:
            return None
        self._checked = self._length
        return loop_start("".join(fragments))
