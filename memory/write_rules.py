"""The write rules, run once for every backend that is not SQLite.

SQLite applies the same decisions (`memory.write_policy`) inside one transaction; the other
backends supply a narrow `RuleEngine` (find by key, by content, by shared words; put;
mark superseded) and `apply_write` does the rest, so a user who switches backend keeps the
same memory: one entry per fact, changed core facts kept as history, near-duplicates
merged per `duplicate_policy`.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from itertools import islice
from typing import Protocol

import numpy as np
import numpy.typing as npt

from memory.date_term_names import local_time
from memory.entry import (
    DEFAULT_NAMESPACE,
    MAX_KEY_CHARS,
    MemoryEntry,
    utc_now,
    valid_category,
)
from memory.errors import InvalidEntryError
from memory.event_days import MOVED_OR_CALLED_OFF, cancels_it, moves_it, several_events
from memory.other_ones import of_another_one
from memory.settings import MemorySettings
from memory.text import analyze
from memory.write_policy import (
    content_hash,
    for_existing_key,
    is_core_update,
    key_for_another_day,
    needs_similar,
    place_new,
    ranked_similar,
    said_of_other_days,
)

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class NewMemory:
    """One entry to write; None fields keep an existing entry's value (or the default)."""

    key: str
    content: str
    category: str = "core"
    session_id: str | None = None
    namespace: str = DEFAULT_NAMESPACE
    importance: float | None = None
    pinned: bool | None = None
    source: str = "user"
    created_at: datetime | None = None
    by_hand: bool = False
    """An edit of the key's own entry (the inspector's): it replaces that entry, never moves
    to a key of its own. A new user edited "… due fri 11/12" into "… due sat 12/12 (moved
    from fri)" and got a second order beside the first, which stayed in effect."""


