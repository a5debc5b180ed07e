"""`PointStore` on Qdrant's embedded engine (qdrant-edge): a local store with real indexes.

qdrant-client's local mode evaluates every filter in Python, point by point (1.4 s a recall
at 10,000 memories). qdrant-edge is Qdrant's own engine in-process: payload indexes for
the filters, HNSW for the dense vectors, and an inverted index for a sparse vector of each
point's terms, which gives the keyword lane its best candidates directly.

Building the HNSW graph (`EdgeShard.optimize`) holds the interpreter lock until it is done
(about 110 s at 100,000 768-d vectors on two cores), which would freeze the app. It runs
in a child process instead, while this process has the shard closed, and only once many
vectors are not yet in the graph (`INDEX_AFTER`); until then they are searched exactly.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as edge

from memory.errors import MemoryStoreError
from memory.files import write_private
from memory.qdrant.points import (
    TERMS,
    TERMS_RULE,
    VECTOR,
    LaneHits,
    PointFilter,
    StoredPoint,
    TermHits,
    TermSearch,
    VectorHits,
    VectorSearch,
    term_index,
)
from memory.retrieval import HeldTerms

INDEX_AFTER = 10_000
"""Vectors outside the HNSW graph before it is rebuilt (searching them all costs ~5 ms)."""
_PAGE = 1024
_FACET_LIMIT = 1_000_000
_INDEXED = {
    "namespace": edge.PayloadSchemaType.Keyword,
    "key": edge.PayloadSchemaType.Keyword,
    "category": edge.PayloadSchemaType.Keyword,
    "session_id": edge.PayloadSchemaType.Keyword,
    "superseded_by": edge.PayloadSchemaType.Keyword,
    "embedding_model": edge.PayloadSchemaType.Keyword,
    "content_hash": edge.PayloadSchemaType.Keyword,
    TERMS_RULE: edge.PayloadSchemaType.Keyword,
    TERMS: edge.PayloadSchemaType.Keyword,
    "ts": edge.PayloadSchemaType.Float,
    "updated_ts": edge.PayloadSchemaType.Float,
}
_OPTIMIZE = (
    "import sys, qdrant_edge as e; s = e.EdgeShard.load(sys.argv[1]); s.optimize(); s.close()"
)
_REOPEN_WAIT_S = 60.0
_CONFIG_NAME = "edge_config.json"
_GRAPH_NAME = "memchat-graph.json"


def _config(dimensions: int) -> edge.EdgeConfig:
    # Without an HNSW config the optimizer leaves the dense vectors in a plain index:
    # every search then reads all of them (37 ms at 100,000).
    graph = edge.HnswIndexConfig(m=16, ef_construct=100, full_scan_threshold=10_000, payload_m=0)
    return edge.EdgeConfig(
        vectors={VECTOR: edge.EdgeVectorParams(size=dimensions, distance=edge.Distance.Cosine)},
        sparse_vectors={TERMS: edge.EdgeSparseVectorParams()},
        hnsw_config=graph,
        payload_memory=edge.Memory.Cached,
    )


def _is(key: str, value: str) -> edge.FieldCondition:
    return edge.FieldCondition(key, match=edge.MatchValue(value))


def edge_filter(flt: PointFilter | None) -> edge.Filter | None:
    """`flt` in qdrant-edge's terms."""
    if flt is None:
        return None
    must: list[Any] = [_is(name, value) for name, value in flt.equalities()]
    if flt.session_id is not None:
        session: list[Any] = [
            _is("session_id", flt.session_id),
            edge.IsEmptyCondition("session_id"),
        ]
        must.append(edge.Filter(should=session))
    if not flt.include_superseded:
        must.append(edge.IsEmptyCondition("superseded_by"))
    must.extend(edge.IsEmptyCondition(name) for name in flt.lacking)
    if flt.superseded_by_any:
        successors = edge.MatchAny(list(flt.superseded_by_any))
        must.append(edge.FieldCondition("superseded_by", match=successors))
    if flt.since is not None or flt.until is not None:
        must.append(edge.FieldCondition("ts", range=edge.RangeFloat(gte=flt.since, lt=flt.until)))
    if flt.any_terms:
        must.append(edge.FieldCondition(TERMS, match=edge.MatchAny(list(flt.any_terms))))
    if flt.only is not None:
        must.append(edge.HasIdCondition(set(flt.only)))
    must_not: list[Any] = [edge.HasIdCondition(set(flt.exclude))] if flt.exclude else []
    must_not.extend(_is(name, value) for name, value in flt.differing)
    return edge.Filter(must=must or None, must_not=must_not or None)


