"""`QdrantMemory`: entries as points of one collection, hybrid recall fused like SQLite's.

Keyword recall: each point carries its analysed terms (the same analyser as SQLite's FTS
column) in a keyword-indexed payload field; Qdrant counts each term's document frequency
over the whole collection and finds the points holding the most query-term weight, and the
score is the same IDF coverage SQLite uses, so scores are absolute and comparable across
backends. Vector recall: Qdrant's cosine search on the named vector "dense". Every filter
runs inside Qdrant. Engines are synchronous, so all calls go through one worker thread.

With `memory.qdrant_url` empty, Qdrant's embedded engine (qdrant-edge) keeps the collection
in `qdrant-edge/<collection>/` in the data directory (`memory.qdrant.edge_engine`); a store
that qdrant-client's local mode kept in `qdrant/` is copied over once and left in place.
With a URL, that server is used through qdrant-client (API key from $QDRANT_API_KEY).
"""

from __future__ import annotations

import asyncio
import builtins
import hashlib
import os
import shutil
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from memory import fused_ranking
from memory.embedding.base import Embedder
from memory.entry import (
    DEFAULT_NAMESPACE,
    HealthReport,
    MemoryEntry,
    RecallResult,
    utc_now,
)
from memory.errors import BackendUnavailableError, EmbeddingError, MemoryStoreError
from memory.forgetting import Link, plan_rehoming, split_history
from memory.front import MemoryFront, in_effect_after
from memory.import_rules import plan_import, repeated_ids, successor_ids
from memory.lazy_patterns import lazy_compile
from memory.lifecycle import Doomed, SharedLifecycle
from memory.protocol import Capabilities, ImportSummary, ListOrder, MemoryStats
from memory.qdrant.edge_engine import EdgePoints, shard_exists
from memory.qdrant.housekeeping import QdrantHousekeeping
from memory.qdrant.legacy import copy_old_store, mark_copying, needs_copy
from memory.qdrant.payload import entry_filter, from_payload, point_id, to_payload
from memory.qdrant.points import PointFilter, PointStore, StoredPoint
from memory.qdrant.recall import hybrid_recall, recent_recall
from memory.qdrant.writes import QdrantRules, add_missing_hashes, index_again_read_differently
from memory.record_checks import check_records
from memory.records import MemoryRecord, StoredEmbedding
from memory.retrieval import RecallQuery, clamp_limit, clean_query
from memory.settings import MemorySettings
from memory.upsert import import_vectors
from memory.wording import memories
from memory.write_rules import NewMemory, apply_write, validate

T = TypeVar("T")
_PAGE = 256
_COLLECTION_NAME = lazy_compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}")