def check_text(label: str, value: str) -> None:
    """Reject text that cannot be stored as UTF-8 (an unpaired surrogate), naming `label`."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidEntryError(
            f"{label} contains an unpaired surrogate (\\u{ord(value[exc.start]):04x}) at "
            f"position {exc.start}; it is not valid text"
        ) from None


def utc_time(value: datetime, field: str = "time") -> datetime:
    """`value` in UTC (naive taken as UTC).

    A time with no UTC equivalent is refused with an error naming `field`.
    """
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise InvalidEntryError(
            f"{field} {value.isoformat()} is out of range: it has no UTC equivalent "
            "between years 1 and 9999"
        ) from None


def validate(item: NewMemory) -> NewMemory:
    """Reject what cannot be stored faithfully, with a message naming the field."""
    if not item.key.strip():
        raise InvalidEntryError("key must not be empty")
    if len(item.key) > MAX_KEY_CHARS:
        raise InvalidEntryError(f"key is longer than {MAX_KEY_CHARS} characters")
    if not item.namespace.strip():
        raise InvalidEntryError("namespace must not be empty")
    for label, value in (
        ("key", item.key),
        ("content", item.content),
        ("namespace", item.namespace),
        ("session_id", item.session_id or ""),
    ):
        check_text(label, value)
    if item.importance is not None and not 0.0 <= item.importance <= 1.0:
        raise InvalidEntryError(f"importance must be between 0 and 1, got {item.importance}")
    try:
        category = valid_category(item.category)
    except ValueError as exc:
        raise InvalidEntryError(str(exc)) from None
    if item.created_at is not None:
        utc_time(item.created_at, "created_at")
    return item if category == item.category else replace(item, category=category)


class RuleEngine(Protocol):
    """What a backend supplies so that `apply_write` runs over its storage.

    Calls come from one write at a time (the backend holds its write lock around
    `apply_write`).
    """

    async def key_holder(self, namespace: str, key: str) -> MemoryEntry | None:
        """The active entry under `key`; failing that, the newest superseded one."""
        ...

    async def exact_duplicate(
        self, namespace: str, category: str, digest: str
    ) -> MemoryEntry | None:
        """An active entry of `namespace` and `category` whose `content_hash` is `digest`."""
        ...

    async def sharing_words(
        self, namespace: str, category: str, content: str, exclude_key: str
    ) -> list[MemoryEntry]:
        """Active entries that share an analysed word with `content`, best first.

        At most `SIMILAR_LIMIT`, of `namespace` and `category`, under another key than
        `exclude_key`.
        """
        ...

    async def put(self, entry: MemoryEntry, vector: Vector | None, *, keep_vector: bool) -> None:
        """Write `entry` whole (insert or replace by id).

        With `keep_vector` the stored vector stays and `vector` is ignored; otherwise
        `vector` (or none) replaces it.
        """
        ...

    async def mark_superseded(self, entries: list[MemoryEntry], successor: str) -> None:
        """Point `entries` at `successor`, leaving everything else about them as it is."""
        ...


def new_entry(item: NewMemory, now: datetime, entry_id: str | None = None) -> MemoryEntry:
    """The entry a new write creates (importance 0.5 and no pin unless given)."""
    created = utc_time(item.created_at, "created_at") if item.created_at else now
    return MemoryEntry(
        id=entry_id or uuid.uuid4().hex,
        key=item.key,
        content=item.content,
        category=item.category,
        session_id=item.session_id,
        namespace=item.namespace,
        importance=0.5 if item.importance is None else item.importance,
        pinned=bool(item.pinned),
        source=item.source,
        timestamp=created,
        updated_at=max(created, now),
    )


async def _placed(
    engine: RuleEngine, item: NewMemory, said: datetime
) -> tuple[NewMemory, MemoryEntry | None, set[str]]:
    """The key `item` goes under, its holder, and the entries it was found another one of.

    Another day's message, another one's fact or a move of one of several events held
    beside goes under a key of its own; an edit by hand stays its key's (`NewMemory.by_hand`).
    """
    holder = await engine.key_holder(item.namespace, item.key)
    kept_apart: set[str] = set()
    if holder is None or holder.superseded_by is not None or item.by_hand:
        return item, holder, kept_apart
    if said_of_other_days(item.content, said, holder.content, holder.timestamp):
        item = replace(item, key=key_for_another_day(item.key, said, MAX_KEY_CHARS))
        holder = await engine.key_holder(item.namespace, item.key)
        if holder is None or holder.superseded_by is not None:
            return item, holder, kept_apart
    if another_one(item.content, said, holder.content, holder.timestamp):
        kept_apart.add(holder.id)
        item, holder = await _under_a_key_of_its_own(engine, item, said, kept_apart)
    elif may_move(item.content):
        held = [holder, *await _held_beside(engine, item)]
        meant = moves_one_of_several(item.content, [entry.content for entry in held])
        if meant:
            kept_apart |= {held[at].id for at in meant}
            item, holder = await _under_a_key_of_its_own(engine, item, said, kept_apart)
    return item, holder, kept_apart


async def apply_write(
    engine: RuleEngine, settings: MemorySettings, item: NewMemory, vector: Vector | None
) -> MemoryEntry:
    """Write `item` by the rules SQLite applies.

    The result's `supersedes` names what stepped aside; a write absorbed by an existing
    entry returns that entry.
    """
    item = validate(item)
    now = utc_now()
    digest = content_hash(item.content)
    is_core = is_core_update(item.category, settings)
    said = utc_time(item.created_at, "created_at") if item.created_at else now
    item, holder, kept_apart = await _placed(engine, item, said)
    if holder is not None and holder.superseded_by is not None:
        # Every version of the key is history (replaced on its subject under another key):
        # the write is a new memory, by the rules of a new key. Updating that history in
        # place lost it, and left two facts on one subject in effect (found by an adversary).
        holder = None
    if holder is not None:
        # A core fact keeps its history whatever the write calls itself: a model storing
        # under its key as "conversation" replaced a passport number in place (found by
        # an adversary).
        kept_core = is_core or is_core_update(holder.category, settings)
        return await _write_existing_key(engine, holder, item, vector, now, kept_core, digest)
    duplicate = await engine.exact_duplicate(item.namespace, item.category, digest)
    if duplicate is not None and not said_of_other_days(
        item.content, said, duplicate.content, duplicate.timestamp
    ):
        return duplicate
    found: list[MemoryEntry] = []
    if needs_similar(item.category):
        found = await engine.sharing_words(item.namespace, item.category, item.content, item.key)
        # What it was found another one of it replaces not: "Marta paid December", given
        # a key of its own beside "Marta paid November", still replaced it by its words
        # (an adversary).
        found = [
            e
            for e in found
            if not said_of_other_days(item.content, said, e.content, e.timestamp)
            and e.id not in kept_apart
        ]
    by_id = {entry.id: entry for entry in found}
    similar = ranked_similar(item.content, [(0, e.id, e.key, e.content) for e in found])
    placement = place_new(item.content, similar, settings, is_core=is_core)
    stored = by_id[placement.target.id] if placement.target else None
    if placement.action == "keep existing" and stored is not None:
        return stored
    if placement.action == "refresh existing" and stored is not None:
        refreshed = stored.model_copy(
            update={
                "importance": max(stored.importance, item.importance or 0.0),
                "pinned": stored.pinned or bool(item.pinned),
                "updated_at": now,
            }
        )
        await engine.put(refreshed, None, keep_vector=True)
        return refreshed
    if placement.action == "merge" and stored is not None:
        merged = replace(
            item,
            key=stored.key,
            importance=max(stored.importance, item.importance or 0.0),
            pinned=stored.pinned or bool(item.pinned),
        )
        return await _new_version(engine, new_entry(merged, now), [stored], vector)
    conflicts = [by_id[s.id] for s in placement.conflicts]
    return await _new_version(engine, new_entry(item, now), conflicts, vector)


def another_one(content: str, said: datetime, old: str, old_said: datetime) -> bool:
    """Whether `content` written under `old`'s key is about another one (`memory.other_ones`)."""
    return of_another_one(content, old, local_time(said).date(), local_time(old_said).date())


