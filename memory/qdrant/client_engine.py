"""`PointStore` over qdrant-client: a Qdrant server (and, in tests, the client's local mode)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from qdrant_client import QdrantClient, models

from memory.errors import MemoryStoreError
from memory.qdrant.points import (
    TERMS,
    TERMS_RULE,
    VECTOR,
    LaneHits,
    PointFilter,
    StoredPoint,
    TermHits,
    TermSearch,
    VectorSearch,
)
from memory.retrieval import HeldTerms, keyword_coverage

_PAGE = 256
_KEYWORD_CAP = 5000
"""Most keyword matches scored per query; beyond it the rarest terms still decide."""
_INDEXED = {
    "namespace": models.PayloadSchemaType.KEYWORD,
    "key": models.PayloadSchemaType.KEYWORD,
    "category": models.PayloadSchemaType.KEYWORD,
    "session_id": models.PayloadSchemaType.KEYWORD,
    "superseded_by": models.PayloadSchemaType.KEYWORD,
    "embedding_model": models.PayloadSchemaType.KEYWORD,
    "content_hash": models.PayloadSchemaType.KEYWORD,
    TERMS_RULE: models.PayloadSchemaType.KEYWORD,
    TERMS: models.PayloadSchemaType.KEYWORD,
    "ts": models.PayloadSchemaType.FLOAT,
}


def _is(key: str, value: str) -> models.FieldCondition:
    return models.FieldCondition(key=key, match=models.MatchValue(value=value))


def _empty(key: str) -> models.IsEmptyCondition:
    return models.IsEmptyCondition(is_empty=models.PayloadField(key=key))


def client_filter(flt: PointFilter | None) -> models.Filter | None:
    """`flt` in qdrant-client's terms."""
    if flt is None:
        return None
    must: list[Any] = [_is(name, value) for name, value in flt.equalities()]
    if flt.session_id is not None:
        must.append(models.Filter(should=[_is("session_id", flt.session_id), _empty("session_id")]))
    if not flt.include_superseded:
        must.append(_empty("superseded_by"))
    must.extend(_empty(name) for name in flt.lacking)
    if flt.superseded_by_any:
        successors = models.MatchAny(any=list(flt.superseded_by_any))
        must.append(models.FieldCondition(key="superseded_by", match=successors))
    if flt.since is not None or flt.until is not None:
        must.append(
            models.FieldCondition(key="ts", range=models.Range(gte=flt.since, lt=flt.until))
        )
    if flt.any_terms:
        must.append(
            models.FieldCondition(key=TERMS, match=models.MatchAny(any=list(flt.any_terms)))
        )
    if flt.only is not None:
        must.append(models.HasIdCondition(has_id=sorted(flt.only)))
    must_not: list[Any] = []
    if flt.exclude:
        must_not.append(models.HasIdCondition(has_id=sorted(flt.exclude)))
    must_not.extend(_is(name, value) for name, value in flt.differing)
    return models.Filter(must=must, must_not=must_not or None)


def _stored(record: Any) -> StoredPoint:
    vector = record.vector.get(VECTOR) if isinstance(record.vector, dict) else None
    return StoredPoint(str(record.id), dict(record.payload or {}), vector)


