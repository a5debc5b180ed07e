"""Write operations, run on the database thread; each is one transaction."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import numpy.typing as npt

from memory.entry import (
    DEFAULT_NAMESPACE,
    MAX_KEY_CHARS,
    MemoryEntry,
    normalize_category,
    utc_now,
)
from memory.errors import EmbeddingDimensionError, InvalidEntryError, MemoryStoreError
from memory.protocol import ImportSummary
from memory.records import MemoryRecord
from memory.sqlite.core import SqliteCore
from memory.sqlite.rows import ENTRY_COLUMNS, encode_vector, entry_from_row, format_time
from memory.text import index_text


@dataclass(frozen=True)
class NewMemory:
    """One entry to write; None fields keep an existing entry's value (or the default)."""

    key: str
    content: str
    category: str = "core"
    session_id: str | None = None
    namespace: str = DEFAULT_NAMESPACE
    importance: float | None = None
    pinned: bool | None = None
    source: str = "user"
    created_at: datetime | None = None


def _check_text(label: str, value: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidEntryError(
            f"{label} contains an unpaired surrogate (\\u{ord(value[exc.start]):04x}) at "
            f"position {exc.start}; it is not valid text"
        ) from None


def validate(item: NewMemory) -> NewMemory:
    """Reject what cannot be stored faithfully, with a message naming the field."""
    if not item.key.strip():
        raise InvalidEntryError("key must not be empty")
    if len(item.key) > MAX_KEY_CHARS:
        raise InvalidEntryError(f"key is longer than {MAX_KEY_CHARS} characters")
    if not item.namespace.strip():
        raise InvalidEntryError("namespace must not be empty")
    for label, value in (
        ("key", item.key),
        ("content", item.content),
        ("namespace", item.namespace),
        ("session_id", item.session_id or ""),
    ):
        _check_text(label, value)
    if item.importance is not None and not 0.0 <= item.importance <= 1.0:
        raise InvalidEntryError(f"importance must be between 0 and 1, got {item.importance}")
    try:
        category = normalize_category(item.category)
    except ValueError as exc:
        raise InvalidEntryError(str(exc)) from None
    return NewMemory(
        key=item.key,
        content=item.content,
        category=category,
        session_id=item.session_id,
        namespace=item.namespace,
        importance=item.importance,
        pinned=item.pinned,
        source=item.source,
        created_at=item.created_at,
    )


def _checked_blob(core: SqliteCore, vector: npt.NDArray[np.float32]) -> bytes:
    if vector.shape != (core.index.dimensions,):
        raise EmbeddingDimensionError(
            f"vector has {vector.shape[-1] if vector.ndim else 0} dimensions, the store "
            f"expects {core.index.dimensions} ({core.identity})"
        )
    return encode_vector(vector)


def _write_vector(
    conn: sqlite3.Connection,
    core: SqliteCore,
    seq: int,
    vector: npt.NDArray[np.float32] | None,
) -> None:
    """Store or clear one entry's vector (a stale vector is worse than none)."""
    if vector is None or core.identity is None:
        conn.execute("DELETE FROM memory_vectors WHERE seq = ?", (seq,))
        return
    conn.execute(
        "INSERT INTO memory_vectors (seq, embedding, dims, model) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (seq) DO UPDATE SET embedding = excluded.embedding, "
        "dims = excluded.dims, model = excluded.model",
        (seq, _checked_blob(core, vector), core.index.dimensions, core.identity),
    )


_INSERT = (
    "INSERT INTO memories (seq, id, namespace, key, content, category, session_id, importance, "
    "pinned, source, superseded_by, created_at, updated_at, terms) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)


def upsert(
    core: SqliteCore, item: NewMemory, vector: npt.NDArray[np.float32] | None
) -> MemoryEntry:
    """Insert, or update the entry under (namespace, key) keeping its id and creation time."""
    item = validate(item)
    if vector is not None:
        _checked_blob(core, vector)
    now = format_time(utc_now())
    terms = index_text(item.key, item.content)
    with core.write() as conn:
        existing = conn.execute(
            "SELECT seq FROM memories WHERE namespace = ? AND key = ?", (item.namespace, item.key)
        ).fetchone()
        if existing:
            seq = existing[0]
            conn.execute(
                "UPDATE memories SET content = ?, category = ?, session_id = ?, "
                "importance = coalesce(?, importance), pinned = coalesce(?, pinned), "
                "source = ?, superseded_by = NULL, updated_at = ?, terms = ? WHERE seq = ?",
                (
                    item.content,
                    item.category,
                    item.session_id,
                    item.importance,
                    item.pinned,
                    item.source,
                    now,
                    terms,
                    seq,
                ),
            )
        else:
            created = format_time(item.created_at) if item.created_at else now
            cursor = conn.execute(
                _INSERT,
                (
                    None,
                    uuid.uuid4().hex,
                    item.namespace,
                    item.key,
                    item.content,
                    item.category,
                    item.session_id,
                    0.5 if item.importance is None else item.importance,
                    bool(item.pinned),
                    item.source,
                    None,
                    created,
                    max(created, now),
                    terms,
                ),
            )
            seq = cursor.lastrowid
        _write_vector(conn, core, seq, vector)
        if vector is not None:
            core.cache_vectors([(item.content, vector)])
        row = conn.execute(f"SELECT {ENTRY_COLUMNS} FROM memories WHERE seq = ?", (seq,)).fetchone()
    core.after_write()
    return entry_from_row(row)


def bulk_insert(
    core: SqliteCore, items: Sequence[NewMemory], vectors: npt.NDArray[np.float32] | None
) -> int:
    """Insert many new entries in one transaction (bench and migration path)."""
    now = format_time(utc_now())
    checked = [validate(raw) for raw in items]
    blobs = (
        None
        if vectors is None or core.identity is None
        else [_checked_blob(core, vector) for vector in vectors]
    )
    with core.write() as conn:
        # Inside an IMMEDIATE transaction no other writer can take these row ids.
        first = conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM memories").fetchone()[0]
        rows = []
        for offset, item in enumerate(checked):
            created = format_time(item.created_at) if item.created_at else now
            rows.append(
                (
                    first + offset,
                    uuid.uuid4().hex,
                    item.namespace,
                    item.key,
                    item.content,
                    item.category,
                    item.session_id,
                    0.5 if item.importance is None else item.importance,
                    bool(item.pinned),
                    item.source,
                    None,
                    created,
                    created,
                    index_text(item.key, item.content),
                )
            )
        conn.executemany(_INSERT, rows)
        if blobs is not None:
            conn.executemany(
                "INSERT INTO memory_vectors (seq, embedding, dims, model) VALUES (?, ?, ?, ?)",
                [
                    (first + offset, blob, core.index.dimensions, core.identity)
                    for offset, blob in enumerate(blobs)
                ],
            )
    core.after_write()
    return len(rows)


def forget(core: SqliteCore, key: str, namespace: str) -> bool:
    """Delete the entry under key; True when a row went."""
    with core.write() as conn:
        removed = conn.execute(
            "DELETE FROM memories WHERE namespace = ? AND key = ?", (namespace, key)
        ).rowcount
    core.after_write()
    return removed > 0


def supersede(core: SqliteCore, old_ids: Sequence[str], new_id: str) -> int:
    """Point old entries at their replacement; the replacement itself must exist."""
    with core.write() as conn:
        if not conn.execute("SELECT 1 FROM memories WHERE id = ?", (new_id,)).fetchone():
            raise MemoryStoreError(f"cannot supersede: no entry with id {new_id!r}")
        changed = 0
        for old in old_ids:
            if old != new_id:
                changed += conn.execute(
                    "UPDATE memories SET superseded_by = ? WHERE id = ?", (new_id, old)
                ).rowcount
    core.after_write()
    return changed


def restore(core: SqliteCore, entry_id: str) -> MemoryEntry:
    """Reactivate an entry; an active successor becomes superseded by it (a flip)."""
    with core.write() as conn:
        row = conn.execute(
            "SELECT superseded_by FROM memories WHERE id = ?", (entry_id,)
        ).fetchone()
        if row is None:
            raise MemoryStoreError(f"cannot restore: no entry with id {entry_id!r}")
        successor = row[0]
        conn.execute("UPDATE memories SET superseded_by = NULL WHERE id = ?", (entry_id,))
        if successor is not None:
            conn.execute(
                "UPDATE memories SET superseded_by = ? WHERE id = ? AND superseded_by IS NULL",
                (entry_id, successor),
            )
        restored = conn.execute(
            f"SELECT {ENTRY_COLUMNS} FROM memories WHERE id = ?", (entry_id,)
        ).fetchone()
    core.after_write()
    return entry_from_row(restored)


def import_records(core: SqliteCore, records: Sequence[MemoryEntry]) -> ImportSummary:
    """Write records exactly as exported; a row with the same id or key is replaced."""
    summary = ImportSummary()
    with core.write() as conn:
        for record in records:
            validate(
                NewMemory(
                    key=record.key,
                    content=record.content,
                    category=record.category,
                    namespace=record.namespace,
                    session_id=record.session_id,
                )
            )
            replaced = conn.execute(
                "DELETE FROM memories WHERE id = ? OR (namespace = ? AND key = ?)",
                (record.id, record.namespace, record.key),
            ).rowcount
            if replaced:
                summary.replaced += 1
            else:
                summary.added += 1
            cursor = conn.execute(
                _INSERT,
                (
                    None,
                    record.id,
                    record.namespace,
                    record.key,
                    record.content,
                    record.category,
                    record.session_id,
                    record.importance,
                    record.pinned,
                    record.source,
                    record.superseded_by,
                    format_time(record.timestamp),
                    format_time(record.updated_at),
                    index_text(record.key, record.content),
                ),
            )
            embedding = record.embedding if isinstance(record, MemoryRecord) else None
            if embedding is not None:
                # Kept as exported, even from another model: reindex can replace it later.
                conn.execute(
                    "INSERT INTO memory_vectors (seq, embedding, dims, model) VALUES (?,?,?,?)",
                    (cursor.lastrowid, embedding.to_bytes(), embedding.dims, embedding.model),
                )
    core.after_write()
    return summary


_NEEDS_VECTOR = "FROM memories m LEFT JOIN memory_vectors v ON v.seq = m.seq WHERE v.model IS NOT ?"


def rows_needing_vectors(core: SqliteCore, after_seq: int, limit: int) -> list[tuple[int, str]]:
    """Entries whose vector is missing or from another model, in seq order after a cursor."""
    return core.conn.execute(
        f"SELECT m.seq, m.content {_NEEDS_VECTOR} AND m.seq > ? ORDER BY m.seq LIMIT ?",
        (core.identity, after_seq, limit),
    ).fetchall()


def count_needing_vectors(core: SqliteCore) -> int:
    """How many entries `reindex` would embed."""
    return int(
        core.conn.execute(f"SELECT count(*) {_NEEDS_VECTOR}", (core.identity,)).fetchone()[0]
    )


def set_vectors(
    core: SqliteCore, pairs: Sequence[tuple[int, str, npt.NDArray[np.float32]]]
) -> None:
    """Store fresh vectors for existing rows (without touching updated_at)."""
    with core.write() as conn:
        for seq, _content, vector in pairs:
            _write_vector(conn, core, seq, vector)
        core.cache_vectors([(content, vector) for _seq, content, vector in pairs])
    core.after_write()
