"""Write operations, run on the database thread; each is one transaction."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from memory.entry import MAX_KEY_CHARS, MemoryEntry, utc_now
from memory.errors import EmbeddingDimensionError
from memory.sqlite.core import SqliteCore
from memory.sqlite.history import audit_row
from memory.sqlite.policy import similar_active
from memory.sqlite.rows import (
    ENTRY_COLUMNS,
    encode_vector,
    entry_from_row,
    format_time,
    parse_time,
    time_or_none,
)
from memory.text import index_text
from memory.write_policy import (
    Similar,
    content_hash,
    for_existing_key,
    is_core_update,
    key_for_another_day,
    merge_note,
    needs_similar,
    place_new,
    said_of_other_days,
)
from memory.write_rules import (
    NewMemory,
    another_one,
    keys_beside,
    keys_of_its_own,
    may_move,
    moves_one_of_several,
    validate,
    version_at,
)


def _checked_blob(core: SqliteCore, vector: npt.NDArray[np.float32]) -> bytes:
    if vector.shape != (core.dimensions,):
        raise EmbeddingDimensionError(
            f"vector has {vector.shape[-1] if vector.ndim else 0} dimensions, the store "
            f"expects {core.dimensions} ({core.identity})"
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
        (seq, _checked_blob(core, vector), core.dimensions, core.identity),
    )


MEMORY_COLUMNS = (
    "seq, id, namespace, key, content, category, session_id, importance, pinned, source, "
    "superseded_by, created_at, updated_at, terms, content_hash"
)
"""The columns of a new `memories` row, in the order `_new_row` gives its values."""
INSERT_SQL = f"INSERT INTO memories ({MEMORY_COLUMNS}) VALUES ({','.join('?' * 15)})"


def upsert(
    core: SqliteCore, item: NewMemory, vector: npt.NDArray[np.float32] | None
) -> MemoryEntry:
    """Write one entry, applying the lifecycle rules in one transaction.

    Same key: unchanged content only refreshes metadata; a changed core fact supersedes
    the old version (kept as history); other categories update in place, keeping id and
    creation time. New key: an exact duplicate is not stored twice; a near-duplicate is
    merged, rejected or kept per `duplicate_policy`; a core fact about the same subject as
    active ones supersedes them.
    """
    item = validate(item)
    if vector is not None:
        _checked_blob(core, vector)
    settings = core.settings
    now = format_time(utc_now())
    digest = content_hash(item.content)
    supersedes: list[int] = []
    same_key_superseded: list[str] = []
    with core.write() as conn:
        # The active row for the key. A key holding only history is written as a new key
        # (`memory.write_rules`): updating that history in place lost it.
        holder = _active_holder(conn, item)
        said = parse_time(format_time(item.created_at, "created_at") if item.created_at else now)
        if (
            holder is not None
            and not item.by_hand
            and said_of_other_days(item.content, said, holder[6], parse_time(holder[7]))
        ):
            item = replace(item, key=key_for_another_day(item.key, said, MAX_KEY_CHARS))
            holder = _active_holder(conn, item)
        kept_apart: frozenset[int] = frozenset()
        if holder is None or item.by_hand:
            pass
        elif another_one(item.content, said, holder[6], parse_time(holder[7])):
            kept_apart = frozenset({holder[0]})
            item, holder = _under_a_key_of_its_own(conn, item, said, kept_apart)
        elif may_move(item.content):
            held = [holder, *_held_beside(conn, item)]
            meant = moves_one_of_several(item.content, [row[6] for row in held])
            if meant:
                kept_apart = frozenset(held[at][0] for at in meant)
                item, holder = _under_a_key_of_its_own(conn, item, said, kept_apart)
        is_core = is_core_update(item.category, settings)
        if holder is None:
            seq, supersedes = _place_new(conn, core, item, now, said, digest, is_core, kept_apart)
            if seq < 0:
                seq, vector = -seq, None  # an existing entry absorbed the write
        else:
            # A core fact keeps its history whatever the write calls itself
            # (`memory.write_rules`).
            kept_core = is_core or is_core_update(holder[5], settings)
            action = for_existing_key(
                active=holder[2] is None,
                same_content=holder[1] == digest,
                is_core=kept_core,
                same_text=holder[6] == item.content,
            )
            if action == "refresh":
                seq = _update_metadata(conn, holder[0], item, now)
            elif action == "new version":
                inherited = replace(
                    item,
                    importance=holder[3] if item.importance is None else item.importance,
                    pinned=bool(holder[4]) if item.pinned is None else item.pinned,
                )
                # The old version steps aside before the new one takes the key (keys are
                # unique among active rows), so the new id is chosen first.
                new_id = uuid.uuid4().hex
                conn.execute(
                    "UPDATE memories SET superseded_by = ? WHERE seq = ?", (new_id, holder[0])
                )
                previous_id = conn.execute(
                    "SELECT id FROM memories WHERE seq = ?", (holder[0],)
                ).fetchone()[0]
                seq = _insert(conn, inherited, now, digest, entry_id=new_id)
                same_key_superseded = [previous_id]
            else:
                seq = _update_in_place(conn, holder[0], item, now, digest)
        if vector is not None:
            _write_vector(conn, core, seq, vector)
            core.embeddings.put([(item.content, vector)])
        ids = same_key_superseded + _supersede_rows(conn, supersedes, seq)
        row = conn.execute(f"SELECT {ENTRY_COLUMNS} FROM memories WHERE seq = ?", (seq,)).fetchone()
    core.after_write()
    entry = entry_from_row(row)
    entry.supersedes = ids
    return entry


def _under_a_key_of_its_own(
    conn: sqlite3.Connection, item: NewMemory, said: datetime, kept_apart: frozenset[int]
) -> tuple[NewMemory, tuple[Any, ...] | None]:
    """`item` under the first key of its own (`memory.write_rules.keys_of_its_own`).

    A key holding what it was kept apart from is passed by.
    """
    for key in keys_of_its_own(item.key):
        moved = replace(item, key=key)
        holder = _active_holder(conn, moved)
        if holder is not None and holder[0] in kept_apart:
            continue
        if holder is None or version_at(item.content, said, holder[6], parse_time(holder[7])):
            return moved, holder
    return item, _active_holder(conn, item)


def _held_beside(conn: sqlite3.Connection, item: NewMemory) -> list[tuple[Any, ...]]:
    """The active rows under the key's own keys ("dentist_2", …), up to the first free one."""
    beside: list[tuple[Any, ...]] = []
    for key in keys_beside(item.key):
        row = _active_holder(conn, replace(item, key=key))
        if row is None:
            break
        beside.append(row)
    return beside


