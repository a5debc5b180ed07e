"""Counts read as English."""

from __future__ import annotations

import pytest

from memory.wording import counted, memories


@pytest.mark.parametrize(
    ("count", "expected"),
    [(0, "0 memories"), (1, "1 memory"), (2, "2 memories"), (12500, "12,500 memories")],
)
def test_the_noun_agrees_with_the_count(count: int, expected: str) -> None:
    assert memories(count) == expected


def test_other_nouns_take_their_own_plural() -> None:
    assert counted(1, "entry", "entries") == "1 entry"
    assert counted(3, "entry", "entries") == "3 entries"
