"""Recall over a Qdrant collection: the keyword and vector lanes, fused like SQLite's."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from memory.calibration import CosineBand
from memory.entry import MemoryEntry, RecallResult, RecallScores
from memory.follow_ups import (
    FollowUp,
    deleted_between,
    first_after,
    has_follow_up,
    parents,
    with_follow_ups,
)
from memory.fused_ranking import Ranked, best_keyword, order, query_vector, result, shown
from memory.owners import Person, asks_of, owner_rank, owner_terms
from memory.qdrant.housekeeping import ChatDeletions, chat_deletions
from memory.qdrant.payload import from_payload, point_id, recall_filter
from memory.qdrant.points import (
    TERMS,
    PointFilter,
    PointStore,
    StoredPoint,
    TermSearch,
    VectorSearch,
)
from memory.retrieval import RecallFilters, keyword_settles_it, term_weights
from memory.text import query_terms

if TYPE_CHECKING:
    from memory.qdrant.store import QdrantMemory


async def recent_recall(memory: QdrantMemory, filters: RecallFilters, limit: int) -> RecallResult:
    """An empty query: the newest entries, unscored."""
    entries = await memory._entries(recall_filter(filters))
    entries.sort(key=lambda e: (e.updated_at, e.id), reverse=True)
    return RecallResult(
        entries=[
            e.model_copy(update={"scores": RecallScores(fused=0.0, lane="recent")})
            for e in entries[:limit]
        ],
        mode="recent",
    )


async def hybrid_recall(
    memory: QdrantMemory,
    text: str,
    filters: RecallFilters,
    limit: int,
    given_vector: Any = None,
) -> RecallResult:
    """Absolute fused scores, the relevance floor, and entries below it kept aside.

    As in SQLite, a keyword hit strong enough (`early_return_score`) settles the recall
    before any embedding is asked for ("keyword-early").
    """
    lanes = _Lanes(
        terms=query_terms(text),
        base=recall_filter(filters),
        pool=max(limit * 4, 40),
        vector=None,
        identity=memory.identity or "",
        asked=asks_of(text),
    )
    keyword: _KeywordLane | None = None
    if given_vector is None and memory.embedder is not None:
        keyword = await memory.call(_keyword_lane, memory.points, lanes)
        if keyword_settles_it(memory.settings, best_keyword(keyword.found, keyword.weights)):
            settled = replace(lanes, settled=True)
            chosen, entries = await memory.call(_search, memory, settled, None, limit, keyword)
            return result(memory, chosen, entries, None, early=True)
    vector, band, calibrated = await query_vector(memory, text, given_vector)
    if vector is not None:
        lanes = replace(lanes, vector=[float(x) for x in vector])
    # One trip to the worker thread for the rest: each trip costs a thread switch.
    chosen, entries = await memory.call(_search, memory, lanes, band, limit, keyword)
    return result(memory, chosen, entries, band, calibrated)


@dataclass(frozen=True)
class _Lanes:
    terms: list[str]
    base: PointFilter
    pool: int
    vector: list[float] | None
    identity: str
    settled: bool = False
    """A strong keyword match settled the recall: no vector is asked for."""
    asked: Person | None = None
    """Whom the query asks about (`memory.owners`): the user's facts first among ties."""


@dataclass(frozen=True)
class _KeywordLane:
    weights: dict[str, float]
    found: dict[str, tuple[str, frozenset[str]]]
    """Point id → the entry's key and terms."""


def _keyword_lane(points: PointStore, lanes: _Lanes) -> _KeywordLane:
    weights = _weights(points, lanes)
    hits = points.keyword_hits(weights, lanes.base, lanes.pool) if weights else []
    return _KeywordLane(weights, {point: (point, held) for point, held in hits})


def _weights(points: PointStore, lanes: _Lanes) -> dict[str, float]:
    # Frequencies over the whole collection, as SQLite counts them: the same query gets
    # the same keyword scores from either backend.
    if not lanes.terms:
        return {}
    return term_weights(points.term_counts(lanes.terms), points.total())


