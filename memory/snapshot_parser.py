"""Read the entries of a snapshot-layout file, recovering what a damaged file still holds.

A file can be torn (a crash mid-write left a block without its closing fence), edited by
hand (a bad value, a block deleted in part, CRLF line endings) or not be a memchat file at
all. Reading never fails for that: every complete entry is returned, and every part that
could not be read is described in `SnapshotRead.problems`, with its line number.

A fence is longer than any run of backticks in its block, so a line holding such a run
that is not the closing fence can only be the next block's opening: the block before it
was torn, and reading goes on with the next entry instead of swallowing it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from memory.entry import MemoryEntry
from memory.lazy_patterns import lazy_compile

MARKER = "<!-- memchat-snapshot: 1 -->"
SNAPSHOT_FIELDS = (
    "id",
    "key",
    "namespace",
    "category",
    "importance",
    "pinned",
    "source",
    "session_id",
    "timestamp",
    "updated_at",
    "superseded_by",
)
_FIELD = lazy_compile(r"^- (\w+): (.*)$")
_OPENING = lazy_compile(r"^(`{3,})(text|json)$")
_TORN = "the file ends inside it (cut off, e.g. by a crash mid-write); it was skipped"


@dataclass
class SnapshotRead:
    """What a file held: its complete entries, in file order, and what could not be read."""

    entries: list[MemoryEntry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """One line per part skipped, starting with "line N:" where there is a line to name."""
    has_marker: bool = True
    """False when the file is not a memchat file at all (then it holds no entries)."""
    open_fence: int = 0
    """Length of a fence left open at the end of the text (a torn write), else 0."""
    ends_clean: bool = False
    """No entry is left begun at the end: text appended is read as if read alone
    (`read_appended`)."""


def read_snapshot(text: str) -> SnapshotRead:
    """Every complete entry in `text` (read without newline translation) and its problems."""
    lines = text.removeprefix("\ufeff").split("\n")
    start = next(
        (i for i, line in enumerate(lines) if line.strip().removeprefix("\ufeff") == MARKER),
        None,
    )
    if start is None:
        return SnapshotRead(
            problems=[
                "not a memchat memory file (its marker line is missing); none of its text was read"
            ],
            has_marker=False,
        )
    if lines[start].endswith("\r"):
        # memchat never writes a raw "\r" (content holding one goes to a JSON block), so a
        # marker line ending in one means an editor saved the file with CRLF line endings.
        lines = [line.removesuffix("\r") for line in lines]
    return _Parser(lines).run(start + 1)


def read_snapshot_bytes(data: bytes) -> SnapshotRead:
    """`read_snapshot` for a file's bytes; bytes that are not UTF-8 are a problem, not an error."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        result = read_snapshot(data.decode("utf-8", errors="replace"))
        result.problems.insert(0, f"line {line}: bytes that are not UTF-8 were read as U+FFFD")
        return result
    return read_snapshot(text)


def read_appended(text: str) -> SnapshotRead:
    """The entries of `text` appended after a file whose read `ends_clean` with a newline.

    What the whole file would give after that file's entries: the parser's state there is
    its state at the start. A write reads only what it adds, not the file again (at 300
    memories in one file, reading it again was most of each write).
    """
    return _Parser(text.split("\n")).run(0)


def parse_snapshot(text: str) -> list[MemoryEntry]:
    """Entries from a snapshot's text; raises ValueError naming the first problem."""
    result = read_snapshot(text)
    if result.problems:
        raise ValueError(result.problems[0])
    return result.entries