def moves_one_of_several(content: str, held: list[str]) -> list[int]:
    """Which of `held` (a key's fact and its own keys' facts) a move or call-off may mean.

    Only when it may mean several events: it says not which, so it replaces none.

    Found by an adversary: "Dentist moved to 21/1", written under the key of "Dentist for
    Tom on 14/1 at 9am" beside "Dentist for Maya on 14/1 at 3pm", replaced Tom's.
    """
    meant = [
        at for at, text in enumerate(held) if moves_it(content, text) or cancels_it(content, text)
    ]
    return meant if len(meant) > 1 and several_events([held[at] for at in meant]) else []


def may_move(content: str) -> bool:
    """Whether `content` holds a word a move or a call-off is said with.

    Only then are the facts beside its key read (`moves_one_of_several`), not on every
    write to a key.
    """
    return MOVED_OR_CALLED_OFF.search(content) is not None


def keys_beside(key: str) -> Iterator[str]:
    """The key's own keys ("dentist_2", …) read for the facts held beside it."""
    return islice(keys_of_its_own(key), _SIBLINGS_READ)


async def _held_beside(engine: RuleEngine, item: NewMemory) -> list[MemoryEntry]:
    """The facts under the key's own keys ("dentist_2", …), up to the first free one."""
    beside: list[MemoryEntry] = []
    for key in keys_beside(item.key):
        entry = await engine.key_holder(item.namespace, key)
        if entry is None:
            break
        if entry.superseded_by is None:
            beside.append(entry)
    return beside


_SIBLINGS_READ = 10
_MOST_KEYS_TRIED = 50


def version_at(content: str, said: datetime, held: str, held_said: datetime) -> bool:
    """Whether a key of its own holding `held` may take `content` as its new version.

    Not another one, and about the same thing: "Bike rental shop opens at 9", stored under
    "rent_2" by hand, was replaced by "Flat 3 rent is 1300" (an adversary).
    """
    shared = set(analyze(content)) & set(analyze(held))
    return len(shared) >= _SHARED_FOR_A_VERSION and not another_one(content, said, held, held_said)


_SHARED_FOR_A_VERSION = 2


def keys_of_its_own(key: str) -> Iterator[str]:
    """Keys like `key` for another one of its kind: "flat_rent_2", "flat_rent_3" and on.

    The first that holds nothing, or holds a version of the write, takes it.
    """
    for number in range(2, _MOST_KEYS_TRIED):
        suffix = f"_{number}"
        yield key[: max(MAX_KEY_CHARS - len(suffix), 1)] + suffix


async def _under_a_key_of_its_own(
    engine: RuleEngine, item: NewMemory, said: datetime, kept_apart: set[str]
) -> tuple[NewMemory, MemoryEntry | None]:
    """`item` under the first key of its own (`keys_of_its_own`), and that key's holder.

    A key holding what it was kept apart from is passed by.
    """
    for key in keys_of_its_own(item.key):
        holder = await engine.key_holder(item.namespace, key)
        if holder is not None and holder.id in kept_apart:
            continue
        if (
            holder is None
            or holder.superseded_by is not None
            or version_at(item.content, said, holder.content, holder.timestamp)
        ):
            return replace(item, key=key), holder
    return item, await engine.key_holder(item.namespace, item.key)


async def _new_version(
    engine: RuleEngine, entry: MemoryEntry, replaced: list[MemoryEntry], vector: Vector | None
) -> MemoryEntry:
    # The new entry is written before the old ones step aside: a crash in between leaves
    # both active (repaired at the next import), never neither.
    await engine.put(entry, vector, keep_vector=False)
    if replaced:
        await engine.mark_superseded(replaced, entry.id)
    entry.supersedes = [old.id for old in replaced]
    return entry


async def _write_existing_key(
    engine: RuleEngine,
    holder: MemoryEntry,
    item: NewMemory,
    vector: Vector | None,
    now: datetime,
    is_core: bool,
    digest: str,
) -> MemoryEntry:
    action = for_existing_key(
        active=holder.superseded_by is None,
        same_content=content_hash(holder.content) == digest,
        is_core=is_core,
        same_text=holder.content == item.content,
    )
    importance = holder.importance if item.importance is None else item.importance
    pinned = holder.pinned if item.pinned is None else item.pinned
    if action == "new version":
        successor = new_entry(replace(item, importance=importance, pinned=pinned), now)
        return await _new_version(engine, successor, [holder], vector)
    changes: dict[str, object] = {
        "category": item.category,
        "session_id": item.session_id,
        "importance": importance,
        "pinned": pinned,
        "source": item.source,
        "updated_at": now,
    }
    if action == "in place":
        # A changed text keeps the entry's id and creation time; a superseded holder that
        # the write brings back is active again.
        changes.update(content=item.content, superseded_by=None)
    updated = holder.model_copy(update=changes)
    # Unchanged text with no new vector keeps its vector; a stale vector is worse than none.
    keep = action == "refresh" and vector is None
    await engine.put(updated, vector, keep_vector=keep)
    return updated
