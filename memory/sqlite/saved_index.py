"""Checking the vector index files against the database, and writing a new generation.

The files (`memory.vector_files`) are trusted only when everything matches: the embedding
identity and size, the token the database holds (a database restored from a backup or
swapped for another holds another one), a change-log position the database has reached
and still keeps (so every change since can be replayed), and a sample of vectors
byte-for-byte equal to the database's. Anything else means a rebuild from the database.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memory.errors import EmbeddingDimensionError
from memory.layered_index import LayeredIndex
from memory.sqlite.rows import decode_vector
from memory.vector_files import (
    IndexFileDamagedError,
    LoadedIndex,
    discard_generation,
    next_generation,
    publish,
    write_generation,
    writing_lock,
)
from memory.vector_index import IndexRows

TOKEN_NAME = "vector_index_token"
_SAMPLE = 8


def stored_token(conn: sqlite3.Connection) -> str | None:
    """The token of the index generation the database was last saved with."""
    row = conn.execute("SELECT value FROM meta WHERE name = ?", (TOKEN_NAME,)).fetchone()
    return None if row is None else str(row[0])


def mismatch(
    conn: sqlite3.Connection, loaded: LoadedIndex, identity: str, dims: int
) -> tuple[str, bool] | None:
    """Why the files cannot serve this database, and whether that means damage; or None.

    A different model, a restored database or a log pruned past the files are normal
    (the files are simply out of date); vectors that differ from the database's are not.
    """
    header = loaded.header
    if header.identity != identity or header.dims != dims:
        return "they were built for another embedding model", False
    if header.token != stored_token(conn):
        return "they belong to another copy of the store", False
    newest, oldest = conn.execute(
        "SELECT coalesce(max(change_id), 0), min(change_id) FROM memory_changes"
    ).fetchone()
    if header.last_change > newest:
        return "they are newer than the store", False
    if header.last_change < newest and oldest is not None and oldest > header.last_change + 1:
        return "the store changed too much since they were written", False
    rows = loaded.rows
    if len(rows.seq) and (np.diff(rows.seq) <= 0).any():
        return "their row ids are out of order", True
    try:
        loaded.mapped.whole()
    except IndexFileDamagedError as exc:
        return str(exc), True
    picks = np.unique(np.linspace(0, len(rows.seq) - 1, min(_SAMPLE, len(rows.seq))).astype(int))
    for at in picks.tolist():
        seq = int(rows.seq[at])
        # A row changed since the files were written is replayed, so it proves nothing.
        changed = conn.execute(
            "SELECT 1 FROM memory_changes WHERE seq = ? AND change_id > ? LIMIT 1",
            (seq, header.last_change),
        ).fetchone()
        if changed is not None:
            continue
        found = conn.execute(
            "SELECT embedding FROM memory_vectors WHERE seq = ? AND model = ?", (seq, identity)
        ).fetchone()
        vector = np.asarray(rows.vectors[at], "<f4")
        if found is None or bytes(found[0]) != vector.tobytes():
            return "their vectors differ from the store's", True
        if not in_nearest_partition(rows, at, vector):
            return "their partitions do not match their vectors", True
    return None


def in_nearest_partition(rows: IndexRows, at: int, vector: npt.NDArray[np.float32]) -> bool:
    """Whether row `at` (holding `vector`) is in its nearest centroid's partition.

    True when no partitions are kept. Checked for the sampled rows only: a column file
    rewritten with its checksum made again would otherwise send rows to partitions no
    search looks in, and saves keep each row's partition. A near tie (the write scored
    rows in batches) passes.
    """
    partitions = rows.partitions
    if partitions is None:
        return True
    scores = partitions.centroids @ vector
    return bool(scores[int(partitions.assignment[at])] >= scores.max() - 1e-4)


_CHECK_BLOCK = 4096


def first_difference(conn: sqlite3.Connection, index: LayeredIndex, identity: str) -> str | None:
    """The first row whose vector in the index files differs from the database's, if any.

    Every row of the base is compared (the open compares a sample): for `stats --check`.
    """
    base = index.base
    if base is None:
        return None
    seen = 0
    # Read from the file in blocks, not through the mapping: this takes seconds, and a
    # file cut short meanwhile must be an error here, not a crash (`read_rows`).
    block_start, block = 0, np.zeros((0, index.dimensions), dtype=np.float32)
    for seq, blob in conn.execute(
        "SELECT seq, embedding FROM memory_vectors WHERE model = ? ORDER BY seq", (identity,)
    ):
        at = base.position(int(seq))
        if at is None:
            continue  # changed since the files were written: served from memory
        seen += 1
        if not block_start <= at < block_start + len(block):
            block_start = at
            block = base.mapped.read_rows(at, min(at + _CHECK_BLOCK, len(base.rows.seq)))
        if bytes(blob) != np.asarray(block[at - block_start], "<f4").tobytes():
            try:
                decode_vector(bytes(blob), len(blob) // 4, unit=True)
            except EmbeddingDimensionError as exc:
                # The files hold the sound copy: the damage is in the store itself.
                return f"row {seq} of the store is damaged ({exc}); reindex replaces it"
            return f"the vector of row {seq} differs from the store's"
    if seen != base.count:
        return f"they hold {base.count - seen} vectors the store does not"
    return None


def save_generation(
    database: Path,
    index: LayeredIndex,
    record_token: Callable[[str], None],
    fields: dict[str, object],
) -> None:
    """Write the index as the next generation and make it current.

    The token goes into the database (`record_token`, its own transaction) before the
    header is renamed into place: a crash in between leaves tokens that disagree, and
    the next open rebuilds. `fields`: dims, identity, last_change, skipped.
    """
    with writing_lock(database):
        token = secrets.token_hex(8)
        columns, chunks = index.merged()
        generation = next_generation(database)
        centroids, carried = index.partitions_carried(columns.seq)
        try:
            header = write_generation(
                database,
                generation,
                columns,
                chunks,
                {**fields, "token": token},
                centroids,
                carried,
            )
            record_token(token)
        except BaseException:
            # A full disk must not be left fuller by half a generation, nor the folder
            # hold one the database never named (its token could not be recorded).
            discard_generation(database, generation)
            raise
        publish(database, header)