def _payload_wanted(fields: list[str] | None) -> Any:
    return True if fields is None else edge.PayloadSelector.Include(fields)


def _stored(record: Any) -> StoredPoint:
    vectors = record.vector
    dense = vectors.get(VECTOR) if isinstance(vectors, dict) else None
    return StoredPoint(str(record.id), dict(record.payload or {}), dense)


def _dimensions(terms: Iterable[str]) -> dict[int, list[str]]:
    """Terms by their sparse dimension (two may share one)."""
    found: dict[int, list[str]] = {}
    for term in terms:
        found.setdefault(term_index(term), []).append(term)
    return found


def _held(vectors: Any, dimensions: dict[int, list[str]]) -> frozenset[str]:
    """The terms whose dimension a point's sparse term vector has."""
    sparse = vectors.get(TERMS) if isinstance(vectors, dict) else None
    if sparse is None:
        return frozenset()
    present = dimensions.keys() & sparse.indices
    return HeldTerms((term for at in present for term in dimensions[at]), len(sparse.indices))


def _term_request(search: TermSearch, dimensions: dict[int, list[str]]) -> edge.QueryRequest:
    weights = [sum(search.weights[term] for term in held) for held in dimensions.values()]
    return edge.QueryRequest(
        limit=search.limit,
        query=edge.Query.Nearest(edge.SparseVector(list(dimensions), weights), using=TERMS),
        filter=edge_filter(search.flt),
        with_payload=False,
        with_vector=[TERMS],
    )


def _term_vector(terms: Iterable[str]) -> edge.SparseVector:
    indices = sorted({term_index(term) for term in terms})
    return edge.SparseVector(indices, [1.0] * len(indices))


def _load_when_free(where: str) -> edge.EdgeShard:
    """Open the shard again after a build, waiting a while if another process took it.

    While the child built the graph this process had the shard closed, so a command run
    meanwhile may hold it now; it lets go when it finishes.
    """
    deadline = time.monotonic() + _REOPEN_WAIT_S
    while True:
        try:
            return edge.EdgeShard.load(where)
        except Exception as exc:
            if "WouldBlock" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def shard_exists(folder: Path) -> bool:
    """Whether `folder` holds a shard."""
    return (folder / _CONFIG_NAME).is_file()


