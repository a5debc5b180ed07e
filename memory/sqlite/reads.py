"""Read operations other than recall, run on the database thread."""

from __future__ import annotations

from memory.entry import MemoryCategory, MemoryEntry
from memory.protocol import AuditRecord, ListOrder, MemoryStats
from memory.records import MemoryRecord, StoredEmbedding, vector_problem
from memory.retrieval import RecallFilters
from memory.sqlite.core import SqliteCore
from memory.sqlite.filters import where_sql
from memory.sqlite.rows import ENTRY_COLUMNS, readable_entries
from memory.wording import counted
from memory.write_policy import content_hash

_ORDERS: dict[str, str] = {
    "recent": "m.updated_at DESC, m.seq DESC",
    "created": "m.created_at DESC, m.seq DESC",
    "key": "m.namespace, m.key",
}


def get(core: SqliteCore, key: str, namespace: str) -> MemoryEntry | None:
    """The entry under (namespace, key)."""
    core.refresh()
    row = core.conn.execute(
        f"SELECT {ENTRY_COLUMNS} FROM memories WHERE namespace = ? AND key = ? "
        "AND superseded_by IS NULL",
        (namespace, key),
    ).fetchone()
    found = readable_entries([] if row is None else [row], core.warn)
    return found[0] if found else None


def get_by_id(core: SqliteCore, entry_id: str) -> MemoryEntry | None:
    """The entry with this id."""
    core.refresh()
    row = core.conn.execute(
        f"SELECT {ENTRY_COLUMNS} FROM memories WHERE id = ?", (entry_id,)
    ).fetchone()
    found = readable_entries([] if row is None else [row], core.warn)
    return found[0] if found else None


def list_entries(
    core: SqliteCore,
    filters: RecallFilters,
    prefix: str | None,
    order: ListOrder,
    limit: int,
    offset: int,
) -> list[MemoryEntry]:
    """One page of entries in a deterministic order."""
    core.refresh()
    where, params = where_sql(filters)
    if prefix:
        # As LIKE 'prefix%' matched (ASCII case ignored), with no limit on its length. A
        # range, not substr/length: those stop at a NUL, and an imported key holding one
        # had no versions (found by an adversary).
        where += " AND lower(m.key) >= lower(?) AND lower(m.key) < lower(?) || char(1114111)"
        params.extend([prefix, prefix])
    rows = core.conn.execute(
        f"SELECT {ENTRY_COLUMNS} FROM memories m WHERE {where} "
        f"ORDER BY {_ORDERS[order]} LIMIT ? OFFSET ?",
        (*params, max(limit, 0), max(offset, 0)),
    ).fetchall()
    return readable_entries(rows, core.warn)


def count(core: SqliteCore, filters: RecallFilters) -> int:
    """Entries passing the filters."""
    core.refresh()
    where, params = where_sql(filters)
    return int(
        core.conn.execute(f"SELECT count(*) FROM memories m WHERE {where}", params).fetchone()[0]
    )


def stats(core: SqliteCore, backend: str) -> MemoryStats:
    """Counts per category and namespace, vector coverage and file size."""
    core.refresh()
    conn = core.conn
    # Two index scans, no table scan: (category, namespace) is one index, and the
    # memories in effect are exactly the rows of the active-key index.
    by_category: dict[str, int] = {}
    by_namespace: dict[str, int] = {}
    for category, namespace, count in conn.execute(
        "SELECT category, namespace, count(*) FROM memories GROUP BY category, namespace"
    ):
        by_category[category] = by_category.get(category, 0) + count
        by_namespace[namespace] = by_namespace.get(namespace, 0) + count
    by_category = dict(sorted(by_category.items()))
    by_namespace = dict(sorted(by_namespace.items()))
    total = sum(by_category.values())
    active = conn.execute("SELECT count(*) FROM memories WHERE superseded_by IS NULL").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    with_embedding = core.vector_count()
    return MemoryStats(
        backend=backend,
        total=total,
        active=active,
        by_category=by_category,
        by_namespace=by_namespace,
        with_embedding=with_embedding,
        stale_embedding=total - with_embedding if core.identity else 0,
        embedding_identity=core.identity,
        embedding_cache_entries=core.embeddings.entries,
        file_bytes=page_size * pages,
        path=str(core.path),
    )


