"""Stores made to look indexed by an older memchat, for the tests of re-indexing steps."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memory.entry import MemoryEntry
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


@dataclass(frozen=True)
class DatedMessage:
    """A saved message an older memchat indexed without its date terms, and a question of
    its day: what a re-indexing step that reads a day anew must make it found by."""

    key: str
    content: str
    said: datetime
    asked: str

    async def fill(self, store: Memory) -> None:
        """Write the message into `store`, as auto-saved."""
        entry = MemoryEntry(
            id=f"{self.key}-1",
            key=self.key,
            content=self.content,
            category="conversation",
            timestamp=self.said,
            updated_at=self.said,
            session_id="s1",
        )
        await store.import_([entry])

    async def found_alone(self, store: Memory) -> bool:
        """Whether asking of its day finds this message, and it alone."""
        found = (await store.recall(self.asked)).entries
        return [entry.key for entry in found] == [self.key]


def without_dates(terms: list[str]) -> list[str]:
    """The terms an older memchat gave a message whose day it did not read."""
    return [term for term in terms if not term.startswith("dt")]


async def sqlite_finds_again(folder: Path, message: DatedMessage, migration: str) -> bool:
    """Whether `migration`, run again on a store indexed before it, makes `message` found."""
    async with sqlite_as_before(
        folder, message.fill, message.key, without_dates, migration
    ) as again:
        return await message.found_alone(again)


async def postgres_finds_again(url: str, folder: Path, message: DatedMessage, step: str) -> bool:
    """`sqlite_finds_again`, for PostgreSQL and its re-indexing `step`."""
    async with postgres_as_before(
        url, folder, message.fill, message.key, without_dates, step
    ) as again:
        return await message.found_alone(again)