def _active_holder(conn: sqlite3.Connection, item: NewMemory) -> tuple[Any, ...] | None:
    row: tuple[Any, ...] | None = conn.execute(
        "SELECT seq, content_hash, superseded_by, importance, pinned, category, content, "
        "created_at FROM memories "
        "WHERE namespace = ? AND key = ? AND superseded_by IS NULL LIMIT 1",
        (item.namespace, item.key),
    ).fetchone()
    return row


def _place_new(
    conn: sqlite3.Connection,
    core: SqliteCore,
    item: NewMemory,
    now: str,
    said: datetime,
    digest: str,
    is_core: bool,
    kept_apart: frozenset[int] = frozenset(),
) -> tuple[int, list[int]]:
    """Where a new key's content goes; a negative seq means an existing row took it.

    `said`: when the content was said (its creation time). `kept_apart`: the rows it was
    found another one of, which it replaces not (`memory.write_rules`).
    """
    duplicate = conn.execute(
        "SELECT seq, created_at FROM memories WHERE namespace = ? AND category = ? "
        "AND content_hash = ? AND superseded_by IS NULL ORDER BY seq DESC LIMIT 1",
        (item.namespace, item.category, digest),
    ).fetchone()
    if duplicate and not said_of_other_days(
        item.content, said, item.content, parse_time(duplicate[1])
    ):
        return -duplicate[0], []
    if not needs_similar(item.category):
        return _insert(conn, item, now, digest), []
    similar = similar_active(conn, item.namespace, item.category, item.content, item.key, said=said)
    similar = [s for s in similar if s.seq not in kept_apart]
    placement = place_new(item.content, similar, core.settings, is_core=is_core)
    target = placement.target
    if placement.action == "keep existing" and target is not None:
        return -target.seq, []
    if placement.action == "refresh existing" and target is not None:
        conn.execute(
            "UPDATE memories SET importance = max(importance, coalesce(?, importance)), "
            "pinned = max(pinned, coalesce(?, pinned)), updated_at = ? WHERE seq = ?",
            (item.importance, item.pinned, now, target.seq),
        )
        return -target.seq, []
    if placement.action == "merge" and target is not None:
        return _merge(conn, target, item, now, digest)
    return _insert(conn, item, now, digest), [s.seq for s in placement.conflicts]


