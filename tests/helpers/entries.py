"""Memory entries built for tests that need no store."""

from __future__ import annotations

from datetime import datetime, timedelta

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


def one_chat(start: datetime, *messages: str, session_id: str = "s1") -> list[MemoryEntry]:
    """`messages` saved in one chat a minute apart from `start`, with ids m0, m1, …"""
    return [
        MemoryEntry(
            id=f"m{at}",
            key=f"conversation/{session_id}/m{at}",
            content=text,
            category="conversation",
            timestamp=start + timedelta(minutes=at),
            updated_at=start + timedelta(minutes=at),
            session_id=session_id,
        )
        for at, text in enumerate(messages)
    ]
