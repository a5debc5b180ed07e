"""MEMORY_SNAPSHOT.md: core memories a person can read and memchat can rebuild from.

The markdown backend's files use the same layout. After a marker line, each entry is a
block: a heading (the key, for people), its fields as JSON values (for exactness) and its
content in a fenced block whose fence is longer than any run of backticks inside.

Content that a text file or an editor would not keep exactly (a carriage return, another
line separator, a control character, trailing spaces) goes into a ```` ```json ```` block
holding one JSON string instead of a ```` ```text ```` block; everything else stays plain
text for people to read. memchat never writes a raw carriage return, so a file an editor
saved with CRLF line endings reads back the same. Parsing is in `memory.snapshot_parser`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import datetime
from functools import lru_cache

from memory.date_term_names import local_time
from memory.entry import MemoryEntry
from memory.lazy_patterns import lazy_compile
from memory.snapshot_parser import (
    MARKER,
    SNAPSHOT_FIELDS,
    SnapshotRead,
    parse_snapshot,
    read_snapshot,
    read_snapshot_bytes,
)

__all__ = [
    "MARKER",
    "SnapshotRead",
    "parse_snapshot",
    "read_snapshot",
    "read_snapshot_bytes",
    "render_block",
    "render_header",
    "render_snapshot",
    "to_json",
]

# Written as JSON `\u` escapes rather than as themselves: C0 and C1 controls and DEL (a
# terminal would interpret them), line and paragraph separators (other tools split lines
# on them), bidirectional controls (they reorder what a person sees) and lone surrogates
# (UTF-8 cannot even encode them).
_SPECIAL = "\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff"
_ESCAPED = lazy_compile(f"[\x00-\x1f{_SPECIAL}]")
_NOT_PLAIN = lazy_compile(f"[\x00-\x08\x0b-\x1f{_SPECIAL}]|[ \t](?:\n|$)")


def to_json(value: object) -> str:
    """`value` as one line of JSON that survives a text file and a terminal exactly."""
    # Outside an escape sequence json.dumps leaves these characters raw, so replacing each
    # one by its escape cannot break an escape that is already there.
    return _ESCAPED.sub(
        lambda match: f"\\u{ord(match.group()):04x}", json.dumps(value, ensure_ascii=False)
    )


def _plain(content: str) -> bool:
    """Whether `content` reads back exactly from a ```` ```text ```` block.

    Tabs and newlines are kept as they are; any other escaped character, and spaces at the
    end of a line (editors strip them), send the content to a JSON block.
    """
    return _NOT_PLAIN.search(content) is None


def _fence(body: str, minimum: int) -> str:
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    return "`" * max(3, minimum, longest + 1)


def _heading(key: str) -> str:
    # For people only (the key field is exact): one line, nothing a terminal interprets.
    shown = " ".join("".join(c if c.isprintable() else " " for c in key).split())
    return shown or "(empty key)"


def render_header(title: str, description: Iterable[str]) -> str:
    """The lines before the first entry: a title, a few lines for people, the marker."""
    return "\n".join([f"# {title}", "", *description, "", MARKER, ""])


class _Written:
    """An entry as its block is cached by: what the block shows of it, and nothing else."""

    __slots__ = ("entry", "shown")

    def __init__(self, entry: MemoryEntry) -> None:
        self.entry = entry
        self.shown = (entry.content, *(getattr(entry, name) for name in SNAPSHOT_FIELDS))

    def __hash__(self) -> int:
        return hash(self.shown)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Written) and self.shown == other.shown


def render_block(entry: MemoryEntry, min_fence: int = 3) -> str:
    """One entry's block, starting with a blank line and ending with a newline.

    `min_fence` lengthens the fence, so that a block appended after a fence left open by a
    torn write is recognised as the start of a new entry (see `SnapshotRead.open_fence`).
    """
    return _block(_Written(entry), min_fence)


@lru_cache(maxsize=16_384)
def _block(written: _Written, min_fence: int) -> str:
    # The snapshot is written again after each core fact's change, every block anew: at
    # 3,000 facts rendering took ~0.2 s of each write, all but one block as before.
    entry = written.entry
    data = entry.model_dump(mode="json", include=set(SNAPSHOT_FIELDS))
    if _plain(entry.content):
        kind, body = "text", entry.content
    else:
        kind, body = "json", to_json(entry.content)
    fence = _fence(body, min_fence)
    lines = [
        "",
        f"## {_heading(entry.key)}",
        "",
        *(f"- {name}: {to_json(data[name])}" for name in SNAPSHOT_FIELDS),
        "",
        f"{fence}{kind}",
        body,
        fence,
        "",
    ]
    return "\n".join(lines)


def render_snapshot(entries: Iterable[MemoryEntry], now: datetime) -> str:
    """The snapshot file's text (its time where the user is, as the app shows times)."""
    local = local_time(now)
    zone = f"{local:%Z}" or "UTC"
    header = render_header(
        "memchat memory snapshot",
        [
            f"Core memories as of {local:%Y-%m-%d %H:%M} {zone}. When brain.db is missing, memchat",
            "rebuilds the store from this file. Each entry: a heading, its fields (JSON values)",
            "and its content in a fenced block.",
        ],
    )
    return header + "".join(render_block(entry) for entry in entries)
