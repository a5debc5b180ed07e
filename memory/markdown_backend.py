"""`MarkdownMemory`: human-readable memory in Markdown files, append-only as in ZeroClaw.

Core entries live in MEMORY.md, everything else in daily files memory/YYYY-MM-DD.md (by
creation date). Every write adds a block (the snapshot layout: a heading, the fields as
JSON, the content in a long enough fence), so files are a readable history and keys and
fields survive a round trip; the newest block of an id wins when reading. Nothing is ever
deleted: `forget` says so. Recall is keyword-only, with the same absolute score as SQLite.

A damaged file (torn by a crash, edited by hand) never stops the store: what it still holds
is read and the rest is reported once in `warnings`. Writes replace a file whole or not at
all (`memory.markdown_files`).
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
from collections.abc import AsyncIterator, Iterable
from datetime import datetime
from pathlib import Path

from memory.entry import (
    DEFAULT_NAMESPACE,
    HealthReport,
    MemoryEntry,
    RecallResult,
    RecallScores,
    normalize_category,
)
from memory.errors import MemoryStoreError, UnsupportedOperationError
from memory.front import MemoryFront, in_effect_after
from memory.markdown_files import ParsedFiles, append_entries, let_go, load, take_lock
from memory.markdown_import import revised, versions_to_append
from memory.markdown_writes import MarkdownRules
from memory.owners import asks_of, owner_rank
from memory.protocol import Capabilities, ImportSummary, ListOrder, MemoryStats, WithoutLifecycle
from memory.record_checks import check_records
from memory.retrieval import RecallQuery, clamp_limit, clean_query, keyword_coverage, term_weights
from memory.settings import MemorySettings
from memory.text import entry_terms, query_terms
from memory.write_rules import NewMemory, apply_write, validate


class MarkdownMemory(WithoutLifecycle, MemoryFront):
    """Markdown files under one directory (the data directory by default)."""

    name = "markdown"
    capabilities = Capabilities(
        persistent=True,
        supports_vectors=False,
        supports_delete=False,
        supports_keyword_search=True,
        supports_supersede=True,
        supports_export=True,
    )

    def __init__(self, root: Path, settings: MemorySettings) -> None:
        self.root = root
        self.settings = settings
        self.warnings: list[str] = []
        self.hydration: str | None = None
        """Only a SQLite store is ever rebuilt from a snapshot."""
        self._lock = asyncio.Lock()
        self._parsed = ParsedFiles()

    @property
    def location(self) -> Path:
        """See `Memory.location`: the folder of Markdown files."""
        return self.root

    @classmethod
    async def open(
        cls, path: Path | str, settings: MemorySettings | None = None, embedder: object = None
    ) -> MarkdownMemory:
        """Use `path`'s directory (a .db path from the factory) or `path` itself."""
        path = Path(path)
        root = path.parent if path.suffix == ".db" else path
        await asyncio.to_thread(root.mkdir, parents=True, exist_ok=True, mode=0o700)
        return cls(root, settings or MemorySettings(embedding_provider="none"))

    def _file_for(self, entry: MemoryEntry) -> Path:
        if entry.category == "core":
            return self.root / "MEMORY.md"
        return self.root / "memory" / f"{entry.timestamp:%Y-%m-%d}.md"

    def _files(self) -> builtins.list[Path]:
        return [self.root / "MEMORY.md", *sorted((self.root / "memory").glob("*.md"))]

    def _write(self, entries: Iterable[MemoryEntry]) -> None:
        """Add the blocks, each file replaced once and atomically."""
        by_file: dict[Path, builtins.list[MemoryEntry]] = {}
        for entry in entries:
            by_file.setdefault(self._file_for(entry), []).append(entry)
        for path, blocks in by_file.items():
            append_entries(self.root, path, blocks, locked=True, parsed=self._parsed)

    async def _append(self, *entries: MemoryEntry) -> None:
        """Append; only inside `_exclusive`."""
        await asyncio.to_thread(self._write, entries)

    @contextlib.asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[None]:
        """This process's lock, then the store's file lock, for a read, decide, append step.

        Every process then sees the others' appends before it decides: two imports at once
        left two active versions of a key (found by the adversary).
        """
        async with self._lock:
            held = await asyncio.to_thread(take_lock, self.root)
            try:
                yield
            finally:
                let_go(held)

    async def _latest(self) -> dict[str, MemoryEntry]:
        """Every entry's newest version; problems met go to `warnings`, each once."""
        loaded = await asyncio.to_thread(load, self._files(), self._parsed)
        for problem in loaded.problems:
            if problem not in self.warnings:
                self.warnings.append(problem)
        return loaded.latest

    async def _entries(self) -> builtins.list[MemoryEntry]:
        return list((await self._latest()).values())

    def _active(
        self, entries: Iterable[MemoryEntry], key: str, namespace: str
    ) -> MemoryEntry | None:
        return next(
            (
                e
                for e in entries
                if e.key == key and e.namespace == namespace and e.superseded_by is None
            ),
            None,
        )

    async def write(self, item: NewMemory) -> MemoryEntry:
        """See `Memory.write`: the shared write rules, as appended versions."""
        item = validate(item)
        async with self._exclusive():
            rules = MarkdownRules(await self._latest())
            written = await apply_write(rules, self.settings, item, None)
            await self._append(*rules.pending)
        return written

    async def search(self, query: RecallQuery) -> RecallResult:
        """Keyword recall with absolute coverage scores and the relevance floor."""
        filters = query.filters
        limit = clamp_limit(query.limit)
        entries = self._filter(
            await self._entries(),
            filters.namespace,
            filters.category,
            filters.session_id,
            filters.include_superseded,
            filters.since,
            filters.until,
            set(filters.exclude_ids),
        )
        text = clean_query(query.text)
        if text in ("", "*"):
            recent = sorted(entries, key=lambda e: e.updated_at, reverse=True)[:limit]
            return RecallResult(
                entries=[
                    e.model_copy(update={"scores": RecallScores(fused=0.0, lane="recent")})
                    for e in recent
                ],
                mode="recent",
            )
        terms = query_terms(text)
        documents = [(e, frozenset(entry_terms(e.key, e.content, e.timestamp))) for e in entries]
        weights = term_weights(
            {t: sum(t in d for _, d in documents) for t in terms}, len(documents)
        )
        asked = asks_of(text)
        scored = [(keyword_coverage(d, weights), e, owner_rank(asked, d)) for e, d in documents]
        ordered = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[2], s[1].key))
        floor = self.settings.min_relevance_score

        def with_score(score: float, entry: MemoryEntry) -> MemoryEntry:
            return entry.model_copy(
                update={
                    "score": round(score, 6),
                    "scores": RecallScores(keyword=score, fused=round(score, 6), lane="keyword"),
                }
            )

        return RecallResult(
            entries=[with_score(s, e) for s, e, _ in ordered if s >= floor][:limit],
            below_floor=[with_score(s, e) for s, e, _ in ordered if s < floor][:limit],
            mode="keyword",
        )

    @staticmethod
    def _filter(
        entries: Iterable[MemoryEntry],
        namespace: str | None,
        category: str | None,
        session_id: str | None,
        include_superseded: bool,
        since: datetime | None,
        until: datetime | None,
        exclude: set[str],
    ) -> builtins.list[MemoryEntry]:
        # Spelled as writes spell it ("CORE" finds "core"); a blank category filters nothing.
        wanted = normalize_category(category) if category and category.strip() else None
        return [
            e
            for e in entries
            if (namespace is None or e.namespace == namespace)
            and (wanted is None or e.category == wanted)
            and (session_id is None or e.session_id in (None, session_id))
            and (include_superseded or e.superseded_by is None)
            and (since is None or e.timestamp >= since)
            and (until is None or e.timestamp < until)
            and e.id not in exclude
        ]

    async def get(self, key: str, namespace: str = DEFAULT_NAMESPACE) -> MemoryEntry | None:
        """The active entry under key."""
        return self._active(await self._entries(), key, namespace)

    async def get_by_id(self, entry_id: str) -> MemoryEntry | None:
        """The newest version of an entry."""
        return (await self._latest()).get(entry_id)

    async def forget(self, key: str, namespace: str = DEFAULT_NAMESPACE) -> bool:
        """Markdown memory is append-only: it cannot delete, and says so."""
        raise UnsupportedOperationError(
            self.name, "forget (its files are append-only; edit them by hand to remove something)"
        )

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
        """One page, in the same orders as SQLite."""
        entries = [
            e
            for e in self._filter(
                await self._entries(),
                namespace,
                category,
                session_id,
                include_superseded,
                None,
                None,
                set(),
            )
            if prefix is None or e.key.startswith(prefix)
        ]
        if order == "key":
            entries.sort(key=lambda e: (e.namespace, e.key))
        else:
            field = "updated_at" if order == "recent" else "timestamp"
            entries.sort(key=lambda e: getattr(e, field), reverse=True)
        return entries[offset : offset + limit]

    async def count(
        self,
        *,
        namespace: str | None = None,
        category: str | None = None,
        include_superseded: bool = True,
    ) -> int:
        """Entries passing the filters."""
        return len(
            self._filter(
                await self._entries(),
                namespace,
                category,
                None,
                include_superseded,
                None,
                None,
                set(),
            )
        )

    async def stats(self) -> MemoryStats:
        """Counts per category and namespace."""
        entries = await self._entries()
        by_category: dict[str, int] = {}
        by_namespace: dict[str, int] = {}
        for e in entries:
            by_category[e.category] = by_category.get(e.category, 0) + 1
            by_namespace[e.namespace] = by_namespace.get(e.namespace, 0) + 1
        return MemoryStats(
            backend=self.name,
            total=len(entries),
            active=sum(e.superseded_by is None for e in entries),
            by_category=by_category,
            by_namespace=by_namespace,
            path=str(self.root),
        )

    async def calibrate(self) -> bool:
        """See `Memory.calibrate`: nothing to calibrate without vectors."""
        return True

    async def health_check(self) -> HealthReport:
        """The files can be read; damaged parts are named, but do not stop the store."""
        try:
            await self._latest()
        except (OSError, MemoryStoreError) as exc:
            return HealthReport(ok=False, backend=self.name, detail=str(exc))
        if self.warnings:
            detail = (
                f"{self.root}: readable; damaged parts skipped ({len(self.warnings)}, "
                f"see warnings): {self.warnings[0]}"
            )
            return HealthReport(ok=True, backend=self.name, detail=detail)
        return HealthReport(ok=True, backend=self.name, detail=f"{self.root} ok")

    async def supersede(self, old_ids: Iterable[str], new_id: str) -> int:
        """Append superseded versions of the old entries."""
        async with self._exclusive():
            latest = await self._latest()
            if new_id not in latest:
                raise MemoryStoreError(f"cannot supersede: no entry with id {new_id!r}")
            changed = [
                revised(latest[old], new_id)
                for old in dict.fromkeys(old_ids)
                if old in latest and old != new_id
            ]
            await self._append(*changed)
        return len(changed)

    async def restore(self, entry_id: str) -> MemoryEntry:
        """Reactivate an entry; what replaced it steps aside (see `Memory.restore`)."""
        async with self._exclusive():
            latest = await self._latest()
            entry = latest.get(entry_id)
            if entry is None:
                raise MemoryStoreError(f"cannot restore: no entry with id {entry_id!r}")
            stepping_aside = {
                other.id: other
                for other in latest.values()
                if other.id != entry_id
                and other.superseded_by is None
                and other.namespace == entry.namespace
                and other.key == entry.key
            }

            async def stored(entry_id: str) -> MemoryEntry | None:
                return latest.get(entry_id)

            successor = await in_effect_after(entry, stored)
            if successor is not None and successor.category == entry.category:
                stepping_aside[successor.id] = successor
            changed = [revised(other, entry_id) for other in stepping_aside.values()]
            restored = revised(entry, None)
            await self._append(*changed, restored)
        return restored

    async def export(self, *, namespace: str | None = None) -> AsyncIterator[MemoryEntry]:
        """Every entry's newest version, oldest first."""
        entries = await self._entries()
        for entry in sorted(entries, key=lambda e: (e.timestamp, e.id)):
            if namespace is None or entry.namespace == namespace:
                yield entry

    async def import_(self, entries: Iterable[MemoryEntry]) -> ImportSummary:
        """Append the records that change something (see `memory.markdown_import`)."""
        items = builtins.list(entries)
        check_records(items)
        async with self._exclusive():
            written, summary = versions_to_append(await self._latest(), items)
            await self._append(*written)
        return summary

    async def close(self) -> None:
        """Nothing to release: every write is already on disk."""
