"""The shared write rules (`memory.write_rules`) over one PostgreSQL transaction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg

from memory.entry import MemoryEntry
from memory.errors import InvalidEntryError
from memory.postgres.schema import COLUMNS, escape, lexemes, to_entry, tsquery
from memory.postgres.vectors import PgVector
from memory.text import entry_terms
from memory.write_policy import SIMILAR_LIMIT, content_hash, lookup_terms
from memory.write_rules import Vector

UPSERT = f"""
INSERT INTO memories ({COLUMNS}, terms, tsv, embedding, embedding_model, content_hash)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, array_to_tsvector(%s::text[]),
        %s::vector, %s, %s)
ON CONFLICT (id) DO UPDATE SET
    key = EXCLUDED.key, content = EXCLUDED.content, category = EXCLUDED.category,
    ts = EXCLUDED.ts, updated_at = EXCLUDED.updated_at, session_id = EXCLUDED.session_id,
    namespace = EXCLUDED.namespace, importance = EXCLUDED.importance,
    superseded_by = EXCLUDED.superseded_by, pinned = EXCLUDED.pinned,
    source = EXCLUDED.source, terms = EXCLUDED.terms, tsv = EXCLUDED.tsv,
    embedding = EXCLUDED.embedding, embedding_model = EXCLUDED.embedding_model,
    content_hash = EXCLUDED.content_hash
RETURNING (xmax = 0)
"""

_KEEP_VECTOR = UPSERT.replace(
    "embedding = EXCLUDED.embedding, embedding_model = EXCLUDED.embedding_model,", ""
)
"""The same upsert, leaving a stored row's vector as it is."""

WRITE_LOCK = "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.memchat_writes'))"
"""Taken by every rule-checked write: two writers cannot both miss each other's entry."""


NAMES = ("id", "namespace", "session_id", "source", "superseded_by")
"""Fields matched exactly in SQL, stored as given (a key and content are escaped)."""


def refuse_nul_in_names(entry: MemoryEntry) -> None:
    """PostgreSQL text cannot hold a NUL; a name holding one is refused, naming the field.

    Found by an adversary: such a record made an import fail with an internal error.
    """
    for name in NAMES:
        refuse_nul(name, getattr(entry, name))


def refuse_nul(name: str, value: object) -> None:
    """Refuse a NUL in the name `name` (see `refuse_nul_in_names`)."""
    if isinstance(value, str) and "\x00" in value:
        raise InvalidEntryError(
            f"{name} contains a NUL character (\\x00), which PostgreSQL cannot store "
            "in a name (the sqlite and qdrant backends can)"
        )


def row_values(entry: MemoryEntry, vector: Vector | None, identity: str | None) -> tuple[Any, ...]:
    """`entry`'s values in `UPSERT`'s order (the terms twice: as stored and for `tsv`)."""
    terms = lexemes(entry_terms(entry.key, entry.content, entry.timestamp))
    return (
        entry.id,
        escape(entry.key),
        escape(entry.content),
        entry.category,
        entry.timestamp,
        entry.updated_at,
        entry.session_id,
        entry.namespace,
        entry.importance,
        entry.superseded_by,
        entry.pinned,
        entry.source,
        terms,
        terms,
        None if vector is None else PgVector(vector),
        None if vector is None else identity,
        content_hash(entry.content),
    )


class PostgresRules:
    """`RuleEngine` over one connection inside the writing transaction."""

    def __init__(
        self,
        conn: psycopg.AsyncConnection[Any],
        row: Callable[[MemoryEntry, Vector | None], tuple[Any, ...]],
    ) -> None:
        self.conn = conn
        self.row = row

    async def _entries(self, query: str, params: tuple[Any, ...]) -> list[MemoryEntry]:
        cursor = await self.conn.execute(query, params)
        return [to_entry(row) for row in await cursor.fetchall()]

    async def key_holder(self, namespace: str, key: str) -> MemoryEntry | None:
        """See `RuleEngine.key_holder`."""
        found = await self._entries(
            f"SELECT {COLUMNS} FROM memories WHERE namespace = %s AND key = %s "
            "ORDER BY superseded_by IS NOT NULL, updated_at DESC, id LIMIT 1",
            (namespace, escape(key)),
        )
        return found[0] if found else None

    async def exact_duplicate(
        self, namespace: str, category: str, digest: str
    ) -> MemoryEntry | None:
        """See `RuleEngine.exact_duplicate`."""
        found = await self._entries(
            f"SELECT {COLUMNS} FROM memories WHERE namespace = %s AND category = %s "
            "AND content_hash = %s AND superseded_by IS NULL ORDER BY ts, id LIMIT 1",
            (namespace, category, digest),
        )
        return found[0] if found else None

    async def sharing_words(
        self, namespace: str, category: str, content: str, exclude_key: str
    ) -> list[MemoryEntry]:
        """See `RuleEngine.sharing_words`: most shared terms first, then newest."""
        terms = lexemes(lookup_terms(content))
        if not terms:
            return []
        return await self._entries(
            f"SELECT {COLUMNS} FROM memories WHERE namespace = %s AND category = %s "
            "AND superseded_by IS NULL AND key <> %s AND tsv @@ %s::tsquery "
            "ORDER BY (SELECT count(*) FROM unnest(terms) AS t WHERE t = ANY(%s)) DESC, "
            "updated_at DESC, id LIMIT %s",
            (namespace, category, escape(exclude_key), tsquery(terms), terms, SIMILAR_LIMIT),
        )

    async def put(self, entry: MemoryEntry, vector: Vector | None, *, keep_vector: bool) -> None:
        """See `RuleEngine.put`."""
        refuse_nul_in_names(entry)
        await self.conn.execute(_KEEP_VECTOR if keep_vector else UPSERT, self.row(entry, vector))

    async def mark_superseded(self, entries: list[MemoryEntry], successor: str) -> None:
        """See `RuleEngine.mark_superseded`."""
        await self.conn.execute(
            "UPDATE memories SET superseded_by = %s WHERE id = ANY(%s)",
            (successor, [entry.id for entry in entries]),
        )
