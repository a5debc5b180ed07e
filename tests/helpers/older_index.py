"""Stores made to look indexed by an older memchat, for the tests of re-indexing steps."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from memory.factory import open_memory
from memory.postgres.schema import migrations
from memory.postgres.store import PostgresMemory
from memory.protocol import Memory
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from tests.helpers.postgres import fresh_schema


def keyword_only() -> MemorySettings:
    """SQLite with no embedder and no hot cache: keyword scores alone."""
    return MemorySettings(embedding_provider="none", hot_cache_ttl_s=0)


def qdrant_hashing() -> MemorySettings:
    """Qdrant's embedded engine, the hashing embedder (64 dimensions), no follow-ups."""
    return MemorySettings(
        backend="qdrant",
        embedding_provider="hashing",
        embedding_dimensions=64,
        hot_cache_ttl_s=0,
        conversation_context_weight=0.0,
    )


def postgres_keyword_only(url: str) -> MemorySettings:
    """PostgreSQL in a schema of its own, no embedder and no hot cache."""
    return MemorySettings(
        backend="postgres",
        embedding_provider="none",
        hot_cache_ttl_s=0,
        postgres_url=url,
        postgres_schema=fresh_schema(),
    )


async def postgres_indexed_before(
    settings: MemorySettings, key: str, older: Callable[[list[str]], list[str]], step: str
) -> None:
    """Give `key`'s row the terms `older` makes of its own, and undo `step` and those after.

    The next open runs the step again, as it would on a store an older memchat wrote.
    """
    import psycopg

    async with await psycopg.AsyncConnection.connect(
        settings.postgres_url, autocommit=True
    ) as conn:
        await conn.execute(f'SET search_path TO "{settings.postgres_schema}", public')
        cursor = await conn.execute("SELECT terms FROM memories WHERE key = %s", (key,))
        row = await cursor.fetchone()
        assert row is not None, key
        terms = older(list(row[0]))
        await conn.execute(
            "UPDATE memories SET terms = %s, tsv = array_to_tsvector(%s::text[]) WHERE key = %s",
            (terms, terms, key),
        )
        first = migrations(settings.embedding_dimensions).index(step) + 1
        await conn.execute("DELETE FROM memchat_schema_version WHERE version >= %s", (first,))


@asynccontextmanager
async def postgres_as_before(
    url: str,
    folder: Path,
    fill: Callable[[Memory], Awaitable[None]],
    key: str,
    older: Callable[[list[str]], list[str]],
    step: str,
) -> AsyncIterator[Memory]:
    """A PostgreSQL store `fill` wrote, `key`'s row indexed as before `step`, opened again.

    The open runs `step` and those after it, as on a store an older memchat wrote.
    """
    settings = postgres_keyword_only(url)
    store = await open_memory(settings, folder, None)
    assert isinstance(store, PostgresMemory)
    await fill(store)
    await store.close()
    await postgres_indexed_before(settings, key, older, step)
    again = await open_memory(settings, folder, None)
    try:
        yield again
    finally:
        await again.close()


@asynccontextmanager
async def sqlite_as_before(
    folder: Path,
    fill: Callable[[Memory], Awaitable[None]],
    key: str,
    older: Callable[[list[str]], list[str]],
    migration: str,
) -> AsyncIterator[Memory]:
    """A SQLite store `fill` wrote, `key`'s row indexed as before `migration`, opened again.

    The open runs `migration` again, as on a store an older memchat wrote.
    """
    path = folder / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await fill(store)
    await store.close()
    conn = sqlite3.connect(path)
    try:
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = ?", (key,)).fetchone()
        conn.execute(
            "UPDATE memories SET terms = ? WHERE key = ?", (" ".join(older(terms.split())), key)
        )
        conn.execute("DELETE FROM schema_migrations WHERE name = ?", (migration,))
        conn.commit()
    finally:
        conn.close()
    again = await SqliteMemory.open(path, keyword_only())
    try:
        yield again
    finally:
        await again.close()
