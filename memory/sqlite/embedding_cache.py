"""The embedding cache: vectors by text for the current embedder, in the store's own file.

Re-saving or recalling a text the embedder has seen costs no embedding call. Rows are
keyed by the embedder's identity and a hash of the text, and the least recently used go
first once the cache holds more than `embedding_cache_size`. Recency is kept in memory
and written with the next write: a cache hit (a recall) costs no write of its own.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time

import numpy as np
import numpy.typing as npt

from memory.sqlite.rows import decode_vector, encode_vector

_CHUNK = 500


def text_hash(text: str) -> str:
    """The embedding cache key of a text: a sha256 prefix (64 bits)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


class EmbeddingCache:
    """The `embedding_cache` table, read and written on the database thread."""

    def __init__(
        self, conn: sqlite3.Connection, identity: str | None, dimensions: int, size: int
    ) -> None:
        self._conn = conn
        self._identity = identity
        self._dimensions = dimensions
        self._size = size
        self._pending_touches: dict[tuple[str, str], float] = {}
        self._entries = int(conn.execute("SELECT count(*) FROM embedding_cache").fetchone()[0])

    @property
    def entries(self) -> int:
        """Rows in the cache, for every embedder."""
        return self._entries

    @property
    def touches_pending(self) -> bool:
        """Whether recency read since the last write is still to be written."""
        return bool(self._pending_touches)

    def get(self, texts: list[str]) -> dict[str, npt.NDArray[np.float32]]:
        """Cached embeddings for the current identity; a hit costs no write."""
        if self._identity is None or self._size == 0 or not texts:
            return {}
        hashes = {text_hash(text): text for text in texts}
        found: dict[str, npt.NDArray[np.float32]] = {}
        now = time.time()
        keys = list(hashes)
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            rows = self._conn.execute(
                f"SELECT text_hash, embedding FROM embedding_cache WHERE model = ? "
                f"AND text_hash IN ({','.join('?' * len(chunk))})",
                (self._identity, *chunk),
            )
            for digest, blob in rows:
                if len(blob) == self._dimensions * 4:
                    found[hashes[digest]] = decode_vector(blob, self._dimensions)
                    self._pending_touches[(self._identity, digest)] = now
        return found

    def put(self, pairs: list[tuple[str, npt.NDArray[np.float32]]]) -> None:
        """Insert embeddings (inside the caller's transaction), then evict the oldest."""
        if self._identity is None or self._size == 0 or not pairs:
            return
        now = time.time()
        before = self._conn.total_changes
        self._conn.executemany(
            "INSERT OR IGNORE INTO embedding_cache (model, text_hash, embedding, last_used) "
            "VALUES (?, ?, ?, ?)",
            [(self._identity, text_hash(text), encode_vector(vec), now) for text, vec in pairs],
        )
        self._entries += self._conn.total_changes - before
        excess = self._entries - self._size
        if excess > 0:
            self.write_touches()
            self._conn.execute(
                "DELETE FROM embedding_cache WHERE (model, text_hash) IN "
                "(SELECT model, text_hash FROM embedding_cache ORDER BY last_used LIMIT ?)",
                (excess,),
            )
            self._entries -= excess

    def drop(self, texts: list[str]) -> None:
        """Remove the vectors of `texts`, for every embedder (inside the caller's transaction).

        An erased memory's text must not stay: its hash and vector let an adversary find a
        short secret again by trying every PIN.
        """
        hashes = sorted({text_hash(text) for text in texts})
        for start in range(0, len(hashes), _CHUNK):
            chunk = hashes[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            cursor = self._conn.execute(
                f"DELETE FROM embedding_cache WHERE text_hash IN ({marks})", chunk
            )
            self._entries -= int(cursor.rowcount)
        gone = set(hashes)
        self._pending_touches = {
            slot: at for slot, at in self._pending_touches.items() if slot[1] not in gone
        }

    def write_touches(self) -> None:
        """Write the recency of the hits since the last write (inside a transaction)."""
        if self._pending_touches:
            self._conn.executemany(
                "UPDATE embedding_cache SET last_used = ? WHERE model = ? AND text_hash = ?",
                [(ts, model, digest) for (model, digest), ts in self._pending_touches.items()],
            )
            self._pending_touches.clear()
