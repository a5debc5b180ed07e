"""The PostgreSQL backend against a real server with pgvector (started by the session)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from memory import calibration
from memory.entry import MemoryEntry, utc_now
from memory.errors import InvalidEntryError, MemoryStoreError
from memory.factory import open_memory
from memory.migration import migrate
from memory.postgres.schema import escape, unescape
from memory.postgres.store import PostgresMemory
from memory.protocol import Memory
from memory.records import MemoryRecord, StoredEmbedding
from memory.settings import MemorySettings
from memory.testing import CountingEmbedder, FailingEmbedder
from tests.helpers.postgres import fresh_schema, postgres_url

__all__ = ["postgres_url"]

FACTS = {
    "editor": "The user edits code in Helix",
    "pet": "The user's cat is called Miso",
    "lunch": "Had ramen for lunch with Ana",
    "trip": "Flying to Lisbon in March for a conference",
    "sister": "The user's sister Ana lives in Porto",
}


def _settings(backend: str, url: str = "", **changes: object) -> MemorySettings:
    base = MemorySettings(
        backend=backend,
        embedding_provider="hashing",
        embedding_dimensions=64,
        min_relevance_score=0.05,
        hot_cache_ttl_s=0,
        early_return_score=1.0,
        conversation_context_weight=0.0,
        postgres_url=url,
        postgres_schema=fresh_schema(),
    )
    return base.model_copy(update=changes)


@pytest.fixture
async def pg(postgres_url: str, tmp_path: Path) -> AsyncIterator[Memory]:
    store = await open_memory(_settings("postgres", postgres_url), tmp_path, CountingEmbedder(64))
    try:
        yield store
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["postgres", "qdrant"])
@pytest.mark.parametrize("embedded", [True, False])
async def test_scores_match_sqlite_exactly(
    request: pytest.FixtureRequest, tmp_path: Path, backend: str, embedded: bool
) -> None:
    url = request.getfixturevalue("postgres_url") if backend == "postgres" else ""
    results: dict[str, list[list[tuple[str, float | None]]]] = {}
    for name in ("sqlite", backend):
        settings = _settings(name, url)
        if not embedded:
            settings = settings.model_copy(update={"embedding_provider": "none"})
        store = await open_memory(
            settings, tmp_path / name, CountingEmbedder(64) if embedded else None
        )
        try:
            for key, text in FACTS.items():
                await store.store(key, text, "core")
            # Document frequencies count every entry, other namespaces and earlier
            # versions included, as SQLite's FTS vocabulary does.
            await store.store_with_metadata(
                "ana", "Ana from work lives in Lisbon", namespace="work"
            )
            old = await store.get("editor")
            new = await store.store("editor-now", "The user edits code in Zed now", "core")
            assert old is not None and old.id and new.id
            await store.supersede([old.id], new.id)
            results[name] = []
            for query in ["where does Ana live", "cat name", "Lisbon conference", "editor"]:
                found = await store.recall(query, limit=5)
                assert found.mode == ("hybrid" if embedded else "keyword")
                results[name].append([(e.key, e.score) for e in found.entries])
        finally:
            await store.close()
    assert results[backend] == results["sqlite"]
    assert results[backend][0][0][0] == "sister"


async def test_schema_is_migrated_once_and_survives_a_reopen(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = _settings("postgres", postgres_url)
    store = await open_memory(settings, tmp_path, CountingEmbedder(64))
    await store.store("pet", FACTS["pet"])
    await store.close()
    again = await open_memory(settings, tmp_path, CountingEmbedder(64))
    try:
        assert (await again.get("pet")) is not None
        stats = await again.stats()
        assert (stats.total, stats.with_embedding, stats.stale_embedding) == (1, 1, 0)
    finally:
        await again.close()
    with pytest.raises(MemoryStoreError, match="size 64.*embedding_dimensions is 32"):
        await open_memory(
            settings.model_copy(update={"embedding_dimensions": 32}), tmp_path, CountingEmbedder(32)
        )


async def test_export_keeps_vectors_and_migration_round_trips(
    pg: Memory, postgres_url: str, tmp_path: Path
) -> None:
    for key, text in FACTS.items():
        await pg.store(key, text)
    records = [r async for r in pg.export()]
    assert all(isinstance(r, MemoryRecord) and r.embedding is not None for r in records)
    embedder = CountingEmbedder(64)
    sqlite = await open_memory(_settings("sqlite"), tmp_path / "s", embedder)
    back = await open_memory(_settings("postgres", postgres_url), tmp_path, embedder)
    try:
        assert (await migrate(pg, sqlite)).mismatched == []
        assert (await migrate(sqlite, back)).mismatched == []
        assert embedder.calls == [], "vectors travel with the entries"
        assert [(e.key, e.score) for e in (await back.recall("cat name")).entries] == [
            (e.key, e.score) for e in (await pg.recall("cat name")).entries
        ]
    finally:
        await sqlite.close()
        await back.close()


async def assert_counts_exact(store: PostgresMemory) -> None:
    kept = dict(await store.fetch("SELECT term, docs FROM term_frequencies WHERE docs > 0"))
    actual = dict(
        await store.fetch("SELECT t, count(*) FROM memories, unnest(terms) AS t GROUP BY t")
    )
    assert kept == actual
    totals = await store.fetch("SELECT (SELECT docs FROM memory_totals), count(*) FROM memories")
    assert totals[0][0] == totals[0][1]


async def test_many_writers_at_once(pg: Memory) -> None:
    await asyncio.gather(*(pg.store(f"k{i}", f"parallel fact number {i}") for i in range(40)))
    assert await pg.count() == 40
    assert isinstance(pg, PostgresMemory)
    await assert_counts_exact(pg)


async def test_document_counts_follow_every_kind_of_write(pg: Memory) -> None:
    assert isinstance(pg, PostgresMemory)
    for key, text in FACTS.items():
        await pg.store(key, text)
    await pg.store("pet", "The user's dog is called Bolo")  # supersedes: a new row
    await assert_counts_exact(pg)
    await pg.forget("lunch")
    await pg.forget("pet")  # the whole history
    await assert_counts_exact(pg)
    entry = await pg.get("trip")
    assert entry is not None
    summary = await pg.import_([entry.model_copy(update={"content": "Driving to Faro in May"})])
    assert summary.replaced == 1
    await assert_counts_exact(pg)
    found = await pg.recall("Faro", limit=1)
    assert [e.key for e in found.entries] == ["trip"]
    async with pg.pool.connection() as conn:
        await conn.execute("TRUNCATE memories")
    await assert_counts_exact(pg)
    await pg.store("pet", "The user's cat is called Miso")
    await assert_counts_exact(pg)


async def test_an_older_schema_gets_its_counts_filled_in(postgres_url: str, tmp_path: Path) -> None:
    import psycopg

    from memory.postgres.schema import migrations

    settings = _settings("postgres", postgres_url)
    first = await open_memory(settings, tmp_path, CountingEmbedder(64))
    assert isinstance(first, PostgresMemory)
    for key, text in FACTS.items():
        await first.store(key, text)
    await first.close()
    schema = settings.postgres_schema
    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as conn:
        await conn.execute(f'SET search_path TO "{schema}", public')
        await conn.execute(
            "DROP TRIGGER memories_counted_insert ON memories; "
            "DROP TRIGGER memories_counted_delete ON memories; "
            "DROP TRIGGER memories_counted_update ON memories; "
            "DROP FUNCTION memchat_count_inserted(), memchat_count_deleted(), "
            "memchat_count_updated(); "
            "DROP TRIGGER memories_truncated ON memories; DROP FUNCTION memchat_forget_counts(); "
            "DROP TABLE term_frequencies; DROP TABLE memory_totals; "
            "DELETE FROM memchat_schema_version WHERE version > 1"
        )
    assert len(migrations(64)) == 53
    again = await open_memory(settings, tmp_path, CountingEmbedder(64))
    assert isinstance(again, PostgresMemory)
    try:
        await assert_counts_exact(again)
        assert [e.key for e in (await again.recall("cat name", limit=1)).entries] == ["pet"]
        # The date step ran again over rows that had their date terms: counts stay exact
        # and every fact is found by the day it was saved.
        today = datetime.now().astimezone()
        found = await again.recall(f"what did I say on {today:%d %B %Y}?", limit=10)
        assert {e.key for e in found.entries} == set(FACTS)
    finally:
        await again.close()


async def _as_an_older_version_left_it(
    postgres_url: str, tmp_path: Path, entry: tuple[str, str, str], terms: str, applied: int
) -> PostgresMemory:
    """A store holding `entry` whose terms `terms` (SQL over each term `t`) turns back into
    what an older version wrote, at schema version `applied`; opened again, so migrated."""
    import psycopg

    settings = _settings("postgres", postgres_url)
    first = await open_memory(settings, tmp_path, CountingEmbedder(64))
    await first.store(*entry)
    await first.close()
    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as conn:
        await conn.execute(f'SET search_path TO "{settings.postgres_schema}", public')
        await conn.execute(f"UPDATE memories SET terms = array({terms})")
        await conn.execute("UPDATE memories SET tsv = array_to_tsvector(terms)")
        await conn.execute("DELETE FROM memchat_schema_version WHERE version > %s", (applied,))
    again = await open_memory(settings, tmp_path, CountingEmbedder(64))
    assert isinstance(again, PostgresMemory)
    return again


async def test_an_older_schema_gets_the_months_of_mentioned_days(
    postgres_url: str, tmp_path: Path
) -> None:
    again = await _as_an_older_version_left_it(
        postgres_url,
        tmp_path,
        ("trip", "We met Ana on 21 June 2023 in Porto", "daily"),
        "SELECT t FROM unnest(terms) t WHERE t NOT IN ('dtym202306', 'dtm06', 'dty2023')",
        applied=3,
    )
    try:
        await assert_counts_exact(again)
        found = await again.recall("my notes from June 2023", limit=5)
        assert [e.key for e in found.entries] == ["trip"]
        scores = found.entries[0].scores
        assert scores is not None and scores.keyword  # found by the month, not only a vector
    finally:
        await again.close()


async def test_an_older_schema_finds_marked_letters_as_typed(
    postgres_url: str, tmp_path: Path
) -> None:
    again = await _as_an_older_version_left_it(
        postgres_url,
        tmp_path,
        ("friend", "Søren lives on Königstraße", "core"),
        "SELECT replace(replace(t, 'soren', 'søren'), 'konigstrass', 'königstraß') "
        "FROM unnest(terms) t",
        applied=4,
    )
    try:
        await assert_counts_exact(again)
        for question in ("where does Soren live?", "konigstrasse"):
            found = await again.recall(question, limit=5)
            scores = found.entries[0].scores
            assert found.entries[0].key == "friend", question
            assert scores is not None and scores.keyword, question  # found by its words
    finally:
        await again.close()


async def test_failing_embeddings_fall_back_to_keywords(postgres_url: str, tmp_path: Path) -> None:
    store = await open_memory(_settings("postgres", postgres_url), tmp_path, FailingEmbedder(64))
    try:
        await store.store("pet", FACTS["pet"])
        result = await store.recall("cat Miso")
        assert [e.key for e in result.entries] == ["pet"]
        assert result.mode == "keyword" and result.degraded is not None
    finally:
        await store.close()


async def test_configuration_problems_are_named(tmp_path: Path) -> None:
    with pytest.raises(MemoryStoreError, match="needs memory.postgres_url, and it is empty"):
        await open_memory(_settings("postgres"), tmp_path, None)
    dead = f"postgresql://nobody@/memchat?host={tmp_path}&connect_timeout=2"
    with pytest.raises(MemoryStoreError, match="PostgreSQL store is not usable"):
        await open_memory(_settings("postgres", dead), tmp_path, None)


@pytest.mark.parametrize("text", ["plain", "back\\slash", "nul\x00byte", "\\0 literal", "\\"])
def test_text_escaping_round_trips(text: str) -> None:
    assert "\x00" not in escape(text)
    assert unescape(escape(text)) == text


async def test_a_bulk_import_refreshes_the_planner_statistics(
    postgres_url: str, tmp_path: Path
) -> None:
    now = utc_now()
    settings = _settings("postgres", postgres_url, embedding_provider="none")
    store = await open_memory(settings, tmp_path, None)
    assert isinstance(store, PostgresMemory)
    try:
        await store.import_(
            MemoryEntry(
                id=f"e{i}",
                key=f"k{i}",
                content=f"imported fact number {i}",
                timestamp=now,
                updated_at=now,
            )
            for i in range(1200)
        )
        rows = await store.fetch("SELECT reltuples FROM pg_class WHERE oid = 'memories'::regclass")
        assert rows[0][0] == 1200
    finally:
        await store.close()


def _around(query: npt.NDArray[np.float32], seed: int) -> Callable[[str, str, float], MemoryRecord]:
    """Records whose vectors point along `direction` × `query`, with some noise."""
    rng = np.random.default_rng(seed)
    identity = CountingEmbedder(64).identity
    now = utc_now()

    def record(entry_id: str, namespace: str, direction: float) -> MemoryRecord:
        vector = direction * query + 0.3 * rng.standard_normal(64).astype(np.float32)
        vector /= np.linalg.norm(vector)
        blob = vector.astype("<f4").tobytes()
        return MemoryRecord(
            **MemoryEntry(
                id=entry_id,
                key=entry_id,
                content=f"entry {entry_id}",
                namespace=namespace,
                timestamp=now,
                updated_at=now,
            ).model_dump(),
            embedding=StoredEmbedding.from_bytes(identity, 64, blob),
        )

    return record


def _unit_query(seed: int) -> npt.NDArray[np.float32]:
    query = np.random.default_rng(seed).standard_normal(64).astype(np.float32)
    unit: npt.NDArray[np.float32] = query / np.linalg.norm(query)
    return unit


async def test_the_vector_lane_finds_a_namespace_whose_entries_are_not_the_nearest(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = _settings("postgres", postgres_url, min_relevance_score=0.0)
    store = await open_memory(settings, tmp_path, CountingEmbedder(64))
    assert isinstance(store, PostgresMemory)
    query = _unit_query(7)
    record = _around(query, 7)
    try:
        # The 300 nearest rows are in "default"; "work" holds 400 rows pointing away, so
        # the planner picks the HNSW index and its first candidates are all filtered out.
        await store.import_(
            [record(f"d{i}", "default", 1.0) for i in range(300)]
            + [record(f"w{i}", "work", -1.0) for i in range(400)]
        )
        async with store.pool.connection() as conn:
            await conn.execute("ANALYZE memories")
        # Also after many searches the index answers in full: once a connection has
        # prepared the query, PostgreSQL kept that index plan for the exact search too,
        # which then came back empty.
        for namespace in ["work"] + ["default"] * 30 + ["work"] * 8:
            found = await store.recall("zzz", limit=10, namespace=namespace, query_vector=query)
            assert len(found.entries) == 10
            assert all(e.namespace == namespace for e in found.entries)
    finally:
        await store.close()


async def test_a_long_recall_is_answered_by_the_index_not_an_exact_scan(
    postgres_url: str, tmp_path: Path
) -> None:
    """An HNSW search returns at most `hnsw.ef_search` rows: a recall asking for more came
    back short and searched every row again exactly (tens of ms in a large store)."""
    settings = _settings("postgres", postgres_url, min_relevance_score=0.0)
    store = await open_memory(settings, tmp_path, CountingEmbedder(64))
    assert isinstance(store, PostgresMemory)
    query = _unit_query(8)
    record = _around(query, 8)
    exact_searches = 0
    fetch = store.fetch

    async def counting(query: str, params: Sequence[Any] = (), **how: Any) -> list[Any]:
        nonlocal exact_searches
        exact_searches += bool(how.get("exact"))
        return await fetch(query, params, **how)

    try:
        await store.import_([record(f"d{i}", "default", 1.0) for i in range(700)])
        async with store.pool.connection() as conn:
            await conn.execute("ANALYZE memories")
        store.fetch = counting  # type: ignore[method-assign]
        found = await store.recall("zzz", limit=40, query_vector=query)
        assert len(found.entries) == 40
        assert exact_searches == 0
    finally:
        await store.close()


async def test_an_older_schema_gets_content_hashes_for_exact_duplicates(
    postgres_url: str, tmp_path: Path
) -> None:
    import psycopg

    settings = _settings("postgres", postgres_url)
    first = await open_memory(settings, tmp_path, CountingEmbedder(64))
    pet = await first.store("pet", "The user's cat is called Miso")
    await first.close()
    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as conn:
        await conn.execute(f'SET search_path TO "{settings.postgres_schema}", public')
        await conn.execute("ALTER TABLE memories DROP COLUMN content_hash")
        await conn.execute("DELETE FROM memchat_schema_version WHERE version > 5")
    again = await open_memory(settings, tmp_path, CountingEmbedder(64))
    try:
        duplicate = await again.store("cat", "the user's cat is called  Miso.")
        assert duplicate.id == pet.id and await again.count() == 1
    finally:
        await again.close()


async def _has_vector_index(store: PostgresMemory) -> bool:
    rows = await store.fetch("SELECT to_regclass('memories_embedding') IS NOT NULL")
    return bool(rows[0][0])


async def test_a_large_import_builds_the_vector_index_once_after(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memory.postgres import importing

    built: list[bool] = []
    original = PostgresMemory._build_vector_index

    async def counted(self: PostgresMemory) -> None:
        built.append(await _has_vector_index(self))
        await original(self)

    monkeypatch.setattr(importing, "REBUILD_AT_LEAST", 3)
    monkeypatch.setattr(PostgresMemory, "_build_vector_index", counted)
    source = await open_memory(_settings("sqlite"), tmp_path / "src", CountingEmbedder(64))
    for key, text in FACTS.items():
        await source.store(key, text)
    records = [r async for r in source.export()]
    await source.close()
    store = await open_memory(_settings("postgres", postgres_url), tmp_path, CountingEmbedder(64))
    assert isinstance(store, PostgresMemory)
    try:
        summary = await store.import_(records)
        assert summary.added == len(FACTS)
        assert built == [False]  # dropped before the rows went in, built once after
        assert await _has_vector_index(store)
        await assert_counts_exact(store)
        # The full-text index's pending list was merged: nothing is left to clean.
        cleaned = await store.fetch("SELECT gin_clean_pending_list('memories_tsv'::regclass)")
        assert cleaned[0][0] == 0
        assert [e.key for e in (await store.recall("cat name", limit=1)).entries] == ["pet"]
        again = await store.import_(records)
        assert again.unchanged == len(FACTS) and await _has_vector_index(store)
    finally:
        await store.close()


def test_a_parallel_index_build_only_where_pgvector_builds_one_safely() -> None:
    from memory.postgres.importing import parallel_build_is_safe

    assert not parallel_build_is_safe("0.6.2")  # the version the tests run
    assert not parallel_build_is_safe("0.8.1")
    assert parallel_build_is_safe("0.8.2") and parallel_build_is_safe("0.10.0")
    assert not parallel_build_is_safe("unknown")


def test_the_index_is_built_after_only_for_an_import_large_against_the_store() -> None:
    from memory.postgres.importing import REBUILD_AT_LEAST, rebuilds_index

    assert rebuilds_index(REBUILD_AT_LEAST, 0)
    assert not rebuilds_index(REBUILD_AT_LEAST - 1, 0)
    assert rebuilds_index(REBUILD_AT_LEAST, 10 * REBUILD_AT_LEAST)
    assert not rebuilds_index(REBUILD_AT_LEAST, 10 * REBUILD_AT_LEAST + 1)


async def test_a_vector_index_lost_to_a_cut_short_import_is_built_at_open(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = _settings("postgres", postgres_url)
    first = await open_memory(settings, tmp_path, CountingEmbedder(64))
    assert isinstance(first, PostgresMemory)
    await first.store("pet", FACTS["pet"])
    async with first.pool.connection() as conn:
        await conn.execute("DROP INDEX memories_embedding")
    await first.close()
    again = await open_memory(settings, tmp_path, CountingEmbedder(64))
    assert isinstance(again, PostgresMemory)
    try:
        assert await _has_vector_index(again)
        assert any("vector index was missing" in w for w in again.warnings)
    finally:
        await again.close()


async def test_a_command_that_only_reads_creates_no_schema(
    postgres_url: str, tmp_path: Path
) -> None:
    import psycopg

    from memory.errors import NoStoreYetError

    settings = _settings("postgres", postgres_url)
    with pytest.raises(NoStoreYetError, match=settings.postgres_schema):
        await open_memory(settings, tmp_path, CountingEmbedder(64), reading_only=True)
    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as conn:
        found = await conn.execute(
            "SELECT 1 FROM information_schema.schemata WHERE schema_name = %s",
            (settings.postgres_schema,),
        )
        assert await found.fetchone() is None
    store = await open_memory(settings, tmp_path, CountingEmbedder(64))  # a writer creates it
    await store.close()
    again = await open_memory(settings, tmp_path, CountingEmbedder(64), reading_only=True)
    assert await again.count() == 0
    await again.close()


@pytest.mark.parametrize("field", ["id", "namespace", "session_id", "source"])
async def test_a_nul_in_a_name_is_refused_by_name_not_an_internal_error(
    pg: Memory, field: str
) -> None:
    """Found by an adversary: an import holding one failed with "internal error" (exit 70)."""
    at = datetime(2026, 1, 2)
    good = MemoryRecord(id="g1", key="pet", content="My cat is Tom", timestamp=at, updated_at=at)
    bad = good.model_copy(update={"id": "b1", "key": "editor", field: "a\x00b"})
    with pytest.raises(InvalidEntryError, match=rf"record 2 .*{field} contains a NUL"):
        await pg.import_([good, bad])
    assert await pg.count(namespace=None) == 0
    if field in ("namespace", "session_id"):
        with pytest.raises(InvalidEntryError, match=f"{field} contains a NUL"):
            await pg.store_with_metadata("k", "text", "core", **{field: "a\x00b"})  # type: ignore[arg-type]
        assert await pg.count(namespace=None) == 0


async def test_the_model_is_calibrated_once_per_data_directory_not_once_per_process(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an adversary: every command embedded the 150 reference sentences again."""
    anchors = len(calibration.anchor_texts())
    settings = _settings("postgres", postgres_url)

    async def search_in_a_new_process() -> list[int]:
        monkeypatch.setattr(calibration, "_PROCESS_CALIBRATIONS", {})
        embedder = CountingEmbedder(64)
        store = await open_memory(settings, tmp_path, embedder)
        try:
            await store.store("pet", "The user's cat is called Miso")
            assert (await store.recall("cat called Miso")).mode == "hybrid"
        finally:
            await store.close()
        return [len(batch) for batch in embedder.calls]

    assert anchors in await search_in_a_new_process()
    assert anchors not in await search_in_a_new_process()
    assert (tmp_path / "memchat-anchors.json").exists()
