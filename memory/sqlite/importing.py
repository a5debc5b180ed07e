"""Import: exported records written back, setting aside (never deleting) what they change.

Rules, per record, all in one transaction:
- its id belongs to an entry in another namespace: it is added under a fresh id
  (renumbered), so editing an export's namespace copies memories instead of moving them;
- same id, identical fields: nothing changes (importing one export twice is a no-op);
- same id, different fields: the stored version is kept as a superseded entry under a
  fresh id (superseded by the record), and audited;
- an active record for a key whose active entry has another id: that entry becomes
  superseded by the record (restorable with `restore`), and audited.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from memory.entry import MemoryEntry, utc_now
from memory.errors import InvalidEntryError
from memory.import_rules import next_active_versions, replaced_later, replaced_since
from memory.protocol import ImportSummary
from memory.record_checks import CheckedRecord, check_records, naming_record
from memory.sqlite.core import SqliteCore
from memory.sqlite.history import AUDIT_COLUMNS, AUDITED
from memory.sqlite.rows import format_time, parse_time
from memory.sqlite.writes import insert_many
from memory.text import index_text
from memory.upsert import usable_vector
from memory.write_policy import content_hash

AUDIT_ACTION = "import"


@dataclass(frozen=True)
class _Vector:
    blob: bytes
    dims: int
    model: str


@dataclass(frozen=True)
class _Row:
    """One record, validated and in stored form."""

    id: str
    namespace: str
    key: str
    content: str
    category: str
    session_id: str | None
    importance: float
    pinned: bool
    source: str
    superseded_by: str | None
    created_at: str
    updated_at: str
    vector: _Vector | None
    renumbered: bool = False

    def fields(self) -> tuple[object, ...]:
        """What makes two versions the same entry (derived columns left out)."""
        return (
            self.namespace,
            self.key,
            self.content,
            self.category,
            self.session_id,
            float(self.importance),
            bool(self.pinned),
            self.source,
            self.superseded_by,
            self.created_at,
            self.updated_at,
        )


_STORED = (
    "seq, namespace, key, content, category, session_id, importance, pinned, source, "
    "superseded_by, created_at, updated_at"
)


def _prepare(record: MemoryEntry, checked: CheckedRecord) -> _Row:
    """One record (checked by `check_records`) in stored form."""
    fields, vector = checked.fields, checked.vector
    return _Row(
        id=record.id,
        namespace=fields.namespace,
        key=fields.key,
        content=fields.content,
        category=fields.category,
        session_id=fields.session_id,
        importance=float(record.importance),
        pinned=bool(record.pinned),
        source=record.source,
        superseded_by=record.superseded_by,
        created_at=format_time(record.timestamp, "timestamp"),
        updated_at=format_time(record.updated_at, "updated_at"),
        vector=None if vector is None else _Vector(vector.blob, vector.dims, vector.model),
    )


def prepare_all(
    records: Sequence[MemoryEntry], identity: str | None = None, dimensions: int | None = None
) -> list[_Row]:
    """Every record checked before anything is written (one bad record writes nothing).

    A vector claiming our model (`identity`) is stored at unit length, and not at all when
    it cannot be one of ours (another size, all zeros, too large to normalise): the row is
    then left for `reindex`, and counted as without a vector, as the other backends embed
    it again. Before, such a row was counted as embedded and never found by meaning.
    """
    rows = []
    for number, (record, checked) in enumerate(
        zip(records, check_records(records), strict=True), start=1
    ):
        with naming_record(number, record):
            row = _prepare(record, checked)
        if row.vector is not None and identity is not None and row.vector.model == identity:
            given = np.frombuffer(row.vector.blob, dtype="<f4")
            unit = usable_vector(given, dimensions)
            vector = (
                None if unit is None else _Vector(unit.astype("<f4").tobytes(), unit.size, identity)
            )
            row = replace(row, vector=vector)
        rows.append(row)
    return rows


def _renumber(conn: sqlite3.Connection, rows: list[_Row]) -> list[_Row]:
    """Fresh ids for records whose id another namespace holds (the store or a record).

    `superseded_by` links between the records follow the renamed ids.
    """
    holders: dict[str, str] = {}
    ids = sorted({row.id for row in rows})
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        holders.update(
            conn.execute(f"SELECT id, namespace FROM memories WHERE id IN ({marks})", chunk)
        )
    fresh: dict[tuple[str, str], str] = {}
    for row in rows:
        holder = holders.setdefault(row.id, row.namespace)
        if holder != row.namespace and (row.id, row.namespace) not in fresh:
            fresh[(row.id, row.namespace)] = uuid.uuid4().hex
    if not fresh:
        return rows
    renamed = []
    for row in rows:
        new_id = fresh.get((row.id, row.namespace))
        successor = None if row.superseded_by is None else (row.superseded_by, row.namespace)
        renamed.append(
            replace(
                row,
                id=new_id or row.id,
                renumbered=new_id is not None,
                superseded_by=fresh.get(successor, row.superseded_by) if successor else None,
            )
        )
    return renamed


def _audit(conn: sqlite3.Connection, seq: int, now: str, reason: str) -> None:
    conn.execute(
        f"INSERT INTO memory_audit ({AUDIT_COLUMNS}) SELECT ?, ?, ?, {AUDITED} FROM memories "
        "WHERE seq = ?",
        (now, AUDIT_ACTION, reason, seq),
    )


def _set_aside_same_id(conn: sqlite3.Connection, seq: int, row: _Row, now: str) -> None:
    """Keep the stored version of `row.id` as superseded history under a fresh id."""
    kept_id = uuid.uuid4().hex
    conn.execute(
        "UPDATE memories SET id = ?, superseded_by = ? WHERE seq = ?", (kept_id, row.id, seq)
    )
    _audit(
        conn,
        seq,
        now,
        f"an import changed entry {row.id}; its earlier version is kept as superseded "
        f"entry {kept_id} (restore it to bring it back)",
    )


def _set_aside_key_holder(conn: sqlite3.Connection, row: _Row, now: str) -> bool | None:
    """Make the active entry holding an active record's key superseded by the record.

    None when there was none; otherwise whether it was updated after the record.
    """
    if row.superseded_by is not None:
        return None
    holder = conn.execute(
        "SELECT seq, id, updated_at FROM memories WHERE namespace = ? AND key = ? "
        "AND superseded_by IS NULL AND id != ?",
        (row.namespace, row.key, row.id),
    ).fetchone()
    if holder is None:
        return None
    conn.execute("UPDATE memories SET superseded_by = ? WHERE seq = ?", (row.id, holder[0]))
    _audit(
        conn,
        holder[0],
        now,
        f"an import made entry {row.id} the active entry for this key; this one is kept "
        f"as superseded entry {holder[1]} (restore it to bring it back)",
    )
    return bool(holder[2] > row.updated_at)


def _write_vector(conn: sqlite3.Connection, seq: int, vector: _Vector) -> None:
    # Kept as exported, even from another model: reindex can replace it later.
    conn.execute(
        "INSERT INTO memory_vectors (seq, embedding, dims, model) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (seq) DO UPDATE SET embedding = excluded.embedding, "
        "dims = excluded.dims, model = excluded.model",
        (seq, vector.blob, vector.dims, vector.model),
    )


class _PendingInserts:
    """Records to add, held back to go into `memories` together (`insert_many`).

    Inserted one statement each, every row made FTS5 write out its pending terms. A record
    whose id or key a held-back row has sends them in first, so each rule reads the store
    as if every record before it had been written in turn.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._next_seq = int(
            conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM memories").fetchone()[0]
        )
        self._rows: list[tuple[object, ...]] = []
        self._vectors: list[tuple[int, _Vector]] = []
        self._ids: set[str] = set()
        self._keys: set[tuple[str, str]] = set()

    def touches(self, row: _Row) -> bool:
        """Whether a held-back row has `row`'s id or key."""
        return row.id in self._ids or (row.namespace, row.key) in self._keys

    def add(self, row: _Row) -> None:
        seq = self._next_seq
        self._next_seq += 1
        terms = index_text(row.key, row.content, parse_time(row.created_at))
        # `fields` lists the stored columns in `MEMORY_COLUMNS`' order, between id and terms.
        self._rows.append((seq, row.id, *row.fields(), terms, content_hash(row.content)))
        if row.vector is not None:
            self._vectors.append((seq, row.vector))
        self._ids.add(row.id)
        self._keys.add((row.namespace, row.key))

    def flush(self) -> None:
        """Write the held-back rows, then their vectors (which refer to them)."""
        insert_many(self._conn, self._rows)
        for seq, vector in self._vectors:
            _write_vector(self._conn, seq, vector)
        self._rows.clear()
        self._vectors.clear()
        self._ids.clear()
        self._keys.clear()


