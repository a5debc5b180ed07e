"""Recall in PostgreSQL: tsvector and pgvector lanes, fused like SQLite's."""

from __future__ import annotations

import asyncio
import builtins
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from memory.calibration import CosineBand
from memory.entry import MemoryEntry, RecallResult, RecallScores
from memory.follow_ups import FollowUp, has_follow_up, parents, with_follow_ups
from memory.fused_ranking import best_keyword, order, query_vector, result, shown
from memory.owners import Person, asks_of, owner_terms
from memory.postgres.schema import (
    COLUMNS,
    lexemes,
    recall_where,
    to_entry,
    tsquery,
)
from memory.postgres.vectors import PgVector
from memory.questions import CONVERSATION
from memory.retrieval import (
    RecallFilters,
    and_terms,
    candidate_terms,
    common_word_queries,
    keyword_settles_it,
    term_weights,
)
from memory.text import query_terms

if TYPE_CHECKING:
    from memory.postgres.store import PostgresMemory


async def recent_recall(memory: PostgresMemory, filters: RecallFilters, limit: int) -> RecallResult:
    """An empty query: the newest entries, unscored."""
    clause, params = recall_where(filters)
    rows = await memory.fetch(
        f"SELECT {COLUMNS} FROM memories WHERE {clause} ORDER BY updated_at DESC, id DESC LIMIT %s",
        [*params, limit],
    )
    return RecallResult(
        entries=[
            to_entry(row).model_copy(update={"scores": RecallScores(fused=0.0, lane="recent")})
            for row in rows
        ],
        mode="recent",
    )


async def hybrid_recall(
    memory: PostgresMemory,
    text: str,
    filters: RecallFilters,
    limit: int,
    given_vector: Any = None,
) -> RecallResult:
    """Absolute fused scores, the relevance floor, and entries below it kept aside.

    As in SQLite, a keyword hit strong enough (`early_return_score`) settles the recall
    before any embedding is asked for ("keyword-early").
    """
    terms = lexemes(query_terms(text))
    clause, params = recall_where(filters)
    keyword: _KeywordLane | None = None
    if given_vector is None and memory.embedder is not None:
        keyword = await _keyword_lane(memory, terms, clause, params, limit, None)
        keyed = {i: (entry.key, kept) for i, (entry, kept) in keyword.found.items()}
        if keyword_settles_it(memory.settings, best_keyword(keyed, keyword.weights)):
            return await _ranked(
                memory,
                _Gathered(keyword.found, set(keyword.found), {}, keyword.weights),
                None,
                limit,
                (clause, params),
                early=True,
                in_effect=not filters.include_superseded,
                asked=asks_of(text),
            )
    vector, band, calibrated = await query_vector(memory, text, given_vector)
    literal = None if vector is None else PgVector(vector)
    # The lanes run side by side, each on its own pooled connection.
    nearest = _nearest_lane(memory, clause, params, limit, literal)
    if keyword is None:
        keyword, near = await asyncio.gather(
            _keyword_lane(memory, terms, clause, params, limit, literal), nearest
        )
    else:
        cosines, near = await asyncio.gather(_cosines_of(memory, keyword, literal), nearest)
        keyword.cosines.update(cosines)
    found = dict(keyword.found)
    cosines_all = dict(keyword.cosines)
    for row in near:
        found.setdefault(row[0], (to_entry(row), frozenset(row[12])))
        cosines_all[row[0]] = float(row[13])
    gathered = _Gathered(found, set(keyword.found), cosines_all, keyword.weights)
    return await _ranked(
        memory,
        gathered,
        band,
        limit,
        (clause, params),
        calibrated,
        in_effect=not filters.include_superseded,
        asked=asks_of(text),
    )


@dataclass
class _Gathered:
    """Both lanes' candidates (id → entry and the query terms it holds), fused next."""

    found: dict[str, tuple[MemoryEntry, frozenset[str]]]
    keyword_ids: set[str]
    cosines: dict[str, float]
    weights: dict[str, float]