def _search(
    memory: QdrantMemory,
    lanes: _Lanes,
    band: CosineBand | None,
    limit: int,
    keyword: _KeywordLane | None,
) -> tuple[list[Ranked], dict[str, MemoryEntry]]:
    """The lanes not yet run, fused; only the entries shown are read whole.

    Two engine calls gather every candidate: both lanes (the vector lane's finds with the
    query terms each holds), then the cosines of the keyword lane's finds that the vector
    lane did not find (each lane's candidates are fused with both components).
    """
    points = memory.points
    if lanes.vector is None:
        lane = keyword if keyword is not None else _keyword_lane(points, lanes)
        gathered = _Gathered(dict(lane.found), set(lane.found), {}, lane.weights, lanes.settled)
        return _fused(memory, lanes, gathered, band, limit)
    weights = keyword.weights if keyword is not None else _weights(points, lanes)
    scoped = replace(lanes.base, embedding_model=lanes.identity)
    term_search = None
    if keyword is None and weights:
        term_search = TermSearch(weights, lanes.base, lanes.pool)
    hits = points.both_lanes(
        term_search, VectorSearch(lanes.vector, scoped, lanes.pool, tuple(weights))
    )
    found = dict(keyword.found) if keyword is not None else {p: (p, h) for p, h in hits.keyword}
    gathered = _Gathered(found, set(found), dict(hits.vector), weights)
    _add_cosines(points, lanes, gathered)
    for point in gathered.cosines:
        found.setdefault(point, (point, hits.vector_terms.get(point, frozenset())))
    return _fused(memory, lanes, gathered, band, limit)


@dataclass
class _Gathered:
    """Every candidate, which of them the keyword lane found, cosines, term weights.

    `found`: point id → the id standing in for its key, and the query terms it holds.
    """

    found: dict[str, tuple[str, frozenset[str]]]
    keyword_ids: set[str]
    cosines: dict[str, float]
    weights: dict[str, float]
    settled: bool = False
    """A strong keyword match settled the recall (`retrieval.settled_score`)."""


def _add_cosines(points: PointStore, lanes: _Lanes, gathered: _Gathered) -> None:
    """The cosines of the keyword finds the vector lane did not find."""
    lacking = frozenset(gathered.keyword_ids - gathered.cosines.keys())
    if lanes.vector is not None and lacking:
        scoped = replace(lanes.base, embedding_model=lanes.identity, only=lacking)
        gathered.cosines.update(points.nearest(lanes.vector, scoped, len(lacking)))


def _fused(
    memory: QdrantMemory, lanes: _Lanes, gathered: _Gathered, band: CosineBand | None, limit: int
) -> tuple[list[Ranked], dict[str, MemoryEntry]]:
    """What is shown, exactly; searched again by exact terms if a shared dimension misled.

    When a stored term shares a sparse dimension with a query term (`term_index`), the
    keyword lane may fill with memories that hold the other term only; the check on what
    is shown drops them, and the keyword lane then runs again among the memories holding
    a query term itself (a payload index), so the real matches are not lost.
    """
    chosen, entries, misled = _shown_exactly(memory, gathered, band, limit, lanes)
    if not misled or not gathered.weights:
        return chosen, entries
    exact = replace(lanes.base, any_terms=tuple(gathered.weights))
    for point, held in memory.points.keyword_hits(gathered.weights, exact, lanes.pool):
        gathered.found.setdefault(point, (point, held))
        gathered.keyword_ids.add(point)
    _add_cosines(memory.points, lanes, gathered)
    chosen, entries, _ = _shown_exactly(memory, gathered, band, limit, lanes)
    return chosen, entries


