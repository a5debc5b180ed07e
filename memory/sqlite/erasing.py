"""Erasing deleted memories for good: their audit records, and what the file still holds.

A forget keeps the deleted text in the audit log so it can be restored. Found by a new
user: a door code stored and then forgotten was still listed by `memchat memory audit`,
and `strings brain.db` found it too. SQLite leaves deleted rows in free pages, FTS5 keeps
a deleted row's words in its index segments until they are merged, the embedding cache
keeps its vector by the hash of its text, and the write-ahead log holds old page images
until a checkpoint: each is cleared here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from memory.errors import MemoryStoreError
from memory.sqlite.core import SqliteCore
from memory.vector_files import index_folder, remove_files

_CHUNK = 400


def erase_records(core: SqliteCore, entry_ids: Sequence[str]) -> int:
    """Delete the audit records of `entry_ids`, then rewrite the file without old pages.

    With none to delete, the file is still rewritten: an erase cut short (a full disk)
    left the text in its unused space, and running it again finishes it.
    """
    ids = list(dict.fromkeys(entry_ids))
    erased = 0
    with core.write() as conn:
        texts: list[str] = []
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            texts += [
                row[0]
                for row in conn.execute(
                    f"SELECT content FROM memory_audit WHERE entry_id IN ({marks})", chunk
                )
            ]
            cursor = conn.execute(f"DELETE FROM memory_audit WHERE entry_id IN ({marks})", chunk)
            erased += int(cursor.rowcount)
        # Their vectors by their text's hash: found by an adversary, who hashed every PIN
        # of the erased fact's wording until one matched.
        core.embeddings.drop(texts)
        # Merges the index's segments, leaving out the words of deleted rows.
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")
    try:
        # VACUUM writes the database anew without its free pages; the checkpoint then
        # empties the write-ahead log of the pages it replaced.
        core.conn.execute("VACUUM")
        core.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        # The vector files keep a deleted row until their next save: gone, they are
        # rebuilt from the database at the next open.
        remove_files(core.path)
    except sqlite3.OperationalError as exc:
        # Found by an adversary: a full disk was blamed on another memchat.
        if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "full" in str(exc):
            why = (
                f"the disk is full ({exc}): rewriting it needs free space about its size "
                f"({_size_in_mb(core)} MB); free that much and run the command again, which "
                "finishes the rewrite even with nothing left to erase"
            )
        else:
            why = (
                f"while another memchat uses it ({exc}): close the app and run the command "
                "again, which finishes the rewrite even with nothing left to erase"
            )
        raise MemoryStoreError(
            f"erased {erased} audit record(s), but the database file could not be rewritten "
            f"{why}; until then its free space may still hold the old text"
        ) from exc
    except OSError as exc:
        raise MemoryStoreError(
            f"erased {erased} audit record(s), but the vector index files beside the store "
            f"could not be removed ({exc}): they may still hold its vector; delete the "
            f"folder {index_folder(core.path).name} by hand (it is rebuilt at the next open)"
        ) from exc
    return erased


def _size_in_mb(core: SqliteCore) -> int:
    try:
        return max(1, round(core.path.stat().st_size / 1_000_000))
    except OSError:
        return 1