async def _ranked(
    memory: PostgresMemory,
    gathered: _Gathered,
    band: CosineBand | None,
    limit: int,
    where: tuple[str, list[Any]],
    calibration: str | None = None,
    *,
    early: bool = False,
    in_effect: bool = True,
    asked: Person | None = None,
) -> RecallResult:
    """Fused, with conversation follow-ups (`memory.follow_ups`), floored and explained.

    `in_effect`: the recall leaves superseded entries out (so does the follow-up search).
    """
    # Whose fact each states (`memory.owners`) joins its terms: among equal scores, the
    # user's own facts come first for a question about the user, as in SQLite.
    keyed = {
        i: (entry.key, terms | frozenset(owner_terms(entry.content)))
        for i, (entry, terms) in gathered.found.items()
    }
    ranked = order(
        memory,
        keyed,
        gathered.keyword_ids,
        gathered.cosines,
        gathered.weights,
        band,
        settled=early,
        asked=asked,
    )
    entries = {entry_id: entry for entry_id, (entry, _) in gathered.found.items()}
    weight = memory.settings.conversation_context_weight
    heads = [h.entry_id for h in parents(ranked, limit) if has_follow_up(entries[h.entry_id])]
    if weight > 0 and heads:
        follow_ups = [
            replace(follow_up, parent_at=entries[follow_up.parent_entry].timestamp)
            for follow_up in await _next_messages(memory, heads, where, in_effect)
        ]
        for follow_up in follow_ups:
            entries.setdefault(follow_up.ranked_as, follow_up.entry)
        ranked = with_follow_ups(ranked, follow_ups, weight, asked)
    return result(memory, shown(memory, ranked, limit), entries, band, calibration, early=early)


async def _next_messages(
    memory: PostgresMemory, parent_ids: list[str], where: tuple[str, list[Any]], in_effect: bool
) -> list[FollowUp]:
    """The message that followed each parent in its session, if it passes the recall's filters.

    The next message, whatever became of it: one no longer a conversation message, or
    failing the filters, or deleted, means no follow-up, never the one after it (as SQLite
    does). Equal save times are ordered by id, as `memory.follow_ups` orders them.
    """
    clause, params = where
    current = "superseded_by IS NULL" if in_effect else "TRUE"
    rows = await memory.fetch(
        f"SELECT p.id, p.content, n.* FROM memories p CROSS JOIN LATERAL ("
        f" SELECT {COLUMNS} FROM memories WHERE session_id = p.session_id"
        " AND namespace = p.namespace"
        ' AND (ts > p.ts OR (ts = p.ts AND id COLLATE "C" > p.id COLLATE "C"))'
        f' AND {current} ORDER BY ts, id COLLATE "C" LIMIT 1) n WHERE p.id = ANY(%s)'
        # A message of the chat said between them and deleted since: the later one is no
        # longer the next (`memory.sqlite.search._deleted_between`).
        " AND NOT EXISTS (SELECT 1 FROM memory_audit a WHERE a.session_id = p.session_id"
        " AND a.namespace = p.namespace AND a.created > p.ts AND a.created < n.ts)",
        [parent_ids],
    )
    found = {row[2]: row for row in rows}
    if not found:
        return []
    passing = {
        row[0]
        for row in await memory.fetch(
            f"SELECT id FROM memories WHERE id = ANY(%s) AND category = %s AND {clause}",
            [list(found), CONVERSATION, *params],
        )
    }
    return [
        FollowUp(
            parent=row[0],
            parent_entry=row[0],
            ranked_as=row[2],
            entry=to_entry(row[2:]),
            parent_said=row[1],
        )
        for row in rows
        if row[2] in passing
    ]


async def _cosines_of(
    memory: PostgresMemory, keyword: _KeywordLane, literal: PgVector | None
) -> dict[str, float]:
    """The keyword hits' cosines, when the keyword lane ran before the query had a vector."""
    if literal is None or not keyword.found:
        return {}
    rows = await memory.fetch(
        "SELECT id, 1 - (embedding <=> %s::vector) FROM memories "
        "WHERE id = ANY(%s) AND embedding_model = %s",
        [literal, list(keyword.found), memory.identity],
    )
    return {row[0]: float(row[1]) for row in rows}


