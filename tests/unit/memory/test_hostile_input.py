"""Property tests: no query, key or content can break the store or lose data."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.errors import InvalidEntryError
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from memory.text import fts_match_expression, query_terms
from memory.write_policy import content_hash
from tests.helpers.strategies import HOSTILE_TEXT, VALID_TEXT


@pytest.fixture(scope="module")
def shared_store(
    loop: asyncio.AbstractEventLoop, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SqliteMemory]:
    path = tmp_path_factory.mktemp("hostile") / "brain.db"
    settings_ = MemorySettings(
        embedding_provider="hashing",
        embedding_dimensions=32,
        hot_cache_size=0,
        early_return_score=1.0,
        # Round trips are checked here, not the merge rule: with it, two random texts that
        # happen to share their words would merge, depending on which examples came before.
        duplicate_policy="keep",
    )
    store = loop.run_until_complete(SqliteMemory.open(path, settings_, CountingEmbedder(32)))
    seed = ["NEAR AND OR NOT", 'quote " inside', "커피를 좋아해요", "東京タワー", "café ☕"]
    for i, text in enumerate(seed):
        loop.run_until_complete(store.store(f"seed{i}", text))
    yield store
    loop.run_until_complete(store.close())


@given(query=HOSTILE_TEXT)
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_no_query_raises(
    shared_store: SqliteMemory, loop: asyncio.AbstractEventLoop, query: str
) -> None:
    result = loop.run_until_complete(shared_store.recall(query, limit=3))
    assert len(result.entries) <= 3
    for entry in result.entries:
        assert entry.scores is not None and 0.0 <= entry.scores.fused <= 1.0


@given(query=HOSTILE_TEXT)
@settings(max_examples=300, deadline=None)
def test_match_expression_is_always_valid_fts(query: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(terms, tokenize='unicode61')")
    conn.execute("INSERT INTO t VALUES ('a b c')")
    terms = query_terms(query)
    if terms:
        conn.execute("SELECT * FROM t WHERE t MATCH ?", (fts_match_expression(terms),)).fetchall()
    conn.close()


@given(key=VALID_TEXT, content=VALID_TEXT)
@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_keys_and_contents_round_trip_exactly(
    shared_store: SqliteMemory, loop: asyncio.AbstractEventLoop, key: str, content: str
) -> None:
    if not key.strip():
        with pytest.raises(InvalidEntryError):
            loop.run_until_complete(shared_store.store(key, content))
        return
    # The store is shared by every example: an earlier one may have stored under this key.
    before = loop.run_until_complete(shared_store.get(key, "prop"))
    stored = loop.run_until_complete(
        shared_store.store_with_metadata(key, content, "daily", namespace="prop")
    )
    # An exact duplicate (same normalised text) of earlier content is kept once, under
    # the earlier key; otherwise the entry is stored exactly as given.
    got = loop.run_until_complete(shared_store.get(stored.key, "prop"))
    assert got is not None and got.content == stored.content
    assert content_hash(stored.content) == content_hash(content)
    if stored.key != key:  # deduplicated: nothing new was stored under the new key
        assert loop.run_until_complete(shared_store.get(key, "prop")) == before


@given(text=st.text(max_size=20))
@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_unpaired_surrogates_are_rejected_not_mangled(
    shared_store: SqliteMemory, loop: asyncio.AbstractEventLoop, text: str
) -> None:
    content = text + "\ud83d"
    with pytest.raises(InvalidEntryError, match="unpaired surrogate"):
        loop.run_until_complete(shared_store.store("surrogate", content))


def test_large_text_round_trips(
    shared_store: SqliteMemory, loop: asyncio.AbstractEventLoop
) -> None:
    content = ("The quick brown fox 🦊 jumps; 한국어 문장입니다. " * 2500)[:100_000]
    loop.run_until_complete(shared_store.store("big", content))
    got = loop.run_until_complete(shared_store.get("big"))
    assert got is not None and got.content == content
    found = loop.run_until_complete(shared_store.recall("quick brown fox"))
    assert "big" in [e.key for e in found.entries]


def test_nul_bytes_are_kept(shared_store: SqliteMemory, loop: asyncio.AbstractEventLoop) -> None:
    loop.run_until_complete(shared_store.store("nul\x00key", "before\x00after"))
    got = loop.run_until_complete(shared_store.get("nul\x00key"))
    assert got is not None and got.content == "before\x00after"


@given(query=HOSTILE_TEXT)
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_no_query_raises_on_a_keyword_only_store(
    keyword_store: SqliteMemory, loop: asyncio.AbstractEventLoop, query: str
) -> None:
    result = loop.run_until_complete(keyword_store.recall(query, limit=3))
    assert len(result.entries) <= 3


@pytest.fixture(scope="module")
def keyword_store(
    loop: asyncio.AbstractEventLoop, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SqliteMemory]:
    path = tmp_path_factory.mktemp("keyword") / "brain.db"
    store = loop.run_until_complete(
        SqliteMemory.open(path, MemorySettings(embedding_provider="none"))
    )
    loop.run_until_complete(store.store("seed", "NEAR AND OR 커피를 좋아해요 ☕"))
    yield store
    loop.run_until_complete(store.close())
