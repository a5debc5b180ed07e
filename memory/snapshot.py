"""MEMORY_SNAPSHOT.md: core memories a person can read and memchat can rebuild from.

Each entry is a heading (the key, for people), a list of fields as JSON values (for
exactness) and its content in a fenced block whose fence is longer than any run of
backticks inside, so every field round-trips.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import datetime

from memory.entry import MemoryEntry

MARKER = "<!-- memchat-snapshot: 1 -->"
_FIELDS = (
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
_FIELD = re.compile(r"^- (\w+): (.*)$")
_FENCE = re.compile(r"^(`{3,})text$")


def _fence(content: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    return "`" * max(3, longest + 1)


def render_snapshot(entries: Iterable[MemoryEntry], now: datetime) -> str:
    """The snapshot file's text."""
    lines = [
        "# memchat memory snapshot",
        "",
        f"Core memories as of {now:%Y-%m-%d %H:%M} UTC. When brain.db is missing, memchat",
        "rebuilds the store from this file. Each entry: a heading, its fields (JSON values)",
        "and its content in a fenced block.",
        "",
        MARKER,
        "",
    ]
    for entry in entries:
        data = entry.model_dump(mode="json", include=set(_FIELDS))
        lines.append(f"## {' '.join(entry.key.split()) or '(empty key)'}")
        lines.append("")
        lines.extend(f"- {name}: {json.dumps(data[name], ensure_ascii=False)}" for name in _FIELDS)
        lines.append("")
        fence = _fence(entry.content)
        lines.extend([f"{fence}text", entry.content, fence, ""])
    return "\n".join(lines)


def parse_snapshot(text: str) -> list[MemoryEntry]:
    """Entries from a snapshot's text; raises ValueError naming the line of a problem."""
    if MARKER not in text:
        raise ValueError("not a memchat snapshot (marker line missing)")
    lines = text.split("\n")
    entries: list[MemoryEntry] = []
    fields: dict[str, object] = {}
    number = lines.index(MARKER) + 1
    while number < len(lines):
        line = lines[number]
        field = _FIELD.match(line)
        fence = _FENCE.match(line)
        if field and field.group(1) in _FIELDS:
            try:
                fields[field.group(1)] = json.loads(field.group(2))
            except json.JSONDecodeError as exc:
                raise ValueError(f"line {number + 1}: bad value: {exc.msg}") from None
        elif fence:
            closing = lines.index(fence.group(1), number + 1)
            content = "\n".join(lines[number + 1 : closing])
            try:
                entries.append(MemoryEntry.model_validate({**fields, "content": content}))
            except ValueError as exc:
                raise ValueError(f"line {number + 1}: {str(exc).splitlines()[0]}") from None
            fields = {}
            number = closing
        number += 1
    return entries
