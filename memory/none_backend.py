"""`NoneMemory`: memory switched off. Everything succeeds and nothing is kept."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable

from memory.entry import HealthReport, MemoryEntry, RecallResult, utc_now
from memory.errors import MemoryStoreError
from memory.front import MemoryFront
from memory.protocol import Capabilities, ImportSummary, ListOrder, MemoryStats, WithoutLifecycle
from memory.retrieval import RecallQuery
from memory.write_rules import NewMemory


class NoneMemory(WithoutLifecycle, MemoryFront):
    """The explicit no-op backend; the UI shows "memory off" for it."""

    name = "none"
    capabilities = Capabilities(
        persistent=False,
        supports_vectors=False,
        supports_delete=False,
        supports_keyword_search=False,
        supports_supersede=False,
        supports_export=False,
        supports_namespaces=False,
    )

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.hydration: str | None = None
        """Only a SQLite store is ever rebuilt from a snapshot."""

    @property
    def location(self) -> None:
        """See `Memory.location`: nothing is kept."""
        return None

    async def write(self, item: NewMemory) -> MemoryEntry:
        """Return the entry that would have been stored; nothing is kept."""
        now = utc_now()
        return MemoryEntry(
            id="",
            key=item.key,
            content=item.content,
            category=item.category,
            timestamp=now,
            updated_at=now,
            session_id=item.session_id,
            namespace=item.namespace,
            importance=0.5 if item.importance is None else item.importance,
            pinned=bool(item.pinned),
            source=item.source,
        )

    async def search(self, query: RecallQuery) -> RecallResult:
        """Nothing is remembered."""
        return RecallResult(entries=[], mode="off")

    async def get(self, key: str, namespace: str = "default") -> MemoryEntry | None:
        """Nothing is remembered."""
        return None

    async def get_by_id(self, entry_id: str) -> MemoryEntry | None:
        """Nothing is remembered."""
        return None

    async def forget(self, key: str, namespace: str = "default") -> bool:
        """Nothing to remove."""
        return False

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
        """Nothing is remembered."""
        return []

    async def count(
        self,
        *,
        namespace: str | None = None,
        category: str | None = None,
        include_superseded: bool = True,
    ) -> int:
        """Nothing is remembered."""
        return 0

    async def stats(self) -> MemoryStats:
        """All zero."""
        return MemoryStats(backend=self.name, total=0, active=0)

    async def calibrate(self) -> bool:
        """See `Memory.calibrate`: nothing to calibrate without vectors."""
        return True

    async def health_check(self) -> HealthReport:
        """Always healthy: there is nothing to break."""
        return HealthReport(ok=True, backend=self.name, detail="memory is off")

    async def supersede(self, old_ids: Iterable[str], new_id: str) -> int:
        """Nothing to supersede."""
        return 0

    async def restore(self, entry_id: str) -> MemoryEntry:
        """There is never anything to restore."""
        raise MemoryStoreError("memory is off (backend 'none'): nothing to restore")

    async def export(self, *, namespace: str | None = None) -> AsyncIterator[MemoryEntry]:
        """Yields nothing."""
        return
        yield  # pragma: no cover - makes this an async generator

    async def import_(self, entries: Iterable[MemoryEntry]) -> ImportSummary:
        """Refuses: importing into a store that keeps nothing would lose the data silently."""
        raise MemoryStoreError("memory is off (backend 'none'): import would keep nothing")

    async def close(self) -> None:
        """Nothing to release."""
