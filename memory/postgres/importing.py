"""A PostgreSQL import: SQLite's import rules, and each batch in one COPY and one INSERT.

Rows go by binary COPY into a temporary table, then into `memories` with one
`INSERT … SELECT … ON CONFLICT`, so the statement triggers count a batch's terms in one
pass. A large import drops the HNSW index first and builds it once at the end: pgvector
builds an index about ten times faster than it inserts into one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg

from memory.entry import MemoryEntry
from memory.import_rules import ImportPlan, plan_import, repeated_ids, successor_ids
from memory.postgres.schema import COLUMNS, escape, to_entry
from memory.postgres.writes import row_values
from memory.protocol import ImportSummary

_STAGING_COLUMNS = f"{COLUMNS}, terms, embedding, embedding_model, content_hash"
_STAGING_TYPES = [
    "text",
    "text",
    "text",
    "text",
    "timestamptz",
    "timestamptz",
    "text",
    "text",
    "float8",
    "text",
    "bool",
    "text",
    "text[]",
    "vector",
    "text",
    "text",
]
_STAGING = """
CREATE TEMP TABLE IF NOT EXISTS memchat_staging (
    id text, key text, content text, category text, ts timestamptz, updated_at timestamptz,
    session_id text, namespace text, importance float8, superseded_by text, pinned bool,
    source text, terms text[], embedding vector, embedding_model text, content_hash text
) ON COMMIT DELETE ROWS
"""
_FROM_STAGING = f"""
INSERT INTO memories ({COLUMNS}, terms, tsv, embedding, embedding_model, content_hash)
SELECT {COLUMNS}, terms, array_to_tsvector(terms), embedding, embedding_model, content_hash
FROM memchat_staging
ON CONFLICT (id) DO UPDATE SET
    key = EXCLUDED.key, content = EXCLUDED.content, category = EXCLUDED.category,
    ts = EXCLUDED.ts, updated_at = EXCLUDED.updated_at, session_id = EXCLUDED.session_id,
    namespace = EXCLUDED.namespace, importance = EXCLUDED.importance,
    superseded_by = EXCLUDED.superseded_by, pinned = EXCLUDED.pinned,
    source = EXCLUDED.source, terms = EXCLUDED.terms, tsv = EXCLUDED.tsv,
    embedding = EXCLUDED.embedding, embedding_model = EXCLUDED.embedding_model,
    content_hash = EXCLUDED.content_hash
"""
_COPY_AS_HISTORY = f"""
INSERT INTO memories ({COLUMNS}, terms, tsv, embedding, embedding_model, content_hash)
SELECT c.fresh, key, content, category, ts, updated_at, session_id, namespace, importance,
       c.successor, pinned, source, terms, tsv, embedding, embedding_model, content_hash
FROM memories JOIN unnest(%s::text[], %s::text[], %s::text[]) AS c (stored, fresh, successor)
    ON memories.id = c.stored
"""
_SET_ASIDE = """
UPDATE memories SET superseded_by = h.winner
FROM unnest(%s::text[], %s::text[], %s::text[], %s::timestamptz[])
    AS h (namespace, key, winner, updated)
WHERE memories.namespace = h.namespace AND memories.key = h.key
    AND memories.superseded_by IS NULL AND NOT (memories.id = ANY(%s))
RETURNING memories.superseded_by, memories.updated_at > h.updated
"""

VECTOR_INDEX = (
    "CREATE INDEX IF NOT EXISTS memories_embedding ON memories "
    "USING hnsw (embedding vector_cosine_ops)"
)
REBUILD_AT_LEAST = 2_000
"""Records an import brings before the vector index is dropped and built again after."""


SAFE_PARALLEL_BUILD = (0, 8, 2)
"""pgvector's first version whose parallel HNSW build is safe: 0.6.0 to 0.8.1 have a buffer
overflow there (CVE-2026-3172, pgvector issue 959)."""


def parallel_build_is_safe(version: str) -> bool:
    """Whether pgvector `version` ("0.6.2") may build an HNSW index with parallel workers."""
    try:
        parts = tuple(int(part) for part in version.split(".")[:3])
    except ValueError:
        return False
    return parts >= SAFE_PARALLEL_BUILD


def is_bulk(records: int) -> bool:
    """Whether an import of `records` is large enough for the bulk steps."""
    return records >= REBUILD_AT_LEAST


def rebuilds_index(adding: int, stored: int) -> bool:
    """Whether adding `adding` records to `stored` rows is faster with the index built after.

    A build costs about a tenth of an insert per row, but over every row.
    """
    return is_bulk(adding) and adding * 10 >= stored


async def plan_batch(
    conn: psycopg.AsyncConnection[Any], batch: Sequence[MemoryEntry], summary: ImportSummary
) -> ImportPlan:
    """The import rules' plan for `batch`, against what is stored under its ids."""
    cursor = await conn.execute(
        f"SELECT {COLUMNS} FROM memories WHERE id = ANY(%s)", ([item.id for item in batch],)
    )
    stored = {entry.id: entry for entry in map(to_entry, await cursor.fetchall())}
    history = []
    if repeated := repeated_ids(batch):
        cursor = await conn.execute(
            f"SELECT {COLUMNS} FROM memories WHERE superseded_by = ANY(%s)", (repeated,)
        )
        history = [to_entry(row) for row in await cursor.fetchall()]
    successors = {}
    if replacing := successor_ids(stored.values()):
        cursor = await conn.execute(
            f"SELECT {COLUMNS} FROM memories WHERE id = ANY(%s)", (replacing,)
        )
        successors = {entry.id: entry for entry in map(to_entry, await cursor.fetchall())}
    return plan_import(batch, stored, summary, history, successors)


async def write_batch(
    conn: psycopg.AsyncConnection[Any],
    plan: ImportPlan,
    vectors: Mapping[str, Any],
    identity: str | None,
    summary: ImportSummary,
) -> None:
    """Write a planned batch inside the caller's transaction."""
    if plan.copies:
        await conn.execute(
            _COPY_AS_HISTORY,
            (
                [c.stored_id for c in plan.copies],
                [c.fresh_id for c in plan.copies],
                [c.successor for c in plan.copies],
            ),
        )
    await conn.execute(_STAGING)
    async with conn.cursor() as cursor:
        async with cursor.copy(
            f"COPY memchat_staging ({_STAGING_COLUMNS}) FROM STDIN (FORMAT BINARY)"
        ) as copy:
            copy.set_types(_STAGING_TYPES)
            for entry in plan.entries:
                values = row_values(entry, vectors.get(entry.id), identity)
                await copy.write_row(values[:13] + values[14:])  # staged without `tsv`
        await cursor.execute(_FROM_STAGING)
        holders = list(plan.holders.items())
        if holders:
            when = {entry.id: entry.updated_at for entry in plan.entries}
            await cursor.execute(
                _SET_ASIDE,
                (
                    [namespace for (namespace, _), _ in holders],
                    [escape(key) for (_, key), _ in holders],
                    [winner for _, winner in holders],
                    [when[winner] for _, winner in holders],
                    [entry.id for entry in plan.entries],
                ),
            )
            rows = await cursor.fetchall()
            winners = Counter(row[0] for row in rows)
            newer = {row[0] for row in rows if row[1]}
            for winner, count in winners.items():
                plan.set_aside(winner, count, summary, newer=winner in newer)
