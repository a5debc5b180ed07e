"""State owned by the database thread: the connection and every structure derived from it.

Nothing here is touched from the event loop; `SqliteMemory` reaches it through
`DatabaseThread`. The vector index, the hot cache and the document count are derived
from the file and brought up to date before every operation: our own writes apply the
change log right after commit, and other processes' writes are noticed through
`PRAGMA data_version`, which changes only when another connection commits.

The vector index is loaded on first use, not at open: listing, counting, exporting or
storing never need it, and at 100,000 memories loading it takes seconds and hundreds of
megabytes. Until then the change log is followed without applying it to any vectors.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memory.blas import one_blas_thread
from memory.calibration import Calibration
from memory.errors import (
    DatabaseCorruptError,
    EmbeddingDimensionError,
    MemoryStoreError,
    StorageFullError,
    in_words,
)
from memory.layered_index import LayeredIndex
from memory.retrieval import HotCache
from memory.settings import MemorySettings
from memory.sqlite.checks import PageCheck
from memory.sqlite.database import open_database
from memory.sqlite.doc_frequency import DocumentFrequencies
from memory.sqlite.embedding_cache import EmbeddingCache
from memory.sqlite.failures import is_busy
from memory.sqlite.rows import UNIT_TOLERANCE, decode_vector, epoch
from memory.sqlite.saved_index import (
    TOKEN_NAME,
    first_difference,
    mismatch,
    save_generation,
)
from memory.sqlite.transaction import rollback_quietly
from memory.vector_files import IndexFileDamagedError, RowVerifier, read_index, set_aside
from memory.vector_index import RowColumns, RowMeta, VectorFilter

_CHANGE_LOG_KEEP = 20_000
_CHUNK = 500
_LOAD_BATCH = 4096
_SAVE_AFTER_ROWS = 500
_REBUILT = "it was rebuilt from the store"


class SqliteCore:
    """The connection, the vector index, the hot cache and the embedding cache."""

    def __init__(
        self,
        path: Path,
        settings: MemorySettings,
        identity: str | None,
        *,
        reading_only: bool = False,
    ) -> None:
        self.path = path
        self.settings = settings
        self.identity = identity
        opened = open_database(path, reading_only=reading_only)
        self.conn = opened.conn
        self.read_only = opened.read_only
        """Why the store cannot be written (None when it can); writes then raise."""
        self._read_only_full = opened.full
        self.unusable_files: str | None = None
        """Why the index files beside the store could not be used, if they were damaged."""
        self.damage: str | None = None
        """What a read found damaged (the opening check misses some damage); writes stop."""
        self._page_check = PageCheck(path) if opened.pages_unchecked else None
        """A large store's pages, checked in the background; writes wait for it."""
        self.warnings: list[str] = list(opened.warnings)
        """Problems met while reading that did not stop the store (shown to the user)."""
        self.doc_frequencies = DocumentFrequencies(self.conn)
        self.hot_cache = HotCache(settings.hot_cache_size, settings.hot_cache_ttl_s)
        self.calibration: Calibration | None = None
        """The embedder's anchors, set by the store before the first hybrid recall."""
        self.asymmetric = False
        """The embedder embeds queries differently from documents (E5's prefixes)."""
        """Cosine of unrelated texts for the current embedder (set by the store)."""
        self.dimensions = settings.embedding_dimensions
        """The size of every vector of the current embedder."""
        self._index = LayeredIndex(settings.embedding_dimensions, settings.ann_threshold)
        self._index_loaded = False
        self._saved_change = -1
        """The change-log position of the index files in use; -1 when none are."""
        self._verifier: RowVerifier | None = None
        """Checks every row of the index files in the background after they are read."""
        self._skipped: list[str] = []
        """Warnings about rows left out of the index; saved with its files."""
        self.total_docs = 0
        self._last_change = 0
        self._data_version = -1
        self._writes_since_prune = 0
        self._stale = True
        """The derived state may miss committed changes (a rebuild or replay failed)."""
        self.embeddings = EmbeddingCache(
            self.conn, identity, self.dimensions, settings.embedding_cache_size
        )
        self._record_identity()
        self.rebuild_index()

    # -- problems and read-only mode ------------------------------------------------------

    def warn(self, message: str) -> None:
        """Record a problem that did not stop the store, once."""
        if message not in self.warnings:
            self.warnings.append(message)

    def note_damage(self, detail: str, found_by: str = "a read") -> None:
        """A damaged page was met: from now on nothing is written into the file."""
        if self.damage is None:
            self.damage = f"{found_by} found it damaged: {detail}"

    def settle_page_check(self, *, wait: bool) -> None:
        """Take the background page check's result once it is in (waiting, with `wait`)."""
        check = self._page_check
        if check is None or not (wait or check.done):
            return
        problem = check.result()
        self._page_check = None
        if not check.completed:
            # It could not read every page (the file was busy): check here before writing.
            rows = [row[0] for row in self.conn.execute("PRAGMA integrity_check(5)")]
            problem = None if rows == ["ok"] else "; ".join(rows)
        if problem is not None:
            self.note_damage(problem, found_by="the page check")
            self.warn(
                f"{self.path} is damaged ({problem}): nothing more is written to it; "
                "earlier memories can still be read"
            )

    def check_writable(self) -> None:
        """Raise a clear error when the store is open read-only, or was found damaged."""
        self.settle_page_check(wait=True)
        if self.damage is not None:
            raise DatabaseCorruptError(self.path, self.damage)
        if self.read_only is None:
            return
        message = (
            f"the store is open read-only because {self.read_only}; nothing was saved, "
            "earlier memories are intact"
        )
        raise StorageFullError(message) if self._read_only_full else MemoryStoreError(message)

    # -- coherence ---------------------------------------------------------------------

    def _record_identity(self) -> None:
        if self.identity is None or self.read_only is not None:
            return
        current = self.conn.execute(
            "SELECT value FROM meta WHERE name = 'embedding_identity'"
        ).fetchone()
        if current is not None and current[0] == self.identity:
            return  # nothing to write: a full disk must not stop a store from opening
        try:
            with self.write():
                self.conn.execute(
                    "INSERT INTO meta (name, value) VALUES ('embedding_identity', ?) "
                    "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                    (self.identity,),
                )
        except sqlite3.Error:
            pass  # informational only; the next real write reports what is wrong

    @property
    def index(self) -> LayeredIndex:
        """The vector index, loaded from the file on first use."""
        if not self._index_loaded:
            self._load_vectors()
        return self._index

    def load_index(self) -> None:
        """Read the vectors now if they are not yet (before a first recall)."""
        self.refresh()
        if not self._index_loaded:
            self._load_vectors()

    @property
    def index_loaded(self) -> bool:
        """Whether the vectors have been read from the file since open (or a rebuild)."""
        return self._index_loaded

    def rebuild_index(self) -> None:
        """Start over from the file (start-up, or after a gap): the vectors load on next use."""
        self._stale = True  # until the rebuild finishes
        self._index_loaded = False
        self._index.clear()
        self._data_version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        self._last_change = self.conn.execute(
            "SELECT coalesce(max(change_id), 0) FROM memory_changes"
        ).fetchone()[0]
        self.total_docs = self.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        self.hot_cache.clear()
        self.doc_frequencies.clear()
        self._stale = False

    def _load_vectors(self) -> None:
        """Read the index files, or else every current-identity vector from the database.

        Either way the change log is followed from the position read.
        """
        one_blas_thread()
        self._index.clear()
        self._skipped = []
        if self._load_saved_index():
            return
        self._saved_change = -1
        self._load_every_vector()
        self.save_index(reread=True)

    def _files_not_used(self, reason: str) -> None:
        self.unusable_files = reason
        if self.read_only is not None:
            # Nothing is written here: the files stay as they are until a writing open.
            self.warn(
                f"the vector index beside the store was not used: {reason}; the vectors were "
                "read from the store instead, and the next command that writes rebuilds it"
            )
            return
        self.warn(f"the vector index beside the store was not used: {reason}; {_REBUILT}")

    def _load_saved_index(self) -> bool:
        """Start from the index files if they match the database; replay what changed since."""
        if self.identity is None:
            return False
        loaded = read_index(self.path)
        if isinstance(loaded, str):
            if loaded != "absent":
                self._files_not_used(loaded)
            return False
        problem = mismatch(self.conn, loaded, self.identity, self.dimensions)
        if problem is not None:
            reason, damaged = problem
            if damaged:
                self._files_not_used(reason)
            return False
        self._index.set_base(loaded.rows, loaded.checks, loaded.mapped)
        self._stop_verifier()
        self._verifier = RowVerifier(loaded)
        self._last_change = self._saved_change = loaded.header.last_change
        self._index_loaded = True
        self._skipped = list(loaded.header.skipped)
        for message in self._skipped:
            self.warn(message)
        self.apply_changes()
        return self._index_loaded  # False if the replay had to start over

    def save_index(self, *, reread: bool = False, force: bool = False) -> None:
        """Write the index files when they are missing or far behind; never raises.

        With `reread`, the index then serves from the files just written, so the vectors
        leave memory. Small stores keep no files: reading them from the database is fast.
        """
        if not self._should_save(force):
            return
        assert self.identity is not None  # checked by _should_save
        fields: dict[str, object] = {
            "dims": self.dimensions,
            "identity": self.identity,
            "last_change": self._last_change,
            "skipped": self._skipped,
        }
        try:
            save_generation(self.path, self._index, self._record_token, fields)
        except IndexFileDamagedError as exc:
            # Never copied forward: the next load reads every vector from the store.
            self._set_aside_damaged(str(exc))
            self._stale = True
            return
        except (OSError, sqlite3.Error, MemoryStoreError) as exc:
            if isinstance(exc, sqlite3.Error) and is_busy(exc):
                # Another process is writing the store (an import, say) and saves the
                # files itself; the files in place serve the next open, with the changes
                # since replayed. Found by an adversary: a search running beside an import
                # warned that every vector would be read from the store, which was untrue.
                return
            self.warn(
                f"the vector index could not be saved beside the store ({in_words(exc)}); "
                "opening the store reads every vector from it until it can"
            )
            return
        self._saved_change = self._last_change
        if reread:
            self._stop_verifier()  # the save read every base row, checked
            loaded = read_index(self.path)
            if not isinstance(loaded, str) and loaded.header.last_change == self._last_change:
                self._index.set_base(loaded.rows, loaded.checks, loaded.mapped)

    def _move_overlay_to_files(self) -> None:
        """Once the rows in memory outnumber those in the files, write them all out.

        A long import otherwise keeps every new vector in memory until the store closes;
        doubling each time keeps the total written within twice the final size.
        """
        if not self._index_loaded:
            return
        waiting = len(self._index.overlay)
        floor = max(self.settings.index_file_min_vectors, self._index.in_files, _SAVE_AFTER_ROWS)
        if waiting >= floor:
            self.save_index(reread=True, force=True)

    def search_vectors(
        self, query: npt.NDArray[np.float32], k: int, flt: VectorFilter
    ) -> list[tuple[int, float]]:
        """`index.search`, rebuilt from the database first if the index files are damaged."""
        try:
            return self.index.search(query, k, flt)
        except IndexFileDamagedError as exc:
            self._drop_index_files(str(exc))
            return self.index.search(query, k, flt)

    def vector_similarity(
        self, query: npt.NDArray[np.float32], seqs: list[int]
    ) -> dict[int, float]:
        """`index.similarity`, rebuilt from the database first if the files are damaged."""
        try:
            return self.index.similarity(query, seqs)
        except IndexFileDamagedError as exc:
            self._drop_index_files(str(exc))
            return self.index.similarity(query, seqs)

    def _set_aside_damaged(self, reason: str) -> None:
        set_aside(self.path)
        self.warn(f"the vector index beside the store was damaged ({reason}); {_REBUILT}")

    def _drop_index_files(self, reason: str) -> None:
        """Damaged index files: set them aside, say so, and read the vectors from the store."""
        self._set_aside_damaged(reason)
        self.rebuild_index()
        self._load_vectors()

    def check_index_files(self) -> str | None:
        """Compare every vector of the index files with the database's; None if they agree.

        Files that disagree are set aside (their header removed) and the index is rebuilt
        from the database, which is the source of truth.
        """
        if self.identity is None:
            return None
        if not self._index_loaded:
            self._load_vectors()
        if self.unusable_files is not None:
            reason = self.unusable_files
            if self.read_only is None:
                self.unusable_files = None  # rebuilt: said once
                return f"the vector index beside the store could not be used ({reason}); {_REBUILT}"
            return (
                f"the vector index beside the store could not be used ({reason}); "
                "the next open that can write rebuilds it"
            )
        try:
            problem = first_difference(self.conn, self._index, self.identity)
        except IndexFileDamagedError as exc:
            problem = str(exc)
        if problem is None:
            return None
        set_aside(self.path)
        self.rebuild_index()
        if self.read_only is not None:
            return (
                f"the vector index beside the store did not match it ({problem}); its header "
                "was removed, so they are not used again; the next open that can write "
                "rebuilds them"
            )
        self._load_vectors()  # from the store, and saved again as new files
        return f"the vector index beside the store did not match it ({problem}); rebuilt"

    def _should_save(self, force: bool, *, while_checking: bool = False) -> bool:
        checking = self._page_check is not None and not self._page_check.done
        if (
            (checking and not while_checking)  # a search never waits for the page check
            or not self._index_loaded
            or self.identity is None
            or self.read_only is not None
            or self.damage is not None
            or len(self._index) < self.settings.index_file_min_vectors
        ):
            return False
        if force or self._saved_change < 0:
            return True
        base = self._index.in_files
        # A few hundred changes replay in milliseconds; rewriting a large index does not.
        enough = max(_SAVE_AFTER_ROWS, base // 50) if base >= _SAVE_AFTER_ROWS else max(1, base)
        return (
            self._index.changed >= enough
            or self._last_change - self._saved_change >= _CHANGE_LOG_KEEP // 2
        )

    def _record_token(self, token: str) -> None:
        with self.write():
            self.conn.execute(
                "INSERT INTO meta (name, value) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (TOKEN_NAME, token),
            )

    def _load_every_vector(self) -> None:
        """Read every current-identity vector from the database."""
        # One read transaction: the vectors and the log position are of the same moment.
        own_transaction = not self.conn.in_transaction
        if own_transaction:
            self.conn.execute("BEGIN")
        try:
            self._last_change = self.conn.execute(
                "SELECT coalesce(max(change_id), 0) FROM memory_changes"
            ).fetchone()[0]
            if self.identity is not None:
                rows = self.conn.execute(
                    "SELECT m.seq, m.namespace, m.session_id, m.category, m.superseded_by, "
                    "m.created_at, v.embedding, v.dims, m.id FROM memories m "
                    "JOIN memory_vectors v ON v.seq = m.seq WHERE v.model = ?",
                    (self.identity,),
                )
                self._index.reserve(self.vector_count())
                while batch := rows.fetchmany(_LOAD_BATCH):
                    self._index_batch(batch)
        finally:
            if own_transaction:
                rollback_quietly(self.conn)
        self._index_loaded = True

    def vector_count(self) -> int:
        """Rows with a usable vector of the current embedder (without loading the index)."""
        if self._index_loaded:
            return len(self._index)
        if self.identity is None:
            return 0
        # From the index: a damaged vector is counted until it loads (and is reported then).
        count = self.conn.execute(
            "SELECT count(*) FROM memory_vectors WHERE model = ? AND dims = ?",
            (self.identity, self.dimensions),
        ).fetchone()[0]
        return int(count)

    def _index_batch(self, batch: list[tuple[object, ...]]) -> None:
        """Index rows read at load, checked in bulk; a row that fails goes the slow way.

        Row by row, loading 100,000 vectors took tens of seconds of Python.
        """
        size = self.dimensions * 4
        good: list[tuple[object, ...]] = []
        created: list[float] = []
        for row in batch:
            blob, dims, created_at = row[6], row[7], row[5]
            try:
                ok = isinstance(blob, bytes) and dims == self.dimensions and len(blob) == size
                when = epoch(str(created_at)) if ok else 0.0
            except ValueError:
                ok = False
            if ok:
                good.append(row)
                created.append(when)
            else:
                self._index_row(row)  # reports what is wrong with it
        if not good:
            return
        vectors = np.frombuffer(b"".join(row[6] for row in good), dtype="<f4")  # type: ignore[misc]
        vectors = vectors.reshape(len(good), self.dimensions).astype(np.float32)
        lengths = np.linalg.norm(vectors.astype(np.float64), axis=1)
        finite = np.isfinite(vectors).all(axis=1) & (
            (lengths == 0) | (np.abs(lengths - 1.0) <= UNIT_TOLERANCE)
        )  # the others go the slow way, which says what is wrong with them
        for row in (row for row, fine in zip(good, finite, strict=True) if not fine):
            self._index_row(row)
        keep = [i for i, fine in enumerate(finite) if fine]
        rows = [good[i] for i in keep]
        self._index.add_many(
            [int(row[0]) for row in rows],  # type: ignore[call-overload]
            vectors[finite],
            RowColumns(
                namespaces=[str(row[1]) for row in rows],
                sessions=[None if row[2] is None else str(row[2]) for row in rows],
                categories=[str(row[3]) for row in rows],
                superseded=[row[4] is not None for row in rows],
                created=[created[i] for i in keep],
            ),
        )

    def _index_row(self, row: tuple[object, ...]) -> None:
        """Index one row's vector; a damaged one is skipped and reported, never fatal."""
        seq, namespace, session_id, category, superseded_by, created_at, blob, dims, entry_id = row
        key = int(seq)  # type: ignore[call-overload]
        problem = None
        if not isinstance(blob, bytes) or not isinstance(dims, int):
            problem = "its stored vector is not a vector"
        elif dims != self._index.dimensions:
            # One embedding identity always makes one size: this row is damaged.
            problem = (
                f"its stored vector has {dims} dimensions, the embedder makes "
                f"{self._index.dimensions}"
            )
        else:
            try:
                vector = decode_vector(blob, dims, unit=True)
            except EmbeddingDimensionError as exc:
                problem = str(exc)
            try:
                created = epoch(str(created_at))
            except ValueError:
                problem = f"created_at {created_at!r} is not a readable time"
        if problem is not None:
            self._index.remove(key)
            message = (
                f"entry {entry_id}: {problem}; its vector was skipped "
                "(`memchat memory reindex` makes a new one)"
            )
            self.warn(message)
            if message not in self._skipped:
                self._skipped.append(message)
            return
        self._index.upsert(
            key,
            vector,
            RowMeta(
                namespace=str(namespace),
                session_id=None if session_id is None else str(session_id),
                category=str(category),
                superseded=superseded_by is not None,
                created=created,
            ),
        )

    def _stop_verifier(self) -> None:
        if self._verifier is not None:
            self._verifier.stop()
            self._verifier = None

    def _settle_verifier(self) -> None:
        """Take the background row check's result once it is in."""
        verifier = self._verifier
        if verifier is None or not verifier.done:
            return
        self._verifier = None
        problem = verifier.problem()
        if problem is not None and self._index_loaded and self._index.base is not None:
            self._drop_index_files(problem)

    def refresh(self) -> None:
        """Catch up with writes other processes committed since our last look."""
        self.settle_page_check(wait=False)
        self._settle_verifier()
        if self._stale:
            self.rebuild_index()
            return
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._data_version:
            self.doc_frequencies.clear()  # we cannot see which terms the other writer touched
            self.apply_changes()
            self._data_version = version  # only once caught up: a failure retries

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
        seqs = list(dict.fromkeys(seq for _, seq in changes))
        if not self._index_loaded:
            seqs = []  # nothing to replay into: the index reads the file when it loads
        for start in range(0, len(seqs), _CHUNK):
            chunk = seqs[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            found = self.conn.execute(
                "SELECT m.seq, m.namespace, m.session_id, m.category, m.superseded_by, "
                "m.created_at, v.embedding, v.dims, m.id, v.model FROM memories m "
                f"LEFT JOIN memory_vectors v ON v.seq = m.seq WHERE m.seq IN ({marks})",
                chunk,
            ).fetchall()
            present = set()
            for row in found:
                present.add(row[0])
                if self.identity is not None and row[9] == self.identity:
                    self._index_row(row[:9])
                else:
                    self._index.remove(row[0])
            for seq in chunk:
                if seq not in present:
                    self._index.remove(seq)
        # Moved only once replayed: a failure halfway replays the whole batch next time.
        self._last_change = changes[-1][0]
        self.total_docs = self.conn.execute("SELECT count(*) FROM memories").fetchone()[0]

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction (no lock-upgrade deadlocks between processes).

        On failure the transaction is rolled back (unless SQLite already did, as it does
        on a full disk) and the original error is raised, never the rollback's.
        """
        self.check_writable()
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
            self.embeddings.write_touches()
            self.conn.execute("COMMIT")
        except BaseException:
            rollback_quietly(self.conn)
            self.doc_frequencies.clear()
            raise
        self.doc_frequencies.settle()

    def after_write(self) -> None:
        """Bring derived state up to date with what we just committed.

        The write is committed whatever happens here: a failure to update the derived
        state must not report it as failed, so the state is marked stale and rebuilt
        from the file on the next read.
        """
        try:
            self.apply_changes()
        except sqlite3.Error:
            self._stale = True
            return
        self._move_overlay_to_files()
        self._writes_since_prune += 1
        if self._writes_since_prune >= 1000:
            self._writes_since_prune = 0
            try:
                with self.write():
                    self.conn.execute(
                        "DELETE FROM memory_changes WHERE change_id <= "
                        "(SELECT max(change_id) FROM memory_changes) - ?",
                        (_CHANGE_LOG_KEEP,),
                    )
            except sqlite3.Error:
                # The caller's write is committed; a pruning failure (a full disk) must
                # not report it as failed. The next prune tries again.
                pass

    # -- embedding cache ---------------------------------------------------------------

    def remember_vector(self, text: str, vector: npt.NDArray[np.float32]) -> None:
        """Cache one embedding; see `remember_vectors`."""
        self.remember_vectors([(text, vector)])

    def remember_vectors(self, pairs: list[tuple[str, npt.NDArray[np.float32]]]) -> None:
        """Cache embeddings in their own transaction, if the store can be written.

        Only a cache: a read (recall) must not fail because it cannot be saved (a full
        disk, a read-only store, a busy file).
        """
        if self.read_only is not None or (
            self._page_check is not None and not self._page_check.done
        ):
            return  # never wait for the page check of a large store: a recall is reading
        try:
            with self.write():
                self.embeddings.put(pairs)
        except sqlite3.Error:
            pass  # rolled back: the vector is simply not cached

    def close(self) -> None:
        """Write pending cache recency and close the connection.

        Recency is a hint for cache eviction: failing to save it (a full disk, a
        read-only store) must not make closing fail.
        """
        self._stop_verifier()
        check = self._page_check
        if check is not None and not check.done:
            if self._should_save(False, while_checking=True):
                self.settle_page_check(wait=True)  # the files are due: worth the wait
            else:
                # Nothing is due: stop the check, and write nothing into unchecked pages.
                check.cancel()
                if not check.completed:
                    self.conn.close()
                    return
        self.settle_page_check(wait=False)
        try:
            self.save_index()
            if self.embeddings.touches_pending and self.read_only is None:
                with self.write():
                    pass
        except sqlite3.Error:
            pass
        finally:
            self.conn.close()
