"""Recall on the database thread: keyword stage (with early return), then hybrid stage."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from memory.calibration import CosineBand, band_for, fixed_band
from memory.entry import MemoryEntry, RecallMode, RecallResult, RecallScores
from memory.follow_ups import goes_on, said_soon_after
from memory.owners import asks_of, owner_rank
from memory.questions import only_asks
from memory.retrieval import (
    NARROWING,
    Candidate,
    RecallFilters,
    and_terms,
    candidate_terms,
    common_word_queries,
    explain,
    fused_score,
    keyword_coverage,
    keyword_settles_it,
    settled_score,
    term_weights,
)
from memory.sqlite import vector_lane
from memory.sqlite.core import SqliteCore
from memory.sqlite.filters import vector_filter, where_sql
from memory.sqlite.reads import audit_columns
from memory.sqlite.rows import ENTRY_COLUMNS, readable_entries, time_or_none
from memory.text import fts_match_expression, fts_quote, query_terms

_MIN_CANDIDATES = 40
QUERY_VECTOR_PREFIX = "\x00query\x00"
"""Cache key prefix of query embeddings for models that embed queries differently."""
LIKE_FALLBACK_WINDOW = 5_000
"""The substring fallback looks at this many most recent entries, so it never scans all."""


@dataclass
class KeywordStage:
    """What the keyword stage found, handed to the hybrid stage if it runs."""

    query: str
    limit: int
    filters: RecallFilters
    cache_key: tuple[object, ...]
    terms: list[str] = field(default_factory=list)
    weights: dict[str, float] = field(default_factory=dict)
    candidates: dict[int, Candidate] = field(default_factory=dict)
    result: RecallResult | None = None
    """Set unless recall still needs the embedder to produce the query vector."""
    band: CosineBand | None = None
    """The query's cosine band, once the hybrid stage knows the query vector."""
    vector_search: Future[vector_lane.Hits] | None = None
    """The vector lane, running beside the keyword lane (`memory.sqlite.vector_lane`)."""


def _ranking(
    query: str,
) -> Callable[[tuple[float, Candidate]], tuple[float, int, float, int, int]]:
    """The sort key: best fused score first, then whose fact, vector, BM25, newest.

    Among equal scores, a question about the user puts the user's own facts first
    (`memory.owners`). Below an embedding model's baseline every vector relevance is 0,
    but the cosines still order the candidates, so they break ties.
    """
    asked = asks_of(query)

    def rank(pair: tuple[float, Candidate]) -> tuple[float, int, float, int, int]:
        fused, candidate = pair
        owner = owner_rank(asked, candidate.terms)
        return (-fused, owner, -(candidate.vector or 0.0), candidate.bm25_rank, -candidate.seq)

    return rank


def _candidate_pool(limit: int) -> int:
    return max(4 * limit, _MIN_CANDIDATES)


def recent(core: SqliteCore, filters: RecallFilters, limit: int) -> list[MemoryEntry]:
    """The most recently updated entries that pass the filters."""
    where, params = where_sql(filters)
    rows = core.conn.execute(
        f"SELECT {ENTRY_COLUMNS} FROM memories m WHERE {where} "
        "ORDER BY m.updated_at DESC, m.seq DESC LIMIT ?",
        (*params, limit),
    ).fetchall()
    entries = readable_entries(rows, core.warn)
    for entry in entries:
        entry.scores = RecallScores(fused=0.0, lane="recent")
    return entries


def match_expressions(counts: dict[str, int], total_docs: int) -> list[str]:
    """The FTS5 queries that find keyword candidates, the most query words first.

    BM25 ranks a row only by the words its query names. When common words are left out
    of the OR query (see `candidate_terms`), the rows holding the rarest word alone would
    fill the pool by BM25 and push out the one that holds every word ("Chloé's telescope
    is broken" lost among 500 other telescopes). So rows holding all the words are asked
    for first, then all but the most common, and so on down to the OR of the rare ones;
    each AND costs what its most common word's rows cost, so words found nearly everywhere
    are left out of them (`and_terms`).
    """
    terms, require_all = candidate_terms(counts)
    narrow = and_terms(counts, total_docs)
    if require_all:
        return [" AND ".join(map(fts_quote, words)) for words in common_word_queries(narrow)]
    every = sorted(narrow, key=lambda term: (narrow[term], term))
    # At most `NARROWING` AND queries over the rarest words: a pasted page of text as a
    # query must not become hundreds of queries of hundreds of words.
    widest = min(len(every), len(terms) + NARROWING)
    narrowing = [
        " AND ".join(fts_quote(term) for term in every[:size])
        for size in range(widest, max(len(terms), 1), -1)
    ]
    return [*narrowing, fts_match_expression(terms)]


