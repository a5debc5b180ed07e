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


TIARA = [
    ("x", "ruby garnet opal tiara from the museum"),
    ("a1", "topaz ruby charm"),
    ("a2", "topaz ruby chain"),
    ("b1", "topaz opal brooch"),
    ("b2", "topaz opal pin"),
    ("c1", "garnet ruby band"),
    ("c2", "garnet ruby clasp"),
    ("d1", "opal garnet locket"),
    ("e1", "ruby garnet cuff"),
]


async def test_a_memory_lacking_only_the_rarest_common_word_is_found_by_its_words(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an adversary: the narrowing kept the rarest words, so a memory holding
    every word but one of the rarest was never asked for (Qdrant found it)."""
    needs(memory, "persistent", "supports_keyword_search")
    monkeypatch.setattr(retrieval, "MATCH_ROW_BUDGET", 3)  # each word is in 4 to 6 memories
    for key, text in TIARA:
        await memory.store(key, text, "daily")
    found = await memory.recall("ruby garnet opal topaz", limit=5)
    lanes = {e.key: e.scores.lane for e in found.entries if e.scores is not None}
    assert lanes.get("x") in ("keyword", "both"), found


DIARY = [
    ("w1", "John writes his goals on the whiteboard every morning"),
    ("w2", "Maria writes shopping lists on the whiteboard"),
    *[(f"j{i}", f"John went running on day {i}") for i in range(8)],
]


async def test_a_word_in_nearly_every_memory_still_counts_for_the_one_that_holds_it(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A word found nearly everywhere is left out of the AND queries (they cost what its
    rows cost); the memory holding it with the rest must still come first."""
    needs(memory, "persistent", "supports_keyword_search")
    monkeypatch.setattr(retrieval, "MATCH_ROW_BUDGET", 1)  # every query word is common
    monkeypatch.setattr(retrieval, "WIDESPREAD_ROWS", 2)  # "john", in 9 of 10, is widespread
    for key, text in DIARY:
        await memory.store(key, text, "daily")
    found = await memory.recall("what does John write on the whiteboard", limit=3)
    keyword = {
        e.key: e.scores.keyword or 0.0
        for e in found.entries
        if e.scores is not None and e.scores.lane in ("keyword", "both")
    }
    assert found.entries[0].key == "w1", found
    assert keyword["w1"] > keyword.get("w2", 0.0)
