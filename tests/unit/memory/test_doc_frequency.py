"""Cached document frequencies stay equal to what FTS5's vocabulary says, whatever writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.sqlite.core import SqliteCore
from memory.sqlite.store import SqliteMemory
from tests.unit.memory.conftest import OpenStore

TERMS = ["garden", "fenc", "green", "tomato", "zebra"]


def cached_and_fresh(core: SqliteCore) -> tuple[dict[str, int], dict[str, int], bool]:
    warm = all(term in core.doc_frequencies for term in TERMS)
    cached = core.doc_frequencies.counts(TERMS)
    marks = ",".join("?" * len(TERMS))
    found = dict(
        core.conn.execute(
            f"SELECT term, doc FROM memories_vocab WHERE term IN ({marks})", TERMS
        ).fetchall()
    )
    return cached, {term: int(found.get(term, 0)) for term in TERMS}, warm


async def check(store: SqliteMemory, *, warm: bool | None = True) -> dict[str, int]:
    """Cached counts equal fresh ones; `warm`: whether every term was cached before."""
    cached, fresh, was_warm = await store._db.run(cached_and_fresh, store._core)
    assert cached == fresh
    assert warm is None or was_warm is warm
    return cached


async def test_counts_follow_every_kind_of_write_without_rereading(store: SqliteMemory) -> None:
    await store.store("fence", "The garden fence is green")
    assert (await check(store, warm=False))["garden"] == 1
    await store.store("tomatoes", "Tomatoes grow in the garden")
    assert (await check(store))["garden"] == 2
    await store.store("fence", "The garden fence is painted sage now")  # supersedes
    counts = await check(store)
    assert counts["garden"] == 3 and counts["green"] == 1
    await store.forget("fence")
    counts = await check(store)
    assert counts["garden"] == 1 and counts["fenc"] == 0
    exported = [e async for e in store.export()]
    await store.import_([e.model_copy(update={"id": "copy", "key": "copy"}) for e in exported])
    assert (await check(store))["tomato"] == 2


async def test_a_rolled_back_write_leaves_no_trace(store: SqliteMemory) -> None:
    await store.store("fence", "The garden fence is green")
    await check(store, warm=False)

    def failing_write(core: SqliteCore) -> None:
        with core.write():
            core.conn.execute("UPDATE memories SET terms = terms || ' zebra'")
            raise RuntimeError("disk trouble")

    with pytest.raises(RuntimeError):
        await store._db.run(failing_write, store._core)
    await store.store("tomatoes", "Tomatoes grow in the garden")  # a later write commits
    counts = await check(store, warm=None)
    assert counts["zebra"] == 0 and counts["garden"] == 2


async def test_a_write_outside_a_transaction_is_reread(store: SqliteMemory) -> None:
    await store.store("fence", "The garden fence is green")
    await check(store, warm=False)

    def stray_write(core: SqliteCore) -> None:
        core.conn.execute("UPDATE memories SET terms = terms || ' zebra'")

    await store._db.run(stray_write, store._core)
    assert (await check(store, warm=None))["zebra"] == 1


async def test_another_process_writes_are_seen(open_store: OpenStore, tmp_path: Path) -> None:
    first = await open_store(None)
    second = await open_store(None, path=tmp_path / "brain.db")
    await first.store("fence", "The garden fence is green")
    await check(first, warm=False)
    await second.store("tomatoes", "Tomatoes grow in the garden")
    await first.recall("garden")  # notices the other writer
    assert (await check(first, warm=False))["garden"] == 2