def keyword_stage(
    core: SqliteCore,
    query: str,
    limit: int,
    filters: RecallFilters,
    cache_key: tuple[object, ...],
    vectors_wanted: bool,
    query_vector: npt.NDArray[np.float32] | None = None,
) -> KeywordStage:
    """Run the hot cache, the keyword stage and, when it can, the hybrid stage.

    FTS5 candidates get absolute keyword scores; a strong best hit returns early. When the
    query vector is given or cached and the embedding model is calibrated, the hybrid stage
    runs too, in the same thread hop.
    """
    core.refresh()
    calibrated = core.calibration is not None or fixed_band(core.settings) is not None
    stage = KeywordStage(query=query, limit=limit, filters=filters, cache_key=cache_key)
    cached = core.hot_cache.get(cache_key)
    if cached is not None:
        stage.result = cached
        return stage
    if query in ("", "*"):
        stage.result = RecallResult(entries=recent(core, filters, limit), mode="recent")
        return stage
    stage.terms = query_terms(query)
    searchable = calibrated and vectors_wanted and bool(len(core.index))
    cached_vector = None
    if query_vector is None and searchable:
        vector_key = QUERY_VECTOR_PREFIX + query if core.asymmetric else query
        cached_vector = core.embeddings.get([vector_key]).get(vector_key)
    known_vector = query_vector if query_vector is not None else cached_vector
    if known_vector is not None and searchable:
        pool = _candidate_pool(limit)
        flt = vector_filter(filters, _exclude_seqs(core, filters))
        stage.vector_search = vector_lane.start(core.index, known_vector, pool, flt)
    try:
        _keyword_lane_and_finish(
            core, stage, calibrated, vectors_wanted, query_vector, cached_vector
        )
    finally:
        # Taken by the hybrid stage, or not needed: either way done before the index changes.
        vector_lane.settle(stage.vector_search)
        stage.vector_search = None
    return stage


def _keyword_lane_and_finish(
    core: SqliteCore,
    stage: KeywordStage,
    calibrated: bool,
    vectors_wanted: bool,
    query_vector: npt.NDArray[np.float32] | None,
    cached_vector: npt.NDArray[np.float32] | None,
) -> None:
    if stage.terms:
        counts = core.doc_frequencies.counts(stage.terms)
        stage.weights = term_weights(counts, core.total_docs)
        _gather_keyword_candidates(core, stage, counts)
    best = max((c.keyword or 0.0 for c in stage.candidates.values()), default=0.0)
    if not vectors_wanted or not len(core.index):
        # An embedder with no stored vector to compare (every save failed to embed, or the
        # model changed): keyword-only, and said so once there is anything to search.
        no_vectors = vectors_wanted and bool(stage.candidates) and not len(core.index)
        degraded = (
            "keyword-only: no stored memory has a vector from the current embedding model "
            "(it, its size or its task prefixes changed, or it was not answering); "
            "`memchat memory reindex` embeds them"
            if no_vectors
            else None
        )
        stage.result = finish(core, stage, query_vector=None, mode="keyword", degraded=degraded)
    elif query_vector is not None:
        # A vector the caller already has costs nothing: no reason to return early. Until
        # the model is calibrated, the store calibrates it first and finishes after.
        if calibrated:
            stage.result = finish(core, stage, query_vector=query_vector, mode="hybrid")
    elif keyword_settles_it(core.settings, best):
        stage.result = finish(core, stage, query_vector=None, mode="keyword-early")
    elif calibrated and cached_vector is not None:
        stage.result = finish(core, stage, query_vector=cached_vector, mode="hybrid")


def _gather_keyword_candidates(
    core: SqliteCore, stage: KeywordStage, counts: dict[str, int]
) -> None:
    """The keyword lane's candidates, scored by coverage (see `match_expressions`)."""
    where, params = where_sql(stage.filters)
    pool = _candidate_pool(stage.limit)
    rank = 0
    for expression in match_expressions(counts, core.total_docs):
        rows = core.conn.execute(
            "SELECT m.seq, m.terms FROM memories_fts JOIN memories m "
            f"ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ? AND {where} "
            "ORDER BY memories_fts.rank LIMIT ?",
            (expression, *params, pool),
        ).fetchall()
        for seq, terms in rows:
            if seq in stage.candidates:
                continue
            entry_terms = frozenset(terms.split())
            stage.candidates[seq] = Candidate(
                seq=seq,
                keyword=keyword_coverage(entry_terms, stage.weights),
                in_keyword_lane=True,
                bm25_rank=rank,
                terms=entry_terms,
            )
            rank += 1
        if len(rows) >= pool:
            break  # as many entries hold these words as the pool takes


def _exclude_seqs(core: SqliteCore, filters: RecallFilters) -> frozenset[int]:
    if not filters.exclude_ids:
        return frozenset()
    ids = sorted(filters.exclude_ids)
    rows = core.conn.execute(
        f"SELECT seq FROM memories WHERE id IN ({','.join('?' * len(ids))})", ids
    ).fetchall()
    return frozenset(row[0] for row in rows)