class ClientPoints:
    """One collection of a Qdrant server, through qdrant-client."""

    def __init__(self, client: QdrantClient, collection: str, where: str, *, indexed: bool) -> None:
        self._client = client
        self.collection = collection
        self.where = where
        self._indexed = indexed
        """Create payload indexes (a server has them; the client's local mode scans)."""

    def ensure(self, dimensions: int) -> None:
        """See `PointStore.ensure`."""
        if self._client.collection_exists(self.collection):
            collection = self._client.get_collection(self.collection)
            info = collection.config.params.vectors
            size = info[VECTOR].size if isinstance(info, dict) else None
            if size != dimensions:
                raise MemoryStoreError(
                    f"collection {self.collection!r} holds vectors of size {size}, but "
                    f"memory.embedding_dimensions is {dimensions}"
                )
            if self._indexed:
                # A collection an older version made lacks the indexes added since.
                known = collection.payload_schema or {}
                for name, schema in _INDEXED.items():
                    if name not in known:
                        self._client.create_payload_index(self.collection, name, schema)
            return
        self._client.create_collection(
            self.collection,
            vectors_config={
                VECTOR: models.VectorParams(size=dimensions, distance=models.Distance.COSINE)
            },
        )
        if self._indexed:
            for name, schema in _INDEXED.items():
                self._client.create_payload_index(self.collection, name, schema)

    def count(self, flt: PointFilter | None = None) -> int:
        """See `PointStore.count`."""
        found = self._client.count(self.collection, count_filter=client_filter(flt), exact=True)
        return int(found.count)

    def total(self) -> int:
        """See `PointStore.total`: asked each time (other clients write to a server)."""
        return self.count()

    def term_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """See `PointStore.term_counts`: one count per term (indexed on a server)."""
        return {term: self.count(PointFilter(any_terms=(term,))) for term in dict.fromkeys(terms)}

    def tally(self, fields: list[str]) -> dict[str, dict[str, int]]:
        """See `PointStore.tally`: counted here from every point's fields."""
        counts: dict[str, dict[str, int]] = {name: {} for name in fields}
        for point in self.scroll(None, fields=fields):
            for name in fields:
                value = point.payload.get(name)
                if value is not None:
                    counts[name][value] = counts[name].get(value, 0) + 1
        return counts

    def scroll(
        self, flt: PointFilter | None, *, vectors: bool = False, fields: list[str] | None = None
    ) -> list[StoredPoint]:
        """See `PointStore.scroll`."""
        found: list[StoredPoint] = []
        offset: Any = None
        while True:
            page, offset = self._client.scroll(
                self.collection,
                scroll_filter=client_filter(flt),
                limit=_PAGE,
                offset=offset,
                with_payload=fields if fields is not None else True,
                with_vectors=[VECTOR] if vectors else False,
            )
            found.extend(_stored(record) for record in page)
            if offset is None:
                return found

    def newest(self, flt: PointFilter, field: str, count: int) -> list[StoredPoint]:
        """See `PointStore.newest`: every point passing `flt` (the caller sorts)."""
        return self.scroll(flt)

    def earliest(self, flt: PointFilter, field: str, count: int) -> list[StoredPoint]:
        """See `PointStore.earliest`: every point passing `flt` (the caller sorts)."""
        return self.scroll(flt)

    def retrieve(
        self, ids: Iterable[str], *, vectors: bool = False, fields: list[str] | None = None
    ) -> list[StoredPoint]:
        """See `PointStore.retrieve`."""
        records = self._client.retrieve(
            self.collection,
            ids=list(ids),
            with_payload=fields if fields is not None else True,
            with_vectors=[VECTOR] if vectors else False,
        )
        return [_stored(record) for record in records]

    def upsert(self, points: list[StoredPoint]) -> None:
        """See `PointStore.upsert`."""
        structs = [
            models.PointStruct(
                id=point.id,
                vector={} if point.vector is None else {VECTOR: point.vector},
                payload=point.payload,
            )
            for point in points
        ]
        self._client.upsert(self.collection, points=structs)

    def delete(self, ids: list[str]) -> None:
        """See `PointStore.delete`."""
        selector = models.PointIdsList(points=list[models.ExtendedPointId](ids))
        self._client.delete(self.collection, points_selector=selector)

    def set_payload(self, ids: list[str], payload: dict[str, Any]) -> None:
        """See `PointStore.set_payload`."""
        selector = models.PointIdsList(points=list[models.ExtendedPointId](ids))
        self._client.set_payload(self.collection, payload=payload, points=selector)

    def nearest(self, vector: list[float], flt: PointFilter, limit: int) -> list[tuple[str, float]]:
        """See `PointStore.nearest`."""
        hits = self._client.query_points(
            self.collection,
            query=vector,
            using=VECTOR,
            query_filter=client_filter(flt),
            limit=limit,
            with_payload=False,
        )
        return [(str(point.id), float(point.score)) for point in hits.points]

    def keyword_hits(self, weights: dict[str, float], flt: PointFilter, limit: int) -> TermHits:
        """See `PointStore.keyword_hits`: the points holding any term, ranked here."""
        held = [
            (point.id, _held(point, weights))
            for point in self.scroll_terms(replace(flt, any_terms=tuple(weights)), _KEYWORD_CAP)
        ]
        held.sort(key=lambda hit: (-keyword_coverage(hit[1], weights), hit[0]))
        return held[:limit]

    def both_lanes(self, terms: TermSearch | None, vector: VectorSearch | None) -> LaneHits:
        """See `PointStore.both_lanes`: one after the other; terms from the payloads."""
        keyword = [] if terms is None else self.keyword_hits(terms.weights, terms.flt, terms.limit)
        if vector is None:
            return LaneHits(keyword, [], {})
        hits = self._client.query_points(
            self.collection,
            query=vector.vector,
            using=VECTOR,
            query_filter=client_filter(vector.flt),
            limit=vector.limit,
            with_payload=[TERMS] if vector.holding else False,
        )
        found = [(str(point.id), float(point.score)) for point in hits.points]
        held = {
            str(point.id): _held(_stored(point), vector.holding)
            for point in hits.points
            if vector.holding
        }
        return LaneHits(keyword, found, held)

    def scroll_terms(self, flt: PointFilter, cap: int) -> list[StoredPoint]:
        """Up to `cap` points passing `flt`, with only their terms."""
        page, _ = self._client.scroll(
            self.collection,
            scroll_filter=client_filter(flt),
            limit=cap,
            with_payload=[TERMS],
        )
        return [_stored(record) for record in page]

    def index_if_due(self, *, importing: bool = False) -> str | None:
        """See `PointStore.index_if_due`: a server keeps its own indexes."""
        return None

    def close(self) -> None:
        """See `PointStore.close`."""
        self._client.close()


def _held(point: StoredPoint, terms: Iterable[str]) -> frozenset[str]:
    stored = frozenset(point.payload.get(TERMS) or ())
    return HeldTerms((term for term in terms if term in stored), len(stored))