def _shown_exactly(
    memory: QdrantMemory,
    gathered: _Gathered,
    band: CosineBand | None,
    limit: int,
    lanes: _Lanes,
) -> tuple[list[Ranked], dict[str, MemoryEntry], bool]:
    """Rank, and read whole the entries shown; True third when a shared dimension misled.

    Candidates are ranked before their payloads are read (reading them all cost more than
    both searches), with the point id standing in for the key among equal scores. Each
    entry shown is checked against its stored terms: if two terms sharing a sparse
    dimension raised its score (`term_index`), it is corrected and everything ranked
    again, so what is shown is exact. Conversation messages among the first bring their
    session's next message (`memory.follow_ups`). Equal scores shown are then ordered by
    whose fact they state (`memory.owners`), then by key.
    """
    found, weights = gathered.found, gathered.weights
    misled = False
    weight = memory.settings.conversation_context_weight
    entries: dict[str, MemoryEntry] = {}
    follow_ups: dict[str, FollowUp | None] = {}  # parent point id → its next message
    while True:
        ranked = order(
            memory,
            found,
            gathered.keyword_ids,
            gathered.cosines,
            weights,
            band,
            settled=gathered.settled,
            asked=lanes.asked,
        )
        heads = parents(ranked, limit) if weight > 0 else []
        known = [f for head in heads if (f := follow_ups.get(head.entry_id)) is not None]
        ranked = with_follow_ups(ranked, known, weight, lanes.asked) if known else ranked
        chosen = shown(memory, ranked, limit)
        wanted = {item.entry_id for item in [*chosen, *heads]}
        corrected = False
        for record in memory.points.retrieve([i for i in wanted if i not in entries]):
            corrected |= _read(record, entries, found, weights)
        if corrected:
            misled = True
            continue
        pending = [
            head.entry_id
            for head in heads
            if head.entry_id not in follow_ups
            and head.entry_id in entries  # else removed between the search and the read
            and has_follow_up(entries[head.entry_id])
        ]
        deleted = chat_deletions(memory.audit_file) if pending else {}
        for parent in pending:
            follow_up = _next_message(memory.points, entries[parent], lanes.base, deleted)
            follow_ups[parent] = None if follow_up is None else replace(follow_up, parent=parent)
            if follow_up is not None and follow_up.ranked_as not in entries:
                entries[follow_up.ranked_as] = follow_up.entry
        if not pending:
            break
    owners: dict[str, int] = {}
    for item in chosen:
        entry = entries.get(item.entry_id)
        if entry is not None:
            item.key = entry.key
            owned = frozenset(owner_terms(entry.content))
            owners[item.entry_id] = owner_rank(lanes.asked, owned)
    chosen.sort(key=lambda item: (-item.fused, owners.get(item.entry_id, 2), item.key))
    return chosen, entries, misled


def _read(
    record: StoredPoint,
    entries: dict[str, MemoryEntry],
    found: dict[str, tuple[str, frozenset[str]]],
    weights: dict[str, float],
) -> bool:
    """Keep a point's entry; True when its stored terms corrected what the lanes said."""
    entries[record.id] = from_payload(record.payload)
    stored = frozenset(record.payload.get(TERMS) or ())
    exact = frozenset(term for term in weights if term in stored)
    if record.id in found and exact != found[record.id][1]:
        found[record.id] = (record.id, exact)
        return True
    return False


def _next_message(
    points: PointStore, parent: MemoryEntry, base: PointFilter, deleted: ChatDeletions
) -> FollowUp | None:
    """The message that followed `parent` in its session, if it passes the recall's filters.

    The next message, whatever became of it: one no longer a conversation message, or
    failing the filters, or deleted, means no follow-up, never the one after it (as SQLite
    does).
    """
    at = parent.timestamp.timestamp()
    neighbours = PointFilter(
        namespace=parent.namespace,
        in_session=parent.session_id,
        include_superseded=base.include_superseded,
        since=at,
    )
    count = 2  # the parent and its successor, unless others share the parent's time
    while True:
        later = [from_payload(p.payload) for p in points.earliest(neighbours, "ts", count)]
        following = first_after(parent, later)
        if following is not None or len(later) < count:
            break
        count *= 4
    if following is None or following.category != parent.category:
        return None
    chat = deleted.get((parent.namespace, parent.session_id or ""), [])
    if deleted_between(chat, parent.timestamp, following.timestamp):
        return None
    ranked_as = point_id(following.id)
    if not points.count(replace(base, only=frozenset({ranked_as}))):
        return None  # it fails the recall's filters
    return FollowUp(
        parent="",
        parent_entry=parent.id,
        ranked_as=ranked_as,
        entry=following,
        parent_said=parent.content,
        parent_at=parent.timestamp,
    )
