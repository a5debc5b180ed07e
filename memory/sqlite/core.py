"""State owned by the database thread: the connection and every structure derived from it.

Nothing here is touched from the event loop; `SqliteMemory` reaches it through
`DatabaseThread`. The vector index, the hot cache and the document count are derived
from the file and brought up to date before every operation: our own writes apply the
change log right after commit, and other processes' writes are noticed through
`PRAGMA data_version`, which changes only when another connection commits.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memory.retrieval import HotCache
from memory.settings import MemorySettings
from memory.sqlite.database import open_database
from memory.sqlite.doc_frequency import DocumentFrequencies
from memory.sqlite.rows import decode_vector, encode_vector, epoch
from memory.vector_index import RowMeta, VectorIndex

_CHANGE_LOG_KEEP = 20_000
_CHUNK = 500


def text_hash(text: str) -> str:
    """The embedding cache key of a text: a sha256 prefix (64 bits)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


class SqliteCore:
    """The connection, the vector index, the hot cache and the embedding cache."""

    def __init__(self, path: Path, settings: MemorySettings, identity: str | None) -> None:
        self.path = path
        self.settings = settings
        self.identity = identity
        self.conn = open_database(path)
        self.doc_frequencies = DocumentFrequencies(self.conn)
        self.hot_cache = HotCache(settings.hot_cache_size, settings.hot_cache_ttl_s)
        self.vector_baseline = 0.0
        self.vector_ceiling = 1.0
        self.asymmetric = False
        """The embedder embeds queries differently from documents (E5's prefixes)."""
        """Cosine of unrelated texts for the current embedder (set by the store)."""
        self.index = VectorIndex(settings.embedding_dimensions, settings.ann_threshold)
        self.total_docs = 0
        self._last_change = 0
        self._data_version = -1
        self._writes_since_prune = 0
        self._pending_touches: dict[tuple[str, str], float] = {}
        self._cache_entries = self.conn.execute("SELECT count(*) FROM embedding_cache").fetchone()[
            0
        ]
        self._record_identity()
        self.rebuild_index()

    # -- coherence ---------------------------------------------------------------------

    def _record_identity(self) -> None:
        if self.identity is None:
            return
        with self.write():
            self.conn.execute(
                "INSERT INTO meta (name, value) VALUES ('embedding_identity', ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (self.identity,),
            )

    def rebuild_index(self) -> None:
        """Load every current-identity vector from the file (start-up, or after a gap)."""
        self.index.clear()
        self._data_version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        self._last_change = self.conn.execute(
            "SELECT coalesce(max(change_id), 0) FROM memory_changes"
        ).fetchone()[0]
        if self.identity is not None:
            rows = self.conn.execute(
                "SELECT m.seq, m.namespace, m.session_id, m.category, m.superseded_by, "
                "m.created_at, v.embedding, v.dims FROM memories m "
                "JOIN memory_vectors v ON v.seq = m.seq WHERE v.model = ?",
                (self.identity,),
            )
            for row in rows:
                self._index_row(row)
        self.total_docs = self.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        self.hot_cache.clear()
        self.doc_frequencies.clear()

    def _index_row(self, row: tuple[object, ...]) -> None:
        seq, namespace, session_id, category, superseded_by, created_at, blob, dims = row
        if not isinstance(blob, bytes) or dims != self.index.dimensions:
            self.index.remove(int(seq))  # type: ignore[call-overload]
            return
        self.index.upsert(
            int(seq),  # type: ignore[call-overload]
            decode_vector(blob, int(dims)),
            RowMeta(
                namespace=str(namespace),
                session_id=None if session_id is None else str(session_id),
                category=str(category),
                superseded=superseded_by is not None,
                created=epoch(str(created_at)),
            ),
        )

    def refresh(self) -> None:
        """Catch up with writes other processes committed since our last look."""
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._data_version:
            self._data_version = version
            self.doc_frequencies.clear()  # we cannot see which terms the other writer touched
            self.apply_changes()

    def apply_changes(self) -> None:
        """Replay the change log past our position into the index; clear the hot cache."""
        self.hot_cache.clear()
        oldest = self.conn.execute("SELECT min(change_id) FROM memory_changes").fetchone()[0]
        if oldest is not None and oldest > self._last_change + 1 and self._last_change > 0:
            self.rebuild_index()  # the log was pruned past us: start over
            return
        changes = self.conn.execute(
            "SELECT change_id, seq FROM memory_changes WHERE change_id > ? ORDER BY change_id",
            (self._last_change,),
        ).fetchall()
        if not changes:
            return
        self._last_change = changes[-1][0]
        seqs = list(dict.fromkeys(seq for _, seq in changes))
        for start in range(0, len(seqs), _CHUNK):
            chunk = seqs[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            found = self.conn.execute(
                "SELECT m.seq, m.namespace, m.session_id, m.category, m.superseded_by, "
                "m.created_at, v.embedding, v.dims, v.model FROM memories m "
                f"LEFT JOIN memory_vectors v ON v.seq = m.seq WHERE m.seq IN ({marks})",
                chunk,
            ).fetchall()
            present = set()
            for row in found:
                present.add(row[0])
                if self.identity is not None and row[8] == self.identity:
                    self._index_row(row[:8])
                else:
                    self.index.remove(row[0])
            for seq in chunk:
                if seq not in present:
                    self.index.remove(seq)
        self.total_docs = self.conn.execute("SELECT count(*) FROM memories").fetchone()[0]

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction (no lock-upgrade deadlocks between processes)."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
            self._flush_touches()
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            self.doc_frequencies.clear()
            raise
        self.doc_frequencies.settle()

    def after_write(self) -> None:
        """Bring derived state up to date with what we just committed."""
        self.apply_changes()
        self._writes_since_prune += 1
        if self._writes_since_prune >= 1000:
            self._writes_since_prune = 0
            with self.write():
                self.conn.execute(
                    "DELETE FROM memory_changes WHERE change_id <= "
                    "(SELECT max(change_id) FROM memory_changes) - ?",
                    (_CHANGE_LOG_KEEP,),
                )

    # -- embedding cache ---------------------------------------------------------------

    def cached_vectors(self, texts: list[str]) -> dict[str, npt.NDArray[np.float32]]:
        """Cached embeddings for the current identity; a hit costs no write."""
        if self.identity is None or self.settings.embedding_cache_size == 0 or not texts:
            return {}
        hashes = {text_hash(text): text for text in texts}
        found: dict[str, npt.NDArray[np.float32]] = {}
        now = time.time()
        keys = list(hashes)
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            rows = self.conn.execute(
                f"SELECT text_hash, embedding FROM embedding_cache WHERE model = ? "
                f"AND text_hash IN ({','.join('?' * len(chunk))})",
                (self.identity, *chunk),
            )
            for digest, blob in rows:
                if len(blob) == self.index.dimensions * 4:
                    found[hashes[digest]] = decode_vector(blob, self.index.dimensions)
                    # Recency is recorded in memory and written with the next write.
                    self._pending_touches[(self.identity, digest)] = now
        return found

    def cache_vectors(self, pairs: list[tuple[str, npt.NDArray[np.float32]]]) -> None:
        """Insert embeddings into the cache (inside the caller's transaction), then evict."""
        if self.identity is None or self.settings.embedding_cache_size == 0 or not pairs:
            return
        now = time.time()
        before = self.conn.total_changes
        self.conn.executemany(
            "INSERT OR IGNORE INTO embedding_cache (model, text_hash, embedding, last_used) "
            "VALUES (?, ?, ?, ?)",
            [(self.identity, text_hash(text), encode_vector(vec), now) for text, vec in pairs],
        )
        self._cache_entries += self.conn.total_changes - before
        excess = self._cache_entries - self.settings.embedding_cache_size
        if excess > 0:
            self._flush_touches()
            self.conn.execute(
                "DELETE FROM embedding_cache WHERE (model, text_hash) IN "
                "(SELECT model, text_hash FROM embedding_cache ORDER BY last_used LIMIT ?)",
                (excess,),
            )
            self._cache_entries -= excess

    def _flush_touches(self) -> None:
        if self._pending_touches:
            self.conn.executemany(
                "UPDATE embedding_cache SET last_used = ? WHERE model = ? AND text_hash = ?",
                [(ts, model, digest) for (model, digest), ts in self._pending_touches.items()],
            )
            self._pending_touches.clear()

    @property
    def embedding_cache_entries(self) -> int:
        """Rows in the embedding cache."""
        return int(self._cache_entries)

    def close(self) -> None:
        """Write pending cache recency and close the connection."""
        try:
            if self._pending_touches:
                with self.write():
                    pass
        finally:
            self.conn.close()
