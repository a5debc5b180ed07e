"""The convenience calls of `Memory`, made once over the two that every backend supplies.

A backend implements `write` (one validated `NewMemory`) and `search` (one `RecallQuery`);
`store`, `store_with_metadata` and `recall` with their many arguments are spelled here only,
so a backend cannot drift from the protocol's defaults.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime

import numpy as np
import numpy.typing as npt

from memory.asked_parts import asked_parts, with_each_part
from memory.days_gone import upcoming_first
from memory.entry import DEFAULT_NAMESPACE, MemoryEntry, RecallResult
from memory.long_texts import LONG
from memory.questions import held_back_questions
from memory.retrieval import RecallFilters, RecallQuery
from memory.write_rules import NewMemory

_SEARCHES_PAST_QUESTIONS = 3
"""Searches again, at most, when saved questions settled a recall or took its slots."""


class MemoryFront(ABC):
    """`store`, `store_with_metadata` and `recall` over `write` and `search`."""

    @abstractmethod
    async def write(self, item: NewMemory) -> MemoryEntry:
        """Store `item` by the write rules; see `Memory.write`."""

    @abstractmethod
    async def search(self, query: RecallQuery) -> RecallResult:
        """Recall for `query`; see `Memory.search`."""

    async def store(
        self, key: str, content: str, category: str = "core", session_id: str | None = None
    ) -> MemoryEntry:
        """See `Memory.store`."""
        return await self.write(
            NewMemory(key=key, content=content, category=category, session_id=session_id)
        )

    async def store_with_metadata(
        self,
        key: str,
        content: str,
        category: str = "core",
        session_id: str | None = None,
        *,
        namespace: str = DEFAULT_NAMESPACE,
        importance: float | None = None,
        pinned: bool | None = None,
        source: str = "user",
    ) -> MemoryEntry:
        """See `Memory.store_with_metadata`."""
        return await self.write(
            NewMemory(
                key=key,
                content=content,
                category=category,
                session_id=session_id,
                namespace=namespace,
                importance=importance,
                pinned=pinned,
                source=source,
            )
        )

    async def recall(
        self,
        query: str,
        limit: int = 5,
        session_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        *,
        namespace: str | None = DEFAULT_NAMESPACE,
        category: str | None = None,
        exclude_ids: Iterable[str] = (),
        include_superseded: bool = False,
        query_vector: Sequence[float] | npt.NDArray[np.float32] | None = None,
    ) -> RecallResult:
        """See `Memory.recall`; saved plain questions are held back (`held_back_questions`)."""
        filters = RecallFilters(
            namespace=namespace,
            session_id=session_id,
            category=category,
            since=since,
            until=until,
            include_superseded=include_superseded,
            exclude_ids=frozenset(exclude_ids),
        )
        result = await self.search(RecallQuery(query, limit, filters, query_vector))
        used, held = held_back_questions(result.entries)
        held_before: list[MemoryEntry] = []
        for _ in range(_SEARCHES_PAST_QUESTIONS):
            if not held or (result.mode != "keyword-early" and len(result.entries) < limit):
                break  # nothing held back, or nothing more behind what was
            # A saved copy of the question matched its own words and settled the recall
            # before the meaning search ran, so the message that answers it scored as
            # unrelated (found by a new user: asking again recalled nothing). And saved
            # questions took the slots of what answers them: four of five, and the message
            # with the new price was left out (a later new user). Searched again without them.
            # Each search again asks for twice the room, so that a few rounds get past many
            # saved questions (a later adversary: six asked alike, five slots).
            held_before += held + held_back_questions(result.below_floor)[1]
            left_out = filters.exclude_ids | {entry.id for entry in held_before}
            again = replace(filters, exclude_ids=frozenset(left_out))
            result = await self.search(RecallQuery(query, 2 * limit, again, query_vector))
            used, held = held_back_questions(result.entries)
        held = held_before + held
        if parts := asked_parts(query):
            # A question held back stays so: each part is asked without it.
            without = replace(filters, exclude_ids=filters.exclude_ids | {e.id for e in held})
            answers = [await self.search(RecallQuery(part, limit, without)) for part in parts]
            result = with_each_part(
                result.model_copy(update={"entries": used}), answers, limit, query
            )
            used, held_too = held_back_questions(result.entries)
            held += held_too
        if any(len(entry.content) >= LONG for entry in used):
            # A pasted page is read whole for its days the first time: not on the event
            # loop, where it held the chat's screen still (an adversary).
            used = await asyncio.to_thread(upcoming_first, query, used)
        else:
            used = upcoming_first(query, used)
        used = used[:limit]
        return result.model_copy(update={"entries": used, "below_floor": held + result.below_floor})


async def in_effect_after(
    entry: MemoryEntry, get_by_id: Callable[[str], Awaitable[MemoryEntry | None]]
) -> MemoryEntry | None:
    """The entry in effect at the end of `entry`'s chain of successors, if the chain has one.

    None when the chain ends in an id no longer stored, or loops. Restore makes this one
    step aside: a successor corrected again under another key left two in effect.
    """
    seen = {entry.id}
    current = entry.superseded_by
    while current is not None and current not in seen:
        seen.add(current)
        found = await get_by_id(current)
        if found is None:
            return None
        if found.superseded_by is None:
            return found
        current = found.superseded_by
    return None
