"""The `Memory` contract every backend implements, and the flags that describe a backend."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from memory.entry import HealthReport, MemoryEntry, RecallResult
from memory.procedures import ProcedureStep

if TYPE_CHECKING:
    # Only named in annotations: importing them loads numpy, which the app defers.
    from memory.retrieval import RecallQuery
    from memory.write_rules import NewMemory

ListOrder = Literal["recent", "key", "created"]
ProgressCallback = Callable[[int, int], None]
"""Told (done, total) as a long operation goes."""


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do; callers read these flags instead of checking types."""

    persistent: bool
    supports_vectors: bool
    supports_delete: bool
    supports_keyword_search: bool
    supports_supersede: bool
    supports_export: bool
    supports_namespaces: bool = True
    supports_lifecycle: bool = False
    """Hygiene, the audit log, snapshots and procedural memory: `Memory.lifecycle`."""
    restores_from_snapshot: bool = False
    """Rebuilt from MEMORY_SNAPSHOT.md beside its file when that file is missing (SQLite)."""
    erases_from_its_files: bool = False
    """`Lifecycle.erase_records` also clears deleted text from the store's own files
    (SQLite writes its file anew); other engines keep it until they compact on their own."""


class MemoryStats(BaseModel):
    """Counts and sizes for the status bar, the inspector and `memchat memory stats`."""

    model_config = ConfigDict(extra="forbid")

    backend: str
    total: int
    active: int
    """Entries not superseded."""
    by_category: dict[str, int] = Field(default_factory=dict)
    by_namespace: dict[str, int] = Field(default_factory=dict)
    with_embedding: int = 0
    stale_embedding: int = 0
    """Entries whose vector is missing or was made by another embedding model."""
    embedding_identity: str | None = None
    embedding_cache_entries: int = 0
    file_bytes: int | None = None
    path: str | None = None


class AuditRecord(BaseModel):
    """One deletion: what went, when, and why."""

    model_config = ConfigDict(extra="forbid")

    at: datetime
    action: str
    """"hygiene", "forget", or "import" (an import set a version aside as history)."""
    reason: str
    entry_id: str
    namespace: str
    key: str
    category: str
    content: str
    created: datetime | None = None
    """When the deleted memory was first written (None in records from before 0016)."""
    session_id: str | None = None
    """The chat it was said in, for a saved message."""


class HygieneReport(BaseModel):
    """What a hygiene run removed (or, dry, would remove)."""

    model_config = ConfigDict(extra="forbid")

    dry_run: bool
    removed: list[tuple[MemoryEntry, str]] = Field(default_factory=list)
    """Each entry with the reason it went."""


class ImportSummary(BaseModel):
    """What an import did."""

    model_config = ConfigDict(extra="forbid")

    added: int = 0
    """Records that were not in the store."""
    replaced: int = 0
    """Records that changed a stored entry (its earlier version kept as history)."""
    unchanged: int = 0
    """Records identical to what the store already held (importing twice changes nothing)."""
    renumbered: int = 0
    """Added under a fresh id because their id belongs to an entry in another namespace."""
    kept_as_history: int = 0
    """Stored versions an import set aside: superseded (restorable) and audited, not deleted."""
    older_than_replaced: int = 0
    """Records older (by `updated_at`) than a version they replaced: the older text is in
    effect again, the newer one kept as history (importing an old export does this)."""


class Lifecycle(Protocol):
    """Hygiene with its audit log, snapshots and procedural memory.

    A backend that has them returns itself from `Memory.lifecycle`; the type checker then
    holds its methods to these signatures, so a renamed argument fails the check.
    """

    @property
    def snapshot_path(self) -> Path | None:
        """Where `write_snapshot` writes when given no path.

        The snapshot after hygiene goes there too; None: only to a path given.
        """
        ...

    async def hygiene(
        self,
        *,
        dry_run: bool = False,
        now: datetime | None = None,
        namespace: str | None = None,
    ) -> HygieneReport:
        """Apply retention and budgets (pinned entries exempt); every deletion is audited."""
        ...

    async def audit_log(
        self, limit: int = 100, offset: int = 0, *, namespace: str | None = None
    ) -> list[AuditRecord]:
        """Deletions, newest first; only `namespace`'s when given."""
        ...

    async def erase_records(self, entry_ids: Sequence[str]) -> int:
        """Remove the audit records of these deleted entries; how many records went.

        A forget keeps what it deleted in the audit log so it can be restored; erasing
        keeps nothing of it (a secret stored and then forgotten). The store also drops
        what its own files still hold of deleted text, where it can.
        """
        ...

    async def write_snapshot(
        self,
        path: Path | None = None,
        now: datetime | None = None,
        *,
        namespace: str | None = None,
    ) -> Path:
        """Write the core memories as Markdown (MEMORY_SNAPSHOT.md unless `path`)."""
        ...

    async def store_procedural(
        self,
        request: str,
        steps: Sequence[ProcedureStep],
        session_id: str | None = None,
        namespace: str = "default",
    ) -> MemoryEntry | None:
        """Remember how a request was handled; similar requests update one entry."""
        ...


