"""SQLite's import rules, planned once for the backends that write records themselves.

An import writes records exactly, except that nothing stored is lost:
- a record whose id belongs to another namespace's entry is added under a fresh id
  (renumbered), not written over that entry;
- a record that changes a stored entry (or an earlier record of the same import) keeps the
  earlier version as history: a copy under a fresh id, superseded by the record;
- per key, the last active record is the one in effect; each earlier active record is
  history of the one after it, and a stored active entry under that key with another id
  is history of the first.

The plan says what to write; the backend writes it (Qdrant points, PostgreSQL rows).
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from memory.entry import MemoryEntry
from memory.protocol import ImportSummary
from memory.upsert import stored_fields


@dataclass(frozen=True)
class HistoryCopy:
    """A stored entry kept as history: copied, with its vector, under a fresh id."""

    stored_id: str
    fresh_id: str
    successor: str


@dataclass
class ImportPlan:
    """What one batch of an import writes."""

    entries: list[MemoryEntry] = field(default_factory=list)
    """The records to write (insert or replace by id), in order."""
    copies: list[HistoryCopy] = field(default_factory=list)
    """Stored versions the records replace, kept under fresh ids (written first)."""
    holders: dict[tuple[str, str], str] = field(default_factory=dict)
    """Per (namespace, key), the first active record: any other active stored entry under
    that key, outside `entries`, is to be superseded by it (see `set_aside`); the records
    after it supersede one another in turn, and the last is in effect."""
    added: set[str] = field(default_factory=set)
    """Records counted as added so far: one that takes its key from another entry counts
    as replacing it instead, as in SQLite."""

    went_back: set[str] = field(default_factory=set)
    """Records older than a version they replaced (counted once each)."""

    def set_aside(
        self, winner: str, count: int, summary: ImportSummary, *, newer: bool = False
    ) -> None:
        """Count `count` entries the record `winner` superseded by taking their key.

        `newer`: one of them was updated after the record (the import goes back in time).
        """
        if count <= 0:
            return
        summary.kept_as_history += count
        if winner in self.added:
            self.added.discard(winner)
            summary.added -= 1
            summary.replaced += 1
        if newer:
            self.went_back_in_time(winner, summary)

    def went_back_in_time(self, record: str, summary: ImportSummary) -> None:
        """Count `record` as older than what it replaced (once)."""
        if record not in self.went_back:
            self.went_back.add(record)
            summary.older_than_replaced += 1


def replaced_later(ids: Sequence[str]) -> set[int]:
    """Positions of the records (by id, in order) that a later record of the same id replaces."""
    last = {record_id: at for at, record_id in enumerate(ids)}
    return {at for at, record_id in enumerate(ids) if last[record_id] != at}


Version = tuple[str, str, str, str | None]
"""A record as `next_active_versions` reads it: id, namespace, key, superseded_by."""


def next_active_versions(records: Sequence[Version]) -> dict[int, str]:
    """Position of each active record → id of the next active record with its key.

    The import makes that next one its successor (a1 <- a2 <- a3), so a stored version
    superseded by it is what the import would write: unchanged, not replaced. Without
    this, importing such a file again set every version aside once more (found by an
    adversary: three imports of a file with two active records for one key left six rows).
    """
    following: dict[int, str] = {}
    last: dict[tuple[str, str], int] = {}
    for at, (record_id, namespace, key, superseded_by) in enumerate(records):
        if superseded_by is not None:
            continue
        before = last.get((namespace, key))
        if before is not None and records[before][0] != record_id:
            following[before] = record_id
        last[(namespace, key)] = at
    return following


def repeated_ids(batch: Sequence[MemoryEntry]) -> list[str]:
    """Ids that more than one record of `batch` has."""
    return sorted(item_id for item_id, count in Counter(i.id for i in batch).items() if count > 1)


def _version_kept(item: MemoryEntry, kept: set[tuple[tuple[str, object], ...]]) -> bool:
    """Whether the store keeps `item` as history of its own id already."""
    return bool(kept) and _version(item.model_copy(update={"superseded_by": item.id})) in kept


def _already_stored(previous: MemoryEntry, item: MemoryEntry, successor: str | None) -> bool:
    """Whether `previous` is `item` as it stands, or as the batch's `successor` leaves it."""
    if stored_fields(previous) == stored_fields(item):
        return True
    return successor is not None and stored_fields(previous) == stored_fields(
        item.model_copy(update={"superseded_by": successor})
    )


def replaced_since(
    record_successor: object, stored_successor: object, successor_place: object, place: object
) -> bool:
    """Whether the store replaced a version, under another key, after the export holding it.

    The same version, in effect in the record and replaced in the store by another key's
    entry: a new user's import of an older export brought "I still owe KES 85,000" back
    into effect beside "I now owe KES 35,000", which had replaced it (and SQLite kept a
    second copy of it as history); it stays replaced. Replaced under its own key, the
    record takes the key back and the newer version is its history, as a migration over
    newer versions says. Replacing comes after writing (the markdown store's files date
    it, so the stored version may be as new or newer); a version brought back by
    `restore` has a later update time, so it is another version, imported as one.
    `successor_place` and `place` are (namespace, key) of the successor and the record.
    """
    return (
        record_successor is None
        and stored_successor is not None
        and successor_place is not None
        and successor_place != place
    )


