"""One bad row never bricks the store: bad values are refused on the way in, and a bad
row already on disk is skipped and reported (naming the entry), never fatal."""

from __future__ import annotations

import base64
import json
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from memory.errors import InvalidEntryError
from memory.records import MemoryRecord, StoredEmbedding
from memory.sqlite.rows import format_time, parse_time
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from tests.unit.memory.conftest import DIMS, OpenStore, settings


def _b64(values: list[float]) -> str:
    return base64.b64encode(np.asarray(values, dtype="<f4").tobytes()).decode()


@pytest.mark.parametrize(
    ("embedding", "message"),
    [
        ({"model": "m", "dims": 2, "data": "not base64!"}, "not valid base64"),
        ({"model": "m", "dims": 3, "data": _b64([0.1, 0.2])}, "8 bytes, but 3 dimensions"),
        ({"model": "m", "dims": 0, "data": ""}, "dims must be between 1"),
        ({"model": "m", "dims": 20_000, "data": _b64([0.0])}, "dims must be between 1"),
        ({"model": "m", "dims": 2, "data": _b64([0.1, float("nan")])}, "not finite"),
        ({"model": "m", "dims": 1, "data": _b64([float("inf")])}, "not finite"),
        ({"model": "", "dims": 1, "data": _b64([0.5])}, "model"),
    ],
    ids=["base64", "length", "zero-dims", "huge-dims", "nan", "inf", "no-model"],
)
def test_stored_embedding_rejects_what_cannot_be_a_vector(
    embedding: dict[str, object], message: str
) -> None:
    with pytest.raises(ValidationError, match=message) as info:
        MemoryRecord.model_validate(
            {
                "id": "x",
                "key": "k",
                "content": "c",
                "timestamp": "2026-01-01T00:00:00Z",
                "updated_at": "2026-01-01T00:00:00Z",
                "embedding": embedding,
            }
        )
    assert "embedding" in str(info.value)


def test_a_good_embedding_round_trips() -> None:
    blob = np.asarray([0.25, -1.0], dtype="<f4").tobytes()
    embedding = StoredEmbedding.from_bytes("m", 2, blob)
    assert StoredEmbedding.model_validate_json(embedding.model_dump_json()).to_bytes() == blob


def test_times_before_year_1000_are_stored_zero_padded() -> None:
    assert format_time(datetime(999, 1, 2, 3, 4, 5, tzinfo=UTC)) == "0999-01-02T03:04:05.000000Z"
    assert format_time(datetime(5, 1, 1)) == "0005-01-01T00:00:00.000000Z"
    assert format_time(datetime(999, 1, 1)) < format_time(datetime(1000, 1, 1))
    assert parse_time("999-01-02T03:04:05.000000Z") == datetime(999, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.mark.parametrize("text", ["0001-01-01T00:00:00+05:00", "9999-12-31T23:00:00-05:00"])
def test_a_time_with_no_utc_equivalent_is_a_validation_error_naming_the_field(
    text: str,
) -> None:
    with pytest.raises(ValidationError, match="timestamp") as info:
        MemoryRecord.model_validate_json(
            json.dumps(
                {
                    "id": "x",
                    "key": "k",
                    "content": "c",
                    "timestamp": text,
                    "updated_at": "2026-01-01T00:00:00Z",
                }
            )
        )
    assert "out of range" in str(info.value)
    with pytest.raises(InvalidEntryError, match="created_at .* out of range"):
        format_time(datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=5))), "created_at")


async def test_import_refuses_a_bad_vector_even_from_an_unvalidated_record(
    open_store: OpenStore,
) -> None:
    store = await open_store(None)
    now = datetime.now(UTC)
    bad = MemoryRecord.model_construct(
        id="x",
        key="k",
        content="c",
        category="core",
        timestamp=now,
        updated_at=now,
        namespace="default",
        importance=0.5,
        pinned=False,
        source="user",
        superseded_by=None,
        session_id=None,
        embedding=StoredEmbedding.model_construct(model="m", dims=3, data=_b64([1.0])),
    )
    with pytest.raises(InvalidEntryError, match=r"record 1 \(id 'x'\): embedding: data holds"):
        await store.import_([bad])
    assert await store.count() == 0


async def test_an_old_year_imports_and_reads_back_exactly(open_store: OpenStore) -> None:
    store = await open_store(None)
    old = datetime(999, 6, 1, tzinfo=UTC)
    record = MemoryRecord(
        id="ancient", key="ancient", content="a very old note", timestamp=old, updated_at=old
    )
    await store.import_([record])
    got = await store.get("ancient")
    assert got is not None and got.timestamp == old
    assert [r.timestamp async for r in store.export()] == [old]
    assert [e.key for e in await store.list(order="created")] == ["ancient"]