def export_page(
    core: SqliteCore, namespace: str | None, after_seq: int, limit: int
) -> tuple[list[MemoryRecord], int]:
    """Records after a seq cursor (stable order), with their vectors; and the next cursor.

    A damaged row is reported in `core.warnings` instead of failing the export: a row
    that cannot be read is skipped, a damaged vector is left out of its record (the
    entry itself is exported; `reindex` makes a new vector).
    """
    core.refresh()
    clause, params = ("AND m.namespace = ?", [namespace]) if namespace is not None else ("", [])
    columns = ", ".join(f"m.{c.strip()}" for c in ENTRY_COLUMNS.split(","))
    rows = core.conn.execute(
        f"SELECT {columns}, v.embedding, v.dims, v.model FROM memories m "
        f"LEFT JOIN memory_vectors v ON v.seq = m.seq "
        f"WHERE m.seq > ? {clause} ORDER BY m.seq LIMIT ?",
        (after_seq, *params, limit),
    ).fetchall()
    records = []
    for row in rows:
        entries = readable_entries([row], core.warn)
        if not entries:
            continue
        blob, dims, model = row[13:16]
        embedding = None
        if blob is not None and model:
            problem = (
                vector_problem(blob, dims)
                if isinstance(blob, bytes) and isinstance(dims, int)
                else "it is not a vector"
            )
            if problem is None:
                embedding = StoredEmbedding.trusted(model, dims, blob)
            else:
                core.warn(
                    f"entry {entries[0].id}: its stored vector is damaged ({problem}); "
                    "exported without it (`memchat memory reindex` makes a new one)"
                )
        records.append(MemoryRecord.model_construct(**dict(entries[0]), embedding=embedding))
    return records, (rows[-1][0] if rows else after_seq)


def audit_columns(core: SqliteCore) -> frozenset[str]:
    """The audit log's columns, as this store has them.

    A store opened read-only may predate 0016, which added each deleted memory's first time
    (`created_at`) and chat (`session_id`).
    """
    return frozenset(row[1] for row in core.conn.execute("PRAGMA table_info(memory_audit)"))


def audit_log(
    core: SqliteCore, limit: int, offset: int, namespace: str | None = None
) -> list[AuditRecord]:
    """Deletions, newest first; only `namespace`'s when given."""
    clause, params = ("WHERE namespace = ? ", [namespace]) if namespace is not None else ("", [])
    # SQLite binds 64-bit integers only; no audit log comes near this bound.
    bound = 1 << 62
    names = ["at", "action", "reason", "entry_id", "namespace", "key", "category", "content"]
    kept = audit_columns(core)
    names += [name for name in ("created_at", "session_id") if name in kept]
    rows = core.conn.execute(
        f"SELECT {', '.join(names)} FROM memory_audit {clause}"
        "ORDER BY audit_id DESC LIMIT ? OFFSET ?",
        (*params, min(max(limit, 0), bound), min(max(offset, 0), bound)),
    ).fetchall()
    fields = ["created" if name == "created_at" else name for name in names]
    return [AuditRecord(**dict(zip(fields, row, strict=True))) for row in rows]


def accounted_ids(core: SqliteCore, ids: list[str]) -> set[str]:
    """Which of `ids` the store knows: held (in any version) or deleted with an audit row."""
    found: set[str] = set()
    for start in range(0, len(ids), 400):
        chunk = ids[start : start + 400]
        marks = ",".join("?" * len(chunk))
        rows = core.conn.execute(
            f"SELECT id FROM memories WHERE id IN ({marks}) "
            f"UNION SELECT entry_id FROM memory_audit WHERE entry_id IN ({marks})",
            (*chunk, *chunk),
        )
        found.update(str(row[0]) for row in rows)
    return found


