"""The derived state (vector index, counts) follows the file even when updating it fails,
and a committed write is never reported as failed because of it."""

from __future__ import annotations

import sqlite3
from typing import Any

from memory.sqlite import writes
from memory.testing import CountingEmbedder
from tests.unit.memory.conftest import DIMS, OpenStore


class FailingReplay:
    """Fails the change-log replay that follows a commit, once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.failed = False

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if not self.failed and "FROM memory_changes WHERE change_id >" in sql:
            self.failed = True
            raise sqlite3.OperationalError("disk I/O error")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


async def test_a_failed_replay_after_commit_keeps_the_write_and_heals(
    open_store: OpenStore,
) -> None:
    store = await open_store(CountingEmbedder(DIMS))
    await store.store("first", "apples and pears", "daily")
    core = store._core  # noqa: SLF001 - the seam is the connection the core reads with
    real = core.conn
    core.conn = FailingReplay(real)  # type: ignore[assignment]
    stored = await store.store("second", "bananas and cherries", "daily")  # acknowledged
    assert core.conn.failed  # type: ignore[attr-defined]
    core.conn = real
    assert (await store.get("second")) is not None
    result = await store.recall("bananas cherries")
    assert [e.id for e in result.entries][:1] == [stored.id]
    assert (await store.stats()).with_embedding == 2  # the index was rebuilt from the file


async def test_reindex_selection_can_be_limited_to_a_namespace(open_store: OpenStore) -> None:
    plain = await open_store(None)
    await plain.store("a", "in default", "daily")
    await plain.store_with_metadata("b", "in work", "daily", namespace="work")
    await plain.close()
    store = await open_store(CountingEmbedder(DIMS))  # every entry lacks its vector
    core = store._core  # noqa: SLF001
    assert writes.count_needing_vectors(core) == 2
    assert writes.count_needing_vectors(core, "work") == 1
    assert [content for _, content in writes.rows_needing_vectors(core, 0, 10, "work")] == [
        "in work"
    ]