async def _nearest_lane(
    memory: PostgresMemory, clause: str, params: list[Any], limit: int, literal: PgVector | None
) -> list[Any]:
    """The vector lane's rows (COLUMNS, terms, cosine); none without a query vector."""
    if literal is None:
        return []
    pool = max(limit * 4, 40)
    nearest = (
        f"SELECT {COLUMNS}, terms, 1 - (embedding <=> %s::vector) FROM memories "
        f"WHERE {clause} AND embedding_model = %s "
        "ORDER BY embedding <=> %s::vector LIMIT %s"
    )
    nearest_params = [literal, *params, memory.identity, literal, pool]
    rows = await memory.fetch(nearest, nearest_params, breadth=pool)
    if len(rows) < pool:
        # HNSW finds the nearest rows first and filters after (pgvector before 0.8):
        # when they sit in another namespace, the lane comes back short, even empty.
        # Short means the filtered set may hold more; ask for it exactly.
        rows = await memory.fetch(nearest, nearest_params, exact=True)
    return rows


@dataclass
class _KeywordLane:
    weights: dict[str, float] = field(default_factory=dict)
    found: dict[str, tuple[MemoryEntry, frozenset[str]]] = field(default_factory=dict)
    cosines: dict[str, float] = field(default_factory=dict)


async def _keyword_lane(
    memory: PostgresMemory,
    terms: list[str],
    clause: str,
    params: list[Any],
    limit: int,
    literal: PgVector | None,
) -> _KeywordLane:
    """The keyword lane's candidates by coverage, with their cosines when `literal` is given."""
    lane = _KeywordLane()
    if not terms:
        return lane
    # Document frequencies come from the counts the triggers keep (as SQLite's come from
    # its FTS vocabulary); only rows holding the rarer terms are ranked.
    counts = await memory.fetch(
        "SELECT (SELECT docs FROM memory_totals), "
        "(SELECT coalesce(jsonb_object_agg(term, docs), '{}') FROM term_frequencies "
        "WHERE term = ANY(%s))",
        [terms],
    )
    total, known = int(counts[0][0]), counts[0][1]
    frequencies = {t: int(known.get(t, 0)) for t in terms}
    lane.weights = term_weights(frequencies, total)
    matched, require_all = candidate_terms(frequencies)
    cosine = (
        "NULL::float8"
        if literal is None
        else "CASE WHEN embedding_model = %s THEN 1 - (embedding <=> %s::vector) END"
    )
    cosine_params = [] if literal is None else [memory.identity, literal]
    pool = max(limit * 4, 40)
    # Below the row budget, one OR query ranks every row holding a rarer word by coverage.
    # Over it, rows holding all the words, then all but the most common, and so on.
    queries = common_word_queries(and_terms(frequencies, total)) if require_all else [matched]
    rows: builtins.list[Any] = []
    seen: set[str] = set()
    for words in queries:
        # Rank by coverage first; vectors are read (and compared) only for the winners.
        found = await memory.fetch(
            "WITH hits AS ("
            " SELECT id, (SELECT coalesce(sum(w), 0) FROM unnest(%s::text[], %s::float8[])"
            " AS q(t, w) WHERE q.t = ANY(terms)) AS coverage"
            f" FROM memories WHERE {clause} AND tsv @@ %s::tsquery"
            " ORDER BY coverage DESC, key LIMIT %s) "
            f"SELECT {COLUMNS}, terms, {cosine} FROM memories JOIN hits USING (id) "
            "ORDER BY hits.coverage DESC, key",
            [
                list(lane.weights),
                list(lane.weights.values()),
                *params,
                tsquery(words, require_all=require_all),
                pool,
                *cosine_params,
            ],
        )
        rows.extend(row for row in found if row[0] not in seen)
        seen.update(row[0] for row in found)
        if len(found) >= pool:
            break  # as many entries hold these words as the pool takes
    for row in rows:
        lane.found[row[0]] = (to_entry(row), frozenset(row[12]))
        if row[13] is not None:
            lane.cosines[row[0]] = float(row[13])
    return lane
