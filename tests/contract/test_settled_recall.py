"""A recall settled by a strong keyword match ("keyword-early"), alike on every backend.

Found by a new user: "my favourite colour is green" was settled by an earlier message
saying the same, and "My favourite editor is Helix" rode in with it on the one shared
word, never compared by meaning. A weaker hit now scores as the hybrid stage scores it at
the least its vector can count.
"""

from __future__ import annotations

import pytest

from memory.entry import VECTOR_SHARE_OF_KEYWORD
from memory.protocol import Memory
from memory.settings import MemorySettings
from tests.contract.conftest import OpenStore, needs


async def test_a_weak_hit_does_not_ride_in_on_the_match_that_settled_the_recall(
    memory: Memory, open_store: OpenStore
) -> None:
    needs(memory, "persistent", "supports_keyword_search", "supports_vectors")
    store = await open_store(min_relevance_score=0.3)
    await store.store("colour", "my favourite colour is green", "daily")
    await store.store("editor", "My favourite editor is Helix", "daily")
    found = await store.recall("my favourite colour is green", limit=5)
    assert found.mode == "keyword-early"
    assert [e.key for e in found.entries] == ["colour"]
    assert found.entries[0].score == pytest.approx(1.0)
    weak = next(e for e in found.below_floor if e.key == "editor")
    assert weak.scores is not None and weak.scores.keyword is not None
    settings = MemorySettings()
    least = (settings.vector_weight * VECTOR_SHARE_OF_KEYWORD + settings.keyword_weight) / (
        settings.vector_weight + settings.keyword_weight
    )
    assert weak.score == pytest.approx(least * weak.scores.keyword, abs=1e-6)
    assert weak.scores.keyword >= 0.3  # scored on its words alone it would have passed
    assert "a stronger keyword match settled it" in weak.scores.explanation(found.mode)


async def test_a_saved_copy_of_the_question_does_not_settle_the_recall(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by a new user: asking again matched the saved question by all its words, which
    settled the recall before the meaning search, so the message that answers it scored as
    unrelated and was cut. The question is held back and the recall searched without it."""
    needs(memory, "persistent", "supports_keyword_search", "supports_vectors")
    store = await open_store(min_relevance_score=0.0)
    await store.store("conversation/s1/a", "I planted basil on the balcony today", "conversation")
    await store.store("conversation/s1/b", "What should I cook tonight with basil?", "conversation")
    found = await store.recall("What should I cook tonight with basil?", limit=5)
    assert found.mode != "keyword-early"
    assert [e.key for e in found.entries] == ["conversation/s1/a"]
    scores = found.entries[0].scores
    assert scores is not None and scores.vector is not None  # compared by meaning
    held = [e for e in found.below_floor if e.key == "conversation/s1/b"]
    assert held and held[0].scores is not None and held[0].scores.held_back


async def test_saved_questions_do_not_take_the_slots_of_what_answers_them(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by a new user: four earlier questions about the same things took four of the
    five slots as "held back", and the message with the new price was not recalled at all
    (not even among those left out)."""
    needs(memory, "persistent", "supports_keyword_search")
    store = await open_store(min_relevance_score=0.0)
    await store.store("piano", "Maya's piano lessons cost $35 per lesson, Mondays 4pm")
    await store.store("conversation/s1/a", "fyi piano is now $40 a lesson", "conversation")
    asked = [
        "how much is maya's piano?",
        "how much are maya's piano lessons?",
        "when is maya's piano lesson?",
        "what does maya's piano cost?",
        "how much is the piano?",
        "maya's piano teacher, what's her name?",
    ]
    for number, question in enumerate(asked):
        await store.store(f"conversation/s{number + 2}/q", question, "conversation")
    found = await store.recall("how much is maya's piano?", limit=2)
    assert {e.key for e in found.entries} == {"piano", "conversation/s1/a"}
    held = [e for e in found.below_floor if e.scores is not None and e.scores.held_back]
    assert len(held) >= 1
