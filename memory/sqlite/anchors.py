"""The calibration anchors' vectors, kept per embedding model outside the LRU cache.

They are read at every start and must survive any cache size (0 included): evicted, the
150 reference sentences would be embedded again, a visible delay with a slow model.
"""

from __future__ import annotations

import hashlib
import sqlite3

import numpy as np
import numpy.typing as npt

from memory.errors import EmbeddingDimensionError
from memory.sqlite.core import SqliteCore
from memory.sqlite.rows import decode_vector, encode_vector


def anchors_digest(texts: list[str]) -> str:
    """Names the set of reference sentences: a new set (an upgrade) is embedded afresh."""
    return hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()


def stored_anchor_matrix(core: SqliteCore, texts: list[str]) -> npt.NDArray[np.float32] | None:
    """The anchors' vectors for the current model, if this store kept them."""
    if core.identity is None:
        return None
    try:
        row = core.conn.execute(
            "SELECT anchors_digest, vectors FROM calibration_anchors WHERE model = ?",
            (core.identity,),
        ).fetchone()
    except sqlite3.Error:
        return None  # a store too old to have the table, opened read-only
    if row is None or row[0] != anchors_digest(texts):
        return None
    dims = core.dimensions
    try:
        # One row after another: the matrix is checked as one long vector.
        matrix = decode_vector(row[1], len(texts) * dims).reshape(len(texts), dims)
    except EmbeddingDimensionError:
        return None  # another size, or damaged: embedded again
    if not np.all(np.any(matrix != 0, axis=1)):
        return None  # kept from a server's answer of zeros (before they were refused)
    return matrix


def keep_anchor_matrix(core: SqliteCore, texts: list[str], matrix: npt.NDArray[np.float32]) -> None:
    """Keep the anchors' vectors for the next start, if the store can be written.

    A failure (read-only, full disk, busy) costs only embedding them again next time.
    """
    if core.identity is None or core.read_only is not None:
        return
    blob = encode_vector(matrix)
    try:
        with core.write():
            core.conn.execute(
                "INSERT OR REPLACE INTO calibration_anchors (model, anchors_digest, vectors) "
                "VALUES (?, ?, ?)",
                (core.identity, anchors_digest(texts), blob),
            )
    except sqlite3.Error:
        pass
