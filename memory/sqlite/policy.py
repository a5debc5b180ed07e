"""SQLite's lookup of the entries a write compares itself with (the rules: `write_policy`)."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from memory.sqlite.rows import parse_time
from memory.text import fts_match_expression
from memory.write_policy import (
    SIMILAR_LIMIT,
    Similar,
    lookup_terms,
    ranked_similar,
    said_of_other_days,
)


def similar_active(
    conn: sqlite3.Connection,
    namespace: str,
    category: str,
    content: str,
    exclude_key: str,
    limit: int = SIMILAR_LIMIT,
    said: datetime | None = None,
) -> list[Similar]:
    """Active entries of the same namespace and category that share words, most similar first.

    With `said` (when `content` is said), not those naming other days in its words
    (`said_of_other_days`).
    """
    terms = lookup_terms(content)
    if not terms:
        return []
    rows = conn.execute(
        "SELECT m.seq, m.id, m.key, m.content, m.created_at FROM memories_fts JOIN memories m "
        "ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ? AND m.namespace = ? "
        "AND m.category = ? AND m.superseded_by IS NULL AND m.key != ? "
        "ORDER BY memories_fts.rank LIMIT ?",
        (fts_match_expression(terms), namespace, category, exclude_key, limit),
    ).fetchall()
    return ranked_similar(
        content,
        [
            (seq, entry_id, key, other)
            for seq, entry_id, key, other, created in rows
            if said is None or not said_of_other_days(content, said, other, parse_time(created))
        ],
    )
