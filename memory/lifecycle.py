"""Hygiene, its audit log, snapshots and procedures for backends that are not SQLite.

The same rules as SQLite's (`memory.sqlite.hygiene`): retention per category by last
update, budgets per namespace and category (history first, then the least important, then
the oldest), pinned entries in effect never removed, every removal recorded with its reason. A
backend supplies a narrow `LifecycleEngine`; `SharedLifecycle` is what its
`Memory.lifecycle` returns.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol

from memory.abandonable import run_abandonable
from memory.changes_kept import (
    changes_of_what_stays,
    corrections_of_what_stays,
    in_order,
    last_words_on_medicines,
)
from memory.corrections import corrections_of_facts
from memory.date_term_names import local_time
from memory.days_gone import names_a_day_to_come
from memory.entry import MemoryCategory, MemoryEntry, utc_now
from memory.errors import MemoryStoreError
from memory.files import write_private
from memory.last_word import LastWords
from memory.letters import in_ascii_digits
from memory.moved_by_a_span import moved_to_a_day_to_come
from memory.procedures import ProcedureStep, describe_procedure
from memory.protocol import AuditRecord, HygieneReport
from memory.settings import MemorySettings
from memory.snapshot import render_snapshot

HYGIENE_CATEGORIES = ("core", "daily", "conversation")


@dataclass(frozen=True)
class Doomed:
    """An entry hygiene removes (or would remove), and why."""

    entry: MemoryEntry
    reason: str


def cutoff(now: datetime, days: int) -> datetime | None:
    """`days` before `now`; None when no retention applies or the date is before year 1."""
    if days <= 0:
        return None
    try:
        return now - timedelta(days=days)
    except OverflowError:
        return None


def kept_for_its_day(entry: MemoryEntry, now: datetime) -> bool:
    """Whether retention leaves `entry` until a day it names has come.

    Found by a new user, a landlord: "mammogram 8/1", "we're off to Lanzarote 15/2 to
    22/2", said in passing on 5 December, would have gone after 30 days, before either
    day. A fact is kept by its own retention; a message or a daily note until its last day.
    """
    return entry.category != "core" and names_a_day_to_come(entry, local_time(now).date())


def _in_ascii_digits(entry: MemoryEntry) -> MemoryEntry:
    said = in_ascii_digits(entry.content)
    return entry if said == entry.content else entry.model_copy(update={"content": said})


def retention_removals(
    old: Sequence[tuple[MemoryEntry, str]],
    facts: Iterable[MemoryEntry],
    context: Sequence[MemoryEntry],
    now: datetime,
) -> list[Doomed]:
    """What retention removes of `old` (each entry past its days, with why it would go).

    Not one kept for a day it names, nor the last word on a fact of `facts`, nor what puts
    right, moves or changes an entry that stays, nor the newest word on a medicine; those
    are read among `context`. The rules every backend's hygiene judges by, SQLite's too.
    """
    if not old:
        return []
    # The rules read other scripts' digits as 0-9: "samir's number is ٠١٢٢٣٤٥٦٧٨٩" went at 30
    # days where the same number in 0-9 was kept, and "السفر من ١/٦ الى ١٥/٦" was read as no
    # range (an adversary). What is removed is the entry as written.
    as_written = {entry.id: entry for entry, _ in old}
    old = [(_in_ascii_digits(entry), reason) for entry, reason in old]
    facts = [_in_ascii_digits(entry) for entry in facts]
    context = [_in_ascii_digits(entry) for entry in context]
    last_words = LastWords(facts)
    said = in_order(context)  # read once, for every rule of what changes what stays
    putting_right = corrections_of_facts(said.entries, said.corrections)
    doomed = [
        Doomed(entry, reason)
        for entry, reason in old
        if not kept_for_its_day(entry, now)
        and not last_words.keeps(entry)
        and entry.id not in putting_right
    ]
    gone = {d.entry.id for d in doomed}
    gone -= changes_of_what_stays(said, gone) | last_words_on_medicines(said, gone)
    gone -= corrections_of_what_stays(said, gone)
    gone -= moved_to_a_day_to_come(said, gone, local_time(now).date())
    return [Doomed(as_written[d.entry.id], d.reason) for d in doomed if d.entry.id in gone]


def plan_hygiene(
    entries: Iterable[MemoryEntry], settings: MemorySettings, now: datetime
) -> list[Doomed]:
    """What a hygiene run at `now` removes from `entries`, in order."""
    ordered = sorted(entries, key=lambda e: (e.timestamp, e.id))
    retention = settings.retention_days
    old: list[tuple[MemoryEntry, str]] = []
    for category, days in (
        ("core", retention.core),
        ("daily", retention.daily),
        ("conversation", retention.conversation),
    ):
        before = cutoff(now, days)
        if before is None:
            continue
        reason = f"retention: {category} older than {days} days"
        old += [
            (e, reason)
            for e in ordered
            if e.category == category and not e.pinned and e.updated_at < before
        ]
    facts = [e for e in ordered if e.category == "core" or e.pinned]
    doomed = retention_removals(old, facts, ordered, now)
    gone = {d.entry.id for d in doomed}
    budgets = settings.budgets
    for category, max_entries, max_bytes in (
        ("core", budgets.core_max_entries, budgets.core_max_bytes),
        ("daily", budgets.daily_max_entries, budgets.daily_max_bytes),
    ):
        if not max_entries and not max_bytes:
            continue
        by_namespace: dict[str, list[MemoryEntry]] = {}
        for entry in ordered:
            if entry.category == category and entry.id not in gone:
                by_namespace.setdefault(entry.namespace, []).append(entry)
        for kept in by_namespace.values():
            # As SQLite's order: history first, a pin protecting only what is in effect.
            kept.sort(
                key=lambda e: (
                    e.pinned and e.superseded_by is None,
                    e.superseded_by is None,
                    e.importance,
                    e.updated_at,
                    e.id,
                )
            )
            doomed.extend(_over_budget(kept, category, max_entries, max_bytes))
    return doomed


def _over_budget(
    kept: list[MemoryEntry], category: str, max_entries: int, max_bytes: int
) -> list[Doomed]:
    count = len(kept)
    size = sum(len(e.content.encode("utf-8", "surrogatepass")) for e in kept)
    doomed = []
    for entry in kept:
        over_count = bool(max_entries) and count > max_entries
        over_size = bool(max_bytes) and size > max_bytes
        if not (over_count or over_size) or (entry.pinned and entry.superseded_by is None):
            break
        what = f"{max_entries} entries" if over_count else f"{max_bytes} bytes"
        doomed.append(Doomed(entry, f"budget: {category} over {what}"))
        count -= 1
        size -= len(entry.content.encode("utf-8", "surrogatepass"))
    return doomed


def audit_records(doomed: Sequence[Doomed], action: str, at: datetime) -> list[AuditRecord]:
    """One audit record per removed entry."""
    return [
        AuditRecord(
            at=at,
            action=action,
            reason=d.reason,
            entry_id=d.entry.id,
            namespace=d.entry.namespace,
            key=d.entry.key,
            category=d.entry.category,
            content=d.entry.content,
            created=d.entry.timestamp,
            session_id=d.entry.session_id,
        )
        for d in doomed
    ]


class LifecycleEngine(Protocol):
    """What a backend supplies for `SharedLifecycle`."""

    async def hygiene_entries(self, namespace: str | None) -> list[MemoryEntry]:
        """Every entry (superseded ones too) of `HYGIENE_CATEGORIES`, in `namespace` or all."""
        ...

    async def remove_audited(self, doomed: Sequence[Doomed], action: str) -> list[Doomed]:
        """Delete these entries, each with an audit record; return what was removed.

        An entry pinned or changed since it was planned stays.
        """
        ...

    async def read_audit(self, limit: int, offset: int, namespace: str | None) -> list[AuditRecord]:
        """Audit records, newest first; only `namespace`'s when given."""
        ...

    async def erase_audit(self, entry_ids: Sequence[str]) -> int:
        """Delete the audit records of `entry_ids`; how many went."""
        ...

    async def core_entries(self, namespace: str | None) -> list[MemoryEntry]:
        """Every core entry, superseded history included, oldest first."""
        ...


