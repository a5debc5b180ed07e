"""A saved message taken back (Esc before any reply) and sent again is in memory again."""

from __future__ import annotations

from pathlib import Path

from agent.bringing_back import RESTORED, SAID_AGAIN, back_since
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory


async def test_a_message_taken_back_and_sent_again_reads_as_said_again(tmp_path: Path) -> None:
    """Found by a new user, an allotment's secretary: the deleted view listed the message
    she had stopped before any reply, then sent again, as forgotten."""
    store = await SqliteMemory.open(tmp_path / "b.db", MemorySettings(embedding_provider="none"))
    try:
        said = "Siobhan paid at the mtg last night, €40"
        first = await store.store_with_metadata("conversation/s1/a", said, "conversation", "s1")
        await store.forget(first.key)
        other = await store.store_with_metadata("conversation/s2/a", "gone", "conversation", "s2")
        await store.forget(other.key)
        fact = await store.store("fee", "The annual fee is €40", "core")
        await store.forget(fact.key)
        assert store.lifecycle is not None
        log = list(await store.lifecycle.audit_log(limit=10))
        assert await back_since(store, log) == {}
        await store.store_with_metadata("conversation/s1/b", said, "conversation", "s1")
        await store.store_with_metadata("conversation/s3/a", "gone", "conversation", "s3")
        await store.store("fee", "The annual fee is €40", "core")
        log = list(await store.lifecycle.audit_log(limit=10))
        assert await back_since(store, log) == {first.id: SAID_AGAIN, fact.id: RESTORED}
    finally:
        await store.close()
