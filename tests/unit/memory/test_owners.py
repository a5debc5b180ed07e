"""Whose fact a memory states, and whom a question asks about (`memory.owners`)."""

from __future__ import annotations

import pytest

from memory.owners import CLAIM_TERM, MINE_TERM, SELF_TERM, asks_of, owner_rank, owner_terms


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("I live in Lisbon", [SELF_TERM, CLAIM_TERM]),
        ("I asked Bob where he lives", [SELF_TERM]),
        ("Now I'm working at Acme", [SELF_TERM, CLAIM_TERM]),
        ("The user prefers tea", [SELF_TERM]),
        ("Remember that I went to Porto", [SELF_TERM]),
        ("My sister Ana lives in Porto", [MINE_TERM]),
        ("The user's cat is called Miso", [MINE_TERM]),
        ("The user's home is in Lisbon", [SELF_TERM, CLAIM_TERM]),
        ("My email is jo@example.com", [SELF_TERM]),
        ("Bob lives in Berlin", []),
        ("Bob's cat is called Rex", []),
        ("The printer is in room 4", []),
        ("", []),
    ],
)
def test_whose_fact_a_memory_states(text: str, terms: list[str]) -> None:
    assert owner_terms(text) == terms


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("where do I live?", "self"),
        ("am I allergic to anything", "self"),
        ("what is my cat called", "mine"),
        ("where does Bob live", None),
        ("write a haiku about autumn", None),
    ],
)
def test_whom_a_question_asks_about(query: str, asked: str | None) -> None:
    assert asks_of(query) == asked


def test_the_users_own_facts_first_then_theirs_then_others() -> None:
    claim = frozenset(owner_terms("The user's home is in Lisbon"))
    own, theirs = frozenset({SELF_TERM}), frozenset({MINE_TERM})
    other = frozenset({"bob"})
    assert [owner_rank("self", t) for t in (claim, own, theirs, other)] == [0, 1, 2, 3]
    assert [owner_rank("mine", t) for t in (claim, own, theirs, other)] == [0, 0, 0, 3]
    assert [owner_rank(None, t) for t in (claim, own, theirs, other)] == [0, 0, 0, 0]
