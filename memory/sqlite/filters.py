"""Recall and list filters rendered as SQL, mirroring `VectorIndex` masks exactly."""

from __future__ import annotations

from datetime import datetime

from memory.errors import InvalidEntryError
from memory.retrieval import RecallFilters
from memory.sqlite.rows import epoch, format_time
from memory.vector_index import VectorFilter

_EARLIEST = "0001-01-01T00:00:00.000000Z"
_LATEST = "9999-12-31T23:59:59.999999Z"


def time_bound(value: datetime) -> str:
    """A time filter as stored text; one beyond UTC's range is clamped, not an error.

    `0001-01-01T00:00:00+05:00` has no UTC equivalent, but as a bound it still means
    "earlier than everything".
    """
    try:
        return format_time(value)
    except InvalidEntryError:
        return _EARLIEST if value.year < 5000 else _LATEST


def where_sql(filters: RecallFilters, alias: str = "m") -> tuple[str, list[object]]:
    """A WHERE fragment (never empty) and its parameters."""
    clauses = ["1"]
    params: list[object] = []
    if filters.namespace is not None:
        clauses.append(f"{alias}.namespace = ?")
        params.append(filters.namespace)
    if filters.session_id is not None:
        clauses.append(f"({alias}.session_id = ? OR {alias}.session_id IS NULL)")
        params.append(filters.session_id)
    if filters.category is not None:
        clauses.append(f"{alias}.category = ?")
        params.append(filters.category)
    if not filters.include_superseded:
        clauses.append(f"{alias}.superseded_by IS NULL")
    if filters.since is not None:
        clauses.append(f"{alias}.created_at >= ?")
        params.append(time_bound(filters.since))
    if filters.until is not None:
        clauses.append(f"{alias}.created_at < ?")
        params.append(time_bound(filters.until))
    if filters.exclude_ids:
        clauses.append(f"{alias}.id NOT IN ({','.join('?' * len(filters.exclude_ids))})")
        params.extend(sorted(filters.exclude_ids))
    return " AND ".join(clauses), params


def vector_filter(filters: RecallFilters, exclude_seqs: frozenset[int]) -> VectorFilter:
    """The same filters for the in-memory vector index."""
    return VectorFilter(
        namespace=filters.namespace,
        session_id=filters.session_id,
        category=filters.category,
        include_superseded=filters.include_superseded,
        since=None if filters.since is None else epoch(time_bound(filters.since)),
        until=None if filters.until is None else epoch(time_bound(filters.until)),
        exclude=exclude_seqs,
    )
