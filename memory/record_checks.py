"""What an import checks in every record before it writes any, the same on every backend.

One bad record writes nothing: a record that could be stored on one backend and not on
another (an empty key, a namespace of spaces, a vector that is not one) would otherwise
make a store that cannot be forgotten from, migrated or read back.
"""

from __future__ import annotations

import binascii
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from memory.entry import MemoryEntry, utc_now
from memory.errors import InvalidEntryError, RecordFieldError
from memory.records import MemoryRecord, check_record_set, vector_problem
from memory.write_rules import NewMemory, check_text, validate


@dataclass(frozen=True)
class RecordVector:
    """A record's exported vector, checked: float32 bytes, their count, the model."""

    blob: bytes
    dims: int
    model: str


def record_vector(record: MemoryEntry) -> RecordVector | None:
    """The record's vector, or None; `InvalidEntryError` when it is not a usable one."""
    embedding = record.embedding if isinstance(record, MemoryRecord) else None
    if embedding is None:
        return None
    try:
        blob = embedding.to_bytes()
    except (binascii.Error, ValueError):
        raise InvalidEntryError("embedding.data is not valid base64") from None
    problem = vector_problem(blob, embedding.dims)
    if problem is not None:
        raise InvalidEntryError(f"embedding: {problem}")
    if not isinstance(embedding.model, str) or not embedding.model:
        raise InvalidEntryError("embedding.model must name the model that made the vector")
    return RecordVector(blob, embedding.dims, embedding.model)


@dataclass(frozen=True)
class CheckedRecord:
    """A record's fields as a write checks them, and its vector."""

    fields: NewMemory
    vector: RecordVector | None


def checked_record(record: MemoryEntry) -> CheckedRecord:
    """The record checked as a write checks it; `InvalidEntryError` names the field."""
    if not isinstance(record.id, str) or not record.id.strip():
        raise InvalidEntryError("id must be non-empty text")
    check_text("id", record.id)
    if not isinstance(record.source, str):
        raise InvalidEntryError("source must be text")
    check_text("source", record.source)
    if record.superseded_by is not None:
        check_text("superseded_by", record.superseded_by)
    _check_times(record)
    fields = validate(
        NewMemory(
            key=record.key,
            content=record.content,
            category=record.category,
            namespace=record.namespace,
            session_id=record.session_id,
            importance=record.importance,
        )
    )
    return CheckedRecord(fields, record_vector(record))


_CLOCK_SKEW = timedelta(days=1)
"""How far ahead of this machine's clock another machine's may have been."""


def _check_times(record: MemoryEntry) -> None:
    """Refuse a time no memory can have, one in the future.

    Found by an adversary: a record dated 9999-12-31 led every list and was never removed
    by retention.
    """
    latest = utc_now() + _CLOCK_SKEW
    for name, when in (("timestamp", record.timestamp), ("updated_at", record.updated_at)):
        if when > latest:
            raise InvalidEntryError(f"{name} {when.isoformat()} is in the future")


def check_records(records: Sequence[MemoryEntry]) -> list[CheckedRecord]:
    """Every record checked, alone and together, in order.

    Raises:
        InvalidEntryError: The first bad record, by its position and id, and the field.
    """
    try:
        check_record_set(records)
    except RecordFieldError as exc:
        raise InvalidEntryError(
            f"record {exc.line_number}, field {exc.field!r}: {exc.detail}"
        ) from None
    checked = []
    for number, record in enumerate(records, start=1):
        with naming_record(number, record):
            checked.append(checked_record(record))
    return checked


@contextmanager
def naming_record(number: int, record: MemoryEntry) -> Iterator[None]:
    """An `InvalidEntryError` raised inside names the record (its position and id)."""
    try:
        yield
    except InvalidEntryError as exc:
        raise InvalidEntryError(f"record {number} (id {record.id!r}): {exc}") from None