class LifecycleStore(Protocol):
    """The store a `SharedLifecycle` serves: its settings, and writes by the usual rules."""

    @property
    def settings(self) -> MemorySettings:
        """Retention and budgets."""
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
        """See `Memory.store_with_metadata`."""
        ...

    async def get(self, key: str, namespace: str = "default") -> MemoryEntry | None:
        """See `Memory.get`."""
        ...

    async def restore(self, entry_id: str) -> MemoryEntry:
        """See `Memory.restore`."""
        ...

    async def supersede(self, old_ids: Iterable[str], new_id: str) -> int:
        """See `Memory.supersede`."""
        ...


class SharedLifecycle:
    """`Lifecycle` over a `LifecycleEngine`.

    Snapshots go only where asked: MEMORY_SNAPSHOT.md is how a SQLite store is rebuilt, and
    a server's memories have no file of their own to sit beside.
    """

    snapshot_path: Path | None = None
    """None: no snapshot after hygiene; `write_snapshot` needs a path."""

    def __init__(
        self, engine: LifecycleEngine, store: LifecycleStore, store_folder: Path | None = None
    ) -> None:
        self.engine = engine
        self.store = store
        self.store_folder = store_folder
        """The folder holding the store's own files (a local store): never a target."""

    async def hygiene(
        self,
        *,
        dry_run: bool = False,
        now: datetime | None = None,
        namespace: str | None = None,
    ) -> HygieneReport:
        """See `Lifecycle.hygiene`."""
        entries = await self.engine.hygiene_entries(namespace)
        # Off the event loop: the rules read every old text (a few thousand took seconds).
        doomed = await run_abandonable(plan_hygiene, entries, self.store.settings, now or utc_now())
        if doomed and not dry_run:
            doomed = await self.engine.remove_audited(doomed, "hygiene")
            await self._mend_history(entries, [d.entry for d in doomed])
        return HygieneReport(dry_run=dry_run, removed=[(d.entry, d.reason) for d in doomed])

    async def _mend_history(self, entries: list[MemoryEntry], removed: list[MemoryEntry]) -> None:
        """Keep what each removed entry had replaced reachable (as SQLite's hygiene does).

        Replaced by a deleted entry, a version is history of nothing: never recalled, and
        `get`/`forget` cannot name it. The versions of removed history follow its successor;
        those of a removed entry in effect come back, the newest whose key is free first.
        """
        successor_of = {entry.id: entry.superseded_by for entry in entries}
        gone = {entry.id for entry in removed}

        def living_successor(entry_id: str) -> str | None:
            heir, seen = successor_of.get(entry_id), {entry_id}
            while heir is not None and heir in gone and heir not in seen:
                seen.add(heir)
                heir = successor_of.get(heir)
            return None if heir in gone else heir

        for entry in removed:
            replaced = sorted(
                (e for e in entries if successor_of[e.id] == entry.id and e.id not in gone),
                key=lambda e: e.updated_at,
                reverse=True,
            )
            heir = living_successor(entry.id)
            if heir is None:
                for candidate in replaced:
                    if await self.store.get(candidate.key, candidate.namespace) is None:
                        await self.store.restore(candidate.id)
                        successor_of[candidate.id], heir = None, candidate.id
                        break
            rest = [e.id for e in replaced if e.id != heir]
            if heir is not None and rest:
                await self.store.supersede(rest, heir)
                successor_of.update(dict.fromkeys(rest, heir))

    async def audit_log(
        self, limit: int = 100, offset: int = 0, *, namespace: str | None = None
    ) -> list[AuditRecord]:
        """See `Lifecycle.audit_log`."""
        return await self.engine.read_audit(max(limit, 0), max(offset, 0), namespace)

    async def erase_records(self, entry_ids: Sequence[str]) -> int:
        """See `Lifecycle.erase_records`."""
        return await self.engine.erase_audit(list(dict.fromkeys(entry_ids)))

    async def write_snapshot(
        self,
        path: Path | None = None,
        now: datetime | None = None,
        *,
        namespace: str | None = None,
    ) -> Path:
        """See `Lifecycle.write_snapshot`: core memories as Markdown, to `path` only."""
        if path is None:
            raise MemoryStoreError(
                "this backend keeps no MEMORY_SNAPSHOT.md of its own; give the snapshot a "
                "file to go to"
            )
        target = path.resolve()
        if self.store_folder is not None and target.is_relative_to(self.store_folder.resolve()):
            raise MemoryStoreError(
                f"{path} is inside the store's own folder {self.store_folder}; write the "
                "snapshot somewhere else"
            )
        entries = await self.engine.core_entries(namespace)
        text = render_snapshot(entries, now or utc_now())
        await asyncio.to_thread(write_private, path, text)
        return path

    async def store_procedural(
        self,
        request: str,
        steps: Sequence[ProcedureStep],
        session_id: str | None = None,
        namespace: str = "default",
    ) -> MemoryEntry | None:
        """See `Lifecycle.store_procedural`."""
        del session_id  # a procedure holds for every session, as in SQLite
        if not steps:
            return None
        key, text = describe_procedure(request, steps)
        return await self.store.store_with_metadata(
            key,
            text,
            MemoryCategory.PROCEDURAL.value,
            None,
            namespace=namespace,
            importance=0.4,
            source="tool",
        )
