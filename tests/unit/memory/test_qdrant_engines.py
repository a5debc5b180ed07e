"""The Qdrant backend's two engines (qdrant-edge locally, qdrant-client for a server) answer
alike; a store from the older local mode is brought over; the vector graph is built aside."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from memory import calibration
from memory.entry import utc_now
from memory.errors import MemoryStoreError
from memory.factory import open_memory, vectors_missing
from memory.protocol import Memory
from memory.qdrant import edge_engine
from memory.qdrant.client_engine import ClientPoints
from memory.qdrant.legacy import COPYING
from memory.qdrant.points import term_index
from memory.qdrant.store import QdrantMemory
from memory.records import MemoryRecord, StoredEmbedding
from memory.retrieval import RecallQuery
from memory.settings import MemorySettings
from memory.testing import CountingEmbedder
from memory.text import analyze

FACTS = {
    "editor": "The user edits code in Helix",
    "pet": "The user's cat is called Miso",
    "lunch": "Had ramen for lunch with Ana",
    "trip": "Flying to Lisbon in March for a conference",
    "sister": "The user's sister Ana lives in Porto",
}
QUERIES = ["where does Ana live", "cat name", "Lisbon conference", "editor"]


def _settings(**changes: object) -> MemorySettings:
    base = MemorySettings(
        backend="qdrant",
        embedding_provider="hashing",
        embedding_dimensions=64,
        min_relevance_score=0.05,
        hot_cache_ttl_s=0,
        early_return_score=1.0,
        conversation_context_weight=0.0,
    )
    return base.model_copy(update=changes)


async def _client_store(folder: Path) -> QdrantMemory:
    """The server code path, over qdrant-client's local mode (no server here)."""
    points = ClientPoints(QdrantClient(path=str(folder)), "memchat", str(folder), indexed=False)
    return await QdrantMemory.over(points, _settings(), CountingEmbedder(64))


async def _fill(store: Memory) -> None:
    for key, text in FACTS.items():
        await store.store(key, text, "core")
    await store.store_with_metadata("ana", "Ana from work lives in Lisbon", namespace="work")


async def test_both_engines_give_the_same_answers(tmp_path: Path) -> None:
    local = await open_memory(_settings(), tmp_path / "edge", CountingEmbedder(64))
    server = await _client_store(tmp_path / "client")
    try:
        assert isinstance(local, QdrantMemory)
        answers = []
        for store in (local, server):
            await _fill(store)
            answers.append(
                [[(e.key, e.score) for e in (await store.recall(q)).entries] for q in QUERIES]
            )
            stats = await store.stats()
            assert (stats.total, stats.active, stats.with_embedding) == (6, 6, 6)
            assert await store.count(namespace="work") == 1
        assert answers[0] == answers[1]
        assert answers[0][0][0][0] == "sister"
    finally:
        await local.close()
        await server.close()


async def test_the_older_local_store_is_copied_once_and_left_as_it_was(tmp_path: Path) -> None:
    data = tmp_path / "data"
    old = await _client_store(data / "qdrant")
    await _fill(old)
    await old.close()
    before = sorted(p.relative_to(data).as_posix() for p in (data / "qdrant").rglob("*"))

    store = await open_memory(_settings(), data, CountingEmbedder(64))
    try:
        assert await store.count() == 6
        assert any("copied 6 memories from the older local Qdrant" in w for w in store.warnings)
        found = await store.recall("where does Ana live")
        assert found.entries[0].key == "sister" and found.mode == "hybrid"
    finally:
        await store.close()
    after = sorted(p.relative_to(data).as_posix() for p in (data / "qdrant").rglob("*"))
    assert after == before

    again = await open_memory(_settings(), data, CountingEmbedder(64))
    try:
        assert await again.count() == 6 and again.warnings == []
    finally:
        await again.close()


