"""Memory entries built for tests that need no store."""

from __future__ import annotations

from datetime import datetime

from memory.entry import MemoryEntry


def written_entry(key: str, content: str, category: str, written: datetime) -> MemoryEntry:
    """An entry with `key` as its id, saved and last updated at `written`."""
    return MemoryEntry(
        id=key,
        key=key,
        content=content,
        category=category,
        timestamp=written,
        updated_at=written,
    )
