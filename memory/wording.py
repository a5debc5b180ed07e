"""Counts in messages people read: "1 memory", "2 memories"."""

from __future__ import annotations


def counted(count: int, singular: str, plural: str) -> str:
    """The count and the noun that agrees with it, digits grouped with commas."""
    return f"{count:,} {singular if count == 1 else plural}"


def memories(count: int) -> str:
    """The count of memories in words: 1 memory, 2,500 memories."""
    return counted(count, "memory", "memories")