async def test_a_copy_cut_short_is_done_again(tmp_path: Path) -> None:
    data = tmp_path / "data"
    old = await _client_store(data / "qdrant")
    await _fill(old)
    await old.close()
    store = await open_memory(_settings(), data, CountingEmbedder(64))
    await store.forget("pet")  # as if the copy had stopped before this point
    await store.close()
    (data / "qdrant-edge" / "memchat" / COPYING).touch()
    again = await open_memory(_settings(), data, CountingEmbedder(64))
    try:
        assert await again.get("pet") is not None and await again.count() == 6
        assert not (data / "qdrant-edge" / "memchat" / COPYING).exists()
    finally:
        await again.close()


async def test_the_vector_graph_is_built_in_a_child_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(edge_engine, "INDEX_AFTER", 50)
    source = await open_memory(_settings(), tmp_path / "a", CountingEmbedder(64))
    target = await open_memory(_settings(), tmp_path / "b", CountingEmbedder(64))
    try:
        assert isinstance(target, QdrantMemory)
        for i in range(80):
            await source.store(f"note-{i}", f"note number {i} about topic {i % 7}", "daily")
        await source.store("pet", FACTS["pet"])
        records = [r async for r in source.export()]
        points = target._points  # noqa: SLF001 - the test reads the engine's state
        assert isinstance(points, edge_engine.EdgePoints)
        await target.import_(records)
        assert points.shard.info().indexed_vectors_count >= 81
        assert points.outside_graph() == 0
        assert (await target.recall("cat called Miso")).entries[0].key == "pet"
    finally:
        await source.close()
        await target.close()


async def test_a_collection_name_that_is_not_a_folder_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MemoryStoreError, match="qdrant_collection '../x'"):
        await open_memory(_settings(qdrant_collection="../x"), tmp_path, CountingEmbedder(64))
    assert not (tmp_path / "x").exists()