def _merge(
    conn: sqlite3.Connection, near: Similar, item: NewMemory, now: str, digest: str
) -> tuple[int, list[int]]:
    """Merge a near-duplicate into the entry `near` without losing either text.

    The new text becomes the entry's next version under the stored key, and the old
    version stays as superseded history (restorable), with an audit row.
    """
    importance, pinned = conn.execute(
        "SELECT importance, pinned FROM memories WHERE seq = ?", (near.seq,)
    ).fetchone()
    merged = replace(
        item,
        key=near.key,
        importance=importance if item.importance is None else max(importance, item.importance),
        pinned=bool(pinned) or bool(item.pinned),
    )
    # The old version steps aside before the new one takes its key (unique among active rows).
    new_id = uuid.uuid4().hex
    conn.execute("UPDATE memories SET superseded_by = ? WHERE seq = ?", (new_id, near.seq))
    audit_row(
        conn,
        near.seq,
        now,
        "merge",
        merge_note(item.key, near.id),
    )
    return _insert(conn, merged, now, digest, entry_id=new_id), [near.seq]


def _new_row(
    item: NewMemory, seq: int | None, entry_id: str, created: str, updated: str, digest: str
) -> tuple[object, ...]:
    """The values of one new `memories` row, in `INSERT_SQL`'s order."""
    return (
        seq,
        entry_id,
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
        updated,
        index_text(item.key, item.content, parse_time(created)),
        digest,
    )


def _insert(
    conn: sqlite3.Connection, item: NewMemory, now: str, digest: str, entry_id: str = ""
) -> int:
    created = format_time(item.created_at, "created_at") if item.created_at else now
    row = _new_row(item, None, entry_id or uuid.uuid4().hex, created, max(created, now), digest)
    return int(conn.execute(INSERT_SQL, row).lastrowid or 0)


def _update_in_place(
    conn: sqlite3.Connection,
    seq: int,
    item: NewMemory,
    now: str,
    digest: str,
) -> int:
    (created,) = conn.execute("SELECT created_at FROM memories WHERE seq = ?", (seq,)).fetchone()
    conn.execute(
        "UPDATE memories SET content = ?, category = ?, session_id = ?, "
        "importance = coalesce(?, importance), pinned = coalesce(?, pinned), source = ?, "
        "superseded_by = NULL, updated_at = ?, terms = ?, content_hash = ? WHERE seq = ?",
        (
            item.content,
            item.category,
            item.session_id,
            item.importance,
            item.pinned,
            item.source,
            now,
            index_text(item.key, item.content, time_or_none(created)),
            digest,
            seq,
        ),
    )
    conn.execute("DELETE FROM memory_vectors WHERE seq = ?", (seq,))
    return seq


def _update_metadata(conn: sqlite3.Connection, seq: int, item: NewMemory, now: str) -> int:
    conn.execute(
        "UPDATE memories SET category = ?, session_id = ?, importance = coalesce(?, importance), "
        "pinned = coalesce(?, pinned), source = ?, updated_at = ? WHERE seq = ?",
        (item.category, item.session_id, item.importance, item.pinned, item.source, now, seq),
    )
    return seq


