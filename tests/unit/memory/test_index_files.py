"""The vector index kept in files beside the database: used when it matches, replayed
forward when it is behind, rebuilt when it is damaged or belongs to another database."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import memory.vector_files as vector_files
from memory.layered_index import LayeredIndex
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from memory.vector_files import HEADER_NAME, index_folder
from memory.write_rules import NewMemory
from tests.unit.memory.conftest import DIMS, OpenStore

TOPICS = ["tea", "Lisbon", "cats", "piano", "taxes", "garden", "bikes", "rain"]
TEXTS = [f"note {i} about {TOPICS[i % len(TOPICS)]} and item {i * 7 % 31}" for i in range(60)]


async def vector_of(text: str) -> npt.NDArray[np.float32]:
    vectors = await CountingEmbedder(DIMS).embed([text])
    first: npt.NDArray[np.float32] = vectors[0]
    return first


def index_of(store: SqliteMemory) -> LayeredIndex:
    return store._core.index  # noqa: SLF001 - the tests inspect the derived index


def from_files(store: SqliteMemory) -> bool:
    """Whether the loaded index started from the files (it has a base generation)."""
    return store._core.index.base is not None  # noqa: SLF001


async def filled(open_store: OpenStore, path: Path, texts: list[str] = TEXTS) -> None:
    store = await opened(open_store, path)
    await store.bulk_store([NewMemory(key=f"k{i}", content=text) for i, text in enumerate(texts)])
    await store.recall("load the index", limit=1, query_vector=await vector_of("x"))
    await store.close()


async def opened(open_store: OpenStore, path: Path, *, keep_files: bool = True) -> SqliteMemory:
    """A hybrid store that keeps index files however small, and drops nothing as weak.

    With `keep_files` off it never writes index files (it still reads them).
    """
    minimum = 0 if keep_files else 10**9
    return await open_store(
        CountingEmbedder(DIMS), path=path, index_file_min_vectors=minimum, min_relevance_score=0.0
    )


async def reopened(open_store: OpenStore, path: Path) -> SqliteMemory:
    store = await opened(open_store, path)
    await store.recall("load the index", limit=1, query_vector=await vector_of("x"))
    return store


async def top_keys(
    store: SqliteMemory,
    text: str,
    limit: int = 5,
    *,
    namespace: str | None = "default",
    category: str | None = None,
    session_id: str | None = None,
) -> list[str]:
    result = await store.recall(
        "zzzz",
        limit=limit,
        session_id=session_id,
        namespace=namespace,
        category=category,
        query_vector=await vector_of(text),
    )
    return [entry.key for entry in result.entries]


async def test_a_large_enough_store_writes_its_index_and_opens_from_it(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    assert (index_folder(path) / HEADER_NAME).exists()
    store = await reopened(open_store, path)
    assert from_files(store) and not store._core.warnings  # noqa: SLF001
    for i in (0, 17, 59):
        assert (await top_keys(store, TEXTS[i]))[0] == f"k{i}"


async def test_small_stores_keep_no_files(open_store: OpenStore, tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await open_store(CountingEmbedder(DIMS), path=path)  # the default minimum
    await store.bulk_store([NewMemory(key=f"k{i}", content=t) for i, t in enumerate(TEXTS)])
    await store.recall("x", limit=1, query_vector=await vector_of("x"))
    await store.close()
    assert not index_folder(path).exists()


async def test_changes_after_the_files_are_replayed_at_open(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    # Another process changes the store but never saves the index (it dies, say).
    writer = await opened(open_store, path, keep_files=False)
    await writer.store("new", "a brand new note about violins")
    await writer.forget("k3")
    await writer.store("k5", "k5 now says something about volcanoes")
    await writer.close()
    store = await reopened(open_store, path)
    assert from_files(store)
    assert (await top_keys(store, "a brand new note about violins"))[0] == "new"
    assert "k3" not in await top_keys(store, TEXTS[3], limit=60)
    assert (await top_keys(store, "k5 now says something about volcanoes"))[0] == "k5"
    assert index_of(store).seqs() == await _seqs_in_the_database(open_store, path)


async def _seqs_in_the_database(open_store: OpenStore, path: Path) -> set[int]:
    """The row ids of an index read from the database alone (a copy without files)."""
    plain = path.with_name("plain.db")
    _copy_database(path, plain)
    store = await open_store(CountingEmbedder(DIMS), path=plain, index_file_min_vectors=10**9)
    await store.recall("x", limit=1, query_vector=await vector_of("x"))
    assert not from_files(store)
    return store._core.index.seqs()  # noqa: SLF001


async def test_filters_apply_to_rows_from_the_files(open_store: OpenStore, tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await opened(open_store, path)
    for i, text in enumerate(TEXTS[:20]):
        await store.store_with_metadata(
            f"k{i}",
            text,
            "core" if i % 2 else "daily",
            f"s{i % 4}" if i % 5 else None,
            namespace="work" if i % 3 == 0 else "default",
        )
    await store.close()
    fresh = await opened(open_store, path, keep_files=False)
    store = await reopened(open_store, path)
    assert from_files(store)
    cases: list[dict[str, str]] = [
        {"category": "core"},
        {"namespace": "work"},
        {"session_id": "s1"},
        {"category": "daily", "namespace": "default", "session_id": "s2"},
    ]
    for filters in cases:
        for text in (TEXTS[1], TEXTS[6], "tea"):
            ours = await top_keys(store, text, 8, **filters)
            theirs = await top_keys(fresh, text, 8, **filters)
            assert ours == theirs, filters


async def test_damaged_files_are_reported_and_rebuilt(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    folder = index_folder(path)
    damages: dict[str, Callable[[], object]] = {
        "columns": lambda: _flip(next(folder.glob("*.columns")), 20),
        "vectors": lambda: _flip(next(folder.glob("*.vectors")), 5),
        "truncated": lambda: _truncate(next(folder.glob("*.vectors"))),
        "header": lambda: (folder / HEADER_NAME).write_text("{not json"),
    }
    for name, damage in damages.items():
        damage()
        store = await reopened(open_store, path)
        warnings = " ".join(store._core.warnings)  # noqa: SLF001
        assert "vector index beside the store was not used" in warnings, name
        assert (await top_keys(store, TEXTS[30]))[0] == "k30", name
        await store.close()  # writes sound files again
        store = await reopened(open_store, path)
        assert from_files(store) and not store._core.warnings, name  # noqa: SLF001
        await store.close()


def _flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x40
    path.write_bytes(bytes(data))


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-100])


async def test_a_restored_database_does_not_trust_newer_files(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path, TEXTS[:30])
    backup = tmp_path / "backup.db"
    shutil.copy(path, backup)
    store = await reopened(open_store, path)
    await store.bulk_store([NewMemory(key=f"k{i}", content=TEXTS[i]) for i in range(30, 60)])
    await store.forget("k2")
    await store.close()
    shutil.copy(backup, path)  # the user restores yesterday's copy
    store = await reopened(open_store, path)
    assert len(index_of(store)) == 30
    assert (await top_keys(store, TEXTS[2]))[0] == "k2"
    assert "k45" not in await top_keys(store, TEXTS[45], limit=30)


async def test_another_embedding_model_builds_its_own_files(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    other = CountingEmbedder(DIMS)
    other.model = "another-model"
    store = await open_store(other, path=path, index_file_min_vectors=0, min_relevance_score=0.0)
    await store.recall("x", limit=1, query_vector=await vector_of("x"))
    assert len(index_of(store)) == 0
    assert not store._core.warnings  # noqa: SLF001 - a new model is not damage


async def test_a_read_only_open_writes_no_files(open_store: OpenStore, tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    writer = await opened(open_store, path, keep_files=False)
    await writer.bulk_store([NewMemory(key=f"k{i}", content=t) for i, t in enumerate(TEXTS)])
    await writer.close()
    reader = await SqliteMemory.open(
        path,
        writer.settings.model_copy(update={"index_file_min_vectors": 0}),
        CountingEmbedder(DIMS),
        reading_only=True,
    )
    try:
        assert (await top_keys(reader, TEXTS[8]))[0] == "k8"
    finally:
        await reader.close()
    assert not index_folder(path).exists()


def _copy_database(path: Path, target: Path) -> None:
    """The database with its write-ahead log, without the index files."""
    for tail in ("", "-wal"):
        if Path(f"{path}{tail}").exists():
            shutil.copy(f"{path}{tail}", f"{target}{tail}")


async def test_the_full_check_finds_a_damaged_vector_the_open_sample_missed(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    vectors = next(index_folder(path).glob("*.vectors"))
    _flip(vectors, 4 * DIMS * 30 + 5)  # row 30: not among the rows the open compares
    store = await opened(open_store, path)
    report = await store.health_check()  # before any search could meet the row
    assert not report.ok and "did not match it (the vector of row 31 differs" in report.detail
    assert (await top_keys(store, TEXTS[30]))[0] == "k30"  # rebuilt from the database
    await store.close()
    store = await reopened(open_store, path)
    assert from_files(store)
    assert "did not match" not in (await store.health_check()).detail


HOSTILE_HEADERS = [
    "[]",
    "null",
    '"text"',
    "[" * 5000 + "]" * 5000,
    '{"format": 1}',
    "HEADER:rows=-1",
    "HEADER:rows=10000000000000",
    "HEADER:dims=0",
    'HEADER:rows="60"',
    "HEADER:strings=[1, 2]",
    "HEADER:generation=99",
    "HEADER:format=5",
    "HEADER:format=3",
    "HEADER:partitions=3",
    "HEADER:partitions=-1",
    "HEADER:extra=1",
    "HEADER:identity=null",
    "HEADER:last_change=1.5",
    "HEADER:columns_crc=true",
    '{"format": "\x01"}',
    "RAW:db00ff7b",
]


@pytest.mark.parametrize("header", HOSTILE_HEADERS)
async def test_a_hostile_header_is_reported_and_rebuilt(
    open_store: OpenStore, tmp_path: Path, header: str
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    target = index_folder(path) / HEADER_NAME
    if header.startswith("HEADER:"):
        name, _, value = header.removeprefix("HEADER:").partition("=")
        fields = json.loads(target.read_text())
        fields[name] = json.loads(value)
        header = json.dumps(fields)
    if header.startswith("RAW:"):
        target.write_bytes(bytes.fromhex(header.removeprefix("RAW:")))
    else:
        target.write_text(header)
    store = await reopened(open_store, path)
    warnings = " ".join(store._core.warnings)  # noqa: SLF001
    assert "vector index beside the store was not used" in warnings
    # Said in memchat's words, not a JSON decoder's or a codec's.
    assert not any(word in warnings for word in ("Expecting", "codec", "char ", "line 1 column"))
    assert (await top_keys(store, TEXTS[12]))[0] == "k12"


async def test_links_in_the_index_folder_are_never_written_through(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    folder = index_folder(path)
    victim = tmp_path / "precious.txt"
    victim.write_text("do not touch")
    generation = int(next(folder.glob("*.columns")).name.split(".")[0])
    for name in (
        f"{generation + 1:08d}.columns",
        f"{generation + 1:08d}.vectors",
        "current.json.new",
    ):
        (folder / name).symlink_to(victim)
    store = await reopened(open_store, path)
    await store.bulk_store([NewMemory(key=f"n{i}", content=f"more {i}") for i in range(70)])
    await store.close()  # writes the next generation where the links were
    assert victim.read_text() == "do not touch"
    store = await reopened(open_store, path)
    assert from_files(store) and not store._core.warnings  # noqa: SLF001


async def test_a_long_import_moves_its_vectors_out_of_memory_as_it_goes(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    store = await opened(open_store, path)
    await store.recall("load the index", limit=1, query_vector=await vector_of("x"))
    texts = [f"imported note {i} about {TOPICS[i % len(TOPICS)]}" for i in range(1_300)]
    for start in range(0, len(texts), 100):
        batch = range(start, start + 100)
        await store.bulk_store([NewMemory(key=f"i{i}", content=texts[i]) for i in batch])
        index = index_of(store)
        # Never more rows in memory than in the files (and at most one save's worth).
        assert len(index.overlay) < max(500, 0 if index.base is None else index.base.count)
    assert index.base is not None and index.base.count >= 1_000
    assert (await top_keys(store, texts[1_234]))[0] == "i1234"


def _copy_row(path: Path, source: int, target: int) -> None:
    """Write row `source`'s vector over row `target`'s in the index file."""
    vectors = next(index_folder(path).glob("*.vectors"))
    data = bytearray(vectors.read_bytes())
    size = 4 * DIMS
    data[target * size : (target + 1) * size] = data[source * size : (source + 1) * size]
    vectors.write_bytes(bytes(data))


async def test_a_damaged_row_is_never_returned_and_never_copied_forward(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    _copy_row(path, source=10, target=30)  # row 30 now holds k10's vector
    store = await reopened(open_store, path)  # the sample at open misses row 30
    found = await top_keys(store, TEXTS[10], limit=3)
    assert found[0] == "k10" and "k30" not in found
    warnings = " ".join(store._core.warnings)  # noqa: SLF001
    assert "vector index beside the store was damaged" in warnings
    await store.close()
    store = await reopened(open_store, path)
    assert from_files(store) and not store._core.warnings  # noqa: SLF001 - sound again
    assert (await top_keys(store, TEXTS[30]))[0] == "k30"


async def test_a_save_never_copies_a_damaged_row_into_the_next_generation(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    _copy_row(path, source=10, target=30)
    store = await reopened(open_store, path)
    await store.bulk_store([NewMemory(key=f"n{i}", content=f"more {i}") for i in range(70)])
    await store.close()  # saves: base rows are read, row 30 among them
    assert any("damaged" in w for w in store._core.warnings)  # noqa: SLF001
    store = await reopened(open_store, path)
    assert (await top_keys(store, TEXTS[30]))[0] == "k30"
    assert "k30" not in await top_keys(store, TEXTS[10], limit=3)
    assert (await store.health_check()).detail.count("did not match") == 0


async def test_special_files_in_the_index_folder_never_hang_or_exhaust_memory(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    folder = index_folder(path)
    header = folder / HEADER_NAME
    columns = next(folder.glob("*.columns"))
    cases: list[tuple[str, Callable[[Path], None]]] = [
        ("header", os.mkfifo),
        ("header", lambda p: p.symlink_to("/dev/zero")),
        ("columns", os.mkfifo),
        ("columns", lambda p: p.symlink_to("/dev/zero")),
    ]
    for which, make in cases:
        target = header if which == "header" else columns
        target.unlink()
        make(target)
        store = await reopened(open_store, path)  # returns: never blocks on a FIFO
        assert "was not used" in " ".join(store._core.warnings)  # noqa: SLF001
        assert (await top_keys(store, TEXTS[5]))[0] == "k5"
        await store.close()
        shutil.rmtree(folder)  # start the next case from sound files
        path.unlink()
        await filled(open_store, path)
        header, columns = folder / HEADER_NAME, next(folder.glob("*.columns"))


async def test_foreign_files_in_the_index_folder_are_left_alone(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    folder = index_folder(path)
    for name in ("².columns", "research.vectors", "table.columns", "1.vectors"):
        (folder / name).write_text("someone else's")
    store = await reopened(open_store, path)
    await store.bulk_store([NewMemory(key=f"n{i}", content=f"more {i}") for i in range(70)])
    await store.close()  # writes a new generation, deletes the old one
    for name in ("².columns", "research.vectors", "table.columns", "1.vectors"):
        assert (folder / name).read_text() == "someone else's"


async def test_a_linked_index_folder_is_neither_used_nor_written(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "research.vectors").write_text("kept")
    index_folder(path).symlink_to(shared)
    await filled(open_store, path)
    store = await reopened(open_store, path)
    assert (await top_keys(store, TEXTS[4]))[0] == "k4"
    assert sorted(p.name for p in shared.iterdir()) == ["research.vectors"]


async def test_an_edited_name_in_the_header_is_caught(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    header = index_folder(path) / HEADER_NAME
    header.write_text(header.read_text().replace('"default"', '"defaulx"'))
    store = await reopened(open_store, path)
    assert "checksum" in " ".join(store._core.warnings)  # noqa: SLF001
    assert (await top_keys(store, TEXTS[9]))[0] == "k9"


async def test_a_save_that_fails_leaves_no_partial_files(
    open_store: OpenStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    folder = index_folder(path)
    before = sorted(p.name for p in folder.iterdir())
    real = vector_files._write_synced

    def full_disk(target: Path, chunks: Iterable[bytes]) -> None:
        if target.suffix == ".vectors":
            target.write_bytes(b"\0" * 1000)  # part of it, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        real(target, chunks)

    monkeypatch.setattr(vector_files, "_write_synced", full_disk)
    store = await reopened(open_store, path)
    await store.bulk_store([NewMemory(key=f"n{i}", content=f"more {i}") for i in range(70)])
    await store.close()
    assert "could not be saved" in " ".join(store._core.warnings)  # noqa: SLF001
    assert sorted(p.name for p in folder.iterdir()) == before


async def test_a_damaged_vector_in_the_database_is_reported_not_served(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    ((seq, blob),) = (
        sqlite3.connect(path)
        .execute(
            "SELECT v.seq, v.embedding FROM memory_vectors v JOIN memories m ON m.seq = v.seq "
            "WHERE m.key = 'k30'"
        )
        .fetchall()
    )
    damaged = np.frombuffer(blob, dtype="<f4").copy()
    damaged[3] = 1e30
    for index_files_too in (False, True):
        if index_files_too:
            shutil.rmtree(index_folder(path))  # read from the database alone
        conn = sqlite3.connect(path)
        conn.execute(
            "UPDATE memory_vectors SET embedding = ? WHERE seq = ?", (damaged.tobytes(), seq)
        )
        conn.commit()
        conn.close()
        store = await reopened(open_store, path)
        assert "length 1e+30, not 1" in " ".join(store._core.warnings)  # noqa: SLF001
        assert "k30" not in await top_keys(store, "what is the capital of portugal", limit=3)
        await store.close()


async def test_a_damaged_row_that_no_search_returns_is_still_found(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    vectors = next(index_folder(path).glob("*.vectors"))
    data = bytearray(vectors.read_bytes())
    row = slice(4 * DIMS * 30, 4 * DIMS * 31)  # k30: negated, it ranks last for its own text
    negated = (-np.frombuffer(bytes(data[row]), dtype="<f4")).astype("<f4").tobytes()
    data[row] = negated
    vectors.write_bytes(bytes(data))
    store = await opened(open_store, path)
    await store._db.run(store._core.load_index)  # noqa: SLF001
    verifier = store._core._verifier  # noqa: SLF001 - the test waits for the background check
    assert verifier is not None
    await asyncio.to_thread(verifier._done.wait)  # noqa: SLF001
    assert (await top_keys(store, TEXTS[30]))[0] == "k30"
    assert "vector of row 31 is not the one written" in " ".join(store._core.warnings)  # noqa: SLF001


async def test_a_file_where_the_index_folder_goes_is_reported_in_words(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    index_folder(path).write_text("not a folder")
    store = await opened(open_store, path)
    await store.bulk_store([NewMemory(key=f"k{i}", content=text) for i, text in enumerate(TEXTS)])
    assert (await top_keys(store, TEXTS[3]))[0] == "k3"
    await store.close()
    warnings = " ".join(store._core.warnings)  # noqa: SLF001
    assert "could not be saved beside the store" in warnings
    assert "[Errno" not in warnings
    assert index_folder(path).read_text() == "not a folder"


@pytest.mark.parametrize(("name", "warned"), [("SQLITE_BUSY", False), ("SQLITE_IOERR", True)])
async def test_a_save_that_finds_the_store_busy_is_left_to_the_writer_without_a_warning(
    open_store: OpenStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, warned: bool
) -> None:
    """Found by an adversary: a search beside an import warned that every vector would be
    read from the store, when the importing process saves the files itself."""
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    header = (index_folder(path) / HEADER_NAME).read_text()
    store = await reopened(open_store, path)
    await store.bulk_store([NewMemory(key=f"n{i}", content=f"more {i}") for i in range(70)])

    def refused(token: str) -> None:
        failure = sqlite3.OperationalError("database is locked")
        failure.sqlite_errorname = name
        raise failure

    monkeypatch.setattr(store._core, "_record_token", refused)  # noqa: SLF001
    store._core.save_index(force=True)  # noqa: SLF001
    warnings = " ".join(store._core.warnings)  # noqa: SLF001
    assert ("could not be saved" in warnings) == warned
    assert (index_folder(path) / HEADER_NAME).read_text() == header  # the files in place stay
    assert len(list(index_folder(path).glob("*.vectors"))) == 1  # the half-written one went
    monkeypatch.undo()
    await store.close()
    store = await reopened(open_store, path)
    assert from_files(store) and (await top_keys(store, "more 12"))[0] == "n12"
    await store.close()