def successor_ids(stored: Iterable[MemoryEntry]) -> list[str]:
    """The ids of the entries that replaced `stored` ones (`plan_import`'s `successors`)."""
    return sorted({entry.superseded_by for entry in stored if entry.superseded_by})


def _but_successor(entry: MemoryEntry, *also: str) -> dict[str, object]:
    """The stored fields but which version replaced it (and `also` those named)."""
    left_out = {"superseded_by", *also}
    return {k: v for k, v in stored_fields(entry).items() if k not in left_out}


def _replaced_here_since(
    previous: MemoryEntry, item: MemoryEntry, successors: Mapping[str, MemoryEntry]
) -> bool:
    """`replaced_since` for a stored entry and a record of the same id."""
    successor = successors.get(previous.superseded_by or "")
    return (
        replaced_since(
            item.superseded_by,
            previous.superseded_by,
            None if successor is None else (successor.namespace, successor.key),
            (item.namespace, item.key),
        )
        and previous.updated_at >= item.updated_at
        and _but_successor(previous, "updated_at") == _but_successor(item, "updated_at")
    )


def _version(entry: MemoryEntry) -> tuple[tuple[str, object], ...]:
    """What makes a version that version, whatever id it is kept under."""
    return tuple(sorted((k, v) for k, v in stored_fields(entry).items() if k != "id"))


def plan_import(
    batch: Sequence[MemoryEntry],
    stored: Mapping[str, MemoryEntry],
    summary: ImportSummary,
    history: Iterable[MemoryEntry] = (),
    replaced_by: Mapping[str, MemoryEntry] | None = None,
) -> ImportPlan:
    """The plan for `batch`, given the stored entries that have the batch's ids.

    `history`: the stored entries superseded by one of `repeated_ids(batch)`. A record
    that a later one of the same id replaces is kept as history of it; when the store
    already keeps that very version so, the record is unchanged (importing such a file
    again added another copy each time, found by an adversary).

    `replaced_by`: the stored entries that replaced stored ones, by id (`successor_ids`).

    What the batch does is counted into `summary`.
    """
    ready: dict[str, MemoryEntry] = {}
    plan = ImportPlan()
    successors = next_active_versions([(i.id, i.namespace, i.key, i.superseded_by) for i in batch])
    kept = {_version(entry) for entry in history}
    later = replaced_later([item.id for item in batch])
    for position, item in enumerate(batch):
        if position in later and _version_kept(item, kept):
            summary.unchanged += 1
            continue
        known = stored.get(item.id)
        earlier = ready.get(item.id)
        holder = earlier if earlier is not None else known
        if holder is not None and holder.namespace != item.namespace:
            # The id is another namespace's (stored, or earlier in this import).
            item = item.model_copy(update={"id": uuid.uuid4().hex})
            summary.renumbered += 1
            known = earlier = None
        previous = earlier if earlier is not None else known
        if previous is None:
            summary.added += 1
            plan.added.add(item.id)
        elif _already_stored(previous, item, None if earlier else successors.get(position)) or (
            earlier is None and _replaced_here_since(previous, item, replaced_by or {})
        ):
            summary.unchanged += 1
            continue
        elif earlier is None and _but_successor(previous) == _but_successor(item):
            # The version stored, replaced since (or in effect again): written as it is
            # now, not kept twice. Found by an adversary: each migrate after a change put
            # a copy of the replaced version into the target's history, and a migrate
            # back carried it to the source.
            summary.unchanged += 1
        else:
            summary.replaced += 1
            summary.kept_as_history += 1
            if previous.updated_at > item.updated_at:
                plan.went_back_in_time(item.id, summary)
            fresh = uuid.uuid4().hex
            if earlier is not None:
                del ready[item.id]
                ready[fresh] = earlier.model_copy(update={"id": fresh, "superseded_by": item.id})
            else:
                plan.copies.append(HistoryCopy(item.id, fresh, item.id))
        ready[item.id] = item
    # As SQLite writes them, one after another: each active record for a key makes the
    # one before it its history (a1 <- a2 <- a3), and the first takes the key from the
    # stored holder. Before, every earlier record was history of the last, and the
    # summary said "4 new, 1 replacing" where SQLite said "3 new, 2 replacing" (found by
    # an adversary).
    latest: dict[tuple[str, str], int] = {}
    for item in ready.values():
        if item.superseded_by is None:
            slot = (item.namespace, item.key)
            at = latest.get(slot)
            if at is None:
                plan.holders[slot] = item.id
            else:
                earlier = plan.entries[at]
                plan.entries[at] = earlier.model_copy(update={"superseded_by": item.id})
                plan.set_aside(item.id, 1, summary, newer=earlier.updated_at > item.updated_at)
            latest[slot] = len(plan.entries)
        plan.entries.append(item)
    return plan
