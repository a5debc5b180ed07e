"""`SqliteMemory`: the default backend, an async facade over the database thread."""

from __future__ import annotations

import asyncio
import builtins
import hashlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memory.abandonable import run_abandonable
from memory.calibration import Calibration, anchor_texts, calibration_note, fixed_band
from memory.embedding.base import Embedder, checked_vectors, unit_vectors
from memory.entry import HealthReport, MemoryCategory, MemoryEntry, RecallResult, utc_now
from memory.errors import EmbeddingError, MemoryStoreError
from memory.files import protected_files, snapshot_beside, write_private
from memory.front import MemoryFront
from memory.procedures import ProcedureStep, describe_procedure
from memory.protocol import (
    AuditRecord,
    Capabilities,
    HygieneReport,
    ImportSummary,
    Lifecycle,
    ListOrder,
    MemoryStats,
    ProgressCallback,
    Reindexing,
)
from memory.retrieval import RecallFilters, RecallQuery, cache_key, clamp_limit, clean_query
from memory.settings import MemorySettings
from memory.snapshot import render_snapshot
from memory.snapshot_guard import keep_unaccounted
from memory.sqlite import erasing, history, importing, reads, writes
from memory.sqlite import hygiene as hygiene_run
from memory.sqlite import search as lanes
from memory.sqlite.anchors import keep_anchor_matrix, stored_anchor_matrix
from memory.sqlite.core import SqliteCore
from memory.sqlite.database import DatabaseThread, P, T
from memory.write_rules import NewMemory, validate


@dataclass
class BulkStored:
    """What `bulk_store` wrote."""

    stored: int = 0
    without_vectors: int = 0
    """Entries stored without a vector because the embedder failed (reindex embeds them)."""
    embedding_error: str | None = None


_EXPORT_PAGE = 500