class Reindexing(Protocol):
    """Embedding stored memories again: those without a vector or with another model's."""

    async def reindex(
        self,
        batch_size: int = 64,
        progress: ProgressCallback | None = None,
        *,
        namespace: str | None = None,
    ) -> int:
        """Embed every entry whose vector is missing or stale; return how many were done."""
        ...


class WithoutLifecycle:
    """For a backend with neither `Memory.lifecycle` nor `Memory.reindexing`."""

    @property
    def lifecycle(self) -> None:
        """See `Memory.lifecycle`: none here."""
        return None

    @property
    def reindexing(self) -> None:
        """See `Memory.reindexing`: none here."""
        return None


@runtime_checkable
class Memory(Protocol):
    """A long-term memory store. All methods are async and safe to call concurrently."""

    name: str
    capabilities: Capabilities
    warnings: list[str]
    """Problems met while reading that did not stop the store (a damaged row skipped, a torn
    file recovered, read-only mode): the CLI prints them, the app shows them."""
    hydration: str | None
    """Set when the store was rebuilt from MEMORY_SNAPSHOT.md at open, and how that went."""

    @property
    def location(self) -> Path | None:
        """The file or folder that holds the memories; None for a server or nothing kept."""
        ...

    @property
    def lifecycle(self) -> Lifecycle | None:
        """Hygiene, audit log, snapshots, procedures; None where the backend has none."""
        ...

    @property
    def reindexing(self) -> Reindexing | None:
        """Embedding stored memories again; None where the backend cannot."""
        ...

    async def write(self, item: NewMemory) -> MemoryEntry:
        """Store `item` by the write rules.

        Every backend's one write; `store` and `store_with_metadata` are its short forms.
        """
        ...

    async def search(self, query: RecallQuery) -> RecallResult:
        """Recall for `query` (every backend's one recall; `recall` is its long form)."""
        ...

    async def store(
        self, key: str, content: str, category: str = "core", session_id: str | None = None
    ) -> MemoryEntry:
        """Insert or update the entry under (default namespace, key)."""
        ...

    async def store_with_metadata(
        self,
        key: str,
        content: str,
        category: str = "core",
        session_id: str | None = None,
        *,
        namespace: str = "default",
        importance: float | None = None,
        pinned: bool | None = None,
        source: str = "user",
    ) -> MemoryEntry:
        """Insert or update with full metadata; None keeps an existing entry's value."""
        ...

    async def recall(
        self,
        query: str,
        limit: int = 5,
        session_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        *,
        namespace: str | None = "default",
        category: str | None = None,
        exclude_ids: Iterable[str] = (),
        include_superseded: bool = False,
    ) -> RecallResult:
        """Find the entries most relevant to `query`; never raises for a bad query."""
        ...

    async def get(self, key: str, namespace: str = "default") -> MemoryEntry | None:
        """Return the entry stored under key, or None."""
        ...

    async def get_by_id(self, entry_id: str) -> MemoryEntry | None:
        """Return the entry with this id, or None."""
        ...

    async def forget(self, key: str, namespace: str = "default") -> bool:
        """Delete the entry under key; return whether one was removed."""
        ...

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
        """List entries in a deterministic order, one page at a time."""
        ...

    async def count(
        self,
        *,
        namespace: str | None = None,
        category: str | None = None,
        include_superseded: bool = True,
    ) -> int:
        """Count entries matching the filters (all namespaces by default)."""
        ...

    async def stats(self) -> MemoryStats:
        """Counts and sizes."""
        ...

    async def health_check(self) -> HealthReport:
        """Check that the store is usable."""
        ...

    async def calibrate(self) -> bool:
        """Get vector relevance ready for the embedding model (see `memory.calibration`).

        Embeds the reference sentences once per model; recall does it when it must, so a
        caller only calls this to do it early (the app, at start-up, showing that it runs).
        False when the model cannot be reached (`recall` then says so); True when done or
        not needed (no embedder, a fixed band, a backend without vectors).
        """
        ...

    async def supersede(self, old_ids: Iterable[str], new_id: str) -> int:
        """Mark old entries as replaced by `new_id`; return how many changed."""
        ...

    async def restore(self, entry_id: str) -> MemoryEntry:
        """Make a superseded entry active again.

        Whatever holds its key now steps aside (superseded by it), however many versions
        later; and so does the entry in effect at the end of its chain of successors, when
        that is of its own category (a fact that replaced it on the same subject, however
        often corrected since). A message kept as a fact's history
        (`agent.after_turn.fold_into_facts`) comes back beside the fact, which stays.
        """
        ...

    def export(self, *, namespace: str | None = None) -> AsyncIterator[MemoryEntry]:
        """Yield every entry, every field, in a stable order."""
        ...

    async def import_(self, entries: Iterable[MemoryEntry]) -> ImportSummary:
        """Write exported entries back exactly (ids and times kept); imported rows win."""
        ...

    async def close(self) -> None:
        """Release files and threads."""
        ...