CoreMark = tuple[int, int, int]
"""Where the change log stood, and how many core rows there were (and their seq total)."""


def _core_rows(core: SqliteCore) -> tuple[int, int]:
    # From the (category, namespace) index alone: cheap beside any write.
    count, seqs = core.conn.execute(
        "SELECT count(*), coalesce(sum(seq), 0) FROM memories WHERE category = ?",
        (MemoryCategory.CORE.value,),
    ).fetchone()
    return int(count), int(seqs)


def core_mark(core: SqliteCore) -> CoreMark:
    """A mark to ask, after a write, whether a core fact changed (`core_changed_since`)."""
    change = core.conn.execute("SELECT coalesce(max(change_id), 0) FROM memory_changes")
    return (int(change.fetchone()[0]), *_core_rows(core))


def core_changed_since(core: SqliteCore, mark: CoreMark) -> bool:
    """Whether a core entry was written, one stopped being core, or any entry was deleted.

    A row that is core no longer (its category edited to "daily") is seen by the count
    of core rows: the change log alone names rows by what they are now (found by an
    adversary). True as well when the log no longer reaches back to the mark (pruned).
    """
    change_id = mark[0]
    if _core_rows(core) != mark[1:]:
        return True
    oldest = core.conn.execute("SELECT min(change_id) FROM memory_changes").fetchone()[0]
    if oldest is not None and oldest > change_id + 1:
        return True
    row = core.conn.execute(
        "SELECT 1 FROM memory_changes c LEFT JOIN memories m ON m.seq = c.seq "
        "WHERE c.change_id > ? AND (m.seq IS NULL OR m.category = ?) LIMIT 1",
        (change_id, MemoryCategory.CORE.value),
    ).fetchone()
    return row is not None


def core_entries(core: SqliteCore, namespace: str | None) -> list[MemoryEntry]:
    """Every core entry, history included, in insertion order (what a snapshot holds)."""
    core.refresh()
    clause, params = ("AND namespace = ?", (namespace,)) if namespace is not None else ("", ())
    rows = core.conn.execute(
        f"SELECT {ENTRY_COLUMNS} FROM memories WHERE category = ? {clause} ORDER BY seq",
        (MemoryCategory.CORE.value, *params),
    ).fetchall()
    return readable_entries(rows, core.warn)


_TEXT_CHECK_PAGE = 2_000


def changed_texts(core: SqliteCore) -> str | None:
    """Memories whose text is not what was written, said in words; None when all agree.

    Every row keeps the hash of its text (`write_policy.content_hash`, made for duplicate
    checks), so a text changed inside the file by another program, which SQLite's own
    page checks cannot see, shows as a hash that no longer matches (found by an
    adversary: five bytes overwritten in a memory were served and exported, and the
    check said ok). A change of case or spacing alone is not seen: the hash ignores
    them. Rows from before hashes were kept have none, and are not checked.
    """
    changed: list[tuple[int, str]] = []
    cursor = 0
    while True:
        rows = core.conn.execute(
            "SELECT seq, key, content, content_hash FROM memories WHERE seq > ? "
            "ORDER BY seq LIMIT ?",
            (cursor, _TEXT_CHECK_PAGE),
        ).fetchall()
        for seq, key, content, digest in rows:
            if digest and content_hash(str(content)) != digest:
                changed.append((int(seq), str(key)))
        if len(rows) < _TEXT_CHECK_PAGE:
            break
        cursor = int(rows[-1][0])
    if not changed:
        return None
    seq, key = changed[0]
    count = counted(len(changed), "memory's text is", "memories' texts are")
    return (
        f"{count} not what was written (first: key {key!r}, row {seq}): the file was "
        "changed by another program; export what you can and restore from a backup"
    )
