"""A store with an embedder but no stored vector says its recall is keyword-only."""

from __future__ import annotations

from pathlib import Path

from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder


async def test_recall_over_rows_without_vectors_says_keyword_only(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    plain = await SqliteMemory.open(path, MemorySettings(embedding_provider="none"))
    await plain.store("pet", "The user's cat is called Miso")
    await plain.close()

    settings = MemorySettings(embedding_provider="hashing", embedding_dimensions=32)
    embedded = await SqliteMemory.open(path, settings, CountingEmbedder(32))
    try:
        result = await embedded.recall("what is the cat called")
        assert result.mode == "keyword"
        assert result.degraded is not None and "no stored memory has a vector" in result.degraded
        assert [e.key for e in result.entries] == ["pet"]
        empty = await embedded.recall("nothing matches this")
        assert empty.degraded is None  # nothing to search: nothing to warn about
    finally:
        await embedded.close()
