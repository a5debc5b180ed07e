"""What the Qdrant backend asks of a point store, whichever engine serves it.

Two engines serve it: Qdrant's embedded engine (qdrant-edge) for a store in the data
directory, and qdrant-client for a server. Both take the same neutral filter and points,
so the backend's rules (upsert by key, supersession, recall's lanes and fusion) are written
once, over `PointStore`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

VECTOR = "dense"
"""The named dense vector of every point."""
TERMS = "terms"
"""The payload field (and, in qdrant-edge, the sparse vector) holding a point's terms."""
TERMS_RULE = "terms_rule"
"""Payload field: how the point's terms were made (`memory.qdrant.payload.TERMS_MADE`)."""


@dataclass(frozen=True)
class PointFilter:
    """Every narrowing the backend uses; None or empty means no condition."""

    namespace: str | None = None
    category: str | None = None
    key: str | None = None
    session_id: str | None = None
    """The session's points and those of no session."""
    include_superseded: bool = True
    since: float | None = None
    """Creation time (Unix seconds) at or after."""
    until: float | None = None
    """Creation time before."""
    exclude: frozenset[str] = frozenset()
    """Point ids left out."""
    only: frozenset[str] | None = None
    """Only these point ids (None: any)."""
    any_terms: tuple[str, ...] = ()
    """Points holding at least one of these terms."""
    embedding_model: str | None = None
    """Points whose vector this embedding identity made."""
    content_hash: str | None = None
    """Points whose content has this `write_policy.content_hash`."""
    lacking: tuple[str, ...] = ()
    """Payload fields a point must not have (or have empty)."""
    differing: tuple[tuple[str, str], ...] = ()
    """(payload field, value) pairs a point must not match (lacking the field passes)."""
    superseded_by_any: tuple[str, ...] = ()
    """Points superseded by one of these entry ids."""
    in_session: str | None = None
    """Only this session's points (`session_id` also admits points of no session)."""

    def equalities(self) -> list[tuple[str, str]]:
        """The (payload field, value) pairs a point must match exactly."""
        pairs = (
            ("namespace", self.namespace),
            ("category", self.category),
            ("key", self.key),
            ("embedding_model", self.embedding_model),
            ("content_hash", self.content_hash),
            ("session_id", self.in_session),
        )
        return [(name, value) for name, value in pairs if value is not None]


@dataclass(frozen=True)
class TermSearch:
    """A search for the points holding the most query-term weight (see `keyword_hits`)."""

    weights: dict[str, float]
    flt: PointFilter
    limit: int


@dataclass(frozen=True)
class VectorSearch:
    """A search for the closest points (see `nearest`)."""

    vector: list[float]
    flt: PointFilter
    limit: int
    holding: tuple[str, ...] = ()
    """Query terms: say which of them each hit holds (`LaneHits.vector_terms`)."""


TermHits = list[tuple[str, frozenset[str]]]
"""(point id, the query terms it holds), best first."""
VectorHits = list[tuple[str, float]]
"""(point id, cosine), best first."""


class LaneHits(NamedTuple):
    """What `PointStore.both_lanes` found."""

    keyword: TermHits
    vector: VectorHits
    vector_terms: dict[str, frozenset[str]]
    """For each vector hit, the `VectorSearch.holding` terms it holds."""


@dataclass
class StoredPoint:
    """A point as the backend sees it: id, payload, and the dense vector if asked for."""

    id: str
    payload: dict[str, Any] = field(default_factory=dict)
    vector: list[float] | None = None


class PointStore(Protocol):
    """One collection of points. Calls are synchronous; the backend runs them on a thread."""

    where: str
    """The folder or URL, for messages."""

    def ensure(self, dimensions: int) -> None:
        """Create the collection if missing; refuse one whose vectors are another size."""
        ...

    def count(self, flt: PointFilter | None = None) -> int:
        """Points passing `flt` (all when None), counted exactly."""
        ...

    def total(self) -> int:
        """Every point in the collection (what `term_counts` are counted out of)."""
        ...

    def term_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """How many points hold each term, over the whole collection (as SQLite counts)."""
        ...

    def tally(self, fields: list[str]) -> dict[str, dict[str, int]]:
        """For each keyword field, how many points hold each value (null values left out)."""
        ...

    def scroll(
        self, flt: PointFilter | None, *, vectors: bool = False, fields: list[str] | None = None
    ) -> list[StoredPoint]:
        """Every point passing `flt`; `fields` limits the payload (all when None)."""
        ...

    def newest(self, flt: PointFilter, field: str, count: int) -> list[StoredPoint]:
        """At least the `count` points passing `flt` with the highest `field` (a number).

        Every point that ties with the last of them is included too, so a caller that sorts
        them by (`field`, id) gets exactly the first `count` of the whole order.
        """
        ...

    def earliest(self, flt: PointFilter, field: str, count: int) -> list[StoredPoint]:
        """At least the `count` points passing `flt` with the lowest `field` (a number).

        Every point that ties with the last of them is included too (as `newest`).
        """
        ...

    def retrieve(
        self, ids: Iterable[str], *, vectors: bool = False, fields: list[str] | None = None
    ) -> list[StoredPoint]:
        """The points with these ids that exist."""
        ...

    def upsert(self, points: list[StoredPoint]) -> None:
        """Insert or replace whole points (a point without a vector has none)."""
        ...

    def delete(self, ids: list[str]) -> None:
        """Remove points by id."""
        ...

    def set_payload(self, ids: list[str], payload: dict[str, Any]) -> None:
        """Change some payload fields of existing points."""
        ...

    def nearest(self, vector: list[float], flt: PointFilter, limit: int) -> list[tuple[str, float]]:
        """(id, cosine) of the closest points passing `flt`, best first."""
        ...

    def keyword_hits(self, weights: dict[str, float], flt: PointFilter, limit: int) -> TermHits:
        """The points passing `flt` that hold the most query-term weight.

        Best first by the summed weight of the terms each holds (`keyword_coverage` times
        the total), as (point id, the query terms it holds). Only the ids and terms are
        read: reading payloads costs more than the search (qdrant-edge, 100,000 points).
        An engine that matches terms by their `term_index` may count a term a point does
        not hold when two terms share a dimension; the payload's `terms` are the exact
        record.
        """
        ...

    def both_lanes(self, terms: TermSearch | None, vector: VectorSearch | None) -> LaneHits:
        """`keyword_hits` and `nearest` together; a search that is None finds nothing.

        One engine call where the engine can batch them. As in `keyword_hits`, the terms
        a hit holds may count one sharing a dimension with a term it holds.
        """
        ...

    def index_if_due(self, *, importing: bool = False) -> str | None:
        """Bring the vector index up to date if the engine leaves that to its caller.

        `importing`: called after one batch of an import that may go on (it may wait).
        Returns a problem to show the user when that failed (the store still works).
        """
        ...

    def close(self) -> None:
        """Flush and let go of the collection."""
        ...


def term_index(term: str) -> int:
    """A term's dimension in the sparse term vector: 32 bits of its hash.

    Two terms may share a dimension (about one pair in a store of 100,000 distinct
    terms). Recall checks the terms of every memory it shows against the stored payload
    and ranks again if a shared dimension raised a score, so what it shows is exact.
    """
    digest = hashlib.blake2b(term.encode("utf-8", "surrogatepass"), digest_size=4).digest()
    return int.from_bytes(digest, "little")