def _damage(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


async def _store_with_bad_rows(open_store: OpenStore, path: Path) -> None:
    store = await open_store(CountingEmbedder(DIMS), path=path)
    for key in ("good", "short-vector", "nan-vector", "bad-time", "bad-importance", "old"):
        await store.store(key, f"the {key} memory about gardens", "daily")
    await store.close()
    nan = np.full(DIMS, np.nan, dtype="<f4").tobytes().hex()
    _damage(
        path,
        "UPDATE memory_vectors SET embedding = x'00000000' WHERE seq = "
        "(SELECT seq FROM memories WHERE key = 'short-vector')",
        f"UPDATE memory_vectors SET embedding = x'{nan}' WHERE seq = "
        "(SELECT seq FROM memories WHERE key = 'nan-vector')",
        "UPDATE memories SET created_at = 'last tuesday' WHERE key = 'bad-time'",
        "UPDATE memories SET importance = 'very' WHERE key = 'bad-importance'",
        # What strftime("%Y") stored for years before 1000 (no padding).
        "UPDATE memories SET created_at = '999-01-01T00:00:00.000000Z', "
        "updated_at = '999-01-01T00:00:00.000000Z' WHERE key = 'old'",
    )


async def test_bad_rows_on_disk_are_skipped_and_reported_never_fatal(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "damaged.db"
    await _store_with_bad_rows(open_store, path)
    store = await open_store(CountingEmbedder(DIMS), path=path)
    ids = {r.key: r.id async for r in store.export()}
    readable = {"good", "short-vector", "nan-vector", "old"}
    assert set(ids) == readable
    result = await store.recall("gardens memory", limit=10)  # the vectors load here
    assert {e.key for e in result.entries} <= readable
    warnings = "\n".join(store.warnings)
    for key in ("short-vector", "nan-vector"):
        assert key not in warnings  # warnings name the entry by id
    assert "bad-time" not in warnings
    for problem in ("bytes but records", "not finite", "not a readable time", "importance"):
        assert problem in warnings, problem
    assert {e.key for e in await store.list(limit=100)} == readable
    assert await store.get("bad-time") is None
    old = await store.get("old")
    assert old is not None and old.timestamp.year == 999
    result = await store.recall("gardens memory", limit=10)
    assert {e.key for e in result.entries} <= readable
    stats = await store.stats()
    assert stats.total == 6
    assert await store.forget("bad-time")
    assert await store.forget("short-vector")
    assert (await store.health_check()).ok


async def test_warnings_name_the_damaged_entry(open_store: OpenStore, tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    await _store_with_bad_rows(open_store, path)
    conn = sqlite3.connect(path)
    ids = dict(conn.execute("SELECT key, id FROM memories"))
    conn.close()
    store = await open_store(CountingEmbedder(DIMS), path=path)
    await store.list(limit=100)
    await store.recall("gardens", limit=3)  # damaged vectors are met when the vectors load
    warnings = "\n".join(store.warnings)
    for key in ("short-vector", "nan-vector", "bad-time", "bad-importance"):
        assert f"entry {ids[key]}" in warnings, key


async def test_a_damaged_vector_is_exported_without_it_and_reindexed(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "damaged.db"
    await _store_with_bad_rows(open_store, path)
    store = await open_store(CountingEmbedder(DIMS), path=path)
    records = {r.key: r async for r in store.export()}
    assert records["short-vector"].embedding is None  # type: ignore[attr-defined]
    assert records["good"].embedding is not None  # type: ignore[attr-defined]
    assert await store.reindex() >= 1
    records = {r.key: r async for r in store.export()}
    assert records["short-vector"].embedding is not None  # type: ignore[attr-defined]


async def test_the_migration_pads_short_years_already_stored(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, settings(embedding_provider="none"))
    await store.store("old", "an old memory", "daily")
    await store.store("new", "a new memory", "daily")
    await store.close()
    _damage(
        path,
        "UPDATE memories SET created_at = '999-01-01T00:00:00.000000Z', "
        "updated_at = '12-03-04T00:00:00.000000Z' WHERE key = 'old'",
        "DELETE FROM schema_migrations WHERE name = '0006_pad_short_years'",
    )
    store = await SqliteMemory.open(path, settings(embedding_provider="none"))
    try:
        found = await store.list(order="created")
        assert [e.key for e in found] == ["new", "old"]  # sorted as times, not as text
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT created_at, updated_at FROM memories WHERE key = 'old'").fetchall()
    conn.close()
    assert rows == [("0999-01-01T00:00:00.000000Z", "0012-03-04T00:00:00.000000Z")]