async def test_a_page_of_the_newest_is_the_same_as_from_a_full_sort(tmp_path: Path) -> None:
    """The local store pages by its time index; ties at a page's edge still order by id."""
    local = await open_memory(_settings(), tmp_path / "edge", CountingEmbedder(64))
    server = await _client_store(tmp_path / "client")
    try:
        records = []
        for i in range(30):
            entry = await local.store(f"k{i}", f"note {i}", "daily")
            # Three memories share each time, so ties fall on page edges.
            when = entry.timestamp.replace(microsecond=0) + timedelta(seconds=i // 3)
            records.append(entry.model_copy(update={"updated_at": when, "timestamp": when}))
        await local.import_(records)
        await server.import_(records)
        for order in ("recent", "created"):
            for offset, limit in ((0, 4), (4, 5), (9, 1), (25, 10), (40, 5)):
                ours = await local.list(order=order, offset=offset, limit=limit)
                theirs = await server.list(order=order, offset=offset, limit=limit)
                assert [e.id for e in ours] == [e.id for e in theirs], (order, offset)
        assert len(await local.list(order="recent", limit=50)) == 30
    finally:
        await local.close()
        await server.close()


async def test_memories_without_vectors_are_pointed_to_what_this_backend_can_do(
    tmp_path: Path,
) -> None:
    """Qdrant has no `reindex`: the note names the export and import that embed again."""
    plain = await open_memory(_settings(embedding_provider="none"), tmp_path, None)
    await plain.store("pet", FACTS["pet"])
    await plain.close()
    embedder = CountingEmbedder(64)
    store = await open_memory(_settings(), tmp_path, embedder)
    try:
        note = await vectors_missing(store, embedder)
        assert note is not None and "1 memory has no vector" in note
        assert "memory export FILE` then `memchat memory import FILE` embeds it" in note
        assert "reindex" not in note
    finally:
        await store.close()


async def test_the_model_is_calibrated_once_per_store_not_once_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each CLI command is a process: the anchors' vectors are kept beside the store."""
    anchors = len(calibration.anchor_texts())

    async def search_in_a_new_process() -> list[int]:
        monkeypatch.setattr(calibration, "_PROCESS_CALIBRATIONS", {})
        embedder = CountingEmbedder(64)
        store = await open_memory(_settings(), tmp_path, embedder)
        try:
            await store.store("pet", FACTS["pet"])
            assert (await store.recall("cat called Miso")).mode == "hybrid"
        finally:
            await store.close()
        return [len(batch) for batch in embedder.calls]

    assert anchors in await search_in_a_new_process()
    assert anchors not in await search_in_a_new_process()
    kept = tmp_path / "qdrant-edge" / "memchat" / "memchat-anchors.json"
    kept.write_text(kept.read_text().replace('"identity": "', '"identity": "other-'))
    assert anchors in await search_in_a_new_process(), "another model's anchors are not used"


async def test_an_unreadable_older_store_is_named_and_left_untouched(tmp_path: Path) -> None:
    data = tmp_path / "data"
    old = await _client_store(data / "qdrant")
    await _fill(old)
    await old.close()
    (data / "qdrant" / "meta.json").unlink()
    before = sorted(p.relative_to(data).as_posix() for p in (data / "qdrant").rglob("*"))
    store = await open_memory(_settings(), data, CountingEmbedder(64))
    try:
        assert any("nothing was copied from it" in w for w in store.warnings)
        assert await store.count() == 0
    finally:
        await store.close()
    after = sorted(p.relative_to(data).as_posix() for p in (data / "qdrant").rglob("*"))
    assert after == before, "the older store was written into"


async def test_a_store_in_use_is_named_as_such(tmp_path: Path) -> None:
    first = await open_memory(_settings(), tmp_path, CountingEmbedder(64))
    try:
        with pytest.raises(MemoryStoreError, match="in use by another memchat"):
            await open_memory(_settings(), tmp_path, CountingEmbedder(64))
    finally:
        await first.close()


async def test_a_vector_of_another_size_is_made_again_not_a_failed_import(tmp_path: Path) -> None:
    source = await open_memory(_settings(), tmp_path / "a", CountingEmbedder(64))
    target = await open_memory(_settings(), tmp_path / "b", CountingEmbedder(64))
    try:
        await _fill(source)
        records = [r async for r in source.export()]
        bad = records[2]
        assert isinstance(bad, MemoryRecord) and bad.embedding is not None
        short = StoredEmbedding.from_bytes(bad.embedding.model, 4, b"\0" * 16)
        records[2] = bad.model_copy(update={"embedding": short})
        summary = await target.import_(records)
        assert summary.added == len(records)
        stats = await target.stats()
        assert stats.total == len(records) and stats.stale_embedding == 0
    finally:
        await source.close()
        await target.close()


async def test_an_import_keeps_what_it_replaces_as_sqlite_does(tmp_path: Path) -> None:
    """Found by an adversary: the same id in another namespace, or twice in one import,
    or two records for one key, lost memories on Qdrant."""
    summaries = {}
    for backend in ("qdrant", "sqlite"):
        store = await open_memory(
            _settings(backend=backend), tmp_path / backend, CountingEmbedder(64)
        )
        try:
            base = (await store.store("dentist", "Dentist on Monday", "core")).model_copy(
                update={"id": "n1", "namespace": "work"}
            )
            await store.import_([base])
            moved = base.model_copy(update={"key": "piano", "namespace": "home"})
            await store.import_([moved])
            first = base.model_copy(update={"id": "a1", "key": "k", "namespace": "default"})
            second = first.model_copy(update={"content": "second version"})
            third = first.model_copy(update={"id": "a2", "content": "third"})
            summaries[backend] = await store.import_([first, second, third])
            assert await store.count(namespace="work") == 1, backend
            assert await store.count(namespace="home") == 1, backend
            active = await store.list(namespace="default", prefix="k")
            assert [e.content for e in active] == ["third"], backend
            history = await store.list(namespace="default", prefix="k", include_superseded=True)
            contents = sorted(e.content for e in history)
            assert contents == ["Dentist on Monday", "second version", "third"], backend
        finally:
            await store.close()
    assert summaries["qdrant"].kept_as_history == summaries["sqlite"].kept_as_history


async def test_points_an_older_version_wrote_get_their_content_hash(tmp_path: Path) -> None:
    from memory.qdrant.points import PointFilter

    store = await open_memory(_settings(), tmp_path, CountingEmbedder(64))
    assert isinstance(store, QdrantMemory)
    first = await store.store("pet", "The user's cat is called Miso")
    await store.store("lunch", "Had ramen for lunch with Ana", "daily")
    points = store._points
    ids = [p.id for p in points.scroll(None)]
    points.set_payload(ids, {"content_hash": None})  # as points were before the hash
    assert points.count(PointFilter(lacking=("content_hash",))) == 2
    await store.close()

    again = await open_memory(_settings(), tmp_path, CountingEmbedder(64))
    assert isinstance(again, QdrantMemory)
    try:
        assert again._points.count(PointFilter(lacking=("content_hash",))) == 0
        duplicate = await again.store("cat", "the user's cat is called Miso!")
        assert duplicate.id == first.id and await again.count() == 2
    finally:
        await again.close()


async def test_a_server_forgets_a_key_with_its_history(tmp_path: Path) -> None:
    store = await _client_store(tmp_path / "server")
    try:
        await store.store("editor", "The user edits in Helix")
        await store.store("editor", "The user edits in Zed")
        await store.store("editor", "The user edits in Vim")
        await store.store("pet", "The user's cat is called Miso")
        assert await store.count() == 4
        assert await store.forget("editor")
        assert [e.key for e in await store.list(include_superseded=True)] == ["pet"]
    finally:
        await store.close()


async def test_the_health_check_reads_every_memory(tmp_path: Path) -> None:
    """Found by an adversary: damaged payload pages passed `stats --check` as healthy."""
    store = await open_memory(_settings(), tmp_path, CountingEmbedder(64))
    for i in range(50):
        await store.store(f"k{i}", f"fact number {i} about the garden", "daily")
    assert (await store.health_check()).ok
    await store.close()
    pages = list(tmp_path.glob("qdrant-edge/memchat/segments/*/payload_storage/page_*.dat"))
    assert pages
    for page in pages:
        data = bytearray(page.read_bytes())
        data[: min(len(data), 200_000)] = b"A" * min(len(data), 200_000)
        page.write_bytes(bytes(data))
    damaged = await open_memory(_settings(), tmp_path, CountingEmbedder(64))
    try:
        report = await damaged.health_check()
        assert not report.ok and "may be damaged" in report.detail
    finally:
        await damaged.close()


async def test_terms_sharing_a_sparse_dimension_do_not_raise_what_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keyword lane reads which terms a point holds from its sparse vector; when two
    terms hash to one dimension, the entries shown are checked against their stored terms."""
    (cat,) = analyze("Miso")
    (editor,) = analyze("Helix")
    hashed = term_index
    monkeypatch.setattr(
        edge_engine, "term_index", lambda term: hashed(editor if term == cat else term)
    )
    store = await open_memory(_settings(embedding_provider="none"), tmp_path, None)
    try:
        await _fill(store)
        found = await store.recall("Miso", limit=5)
        assert [(e.key, e.score) for e in found.entries] == [("pet", 1.0)]
        assert "editor" not in [e.key for e in found.below_floor if (e.score or 0) > 0]
    finally:
        await store.close()


async def test_a_vector_find_outside_the_keyword_pool_keeps_its_keyword_part(
    tmp_path: Path,
) -> None:
    """A memory only the vector lane finds is scored with the query terms it holds, read
    from its sparse vector (edge) or payload (server), exactly as SQLite scores it."""
    now = utc_now()
    texts = [f"apple cherry orchard visit number {word}" for word in _FILLER_WORDS]
    texts += [f"plum jam jar {word}" for word in _FILLER_WORDS[:5]]
    # Holds one common query term: its keyword score is below the 45 above, so it is
    # outside the keyword lane's pool of 40; the query vector is its own.
    texts.append("apple strudel recipe from grandmother Hedwig")
    embedder = CountingEmbedder(64)
    vectors = await embedder.embed(texts)
    records = [
        MemoryRecord(
            id=f"m{i}",
            key=f"m{i}",
            content=text,
            category="daily",
            timestamp=now,
            updated_at=now,
            embedding=StoredEmbedding.from_bytes(
                embedder.identity, 64, vectors[i].astype("<f4").tobytes()
            ),
        )
        for i, text in enumerate(texts)
    ]
    vector = vectors[-1]
    sqlite = await open_memory(
        _settings(backend="sqlite"), tmp_path / "sqlite", CountingEmbedder(64)
    )
    local = await open_memory(_settings(), tmp_path / "edge", CountingEmbedder(64))
    server = await _client_store(tmp_path / "client")
    try:
        found = []
        for store in (sqlite, local, server):
            await store.import_(records)
            query = RecallQuery("apple cherry plum", limit=1, query_vector=vector)
            result = await store.search(query)
            # Without its keyword part it would rank below the "plum" memories.
            (first,) = result.entries
            assert first.key == "m50" and first.scores is not None
            assert first.scores.lane == "vector"
            found.append((first.score, first.scores.keyword))
        assert found[0] == found[1] == found[2]
        assert (found[0][1] or 0.0) > 0.0
    finally:
        for store in (sqlite, local, server):
            await store.close()


_FILLER_WORDS = [f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(45)]


async def test_the_server_engine_brings_the_next_message_of_a_session(tmp_path: Path) -> None:
    folder = tmp_path / "client"
    points = ClientPoints(QdrantClient(path=str(folder)), "memchat", str(folder), indexed=False)
    store = await QdrantMemory.over(
        points, _settings(conversation_context_weight=0.7), CountingEmbedder(64)
    )
    try:
        first = await store.store_with_metadata(
            "m1", "I was telling you about my cat", "conversation", "s1"
        )
        await store.store_with_metadata("m2", "she is named Luna", "conversation", "s1")
        await store.store_with_metadata("m3", "Luna likes tuna", "conversation", "s2")
        found = await store.recall("cat", limit=5)
        follow_up = [e for e in found.entries if e.key == "m2"]
        assert follow_up and follow_up[0].scores is not None
        assert follow_up[0].scores.lane == "context"
        assert follow_up[0].scores.context_of == first.id
    finally:
        await store.close()


@pytest.mark.parametrize("provider", ["none", "hashing"])
async def test_many_memories_holding_a_term_of_the_same_dimension_do_not_hide_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    """Found by an adversary: with 100 memories holding a word whose dimension the query's
    word shares, the keyword lane filled with them, the check dropped them all, and the
    memory holding the word itself was never found. It now comes first, as in SQLite."""
    (cat,) = analyze("Miso")
    (editor,) = analyze("Helix")
    hashed = term_index
    monkeypatch.setattr(
        edge_engine, "term_index", lambda term: hashed(editor if term == cat else term)
    )
    now = utc_now()
    tips = [
        MemoryRecord(
            id=f"h{i}",
            key=f"h{i}",
            content=f"Helix tip number {i}",
            category="daily",
            timestamp=now,
            updated_at=now,
        )
        for i in range(120)
    ]
    firsts = []
    for backend in ("qdrant", "sqlite"):
        settings = _settings(backend=backend, embedding_provider=provider)
        embedder = None if provider == "none" else CountingEmbedder(64)
        store = await open_memory(settings, tmp_path / backend, embedder)
        try:
            await store.import_(tips)
            await store.store("pet", "The user's cat is called Miso", "core")
            found = await store.recall("Miso", limit=5)
            firsts.append([(e.key, e.score) for e in found.entries][:1])
        finally:
            await store.close()
    assert firsts[0] == firsts[1] and firsts[0][0][0] == "pet"