def _add_vector_lane(
    core: SqliteCore, stage: KeywordStage, query_vector: npt.NDArray[np.float32]
) -> None:
    pool = _candidate_pool(stage.limit)
    pending, stage.vector_search = stage.vector_search, None
    found = None if pending is None else vector_lane.take(pending)
    if found is None:
        flt = vector_filter(stage.filters, _exclude_seqs(core, stage.filters))
        found = core.search_vectors(query_vector, pool, flt)
    for seq, score in found:
        candidate = stage.candidates.setdefault(seq, Candidate(seq=seq))
        candidate.in_vector_lane = True
        candidate.vector = score
    missing_vector = [s for s, c in stage.candidates.items() if c.vector is None]
    for seq, score in core.vector_similarity(query_vector, missing_vector).items():
        stage.candidates[seq].vector = score
    missing_terms = [s for s, c in stage.candidates.items() if not c.in_keyword_lane]
    if missing_terms and stage.weights:
        marks = ",".join("?" * len(missing_terms))
        for seq, terms in core.conn.execute(
            f"SELECT seq, terms FROM memories WHERE seq IN ({marks})", missing_terms
        ):
            stage.candidates[seq].keyword = keyword_coverage(
                frozenset(terms.split()), stage.weights
            )


def finish(
    core: SqliteCore,
    stage: KeywordStage,
    query_vector: npt.NDArray[np.float32] | None,
    mode: RecallMode,
    degraded: str | None = None,
) -> RecallResult:
    """Fuse, order, apply the floor, hydrate with one query, and fill the hot cache."""
    if query_vector is not None:
        _add_vector_lane(core, stage, query_vector)
        stage.band = band_for(core.settings, core.calibration, query_vector)
    settings = core.settings
    hybrid = query_vector is not None
    weights = settings.vector_weight, settings.keyword_weight
    if mode == "keyword-early":
        scored = [(settled_score(c.keyword or 0.0, settings), c) for c in stage.candidates.values()]
    else:
        scored = [
            (fused_score(c, *weights, hybrid, stage.band), c) for c in stage.candidates.values()
        ]
    rank = _ranking(stage.query)
    scored.sort(key=rank)
    if settings.conversation_context_weight > 0 and scored:
        scored = _with_follow_ups(core, stage, scored, settings.conversation_context_weight, rank)
    floor = settings.min_relevance_score
    passing = [pair for pair in scored if pair[0] >= floor][: stage.limit]
    below = [pair for pair in scored if pair[0] < floor][: stage.limit]
    hydrated = hydrate(core, passing + below, stage.band)
    entries, below_floor = hydrated[: len(passing)], hydrated[len(passing) :]
    if not entries and not stage.candidates:
        entries = like_fallback(core, stage.query, stage.filters, stage.limit)
    result = RecallResult(entries=entries, mode=mode, degraded=degraded, below_floor=below_floor)
    if degraded is None:
        # A degraded answer is not kept: the next recall tries the embedder again.
        core.hot_cache.put(stage.cache_key, result)
    return result


