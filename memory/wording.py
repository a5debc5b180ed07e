"""Words in messages people read: "1 memory", "2 memories", and notes said in several places."""

from __future__ import annotations


def counted(count: int, singular: str, plural: str) -> str:
    """The count and the noun that agrees with it, digits grouped with commas."""
    return f"{count:,} {singular if count == 1 else plural}"


def memories(count: int) -> str:
    """The count of memories in words: 1 memory, 2,500 memories."""
    return counted(count, "memory", "memories")


def without_vectors(count: int, model: str) -> str:
    """The note for memories that recall can find by keyword only, with what fixes it."""
    return (
        f"{memories(count)} {'has' if count == 1 else 'have'} no vector from {model} "
        "(the embedding model or its settings changed, it was not answering, or they were "
        "imported without one): recall finds them by keyword only. "
        "Run `memchat memory reindex` to embed them."
    )
