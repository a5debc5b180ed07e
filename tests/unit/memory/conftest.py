"""Stores for memory tests, closed after each test."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memory.embedding.base import Embedder
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder

DIMS = 64

OpenStore = Callable[..., Awaitable[SqliteMemory]]


def settings(**overrides: Any) -> MemorySettings:
    base: dict[str, Any] = {"embedding_provider": "hashing", "embedding_dimensions": DIMS}
    base.update(overrides)
    return MemorySettings(**base)


@pytest.fixture
async def open_store(tmp_path: Path) -> AsyncIterator[OpenStore]:
    """Factory: open a store at tmp_path/brain.db (or a given path) with given settings."""
    opened: list[SqliteMemory] = []

    async def factory(
        embedder: Embedder | None = None, path: Path | None = None, **overrides: Any
    ) -> SqliteMemory:
        store = await SqliteMemory.open(
            path or tmp_path / "brain.db", settings(**overrides), embedder
        )
        opened.append(store)
        return store

    yield factory
    for store in opened:
        await store.close()


@pytest.fixture
async def store(open_store: OpenStore) -> SqliteMemory:
    """A keyword-only store (no embedder)."""
    return await open_store(None)


@pytest.fixture
async def hybrid(open_store: OpenStore) -> SqliteMemory:
    """A store with the deterministic counting embedder."""
    return await open_store(CountingEmbedder(DIMS))


@contextlib.contextmanager
def as_before(path: Path, migration: str) -> Iterator[sqlite3.Connection]:
    """The store's file as a memchat from before `migration` left it.

    What the block writes, and the migration not yet applied (it runs at the next open).
    """
    conn = sqlite3.connect(path)
    try:
        yield conn
        conn.execute("DELETE FROM schema_migrations WHERE name = ?", (migration,))
        conn.commit()
    finally:
        conn.close()