def _engine_call(where: str, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run an engine call; what the engine raises becomes a `MemoryStoreError` that says where.

    qdrant-edge raises plain exceptions for a store in use or damaged, and a Rust panic
    (which Python sees as a `BaseException`) for some damaged files: left alone, they
    reached the user as "internal error (a bug)" or a traceback.
    """
    try:
        return func(*args, **kwargs)
    except MemoryStoreError:
        raise
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - pyo3's PanicException is a BaseException
        text = str(exc)
        if "WouldBlock" in text:
            raise MemoryStoreError(
                f"the Qdrant store in {where} is in use by another memchat (the app, or a "
                "command still running, such as an import building its vector index); "
                "try again when it has finished"
            ) from exc
        raise MemoryStoreError(
            f"the Qdrant store in {where} could not be read or written ({type(exc).__name__}: "
            f"{text}); its files may be damaged. Copy the folder aside before anything else; "
            "`memchat memory export` saves the memories only if it can read them all."
        ) from exc


def _import_rules(
    points: PointStore, batch: list[MemoryEntry], summary: ImportSummary
) -> list[MemoryEntry]:
    """One batch of an import, with SQLite's import rules (`memory.import_rules`).

    The versions the records replace are written here, under fresh ids, as their history,
    and stored active entries that give up their key are superseded; the records to write
    are returned.
    """
    known = {p.id: p for p in points.retrieve([point_id(i.id) for i in batch], vectors=True)}
    stored = {}
    for point in known.values():
        entry = from_payload(point.payload)
        stored[entry.id] = entry
    repeated = tuple(repeated_ids(batch))
    kept = points.scroll(PointFilter(superseded_by_any=repeated)) if repeated else []
    replacing = successor_ids(stored.values())
    successors = {
        entry.id: entry
        for entry in (
            from_payload(point.payload)
            for point in (points.retrieve([point_id(i) for i in replacing]) if replacing else [])
        )
    }
    plan = plan_import(batch, stored, summary, [from_payload(p.payload) for p in kept], successors)
    history = []
    for copy in plan.copies:
        old = known[point_id(copy.stored_id)]
        payload = {**old.payload, "id": copy.fresh_id, "superseded_by": copy.successor}
        history.append(StoredPoint(point_id(copy.fresh_id), payload, old.vector))
    if history:
        points.upsert(history)
    writing = {point_id(item.id) for item in plan.entries}
    when = {item.id: item.updated_at.timestamp() for item in plan.entries}
    for (namespace, key), winner in plan.holders.items():
        active = PointFilter(namespace=namespace, key=key, include_superseded=False)
        # A stored entry this batch rewrites is not history: the batch says what it is.
        older = [p for p in points.scroll(active, fields=["updated_ts"]) if p.id not in writing]
        if older:
            points.set_payload([p.id for p in older], {"superseded_by": winner})
            newer = any(float(p.payload.get("updated_ts", 0)) > when[winner] for p in older)
            plan.set_aside(winner, len(older), summary, newer=newer)
    return plan.entries


def _history_of(points: PointStore, namespace: str, key: str) -> list[MemoryEntry]:
    """The key's entries and, step by step, every entry they superseded."""
    found = {
        entry.id: entry
        for entry in (
            from_payload(p.payload)
            for p in points.scroll(PointFilter(namespace=namespace, key=key))
        )
    }
    frontier = set(found)
    while frontier:
        flt = PointFilter(superseded_by_any=tuple(sorted(frontier)))
        older = [from_payload(p.payload) for p in points.scroll(flt)]
        frontier = {entry.id for entry in older} - set(found)
        found.update((entry.id, entry) for entry in older if entry.id in frontier)
    return list(found.values())


def _server_points(url: str, settings: MemorySettings) -> PointStore:
    """qdrant-client for a server; imported only then (it takes a second to import)."""
    try:
        from qdrant_client import QdrantClient

        from memory.qdrant.client_engine import ClientPoints
    except ImportError as exc:
        raise BackendUnavailableError(
            f"a Qdrant server needs qdrant-client ({exc.name}); "
            "install it with: pip install 'memchat[qdrant]'"
        ) from exc
    client = QdrantClient(url=url, api_key=os.environ.get("QDRANT_API_KEY") or None)
    return ClientPoints(client, settings.qdrant_collection, url, indexed=True)


class QdrantMemory(MemoryFront):
    """One Qdrant collection; local mode by default, a server when a URL is configured."""

    name = "qdrant"
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
        self, points: PointStore, settings: MemorySettings, embedder: Embedder | None
    ) -> None:
        self._points = points
        self.settings = settings
        self.embedder = embedder
        self.where = points.where
        self.last_embedding_error: str | None = None
        self.warnings: list[str] = []
        self.hydration: str | None = None
        """Only a SQLite store is ever rebuilt from a snapshot."""
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="qdrant")
        self._lock = asyncio.Lock()
        self._closed = False
        self.audit_file: Path | None = None
        """Where deletions are recorded; None (no lifecycle) for a store opened by `over`."""
        self.anchors_file: Path | None = None
        """Where a server's client keeps the model's calibration (the data directory)."""

    @property
    def location(self) -> Path | None:
        """See `Memory.location`: the local store's folder; None for a server."""
        return None if self.settings.qdrant_url else Path(self.where)

    @property
    def lifecycle(self) -> SharedLifecycle | None:
        """See `Memory.lifecycle`: hygiene with its audit log, by SQLite's rules."""
        housekeeping = self._housekeeping()
        if housekeeping is None:
            return None
        return SharedLifecycle(housekeeping, self, store_folder=self.location)

    def _housekeeping(self) -> QdrantHousekeeping | None:
        return None if self.audit_file is None else QdrantHousekeeping(self, self.audit_file)

    @property
    def reindexing(self) -> None:
        """See `Memory.reindexing`: none yet (an export and import makes the vectors)."""
        return None

    @property
    def points(self) -> PointStore:
        """The engine's collection (run its calls through `call`)."""
        return self._points

    @property
    def write_lock(self) -> asyncio.Lock:
        """Held around every write."""
        return self._lock

    async def call(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a point-store call on the store's worker thread."""
        return await self._call(func, *args, **kwargs)

    @property
    def calibration_file(self) -> Path | None:
        """See `RankingStore.calibration_file`: beside the local store, else `anchors_file`.

        A server's client keeps it in the data directory (if opened with one).
        """
        location = self.location
        return self.anchors_file if location is None else location / "memchat-anchors.json"

    @classmethod
    async def open(
        cls, path: Path | str, settings: MemorySettings | None = None, embedder: Any = None
    ) -> QdrantMemory:
        """Connect to the server, or open the local store beside `path`."""
        settings = settings or MemorySettings(embedding_provider="none")
        url = settings.qdrant_url
        if url:
            server = await cls.over(_server_points(url, settings), settings, embedder)
            digest = hashlib.sha256(f"{url}\n{settings.qdrant_collection}".encode()).hexdigest()
            server.audit_file = Path(path).parent / f"qdrant-audit-{digest[:16]}.jsonl"
            server.anchors_file = Path(path).parent / "memchat-anchors.json"
            return server
        name = settings.qdrant_collection
        if not _COLLECTION_NAME.fullmatch(name):
            raise MemoryStoreError(
                f"memory.qdrant_collection {name!r} cannot name a local store: use letters, "
                "digits, '_', '-' and '.' (not first), at most 128"
            )
        data = Path(path).parent
        folder, legacy = data / "qdrant-edge" / name, data / "qdrant"
        fresh = not shard_exists(folder)
        copying = needs_copy(legacy, folder, fresh)
        if copying and fresh:
            # Marked before the new store exists: a kill during its creation still leaves
            # the copy to do at the next open.
            mark_copying(folder)
        memory = await cls.over(EdgePoints(folder), settings, embedder)
        memory.audit_file = folder / "memchat-audit.jsonl"
        if copying:
            await memory._copy_old_store(legacy, name, folder, fresh)
        await memory._index_if_due()
        return memory

    async def _copy_old_store(self, legacy: Path, name: str, folder: Path, fresh: bool) -> None:
        try:
            copied = await self._call(copy_old_store, legacy, name, folder, self._points)
        except Exception as exc:
            await self.close()
            if fresh:
                # Nothing of the user's is in it yet: the next open starts the copy over
                # (after, say, memory.embedding_dimensions is set back).
                await asyncio.to_thread(shutil.rmtree, folder, True)
            raise MemoryStoreError(
                f"cannot copy the older local Qdrant store in {legacy} to {folder}: "
                f"{exc} (the older store is left as it was)"
            ) from exc
        if isinstance(copied, str):
            self.warnings.append(copied)
        elif copied:
            self.warnings.append(
                f"copied {memories(copied)} from the older local Qdrant store in "
                f"{legacy} to {folder}, now served by Qdrant's own engine; {legacy} is "
                "left as it was (delete it once you are satisfied)"
            )

    @classmethod
    async def over(
        cls, points: PointStore, settings: MemorySettings, embedder: Embedder | None
    ) -> QdrantMemory:
        """The backend over an engine's collection, created if missing."""
        memory = cls(points, settings, embedder)
        try:
            await memory._call(points.ensure, settings.embedding_dimensions)
            await memory._call(add_missing_hashes, points)
            await memory._call(index_again_read_differently, points)
        except MemoryStoreError:
            await memory.close()
            raise
        except Exception as exc:
            await memory.close()
            raise MemoryStoreError(f"Qdrant at {points.where} is not usable: {exc}") from exc
        return memory

    async def _call(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self._closed:
            raise MemoryStoreError("the qdrant memory store is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._worker, lambda: _engine_call(self.where, func, *args, **kwargs)
        )

    # -- helpers -------------------------------------------------------------------------

    @property
    def identity(self) -> str | None:
        """The embedding identity of vectors this store writes."""
        return None if self.embedder is None else self.embedder.identity

    @property
    def _dimensions(self) -> int | None:
        """The size of the vectors this store writes."""
        return None if self.embedder is None else self.embedder.dimensions

    async def _embed(self, texts: builtins.list[str]) -> np.ndarray[Any, Any] | None:
        if self.embedder is None or not texts:
            return None
        try:
            vectors = await self.embedder.embed(texts)
        except EmbeddingError as exc:
            self.last_embedding_error = str(exc)
            return None
        self.last_embedding_error = None
        return vectors

    def _point(self, entry: MemoryEntry, vector: Any) -> StoredPoint:
        dense = None if vector is None else [float(x) for x in vector]
        model = None if vector is None else self.identity
        return StoredPoint(point_id(entry.id), to_payload(entry, model), dense)

    async def _entries(self, query_filter: PointFilter | None) -> builtins.list[MemoryEntry]:
        records = await self._call(self._points.scroll, query_filter)
        return [from_payload(r.payload) for r in records]

    async def _active(self, key: str, namespace: str) -> MemoryEntry | None:
        found = await self._entries(
            entry_filter(namespace=namespace, key=key, include_superseded=False)
        )
        return found[0] if found else None

    # -- writes --------------------------------------------------------------------------

    async def write(self, item: NewMemory) -> MemoryEntry:
        """See `Memory.write`: the shared write rules."""
        item = validate(item)
        vectors = await self._embed([item.content])
        async with self._lock:
            return await apply_write(
                QdrantRules(self._points, self._call, self._point),
                self.settings,
                item,
                None if vectors is None else vectors[0],
            )

    async def forget(self, key: str, namespace: str = DEFAULT_NAMESPACE) -> bool:
        """Delete every version under key, as SQLite does (`memory.sqlite.history.forget`).

        The saved messages they replaced go with them; a fact under another key comes back
        into effect, or becomes history of its key's holder (`memory.forgetting`).
        """
        async with self._lock:
            if await self._active(key, namespace) is None:
                return False
            history = await self._call(_history_of, self._points, namespace, key)
            whole = {entry.id: entry for entry in history}
            versions, replaced = split_history(map(Link.of, history), namespace, key)
            housekeeping = self._housekeeping()
            if housekeeping is not None:
                doomed = [Doomed(whole[link.id], "forgotten") for link in versions]
                await housekeeping.remove_recorded(doomed, "forget")
            else:
                await self._call(self._points.delete, [point_id(e.id) for e in versions])
            holders: dict[tuple[str, str], str] = {}
            for place in {(entry.namespace, entry.key) for entry in replaced}:
                holder = await self._active(place[1], place[0])
                if holder is not None:
                    holders[place] = holder.id
            gone = {entry.id for entry in versions}
            # As it was before it was replaced, its times too (an undo is exact).
            for step in plan_rehoming(gone, replaced, holders):
                await self._set_superseded(step.link.id, step.successor)
        return True

    async def _revive(self, entry: MemoryEntry) -> MemoryEntry:
        revived = entry.model_copy(update={"superseded_by": None, "updated_at": utc_now()})
        changed = revived.model_dump(mode="json", include={"superseded_by", "updated_at"})
        changed["updated_ts"] = revived.updated_at.timestamp()
        await self._call(self._points.set_payload, [point_id(entry.id)], changed)
        return revived

    async def _set_superseded(self, entry_id: str, successor: str | None) -> None:
        await self._call(
            self._points.set_payload, [point_id(entry_id)], {"superseded_by": successor}
        )

    async def supersede(self, old_ids: Iterable[str], new_id: str) -> int:
        """Point old entries at their replacement."""
        async with self._lock:
            if await self.get_by_id(new_id) is None:
                raise MemoryStoreError(f"cannot supersede: no entry with id {new_id!r}")
            changed = 0
            for old in old_ids:
                if old != new_id and await self.get_by_id(old) is not None:
                    await self._set_superseded(old, new_id)
                    changed += 1
        return changed

    async def restore(self, entry_id: str) -> MemoryEntry:
        """Reactivate an entry; what replaced it steps aside (see `Memory.restore`)."""
        async with self._lock:
            entry = await self.get_by_id(entry_id)
            if entry is None:
                raise MemoryStoreError(f"cannot restore: no entry with id {entry_id!r}")
            holders = await self._entries(
                entry_filter(namespace=entry.namespace, key=entry.key, include_superseded=False)
            )
            for holder in holders:
                if holder.id != entry_id:
                    await self._set_superseded(holder.id, entry_id)
            successor = await in_effect_after(entry, self.get_by_id)
            if successor is not None and successor.category == entry.category:
                await self._set_superseded(successor.id, entry_id)
            # Restored now: retention and budgets judge it by this.
            restored = await self._revive(entry)
        return restored

    async def import_(self, entries: Iterable[MemoryEntry]) -> ImportSummary:
        """Write records exactly; vectors of our embedding identity are kept, others remade.

        As SQLite's import: a record whose id belongs to another namespace's entry is
        added under a fresh id (renumbered); an active record for a key whose active entry
        has another id makes that entry superseded by it (kept as history, restorable).
        """
        items = builtins.list(entries)
        check_records(items)
        summary = ImportSummary()
        for start in range(0, len(items), _PAGE):
            batch = items[start : start + _PAGE]
            async with self._lock:
                batch = await self._call(_import_rules, self._points, batch, summary)
                vectors = await import_vectors(batch, self.identity, self._embed, self._dimensions)
                points = [self._point(item, vectors.get(item.id)) for item in batch]
                await self._call(self._points.upsert, points)
        await self._index_if_due(importing=True)
        return summary

    async def _index_if_due(self, *, importing: bool = False) -> None:
        """Let a local store fold many new vectors into its graph (see `edge_engine`)."""
        problem = await self._call(self._points.index_if_due, importing=importing)
        if problem is not None and problem not in self.warnings:
            self.warnings.append(problem)

    # -- reads ---------------------------------------------------------------------------

    async def search(self, query: RecallQuery) -> RecallResult:
        """Keyword and vector lanes in Qdrant, fused with SQLite's absolute scores."""
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
        found = await self._call(self._points.retrieve, [point_id(entry_id)])
        return from_payload(found[0].payload) if found else None

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
        """One page, in the same orders as SQLite (sorted here: Qdrant pages by id)."""
        flt = entry_filter(
            namespace=namespace,
            category=category,
            session_id=session_id,
            include_superseded=include_superseded,
        )
        if prefix is None and order != "key":
            # Newest first: the time's index finds the page without reading every point.
            field = "updated_ts" if order == "recent" else "ts"
            found = await self._call(self._points.newest, flt, field, offset + limit)
            entries = [from_payload(point.payload) for point in found]
        else:
            entries = await self._entries(flt)
        if prefix is not None:
            entries = [e for e in entries if e.key.startswith(prefix)]
        if order == "key":
            entries.sort(key=lambda e: (e.namespace, e.key))
        else:
            field = "updated_at" if order == "recent" else "timestamp"
            entries.sort(key=lambda e: (getattr(e, field), e.id), reverse=True)
        return entries[offset : offset + limit]

    async def count(
        self,
        *,
        namespace: str | None = None,
        category: str | None = None,
        include_superseded: bool = True,
    ) -> int:
        """Entries passing the filters, counted by Qdrant."""
        return await self._call(
            self._points.count,
            entry_filter(
                namespace=namespace, category=category, include_superseded=include_superseded
            ),
        )

    async def stats(self) -> MemoryStats:
        """Counts per category and namespace, and how many entries lack a current vector."""
        tallies = await self._call(self._points.tally, ["category", "namespace", "embedding_model"])
        total = await self._call(self._points.count)
        active = await self._call(self._points.count, PointFilter(include_superseded=False))
        models = tallies["embedding_model"]
        fresh = 0 if self.identity is None else models.get(self.identity, 0)
        return MemoryStats(
            backend=self.name,
            total=total,
            active=active,
            by_category=tallies["category"],
            by_namespace=tallies["namespace"],
            with_embedding=sum(models.values()),
            stale_embedding=0 if self.identity is None else total - fresh,
            embedding_identity=self.identity,
            path=self.where,
        )

    async def calibrate(self) -> bool:
        """See `Memory.calibrate`."""
        return await fused_ranking.calibrate(self)

    async def health_check(self) -> HealthReport:
        """Every point read back whole, payload and vector.

        A count alone read no page: the adversary's damaged payload pages passed it.
        """
        try:
            points = await self._call(self._points.scroll, None, vectors=True)
        except Exception as exc:  # noqa: BLE001 - any client failure is "not healthy"
            return HealthReport(ok=False, backend=self.name, detail=f"{self.where}: {exc}")
        unreadable = 0
        for point in points:
            try:
                from_payload(point.payload)
            except ValueError:
                unreadable += 1
        if unreadable:
            detail = f"{self.where}: {unreadable} of {len(points)} entries cannot be read"
            return HealthReport(ok=False, backend=self.name, detail=detail)
        return HealthReport(
            ok=True, backend=self.name, detail=f"{self.where}: {len(points)} entries"
        )

    async def export(self, *, namespace: str | None = None) -> AsyncIterator[MemoryEntry]:
        """Every entry with its vector, oldest first."""
        records = await self._call(
            self._points.scroll, entry_filter(namespace=namespace), vectors=True
        )
        rows = []
        for record in records:
            payload = record.payload
            entry = from_payload(payload)
            vector = record.vector
            model = payload.get("embedding_model")
            embedding = None
            if isinstance(vector, list) and model:
                blob = np.asarray(vector, dtype="<f4").tobytes()
                embedding = StoredEmbedding.from_bytes(model, len(vector), blob)
            rows.append(MemoryRecord(**entry.model_dump(), embedding=embedding))
        for row in sorted(rows, key=lambda r: (r.timestamp, r.id)):
            yield row

    async def close(self) -> None:
        """Close the client and its worker; closing twice is harmless."""
        if self._closed:
            return
        try:
            await self._call(self._points.close)
        finally:
            self._closed = True
            self._worker.shutdown(wait=True)