def _supersede_rows(conn: sqlite3.Connection, seqs: list[int], new_seq: int) -> list[str]:
    if not seqs:
        return []
    new_id = conn.execute("SELECT id FROM memories WHERE seq = ?", (new_seq,)).fetchone()[0]
    marks = ",".join("?" * len(seqs))
    ids = [r[0] for r in conn.execute(f"SELECT id FROM memories WHERE seq IN ({marks})", seqs)]
    conn.execute(f"UPDATE memories SET superseded_by = ? WHERE seq IN ({marks})", (new_id, *seqs))
    return ids


_STAGING = "memchat_bulk_rows"
"""A TEMP table: this connection's alone, and part of its transactions."""


def insert_many(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
    """Insert `memories` rows (`INSERT_SQL`'s values) with one statement.

    Inserted one statement per row, the full-text trigger makes FTS5 write out its
    pending terms after every row: 10,000 rows took 0.6 s, against 0.15 s when they go
    in together from a staging table of this connection (no constraints, no affinity, so
    every value reaches `memories` as bound).
    """
    if not rows:
        return
    conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {_STAGING} ({MEMORY_COLUMNS})")
    conn.execute(f"DELETE FROM temp.{_STAGING}")
    marks = ",".join("?" * len(rows[0]))
    conn.executemany(f"INSERT INTO temp.{_STAGING} VALUES ({marks})", rows)
    conn.execute(
        f"INSERT INTO main.memories ({MEMORY_COLUMNS}) "
        f"SELECT {MEMORY_COLUMNS} FROM temp.{_STAGING} ORDER BY seq"
    )
    conn.execute(f"DELETE FROM temp.{_STAGING}")


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
            created = format_time(item.created_at, "created_at") if item.created_at else now
            rows.append(
                _new_row(
                    item,
                    first + offset,
                    uuid.uuid4().hex,
                    created,
                    created,
                    content_hash(item.content),
                )
            )
        insert_many(conn, rows)
        if blobs is not None:
            conn.executemany(
                "INSERT INTO memory_vectors (seq, embedding, dims, model) VALUES (?, ?, ?, ?)",
                [
                    (first + offset, blob, core.dimensions, core.identity)
                    for offset, blob in enumerate(blobs)
                ],
            )
    core.after_write()
    return len(rows)


# Missing, from another model, damaged (a size that disagrees with its dimensions), or all
# zeros (a server's bad answer, stored before such answers were refused).
_NEEDS_VECTOR = (
    "FROM memories m LEFT JOIN memory_vectors v ON v.seq = m.seq WHERE (v.model IS NOT ? "
    "OR length(v.embedding) != 4 * v.dims OR v.embedding = zeroblob(length(v.embedding)))"
)


def _in_namespace(namespace: str | None) -> tuple[str, tuple[str, ...]]:
    return ("", ()) if namespace is None else (" AND m.namespace = ?", (namespace,))


def rows_needing_vectors(
    core: SqliteCore, after_seq: int, limit: int, namespace: str | None = None
) -> list[tuple[int, str]]:
    """Entries whose vector is missing, stale or damaged, in seq order after a cursor.

    Only `namespace`'s entries when given; every namespace's when None.
    """
    clause, params = _in_namespace(namespace)
    return core.conn.execute(
        f"SELECT m.seq, m.content {_NEEDS_VECTOR}{clause} AND m.seq > ? ORDER BY m.seq LIMIT ?",
        (core.identity, *params, after_seq, limit),
    ).fetchall()


def count_needing_vectors(core: SqliteCore, namespace: str | None = None) -> int:
    """How many entries `reindex` would embed (in `namespace`, or in all when None)."""
    clause, params = _in_namespace(namespace)
    query = f"SELECT count(*) {_NEEDS_VECTOR}{clause}"
    return int(core.conn.execute(query, (core.identity, *params)).fetchone()[0])


def set_vectors(
    core: SqliteCore, pairs: Sequence[tuple[int, str, npt.NDArray[np.float32]]]
) -> None:
    """Store fresh vectors for existing rows (without touching updated_at)."""
    with core.write() as conn:
        for seq, _content, vector in pairs:
            _write_vector(conn, core, seq, vector)
        core.embeddings.put([(content, vector) for _seq, content, vector in pairs])
    core.after_write()