def _with_follow_ups(
    core: SqliteCore,
    stage: KeywordStage,
    scored: list[tuple[float, Candidate]],
    weight: float,
    rank: Callable[[tuple[float, Candidate]], tuple[float, int, float, int, int]],
) -> list[tuple[float, Candidate]]:
    """Add the message that followed each top conversation hit in its session.

    The next message, whatever became of it: when it is no longer a conversation message
    (made a fact), fails the recall's filters, is only a question (`only_asks`) or tells
    of something new (`goes_on`), there is no follow-up; the one after it is never brought
    instead (found by a new user). Nor may the parent be only a question.

    A follow-up scores `weight` times its predecessor (or keeps its own score if higher)
    and must pass the same filters; its scores name the entry that brought it in.
    """
    parents = {c.seq: fused for fused, c in scored[: stage.limit] if fused > 0}
    if not parents:
        return scored
    in_effect = "1" if stage.filters.include_superseded else "n.superseded_by IS NULL"
    marks = ",".join("?" * len(parents))
    rows = core.conn.execute(
        "SELECT p.seq, p.content, p.created_at, p.session_id, p.namespace, "
        "(SELECT n.seq FROM memories n "
        "WHERE n.session_id = p.session_id "
        "AND n.namespace = p.namespace "
        "AND (n.created_at > p.created_at OR (n.created_at = p.created_at AND n.seq > p.seq)) "
        f"AND {in_effect} ORDER BY n.created_at, n.seq LIMIT 1) FROM memories p "
        f"WHERE p.seq IN ({marks}) AND p.category = 'conversation' AND p.session_id IS NOT NULL",
        tuple(parents),
    ).fetchall()
    said_by = {parent: said for parent, said, *_ in rows}
    said_at = {parent: at for parent, _, at, *_ in rows}
    chat_of = {parent: (session, namespace) for parent, _, _, session, namespace, _ in rows}
    rows = [(parent, follow_up) for parent, said, *_, follow_up in rows if not only_asks(said)]
    following = [follow_up for _, follow_up in rows if follow_up is not None]
    if not following:
        return scored
    where, params = where_sql(stage.filters, alias="n")
    marks = ",".join("?" * len(following))
    passing = {
        seq: (content, at)
        for seq, content, at in core.conn.execute(
            f"SELECT n.seq, n.content, n.created_at FROM memories n WHERE n.seq IN ({marks}) "
            f"AND n.category = 'conversation' AND {where}",
            (*following, *params),
        )
        if not only_asks(content)
    }
    current = {c.seq: fused for fused, c in scored}
    changed = False
    chats_audited: bool | None = None  # asked once, when a follow-up gets that far
    for parent, follow_up in rows:
        if follow_up is None or follow_up not in passing:
            continue
        content, at = passing[follow_up]
        if not goes_on(said_by[parent], content) or not said_soon_after(
            time_or_none(said_at[parent]), time_or_none(at)
        ):
            continue
        if chats_audited is None:
            chats_audited = "session_id" in audit_columns(core)
        if chats_audited and _deleted_between(core, chat_of[parent], said_at[parent], at):
            continue
        derived = round(weight * parents[parent], 6)
        if current.get(follow_up, -1.0) >= derived:
            continue
        candidate = stage.candidates.setdefault(follow_up, Candidate(seq=follow_up))
        candidate.context_of = parent
        current[follow_up] = derived
        changed = True
    if not changed:
        return scored
    rescored = [(current[c.seq], c) for c in stage.candidates.values() if c.seq in current]
    rescored.sort(key=rank)
    return rescored


def _deleted_between(core: SqliteCore, chat: tuple[str, str], after: str, before: str) -> bool:
    """Whether a message of `chat` said between `after` and `before` was deleted since.

    Then the later one is no longer the next: a new user's "Hi, I am Hana … rent is 15 000
    Kč" brought along a pasted .env said after four messages retention had removed.
    """
    found = core.conn.execute(
        "SELECT 1 FROM memory_audit WHERE session_id = ? AND namespace = ? "
        "AND created_at > ? AND created_at < ? LIMIT 1",
        (*chat, after, before),
    ).fetchone()
    return found is not None


def hydrate(
    core: SqliteCore, scored: list[tuple[float, Candidate]], band: CosineBand | None
) -> list[MemoryEntry]:
    """Load full entries for scored candidates in one query, keeping their order."""
    if not scored:
        return []
    seqs = [candidate.seq for _, candidate in scored]
    rows = core.conn.execute(
        f"SELECT {ENTRY_COLUMNS} FROM memories WHERE seq IN ({','.join('?' * len(seqs))})", seqs
    ).fetchall()
    by_seq = {row[0]: row for row in rows}
    entries = []
    for fused, candidate in scored:
        row = by_seq.get(candidate.seq)
        readable = readable_entries([] if row is None else [row], core.warn)
        if readable:
            entry = readable[0]
            entry.score = fused
            parent = by_seq.get(candidate.context_of) if candidate.context_of else None
            entry.scores = explain(
                candidate,
                fused,
                None if parent is None else str(parent[1]),
                band,
            )
            entries.append(entry)
    return entries


def like_fallback(
    core: SqliteCore, query: str, filters: RecallFilters, limit: int
) -> list[MemoryEntry]:
    """Substring matches for queries the term index cannot serve; marked low-confidence."""
    needle = query.strip()
    if len(needle) < 1:
        return []
    where, params = where_sql(filters)
    # `instr` of the ASCII-lower-cased texts is what LIKE '%…%' matched, without LIKE's
    # 50,000-byte pattern limit: a long query of digits and commas stopped search with
    # "LIKE or GLOB pattern too complex" (found by an adversary).
    rows = core.conn.execute(
        f"SELECT {ENTRY_COLUMNS} FROM memories m WHERE {where} AND "
        "m.seq >= (SELECT coalesce(max(seq), 0) FROM memories) - ? AND "
        "(instr(lower(m.content), lower(?)) > 0 OR instr(lower(m.key), lower(?)) > 0) "
        "ORDER BY m.updated_at DESC, m.seq DESC LIMIT ?",
        (*params, LIKE_FALLBACK_WINDOW, needle, needle, limit),
    ).fetchall()
    entries = readable_entries(rows, core.warn)
    for entry in entries:
        entry.scores = RecallScores(fused=0.0, lane="like", low_confidence=True)
        entry.score = 0.0
    return entries
