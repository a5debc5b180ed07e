"""Entries as Qdrant points and back, and the recall/list filters as Qdrant filters."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from qdrant_client import models

from memory.entry import MemoryEntry
from memory.retrieval import RecallFilters
from memory.text import entry_terms

_POINT_NAMESPACE = uuid.UUID("7f3b6a52-2d8e-4f4c-9a51-0c7d6e1f2b90")
ENTRY_FIELDS = set(MemoryEntry.model_fields) - {"score", "scores", "supersedes"}


def point_id(entry_id: str) -> str:
    """Qdrant wants UUIDs or integers; ours are any string, so derive a stable UUID."""
    return str(uuid.uuid5(_POINT_NAMESPACE, entry_id))


def to_payload(entry: MemoryEntry, embedding_model: str | None) -> dict[str, Any]:
    """Every entry field, plus what filters and keyword recall need."""
    payload = entry.model_dump(mode="json", include=ENTRY_FIELDS)
    payload["ts"] = entry.timestamp.timestamp()
    payload["updated_ts"] = entry.updated_at.timestamp()
    payload["terms"] = sorted(set(entry_terms(entry.key, entry.content, entry.timestamp)))
    payload["embedding_model"] = embedding_model
    return payload


def from_payload(payload: dict[str, Any]) -> MemoryEntry:
    """The entry a payload describes (Qdrant drops keys whose value was set to null)."""
    return MemoryEntry.model_validate({k: payload.get(k) for k in ENTRY_FIELDS if k in payload})


def _is(key: str, value: object) -> models.FieldCondition:
    return models.FieldCondition(key=key, match=models.MatchValue(value=value))  # type: ignore[arg-type]


def _empty(key: str) -> models.IsEmptyCondition:
    return models.IsEmptyCondition(is_empty=models.PayloadField(key=key))


def entry_filter(
    *,
    namespace: str | None = None,
    category: str | None = None,
    session_id: str | None = None,
    include_superseded: bool = True,
    since: datetime | None = None,
    until: datetime | None = None,
    exclude_ids: frozenset[str] = frozenset(),
    key: str | None = None,
    any_terms: list[str] | None = None,
) -> models.Filter:
    """Every narrowing the protocol offers, evaluated by Qdrant."""
    must: list[Any] = []
    if namespace is not None:
        must.append(_is("namespace", namespace))
    if category is not None:
        must.append(_is("category", category))
    if key is not None:
        must.append(_is("key", key))
    if session_id is not None:
        must.append(models.Filter(should=[_is("session_id", session_id), _empty("session_id")]))
    if not include_superseded:
        must.append(_empty("superseded_by"))
    if since is not None or until is not None:
        must.append(
            models.FieldCondition(
                key="ts",
                range=models.Range(
                    gte=None if since is None else since.timestamp(),
                    lt=None if until is None else until.timestamp(),
                ),
            )
        )
    if any_terms:
        must.append(models.FieldCondition(key="terms", match=models.MatchAny(any=any_terms)))
    must_not: list[Any] = []
    if exclude_ids:
        must_not.append(models.HasIdCondition(has_id=[point_id(i) for i in exclude_ids]))
    return models.Filter(must=must, must_not=must_not or None)


def recall_filter(filters: RecallFilters, any_terms: list[str] | None = None) -> models.Filter:
    """A recall's filters as one Qdrant filter."""
    return entry_filter(
        namespace=filters.namespace,
        category=filters.category,
        session_id=filters.session_id,
        include_superseded=filters.include_superseded,
        since=filters.since,
        until=filters.until,
        exclude_ids=filters.exclude_ids,
        any_terms=any_terms,
    )