def _import_one(
    conn: sqlite3.Connection,
    row: _Row,
    now: str,
    summary: ImportSummary,
    pending: _PendingInserts,
    successor: str | None,
    replaced_later: bool,
) -> None:
    """Write one record.

    `successor`: the next active record for its key in this import; `replaced_later`: a
    later record of this import has its id (see `_kept_as_history`).
    """
    if pending.touches(row):
        pending.flush()
    if replaced_later and _kept_as_history(conn, row):
        summary.unchanged += 1
        return
    stored = conn.execute(f"SELECT {_STORED} FROM memories WHERE id = ?", (row.id,)).fetchone()
    changed = False
    went_back = False
    if stored is not None:
        # Superseded by the record after it is what this import would make of it; replaced
        # here since the export was taken, it stays so (`memory.import_rules.replaced_since`).
        if (
            _same(stored, row)
            or (successor is not None and _same(stored, replace(row, superseded_by=successor)))
            or _replaced_here_since(conn, stored, row)
        ):
            summary.unchanged += 1
            has_vector = conn.execute(
                "SELECT 1 FROM memory_vectors WHERE seq = ?", (stored[0],)
            ).fetchone()
            if row.vector is not None and has_vector is None:
                _write_vector(conn, stored[0], row.vector)  # fills a gap, replaces nothing
            return
        _set_aside_same_id(conn, stored[0], row, now)
        summary.kept_as_history += 1
        changed = True
        went_back = stored[11] > row.updated_at
    holder_newer = _set_aside_key_holder(conn, row, now)
    if holder_newer is not None:
        summary.kept_as_history += 1
        changed = True
        went_back = went_back or holder_newer
    if went_back:
        summary.older_than_replaced += 1
    pending.add(row)
    if changed:
        summary.replaced += 1
    else:
        summary.added += 1
    if row.renumbered:
        summary.renumbered += 1


