"""What ZeroClaw's SQLite memory does per query, reimplemented as the reference to beat.

Keyword lane: FTS5 (porter unicode61) MATCH of an OR of every quoted query word, stop
words included, ranked by BM25. Vector lane: SELECT every embedding BLOB, decode each one,
cosine against the query (vectorised with numpy here, which flatters the reference).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import numpy as np
import numpy.typing as npt


class ZeroClawStyleStore:
    """A plain table with an embedding BLOB column and an FTS5 index over the content."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.executescript(
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE IF NOT EXISTS memories (
                id INTEGER PRIMARY KEY, content TEXT, embedding BLOB);
            CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
                content, content='memories', content_rowid='id', tokenize='porter unicode61');
            """
        )

    def load(self, texts: list[str], vectors: npt.NDArray[np.float32]) -> None:
        """Insert everything in one transaction."""
        with self.conn:
            self.conn.executemany(
                "INSERT INTO memories (content, embedding) VALUES (?, ?)",
                [(t, v.astype("<f4").tobytes()) for t, v in zip(texts, vectors, strict=True)],
            )
            self.conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')")

    def recall(self, query: str, query_vector: npt.NDArray[np.float32], limit: int) -> list[int]:
        """Hybrid recall the ZeroClaw way: 0.7 vector + 0.3 normalised BM25."""
        words = re.findall(r"\w+", query)
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        keyword: dict[int, float] = {}
        if match:
            rows = self.conn.execute(
                "SELECT rowid, -bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ? "
                "ORDER BY bm25(memories_fts) LIMIT ?",
                (match, limit * 2),
            ).fetchall()
            top = max((score for _, score in rows), default=1.0) or 1.0
            keyword = {rowid: score / top for rowid, score in rows}
        ids, blobs = [], []
        for rowid, blob in self.conn.execute("SELECT id, embedding FROM memories"):
            ids.append(rowid)
            blobs.append(np.frombuffer(blob, dtype="<f4"))
        matrix = np.stack(blobs)
        cosine = (
            matrix @ query_vector / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query_vector))
        )
        best = np.argpartition(-cosine, limit * 2)[: limit * 2]
        vector = {ids[i]: float(cosine[i]) for i in best}
        fused = {
            rowid: 0.7 * vector.get(rowid, 0.0) + 0.3 * keyword.get(rowid, 0.0)
            for rowid in set(vector) | set(keyword)
        }
        return sorted(fused, key=lambda r: -fused[r])[:limit]

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()
