"""A query whose every word is common still finds the memories that hold most of them."""

from __future__ import annotations

import pytest

from memory import retrieval
from memory.protocol import Memory
from tests.contract.conftest import needs

JEWELS = [
    ("j1", "ruby garnet necklace from grandma"),
    ("j2", "ruby garnet ring bought online"),
    ("j3", "garnet opal brooch for the wedding"),
    ("j4", "garnet opal pendant in the safe"),
    ("j5", "ruby opal earrings need repair"),
    ("j6", "ruby opal bracelet lost last year"),
]


async def test_a_query_of_common_words_no_memory_holds_all_of_finds_the_best_partial_matches(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an adversary: when every query word was over the row budget and no memory
    held them all, SQLite's and PostgreSQL's keyword lanes found nothing at all."""
    needs(memory, "persistent", "supports_keyword_search")
    monkeypatch.setattr(retrieval, "MATCH_ROW_BUDGET", 3)  # each word is in 4 memories
    for key, text in JEWELS:
        await memory.store(key, text, "daily")
    found = await memory.recall("ruby garnet opal", limit=3)
    by_keywords = [
        e.scores.keyword
        for e in found.entries
        if e.scores is not None and e.scores.lane in ("keyword", "both")
    ]
    assert by_keywords, found  # the keyword lane found some (it found none at all)
    assert all(score == pytest.approx(2 / 3, abs=0.05) for score in by_keywords)