def _replaced_here_since(conn: sqlite3.Connection, stored: tuple[object, ...], row: _Row) -> bool:
    """`memory.import_rules.replaced_since` for the stored row of the record's id."""
    successor = stored[9]
    if successor is None:
        return False
    place = conn.execute(
        "SELECT namespace, key FROM memories WHERE id = ?", (successor,)
    ).fetchone()
    return (
        replaced_since(row.superseded_by, successor, place, (row.namespace, row.key))
        and str(stored[11]) >= row.updated_at
        and _same(stored, replace(row, superseded_by=str(successor), updated_at=str(stored[11])))
    )


def _kept_as_history(conn: sqlite3.Connection, row: _Row) -> bool:
    """Whether the store keeps `row` as history of its own id already.

    A record that a later record of the same import replaces is written as that history;
    importing the same file again added another copy each time (found by an adversary).
    """
    as_kept = replace(row, superseded_by=row.id)
    return any(
        _same(stored, as_kept)
        for stored in conn.execute(
            f"SELECT {_STORED} FROM memories WHERE namespace = ? AND key = ? AND superseded_by = ?",
            (row.namespace, row.key, row.id),
        )
    )


def _same(stored: tuple[object, ...], row: _Row) -> bool:
    """Stored columns equal to the record's (SQLite gives pinned back as 0 or 1)."""
    values = list(stored[1:])
    try:
        values[5] = float(values[5])  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False  # a damaged stored value: the record is a change, kept as such
    values[6] = bool(values[6])
    return tuple(values) == row.fields()


def _refuse_loops(conn: sqlite3.Connection, rows: Sequence[_Row]) -> None:
    """Refuse an import whose superseded_by links loop through stored entries.

    `check_record_set` catches loops within the records; one that closes through entries
    already stored (a record superseded by a stored entry that the store says is superseded
    by the record) is only visible once written, inside the transaction it rolls back.
    """
    clear: set[str] = set()
    for row in rows:
        walk = [row.id]
        node = row.superseded_by
        while node is not None and node not in clear:
            if node in walk:
                raise InvalidEntryError(
                    f"record (id {row.id!r}): superseded_by makes a loop with stored entries "
                    f"({' -> '.join([*walk, node])}), so none of them could ever be active"
                )
            walk.append(node)
            found = conn.execute(
                "SELECT superseded_by FROM memories WHERE id = ?", (node,)
            ).fetchone()
            node = None if found is None else found[0]
        clear.update(walk)


def import_records(core: SqliteCore, records: Sequence[MemoryEntry]) -> ImportSummary:
    """Write records as exported, keeping whatever they change as restorable history.

    In the summary, `added`, `replaced` and `unchanged` count every record once;
    `renumbered` (records added under a fresh id) and `kept_as_history` (stored versions
    set aside, each audited) count alongside. Every record is checked before anything
    is written; one that fails raises `InvalidEntryError` naming it and the field.
    """
    rows = prepare_all(records, core.identity, core.dimensions)
    summary = ImportSummary()
    now = format_time(utc_now())
    with core.write() as conn:
        rows = _renumber(conn, rows)
        pending = _PendingInserts(conn)
        successors = next_active_versions(
            [(r.id, r.namespace, r.key, r.superseded_by) for r in rows]
        )
        later = replaced_later([row.id for row in rows])
        for at, row in enumerate(rows):
            _import_one(conn, row, now, summary, pending, successors.get(at), at in later)
        pending.flush()
        _refuse_loops(conn, rows)
    core.after_write()
    return summary
