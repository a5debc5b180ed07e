"""A word of many letters, or a chain of them, is stored in one pass.

Found in this project's own contract suite: "x" * 50,000 took 30 s to store on every backend
(a value written with dots was looked for from each letter to the word's end), and an
adversary's chain "a-a-a-…" of 100,000 characters 82 s (someone's "… number" likewise).
Waited for as a state, with a bound a hundred times what it needs on a busy machine: the old
reading took a quarter of an hour at this length.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory


@pytest.mark.parametrize("text", ["x" * 300_000, "a-" * 150_000], ids=["a-word", "a-chain"])
async def test_a_long_word_is_stored_in_one_pass(tmp_path: Path, text: str) -> None:
    store = await SqliteMemory.open(
        tmp_path / "brain.db", MemorySettings(embedding_provider="none")
    )
    try:
        stored = await asyncio.wait_for(store.store("long", text, "daily"), timeout=120)
        assert stored.content == text
    finally:
        await store.close()
