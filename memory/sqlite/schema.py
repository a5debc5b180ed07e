"""Named, ordered schema migrations, each applied once and recorded in a table."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from memory.entry import utc_now
from memory.sqlite.rows import format_time


@dataclass(frozen=True)
class Migration:
    """One schema step; `apply` runs inside the migration's transaction."""

    name: str
    apply: Callable[[sqlite3.Connection], None]


def _statements(sql: str) -> list[str]:
    """Split a script into statements, keeping trigger bodies whole."""
    statements: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        statements.append(pending.strip())
    return statements


def _script(sql: str) -> Callable[[sqlite3.Connection], None]:
    def run(conn: sqlite3.Connection) -> None:
        for statement in _statements(sql):
            conn.execute(statement)

    return run


# A key names the *active* entry: superseded versions keep their key as history, so the
# uniqueness is a partial index over active rows, not a table constraint.
# Vectors live beside the entries, not in them: a 3 KB BLOB per row would spread the
# entries over many pages and slow every keyword search that joins them.
_CREATE_MEMORIES = """
CREATE TABLE memories (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    namespace TEXT NOT NULL DEFAULT 'default',
    key TEXT NOT NULL,
    content TEXT NOT NULL,
    category TEXT NOT NULL,
    session_id TEXT,
    importance REAL NOT NULL DEFAULT 0.5,
    pinned INTEGER NOT NULL DEFAULT 0,
    source TEXT NOT NULL DEFAULT 'user',
    superseded_by TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    terms TEXT NOT NULL,
    content_hash TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX memories_active_key ON memories (namespace, key)
    WHERE superseded_by IS NULL;
CREATE INDEX memories_key ON memories (namespace, key);
CREATE INDEX memories_content_hash ON memories (namespace, category, content_hash);
CREATE TABLE memory_vectors (
    seq INTEGER PRIMARY KEY REFERENCES memories (seq) ON DELETE CASCADE,
    embedding BLOB NOT NULL,
    dims INTEGER NOT NULL,
    model TEXT NOT NULL
);
CREATE INDEX memories_recent ON memories (namespace, updated_at DESC);
CREATE INDEX memories_category ON memories (category, namespace);
CREATE INDEX memories_session ON memories (session_id, created_at, seq);
CREATE INDEX memories_created ON memories (created_at);
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

# `terms` holds the analysed text (see memory.text): stemming and CJK bigrams happen in
# Python so index and query sides agree exactly, and the FTS tokenizer only splits on space.
_CREATE_FTS = """
CREATE VIRTUAL TABLE memories_fts USING fts5(
    terms, content='memories', content_rowid='seq',
    tokenize='unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, 'row');
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, terms) VALUES (new.seq, new.terms);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, terms) VALUES ('delete', old.seq, old.terms);
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE OF terms ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, terms) VALUES ('delete', old.seq, old.terms);
    INSERT INTO memories_fts (rowid, terms) VALUES (new.seq, new.terms);
END;
"""

# Every committed change leaves its row id here, so each process can bring its in-memory
# vector index up to date with writes made by other processes without a full rebuild.
_CREATE_CHANGES = """
CREATE TABLE memory_changes (change_id INTEGER PRIMARY KEY AUTOINCREMENT, seq INTEGER NOT NULL);
CREATE TRIGGER memories_changed_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memory_changes (seq) VALUES (new.seq);
END;
CREATE TRIGGER memories_changed_update AFTER UPDATE ON memories BEGIN
    INSERT INTO memory_changes (seq) VALUES (new.seq);
END;
CREATE TRIGGER memories_changed_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memory_changes (seq) VALUES (old.seq);
END;
CREATE TRIGGER vectors_changed_insert AFTER INSERT ON memory_vectors BEGIN
    INSERT INTO memory_changes (seq) VALUES (new.seq);
END;
CREATE TRIGGER vectors_changed_update AFTER UPDATE ON memory_vectors BEGIN
    INSERT INTO memory_changes (seq) VALUES (new.seq);
END;
CREATE TRIGGER vectors_changed_delete AFTER DELETE ON memory_vectors BEGIN
    INSERT INTO memory_changes (seq) VALUES (old.seq);
END;
"""

_CREATE_EMBEDDING_CACHE = """
CREATE TABLE embedding_cache (
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    embedding BLOB NOT NULL,
    last_used REAL NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
CREATE INDEX embedding_cache_lru ON embedding_cache (last_used);
"""

# Every deletion (hygiene, forget) leaves a row here: what, when and why.
_CREATE_AUDIT = """
CREATE TABLE memory_audit (
    audit_id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    entry_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    category TEXT NOT NULL,
    content TEXT NOT NULL
);
CREATE INDEX memory_audit_at ON memory_audit (at);
"""

MIGRATIONS: tuple[Migration, ...] = (
    Migration("0001_memories", _script(_CREATE_MEMORIES)),
    Migration("0002_fulltext", _script(_CREATE_FTS)),
    Migration("0003_change_log", _script(_CREATE_CHANGES)),
    Migration("0004_embedding_cache", _script(_CREATE_EMBEDDING_CACHE)),
    Migration("0005_audit", _script(_CREATE_AUDIT)),
)

APPLICATION_ID = 0x4D454D43  # "MEMC": marks the file as ours for `file` and for us.


def applied_migrations(conn: sqlite3.Connection) -> set[str]:
    """Names already applied; empty for a fresh file."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    if not exists:
        return set()
    return {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply pending migrations in order, each in its own transaction; return their names."""
    done = applied_migrations(conn)
    applied: list[str] = []
    for migration in MIGRATIONS:
        if migration.name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            if migration.name in applied_migrations(conn):
                conn.execute("ROLLBACK")
                continue
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            migration.apply(conn)
            conn.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                (migration.name, format_time(utc_now())),
            )
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(migration.name)
    return applied