def _describe(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "entry"
    return f"{where}: {first['msg']}"


class _Parser:
    """One pass over the lines after the marker."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.result = SnapshotRead()
        self.fields: dict[str, Any] = {}
        self.begun: int | None = None
        """Index of the current entry's first line (heading or field), if one has begun."""
        self.damaged = False
        """The current entry had a bad field (already reported): it is skipped."""
        self.closed_at = -1
        """Index of the last closing fence read."""
        self.torn_at = -1
        """Index of the last line when a fenced block ran to the end of the text."""

    def run(self, index: int) -> SnapshotRead:
        while index < len(self.lines):
            index = self._step(index)
        last = len(self.lines) - 1
        if self.begun is not None:
            if not self.damaged:
                self._problem(self.begun, f"entry {self._name()}: {_TORN}")
        elif self.lines[last].strip() and last not in (self.closed_at, self.torn_at):
            # memchat ends every file with a newline: a last line without one was cut off.
            self._problem(last, f"the last line: {_TORN}")
        self.result.ends_clean = self.begun is None and not self.result.open_fence
        return self.result

    def _step(self, index: int) -> int:
        line = self.lines[index].rstrip(" \t")
        opening = _OPENING.match(line)
        if opening:
            return self._block(index, opening.group(1), opening.group(2))
        if line == "##" or line.startswith("## "):
            self._reset()
            self.begun = index
            return index + 1
        field_line = _FIELD.match(line)
        if field_line and field_line.group(1) in SNAPSHOT_FIELDS:
            self._field(index, field_line.group(1), field_line.group(2))
        elif line and not self.fields:
            # A heading followed by prose is a person's note, not an entry.
            self.begun = None
        return index + 1

    def _field(self, index: int, name: str, value: str) -> None:
        if self.begun is None:
            self.begun = index
        try:
            self.fields[name] = json.loads(value)
        except json.JSONDecodeError as exc:
            if index == len(self.lines) - 1:
                self._problem(index, f"entry {self._name()}: {_TORN}")
            else:
                self._problem(index, f"bad {name} value ({exc.msg}); the entry was skipped")
            self.damaged = True

    def _block(self, index: int, fence: str, kind: str) -> int:
        """Read the fenced block opened at `index`; return the index to go on from."""
        for closing in range(index + 1, len(self.lines)):
            line = self.lines[closing]
            if line.rstrip(" \t") == fence:
                self._finish(index, kind, self.lines[index + 1 : closing])
                self.closed_at = closing
                return closing + 1
            if fence in line:
                self._problem(index, f"entry {self._name()} has no closing fence; it was skipped")
                self._clear()
                return self._resume(closing)
        self._problem(index, f"entry {self._name()}: {_TORN}")
        self.result.open_fence = len(fence)
        self.torn_at = len(self.lines) - 1
        self._clear()
        return len(self.lines)

    def _resume(self, opening: int) -> int:
        """Where the entry whose fence opens at `opening` begins: its heading or fields."""
        index = opening
        while index > 0:
            line = self.lines[index - 1].rstrip(" \t")
            if line.startswith("## ") or line == "##":
                return index - 1
            field_line = _FIELD.match(line)
            if line and not (field_line and field_line.group(1) in SNAPSHOT_FIELDS):
                break
            index -= 1
        return index

    def _finish(self, index: int, kind: str, body: list[str]) -> None:
        if self.damaged:
            self._clear()
            return
        text = "\n".join(body)
        try:
            content = json.loads(text) if kind == "json" else text
        except json.JSONDecodeError as exc:
            self._problem(index + 1, f"entry {self._name()}: bad JSON content ({exc.msg})")
            self._clear()
            return
        if not isinstance(content, str):
            self._problem(index + 1, f"entry {self._name()}: JSON content is not a string")
        else:
            try:
                self.result.entries.append(
                    MemoryEntry.model_validate({**self.fields, "content": content})
                )
            except ValidationError as exc:
                self._problem(index, f"entry {self._name()} skipped: {_describe(exc)}")
        self._clear()

    def _reset(self) -> None:
        """A new entry begins: one with fields and no content block is reported."""
        if self.fields and self.begun is not None and not self.damaged:
            self._problem(self.begun, f"entry {self._name()} has no content block; skipped")
        self._clear()

    def _clear(self) -> None:
        self.fields = {}
        self.begun = None
        self.damaged = False

    def _name(self) -> str:
        key = self.fields.get("key")
        if isinstance(key, str):
            shown = " ".join("".join(c if c.isprintable() else " " for c in key).split())
            return repr(shown[:40] + ("…" if len(shown) > 40 else ""))
        return "(no key)"

    def _problem(self, index: int, message: str) -> None:
        self.result.problems.append(f"line {index + 1}: {message}")