class EdgePoints:
    """One shard in a folder of the data directory."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.where = str(folder)
        self._shard: edge.EdgeShard | None = None
        self._term_counts: dict[str, int] = {}
        self._total: int | None = None
        """Counts cached between writes: the shard's lock keeps out every other writer."""

    @property
    def shard(self) -> edge.EdgeShard:
        """The open shard; an error once closed (or while another process indexes it)."""
        if self._shard is None:
            raise MemoryStoreError(f"the Qdrant store in {self.where} is closed")
        return self._shard

    def ensure(self, dimensions: int) -> None:
        """See `PointStore.ensure`."""
        if shard_exists(self.folder):
            size = self._stored_size()
            if size != dimensions:
                raise MemoryStoreError(
                    f"the Qdrant store in {self.where} holds vectors of size {size}, but "
                    f"memory.embedding_dimensions is {dimensions}"
                )
            shard = edge.EdgeShard.load(self.where)
            self._shard = shard
            known = shard.info().payload_schema
            for name, schema in _INDEXED.items():
                if name not in known:
                    shard.update(edge.UpdateOperation.create_field_index(name, schema))
            return
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        shard = edge.EdgeShard.create(self.where, _config(dimensions))
        self._shard = shard
        for name, schema in _INDEXED.items():
            shard.update(edge.UpdateOperation.create_field_index(name, schema))

    def _stored_size(self) -> int | None:
        try:
            config = json.loads((self.folder / _CONFIG_NAME).read_text(encoding="utf-8"))
            return int(config["vectors"][VECTOR]["size"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise MemoryStoreError(
                f"the Qdrant store in {self.where} has an unreadable {_CONFIG_NAME}: {exc}"
            ) from exc

    def outside_graph(self) -> int:
        """Vectors added since the graph was last built (searched exactly until it is)."""
        return max(0, self._with_vectors() - self._in_graph())

    def _with_vectors(self) -> int:
        only = edge.Filter(must=[edge.HasVectorCondition(VECTOR)])
        return int(self.shard.count(edge.CountRequest(filter=only)))

    def _in_graph(self) -> int:
        # The shard's own `indexed_vectors_count` counts the sparse term vectors too, so
        # the number of vectors the last build saw is kept beside the shard.
        try:
            return int(json.loads((self.folder / _GRAPH_NAME).read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return 0

    def index_if_due(self, *, importing: bool = False) -> str | None:
        """Rebuild the vector graph in a child process once `INDEX_AFTER` vectors wait.

        While an import goes on in batches (a migration), it waits until as many vectors
        wait as the graph holds, so a large import builds a few times, not once per batch;
        the next open builds for the rest.

        Returns what went wrong, if it failed: the store still works, searching the
        vectors outside the graph one by one, so it is a warning, not an error.
        """
        in_graph = self._in_graph()
        with_vectors = self._with_vectors()
        due = max(INDEX_AFTER, in_graph) if importing else INDEX_AFTER
        if with_vectors - in_graph < due:
            return None
        self.shard.flush()
        self.shard.close()
        self._shard = None
        try:
            done = subprocess.run(
                [sys.executable, "-c", _OPTIMIZE, self.where],
                capture_output=True,
                text=True,
                check=False,
            )
        finally:
            self._shard = _load_when_free(self.where)
        if done.returncode == 0:
            write_private(self.folder / _GRAPH_NAME, f"{with_vectors}\n")
            return None
        problem = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return (
            f"building the vector index of {self.where} failed ({problem}); recall still "
            "works but is slower, searching every vector"
        )

    def count(self, flt: PointFilter | None = None) -> int:
        """See `PointStore.count`."""
        return int(self.shard.count(edge.CountRequest(exact=True, filter=edge_filter(flt))))

    def total(self) -> int:
        """See `PointStore.total`."""
        if self._total is None:
            self._total = self.count()
        return self._total

    def term_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """See `PointStore.term_counts`: the terms' payload index answers each count."""
        cache = self._term_counts
        for term in terms:
            if term not in cache:
                cache[term] = self.count(PointFilter(any_terms=(term,)))
        return {term: cache[term] for term in terms}

    def _changed(self) -> None:
        self._term_counts.clear()
        self._total = None

    def tally(self, fields: list[str]) -> dict[str, dict[str, int]]:
        """See `PointStore.tally`: the fields' payload indexes count (100,000 in 15 ms)."""
        counts: dict[str, dict[str, int]] = {}
        for name in fields:
            request = edge.FacetRequest(key=name, limit=_FACET_LIMIT, exact=True)
            hits = self.shard.facet(request).hits
            if len(hits) >= _FACET_LIMIT:
                raise MemoryStoreError(f"more than {_FACET_LIMIT:,} values of {name} to count")
            counts[name] = {str(hit.value): int(hit.count) for hit in hits}
        return counts

    def scroll(
        self, flt: PointFilter | None, *, vectors: bool = False, fields: list[str] | None = None
    ) -> list[StoredPoint]:
        """See `PointStore.scroll`."""
        return self._scroll_all(edge_filter(flt), fields, vectors)

    def _scroll_all(
        self, condition: edge.Filter | None, fields: list[str] | None, vectors: bool
    ) -> list[StoredPoint]:
        found: list[StoredPoint] = []
        offset: Any = None
        while True:
            page, offset = self.shard.scroll(
                edge.ScrollRequest(
                    offset=offset,
                    limit=_PAGE,
                    filter=condition,
                    with_payload=_payload_wanted(fields),
                    with_vector=[VECTOR] if vectors else False,
                )
            )
            found.extend(_stored(record) for record in page)
            if offset is None:
                return found

    def newest(self, flt: PointFilter, field: str, count: int) -> list[StoredPoint]:
        """See `PointStore.newest`: the field's index orders them; ties are read whole."""
        return self._ordered(flt, field, count, edge.Direction.Desc)

    def earliest(self, flt: PointFilter, field: str, count: int) -> list[StoredPoint]:
        """See `PointStore.earliest`: as `newest`."""
        return self._ordered(flt, field, count, edge.Direction.Asc)

    def _ordered(
        self, flt: PointFilter, field: str, count: int, direction: Any
    ) -> list[StoredPoint]:
        condition = edge_filter(flt)
        page, _ = self.shard.scroll(
            edge.ScrollRequest(
                limit=count,
                filter=condition,
                with_payload=True,
                order_by=edge.OrderBy(field, direction=direction),
            )
        )
        found = {str(record.id): _stored(record) for record in page}
        if len(page) == count and count > 0:
            last = float((page[-1].payload or {})[field])
            tied: list[Any] = [
                edge.FieldCondition(field, range=edge.RangeFloat(gte=last, lte=last))
            ]
            if condition is not None:
                tied.append(condition)
            for point in self._scroll_all(edge.Filter(must=tied), None, False):
                found.setdefault(point.id, point)
        return list(found.values())

    def retrieve(
        self, ids: Iterable[str], *, vectors: bool = False, fields: list[str] | None = None
    ) -> list[StoredPoint]:
        """See `PointStore.retrieve`."""
        records = self.shard.retrieve(
            list(ids),
            with_payload=_payload_wanted(fields),
            with_vector=[VECTOR] if vectors else False,
        )
        return [_stored(record) for record in records]

    def upsert(self, points: list[StoredPoint]) -> None:
        """See `PointStore.upsert`: each point also gets the sparse vector of its terms."""
        built = []
        for point in points:
            vectors: dict[str, Any] = {}
            if point.vector is not None:
                vectors[VECTOR] = point.vector
            terms = point.payload.get(TERMS) or []
            if terms:
                vectors[TERMS] = _term_vector(terms)
            built.append(edge.Point(point.id, vectors, point.payload))
        self._changed()
        self.shard.update(edge.UpdateOperation.upsert_points(built))

    def delete(self, ids: list[str]) -> None:
        """See `PointStore.delete`."""
        self._changed()
        self.shard.update(edge.UpdateOperation.delete_points(list(ids)))

    def set_payload(self, ids: list[str], payload: dict[str, Any]) -> None:
        """See `PointStore.set_payload`."""
        self.shard.update(edge.UpdateOperation.set_payload(list(ids), payload))

    def nearest(self, vector: list[float], flt: PointFilter, limit: int) -> VectorHits:
        """See `PointStore.nearest`."""
        return self.both_lanes(None, VectorSearch(vector, flt, limit)).vector

    def keyword_hits(self, weights: dict[str, float], flt: PointFilter, limit: int) -> TermHits:
        """See `PointStore.keyword_hits`: one search of the sparse term vectors.

        The hits' sparse vectors say which terms each holds: reading their payloads
        instead cost twice the search at 100,000 points.
        """
        return self.both_lanes(TermSearch(weights, flt, limit), None).keyword

    def both_lanes(self, terms: TermSearch | None, vector: VectorSearch | None) -> LaneHits:
        """See `PointStore.both_lanes`: one batch, which shares a pass over the segments.

        The vector hits' terms come from their sparse vectors, as the keyword hits' do
        (asking for them costs the search next to nothing).
        """
        requests: list[edge.QueryRequest] = []
        dimensions = _dimensions(terms.weights) if terms is not None else {}
        if terms is not None and dimensions:
            requests.append(_term_request(terms, dimensions))
        holding = _dimensions(vector.holding) if vector is not None else {}
        if vector is not None:
            requests.append(
                edge.QueryRequest(
                    limit=vector.limit,
                    query=edge.Query.Nearest(vector.vector, using=VECTOR),
                    filter=edge_filter(vector.flt),
                    with_payload=False,
                    with_vector=[TERMS] if holding else False,
                )
            )
        if not requests:
            return LaneHits([], [], {})
        if len(requests) == 1:
            answers = [self.shard.query(requests[0])]
        else:
            answers = self.shard.query_batch(edge.QueryBatchRequest(requests))
        term_hits: TermHits = []
        if dimensions:
            term_hits = [(str(hit.id), _held(hit.vector, dimensions)) for hit in answers[0]]
        if vector is None:
            return LaneHits(term_hits, [], {})
        vector_hits: VectorHits = []
        vector_terms: dict[str, frozenset[str]] = {}
        for hit in answers[-1]:
            point = str(hit.id)
            vector_hits.append((point, float(hit.score)))
            if holding:
                vector_terms[point] = _held(hit.vector, holding)
        return LaneHits(term_hits, vector_hits, vector_terms)

    def close(self) -> None:
        """See `PointStore.close`; closing twice is harmless."""
        if self._shard is not None:
            self._shard.flush()
            self._shard.close()
            self._shard = None