class SqliteMemory(MemoryFront):
    """SQLite file with FTS5 keyword search and an in-memory vector index."""

    name = "sqlite"
    capabilities = Capabilities(
        persistent=True,
        supports_vectors=True,
        supports_delete=True,
        supports_keyword_search=True,
        supports_supersede=True,
        supports_export=True,
        supports_lifecycle=True,
        restores_from_snapshot=True,
        erases_from_its_files=True,
    )

    def __init__(self, db: DatabaseThread, core: SqliteCore, embedder: Embedder | None) -> None:
        self._db = db
        self._core = core
        self.embedder = embedder
        self.settings = core.settings
        self.path = core.path
        self.last_embedding_error: str | None = None
        self.warnings: list[str] = core.warnings
        """Shared with the core, which adds what it meets while reading (a damaged row)."""
        self.hydration: str | None = None
        """Set when the store was rebuilt from MEMORY_SNAPSHOT.md (and how that went)."""
        self.follow_snapshot = True
        """Whether MEMORY_SNAPSHOT.md follows changes to core facts (not while the store is
        filled from it: a damaged one is kept as it was)."""
        self._snapshot_written: bytes | None = None
        """The SHA-256 of the MEMORY_SNAPSHOT.md this store wrote last (`keep_unaccounted`)."""
        self._closed = False
        self._calibrating = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: Path | str,
        settings: MemorySettings | None = None,
        embedder: Embedder | None = None,
        *,
        reading_only: bool = False,
    ) -> SqliteMemory:
        """Open or create the store; a damaged file raises `DatabaseCorruptError`.

        `reading_only` opens an existing store read-only without reading every page
        first (commands that only read: a damaged page is reported when a read meets it).
        """
        settings = settings or MemorySettings(embedding_provider="none")
        db = DatabaseThread(Path(path))
        identity = None if embedder is None else embedder.identity
        try:
            core = await db.run(
                SqliteCore, Path(path), settings, identity, reading_only=reading_only
            )
        except BaseException:
            db.shutdown()
            raise
        db.on_damage = core.note_damage
        core.asymmetric = hasattr(embedder, "embed_queries")
        return cls(db, core, embedder)

    # -- embeddings --------------------------------------------------------------------

    async def _embed(self, texts: list[str]) -> npt.NDArray[np.float32] | None:
        """Vectors for texts (cache first); None when embeddings are off or failing."""
        if self.embedder is None or not texts:
            return None
        cached = await self._db.run(self._core.embeddings.get, texts)
        missing = [text for text in dict.fromkeys(texts) if text not in cached]
        if missing:
            fresh = await self._checked(self.embedder.embed(missing))
            if fresh is None:
                return None
            cached.update(zip(missing, fresh, strict=True))
        return np.stack([cached[text] for text in texts])

    async def calibrate(self) -> bool:
        """See `Memory.calibrate`.

        The reference sentences' vectors are kept in the store, so it pays for them once
        per model (and again only if the store cannot be written). The stored vectors are
        loaded here too, so the first recall does not wait for them.
        """
        ready, _ = await self._calibrate()
        if self.embedder is not None:
            await self._db.run(self._core.load_index)
        return ready

    async def _calibrate(self) -> tuple[bool, bool]:
        """(ready, whether the reference sentences were embedded just now)."""
        async with self._calibrating:
            if self.embedder is None or fixed_band(self.settings) is not None:
                return True, False
            if self._core.calibration is not None:
                return True, False
            texts = list(anchor_texts())
            kept = await self._db.run(stored_anchor_matrix, self._core, texts)
            if kept is not None:
                self._core.calibration = Calibration(kept)
                return True, False
            # Stores from before the anchors had their own table hold them in the cache.
            cached = await self._db.run(self._core.embeddings.get, texts)
            missing = [text for text in texts if text not in cached]
            if missing:
                fresh = await self._checked(self.embedder.embed(missing))
                if fresh is None:
                    return False, False
                cached.update(zip(missing, fresh, strict=True))
            matrix = np.stack([cached[text] for text in texts])
            await self._db.run(keep_anchor_matrix, self._core, texts, matrix)
            self._core.calibration = Calibration(matrix)
            return True, bool(missing)

    async def _embed_query(self, text: str) -> npt.NDArray[np.float32] | None:
        """A query's vector: `embed_queries` where the model distinguishes queries."""
        embed_queries = getattr(self.embedder, "embed_queries", None)
        if embed_queries is None:
            return await self._embed([text])
        return await self._checked(embed_queries([text]))

    async def _checked(self, embedding: Awaitable[object]) -> npt.NDArray[np.float32] | None:
        """The embedder's answer at the store's size, or None with the error recorded.

        Checked here too: an embedder that does not check its own output would otherwise
        make the write itself fail.
        """
        assert self.embedder is not None
        try:
            vectors = checked_vectors(
                await embedding, self._core.dimensions, self.embedder.provider
            )
        except EmbeddingError as exc:
            self.last_embedding_error = str(exc)
            return None
        self.last_embedding_error = None
        return vectors

    # -- writes ------------------------------------------------------------------------

    async def write(self, item: NewMemory) -> MemoryEntry:
        """See `Memory.write`; an embedder failure still stores the text."""
        item = validate(item)
        self._core.check_writable()  # before the embedder is asked for anything
        vectors = await self._embed([item.content])
        vector = None if vectors is None else vectors[0]
        return await self._changing(writes.upsert, self._core, item, vector)

    async def bulk_store(
        self,
        items: Sequence[NewMemory],
        vectors: npt.NDArray[np.float32] | None = None,
        *,
        batch_size: int = 64,
        progress: ProgressCallback | None = None,
    ) -> BulkStored:
        """Insert many new entries; vectors are given (one transaction) or embedded.

        Embedding goes in batches of `batch_size` texts, each batch stored once embedded,
        so one request never holds thousands of texts (a server's timeout would fail them
        all) and `progress(done, total)` follows. When the embedder fails, the rest is
        stored without vectors rather than waiting out its timeout batch after batch; the
        result and the store's warnings say how many, and `reindex` embeds them.
        """
        self._core.check_writable()
        mark = await self._db.run(reads.core_mark, self._core)
        stored = await self._bulk_store(items, vectors, batch_size, progress)
        await self._follow_core_writes(mark)
        return stored

    async def _bulk_store(
        self,
        items: Sequence[NewMemory],
        vectors: npt.NDArray[np.float32] | None,
        batch_size: int,
        progress: ProgressCallback | None,
    ) -> BulkStored:
        if vectors is not None or self.embedder is None:
            if vectors is not None:
                vectors = unit_vectors(
                    vectors, self._core.dimensions, "bulk_store", allow_zero=True
                )
            stored = await self._db.run(writes.bulk_insert, self._core, items, vectors)
            if progress is not None:
                progress(stored, len(items))
            return BulkStored(stored=stored)
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise MemoryStoreError(
                f"bulk_store batch_size must be a whole number of at least 1, got {batch_size!r}"
            )
        result = BulkStored()
        for start in range(0, len(items), batch_size):
            batch = items[start : start + batch_size]
            embedded = None
            if result.embedding_error is None:
                embedded = await self._embed([item.content for item in batch])
                if embedded is None:
                    result.embedding_error = self.last_embedding_error or "no vectors came back"
            result.stored += await self._db.run(writes.bulk_insert, self._core, batch, embedded)
            if embedded is None:
                result.without_vectors += len(batch)
            if progress is not None:
                progress(result.stored, len(items))
        if result.without_vectors:
            self._core.warn(
                f"{result.without_vectors} of {result.stored} memories just stored have no "
                f"vector: the embedder failed ({result.embedding_error}); recall finds them "
                "by keyword only until `memchat memory reindex` embeds them"
            )
        return result

    async def forget(self, key: str, namespace: str = "default") -> bool:
        """See `Memory.forget`; MEMORY_SNAPSHOT.md, when there is one, is written again.

        The store is rebuilt from that file if `brain.db` is lost: a forgotten fact left
        in it would come back (found by the adversary).
        """
        mark = await self._db.run(reads.core_mark, self._core)
        forgotten = await self._db.run(history.forget, self._core, key, namespace)
        if forgotten:
            await self._follow_core_writes(
                mark,
                lambda exc: (
                    f"{key!r} is forgotten, but {self.snapshot_path} could not be written "
                    f"again ({exc}): it still holds the fact until the next snapshot"
                ),
            )
        return forgotten

    async def supersede(self, old_ids: Iterable[str], new_id: str) -> int:
        """See `Memory.supersede`."""
        return await self._changing(history.supersede, self._core, list(old_ids), new_id)

    async def restore(self, entry_id: str) -> MemoryEntry:
        """See `Memory.restore`."""
        return await self._changing(history.restore, self._core, entry_id)

    async def import_(self, entries: Iterable[MemoryEntry]) -> ImportSummary:
        """See `Memory.import_`: what an import changes is kept as restorable history."""
        return await self._changing(importing.import_records, self._core, list(entries))

    async def _changing(self, write: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `write` on the database thread, then `_follow_core_writes`."""
        mark = await self._db.run(reads.core_mark, self._core)
        result = await self._db.run(write, *args, **kwargs)
        await self._follow_core_writes(mark)
        return result

    async def _follow_core_writes(
        self, mark: reads.CoreMark, failed: Callable[[Exception], str] | None = None
    ) -> None:
        """Write MEMORY_SNAPSHOT.md again if a core fact changed.

        The store is rebuilt from it when `brain.db` is lost: written only by hygiene and
        forget, it lacked facts stored, restored, imported or brought back by an undone
        forget since, and a rebuild lost them (found by a new user and an adversary).
        Until hygiene first ran there was none at all, so facts stored from the command
        line before the app ever started were lost with `brain.db`; the first core change
        writes it too, unless `snapshot_after_hygiene` is off and there is none yet.
        `failed` words the warning when it cannot be written.
        """
        if not self.follow_snapshot:
            return
        wanted = self.settings.snapshot_after_hygiene
        if not wanted and not await asyncio.to_thread(self.snapshot_path.is_file):
            return
        if not await self._db.run(reads.core_changed_since, self._core, mark):
            return
        try:
            await self.write_snapshot()
        except (OSError, MemoryStoreError) as exc:
            self._core.warn(
                failed(exc)
                if failed is not None
                else f"{self.snapshot_path} could not be written again after a core memory "
                f"changed ({exc}): a store rebuilt from it would lack that change"
            )

    async def reindex(
        self,
        batch_size: int = 64,
        progress: ProgressCallback | None = None,
        *,
        namespace: str | None = None,
    ) -> int:
        """Embed every entry whose vector is missing or stale; return how many were done.

        Args:
            batch_size: Entries embedded per request; at least 1 (0 would embed nothing
                yet report success).
            progress: Called with (done, total) after each batch.
            namespace: Only this namespace's entries; all namespaces when None.

        Raises:
            MemoryStoreError: Embeddings are off, or `batch_size` is not a whole number >= 1.
        """
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise MemoryStoreError(
                f"reindex batch_size must be a whole number of at least 1, got {batch_size!r}"
            )
        if self.embedder is None:
            raise MemoryStoreError("embeddings are off (memory.embedding_provider = 'none')")
        batch_size = min(batch_size, 1 << 31)  # beyond any store; SQLite binds 64-bit only
        total = await self._db.run(writes.count_needing_vectors, self._core, namespace)
        done, cursor = 0, 0
        while True:
            rows = await self._db.run(
                writes.rows_needing_vectors, self._core, cursor, batch_size, namespace
            )
            if not rows:
                return done
            vectors = await self.embedder.embed([content for _, content in rows])
            await self._db.run(
                writes.set_vectors,
                self._core,
                [
                    (seq, content, vector)
                    for (seq, content), vector in zip(rows, vectors, strict=True)
                ],
            )
            cursor = rows[-1][0]
            done += len(rows)
            if progress is not None:
                progress(done, total)

    # -- reads -------------------------------------------------------------------------

    async def search(self, query: RecallQuery) -> RecallResult:
        """Hot cache → keyword stage (early return) → hybrid stage; see `Memory.recall`."""
        filters = query.filters
        text = clean_query(query.text.replace("\x00", " "))
        limit = clamp_limit(query.limit)
        given = None
        if query.query_vector is not None:
            given = unit_vectors(
                query.query_vector, self._core.dimensions, "query_vector", allow_zero=True
            )[0]
        key = cache_key(text, limit, filters, (None if given is None else given.tobytes(),))
        wants_vectors = self.embedder is not None or given is not None
        stage = await self._db.run(
            lanes.keyword_stage, self._core, text, limit, filters, key, wants_vectors, given
        )
        if stage.result is not None:
            if stage.result.mode == "keyword" and self.embedder and self.last_embedding_error:
                # No vector was ever stored (a wrong embedding size, say): say why.
                degraded = f"keyword-only: {self.last_embedding_error}"
                return stage.result.model_copy(update={"degraded": degraded})
            return stage.result
        ready, embedded_anchors = await self._calibrate()
        if not ready:
            degraded = (
                "keyword-only: the embedding model could not be calibrated "
                f"({self.last_embedding_error})"
            )
            return await self._db.run(lanes.finish, self._core, stage, None, "keyword", degraded)
        vector = given
        if vector is None:
            vectors = await self._embed_query(text)
            if vectors is None:
                degraded = f"keyword-only: {self.last_embedding_error}"
                return await self._db.run(
                    lanes.finish, self._core, stage, None, "keyword", degraded
                )
            vector = vectors[0]
        result = await self._db.run(self._finish_hybrid, stage, text, vector, given is None)
        if embedded_anchors and self.embedder is not None:
            # Said once, on the recall that waited for it.
            return result.model_copy(update={"calibration": calibration_note(self.embedder.model)})
        return result

    def _finish_hybrid(
        self,
        stage: lanes.KeywordStage,
        text: str,
        vector: npt.NDArray[np.float32],
        embedded: bool,
    ) -> RecallResult:
        if embedded:
            key = lanes.QUERY_VECTOR_PREFIX + text if self._core.asymmetric else text
            self._core.remember_vector(key, vector)
        return lanes.finish(self._core, stage, vector, "hybrid")

    async def get(self, key: str, namespace: str = "default") -> MemoryEntry | None:
        """See `Memory.get`."""
        return await self._db.run(reads.get, self._core, key, namespace)

    async def get_by_id(self, entry_id: str) -> MemoryEntry | None:
        """See `Memory.get_by_id`."""
        return await self._db.run(reads.get_by_id, self._core, entry_id)

    async def list(
        self,
        *,
        namespace: str | None = "default",
        category: str | None = None,
        session_id: str | None = None,
        prefix: str | None = None,
        include_superseded: bool = False,
        order: ListOrder = "recent",
        limit: int = 50,
        offset: int = 0,
    ) -> list[MemoryEntry]:
        """See `Memory.list`."""
        filters = RecallFilters(
            namespace=namespace,
            category=category,
            session_id=session_id,
            include_superseded=include_superseded,
        )
        return await self._db.run(
            reads.list_entries, self._core, filters, prefix, order, limit, offset
        )

    async def count(
        self,
        *,
        namespace: str | None = None,
        category: str | None = None,
        include_superseded: bool = True,
    ) -> int:
        """See `Memory.count`."""
        filters = RecallFilters(
            namespace=namespace, category=category, include_superseded=include_superseded
        )
        return await self._db.run(reads.count, self._core, filters)

    async def stats(self) -> MemoryStats:
        """See `Memory.stats`."""
        return await self._db.run(reads.stats, self._core, self.name)

    async def health_check(self) -> HealthReport:
        """See `Memory.health_check`; reports embedding trouble without failing."""
        try:
            # integrity_check, not quick_check: it also finds an index that disagrees with
            # its table (a key lookup that misses a stored row).
            problems = await self._db.run(
                lambda: [row[0] for row in self._core.conn.execute("PRAGMA integrity_check(3)")]
            )
        except MemoryStoreError as exc:
            return HealthReport(ok=False, backend=self.name, detail=str(exc))
        if problems != ["ok"]:
            return HealthReport(ok=False, backend=self.name, detail="; ".join(problems))
        changed = await self._db.run(reads.changed_texts, self._core)
        if changed is not None:
            return HealthReport(ok=False, backend=self.name, detail=f"{self.path}: {changed}")
        detail = f"{self.path} ok"
        repaired = await self._db.run(self._core.check_index_files)
        if repaired:
            # The store itself is sound, but something damaged a file beside it: a
            # check that found damage says so, even when it could repair it.
            return HealthReport(ok=False, backend=self.name, detail=f"{detail}; {repaired}")
        if self.last_embedding_error:
            detail += f"; embeddings failing, recall is keyword-only ({self.last_embedding_error})"
        return HealthReport(ok=True, backend=self.name, detail=detail)

    async def export(self, *, namespace: str | None = None) -> AsyncIterator[MemoryEntry]:
        """See `Memory.export`: `MemoryRecord`s in insertion order, vectors included."""
        cursor = 0
        while True:
            page, cursor = await self._db.run(
                reads.export_page, self._core, namespace, cursor, _EXPORT_PAGE
            )
            for record in page:
                yield record
            if len(page) < _EXPORT_PAGE:
                return

    # -- lifecycle ---------------------------------------------------------------------

    @property
    def location(self) -> Path:
        """See `Memory.location`: the database file."""
        return self.path

    @property
    def lifecycle(self) -> Lifecycle:
        """See `Memory.lifecycle`: this store has all of it."""
        return self

    @property
    def reindexing(self) -> Reindexing:
        """See `Memory.reindexing`."""
        return self

    async def hygiene(
        self,
        *,
        dry_run: bool = False,
        now: datetime | None = None,
        namespace: str | None = None,
    ) -> HygieneReport:
        """Apply retention and budgets (pinned entries exempt); every deletion is audited.

        Budgets count each namespace on its own. `namespace` limits the run to one namespace;
        all namespaces when None.
        """
        now = now or utc_now()
        read = await self._db.run(hygiene_run.read_retention, self._core, now, namespace)
        # Judged on a thread of its own: recall and saving go on meanwhile.
        retention = await run_abandonable(hygiene_run.judge_retention, read, now)
        doomed = await self._db.run(hygiene_run.finish, self._core, retention, dry_run, namespace)
        return HygieneReport(dry_run=dry_run, removed=[(d.entry, d.reason) for d in doomed])

    async def audit_log(
        self, limit: int = 100, offset: int = 0, *, namespace: str | None = None
    ) -> builtins.list[AuditRecord]:
        """Deletions, newest first; only `namespace`'s when given."""
        return await self._db.run(reads.audit_log, self._core, limit, offset, namespace)

    async def erase_records(self, entry_ids: Sequence[str]) -> int:
        """See `Lifecycle.erase_records`: the file is written anew without old pages."""
        return await self._db.run(erasing.erase_records, self._core, entry_ids)

    async def write_snapshot(
        self,
        path: Path | None = None,
        now: datetime | None = None,
        *,
        namespace: str | None = None,
    ) -> Path:
        """Write MEMORY_SNAPSHOT.md (every core entry, superseded history included).

        Args:
            path: Where to write; MEMORY_SNAPSHOT.md beside the database when None.
            now: The time the snapshot states.
            namespace: Only this namespace's entries (all when None). A partial snapshot
                needs its own `path`: the store is rebuilt from MEMORY_SNAPSHOT.md, which
                must therefore always hold every namespace.

        MEMORY_SNAPSHOT.md is only replaced when the store accounts for all it holds; if not,
        it is first copied aside and a warning names the copy (see `memory.snapshot_guard`).

        Raises:
            MemoryStoreError: A namespace without a path of its own, or a snapshot that
                could not be checked or kept before being replaced.
            UnsafeTargetError: `path` is one of the store's files or not a regular file.
        """
        target = path or self.snapshot_path
        own = target.resolve() == self.snapshot_path.resolve()
        if namespace is not None and own:
            raise MemoryStoreError(
                f"a snapshot of one namespace needs a file of its own: {self.snapshot_path.name} "
                "restores the whole store, so it always holds every namespace"
            )
        entries = await self._db.run(reads.core_entries, self._core, namespace)
        now = now or utc_now()
        text = render_snapshot(entries, now)
        protected = protected_files(self.path)
        if own:
            protected = [file for file in protected if file != self.snapshot_path]
            warning = await keep_unaccounted(
                target, self._accounted_ids, now, self._snapshot_written
            )
            if warning is not None:
                self._core.warn(warning)
        # The store's other files are never a snapshot target (a typo must not replace them).
        await asyncio.to_thread(write_private, target, text, protected)
        if own:
            self._snapshot_written = hashlib.sha256(text.encode("utf-8")).digest()
        return target

    async def _accounted_ids(self, ids: builtins.list[str]) -> set[str]:
        return await self._db.run(reads.accounted_ids, self._core, ids)

    @property
    def snapshot_path(self) -> Path:
        """MEMORY_SNAPSHOT.md beside the database (`memory.files.snapshot_beside`)."""
        return snapshot_beside(self.path)

    async def store_procedural(
        self,
        request: str,
        steps: Sequence[ProcedureStep],
        session_id: str | None = None,
        namespace: str = "default",
    ) -> MemoryEntry | None:
        """Remember how a request was handled; similar requests update one entry."""
        if not steps:
            return None
        key, text = describe_procedure(request, steps)
        return await self.store_with_metadata(
            key,
            text,
            MemoryCategory.PROCEDURAL.value,
            None,
            namespace=namespace,
            importance=0.4,
            source="tool",
        )

    async def close(self) -> None:
        """See `Memory.close`; closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._db.run(self._core.close)
        finally:
            self._db.shutdown()
