"""A long streamed reply shown in pieces, so that each piece is parsed only while it grows.

Found by an adversary: a reply of 40 KB took 67 s to show, and one of 225 KB had not
shown after 11 minutes, a CPU core busy all the while: the Markdown widget parsed the last
block again at each fragment, and a reply of many lines without a blank one is one block.
Each piece is a Markdown widget of its own, begun at a line's end once the piece before
has grown long enough: at a blank line when one comes, at any line's end when the piece
is twice as long, not inside a table until it is four times as long; a table broken then
has its heading again in the next piece. A code block broken so is closed in the piece
before and opened again, with its language, in the next.
"""

from __future__ import annotations

from collections.abc import Iterator

from memory.lazy_patterns import lazy_compile

PIECE_CHARS = 2_000
_LINE_READ = 200
"""Of a line, what is kept to read whether it opens or closes a code block."""
_FENCE = lazy_compile(r"^ {0,3}(?P<marker>`{3,}|~{3,})(?P<info>[^\n]*)$")
_TABLE_RULE = lazy_compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
"""A table's rule under its heading: "|---|:--:|"."""


class ReplyPieces:
    """Where a streamed reply breaks into pieces, fed one fragment at a time."""

    def __init__(self, size: int = PIECE_CHARS) -> None:
        self.size = size
        self._length = 0  # of the piece being written
        self._line = ""  # what has come of the line not yet ended
        self._line_length = 0  # of the line not yet ended, whole
        self._fence: tuple[str, str] | None = None  # the open code block: marker, its line
        self._table: list[str] = []  # the table being written: its heading, then its rule
        self._in_table = False  # whether the last line ended was a table's row

    def feed(self, fragment: str) -> Iterator[str | None]:
        """The text to write, in order; None where a new piece begins."""
        for part in fragment.splitlines(keepends=True):
            yield part
            self._length += len(part)
            self._line_length += len(part)
            if len(self._line) < _LINE_READ:
                self._line += part  # enough of it to tell a code block's fence
            if not part.endswith("\n"):
                # Only a line long in itself: a table's row streamed in fragments ending in a
                # space was cut in two, its heading not repeated (a second adversary).
                if self._fence is None and (
                    (self._line_length >= 4 * self.size and part[-1:].isspace())
                    or self._line_length >= 8 * self.size
                ):
                    # One line of a whole reply (minified, or no line breaks at all): broken
                    # between words, or it is one block again; within a word once it is very
                    # long (100 KB of base64 took 74 s: an adversary).
                    self._in_table, self._line_length = False, 0
                    yield from self._break()
                continue
            line, self._line, self._line_length = self._line.rstrip("\n"), "", 0
            self._follow_fences(line)
            self._follow_tables(line)
            if self._breaks_after(line):
                yield from self._break()

    def _follow_fences(self, line: str) -> None:
        found = _FENCE.match(line)
        if found is None:
            return
        marker = found["marker"]
        if marker[0] == "`" and "`" in found["info"]:
            return  # "```not a fence```" is code within a line (an adversary: a fence was
            # opened for the rest of the reply, and each piece began with its text)
        if self._fence is None:
            self._fence = (marker, line)
        elif marker.startswith(self._fence[0][0]) and len(marker) >= len(self._fence[0]):
            if not found["info"].strip():
                self._fence = None

    def _follow_tables(self, line: str) -> None:
        row = self._fence is None and line.lstrip().startswith("|")
        if not row:
            self._table = []
        elif not self._in_table:
            self._table = [line]
        elif len(self._table) == 1 and _TABLE_RULE.match(line):
            self._table.append(line)
        self._in_table = row

    def _breaks_after(self, line: str) -> bool:
        if self._length < self.size:
            return False
        if self._length >= 4 * self.size:
            return True
        if line.lstrip().startswith("|"):
            return False  # a table's row: its heading is in this piece
        return not line.strip() or self._length >= 2 * self.size

    def _break(self) -> Iterator[str | None]:
        self._length = 0
        if self._fence is None:
            yield None
            if self._in_table and len(self._table) == 2:
                # A table broken: its heading again, or its rows after are paragraphs of
                # "| 380 | item-380 | …" (an adversary, at a table of 400 rows).
                heading = "".join(line + "\n" for line in self._table)
                yield heading
                self._length = len(heading)
            return
        marker, opening = self._fence
        yield marker + "\n"
        yield None
        yield opening + "\n"
        self._length = len(opening) + 1
