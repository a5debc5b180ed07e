"""Small differences in what recall reports, found by comparing backends."""

from __future__ import annotations

from memory.protocol import Memory
from memory.retrieval import RecallQuery
from memory.testing import CountingEmbedder
from tests.contract.conftest import needs


async def test_a_memory_found_by_meaning_alone_shows_a_keyword_score_of_zero(
    memory: Memory,
) -> None:
    """Found by an adversary: SQLite showed `keyword 0.00`, Qdrant and PostgreSQL `—`."""
    needs(memory, "persistent", "supports_vectors")
    text = "The user's cat is called Miso"
    await memory.store("pet", text)
    (vector,) = await CountingEmbedder(64).embed([text])
    found = await memory.search(RecallQuery("zebra", limit=3, query_vector=vector))
    shown = [*found.entries, *found.below_floor]
    assert shown and shown[0].key == "pet" and shown[0].scores is not None
    assert shown[0].scores.lane == "vector"
    assert shown[0].scores.keyword == 0.0
