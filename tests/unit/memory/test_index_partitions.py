"""A large index's partitions: built when a generation is saved, read back with it, and
searched so that the nearest rows are still found and a filter never comes back short."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import memory.partitions as partitions_module
from memory.partitions import Partitioner, Partitions, assign, centroid_count, train
from memory.testing import CountingEmbedder
from memory.vector_files import HEADER_NAME, IndexHeader, _checksum, _column_layout, index_folder
from memory.vector_index import nearest, signs
from tests.unit.memory.conftest import DIMS, OpenStore
from tests.unit.memory.test_index_files import (
    TEXTS,
    filled,
    from_files,
    index_of,
    reopened,
    top_keys,
    vector_of,
)


def clustered(rows: int, dims: int, topics: int, seed: int = 0) -> npt.NDArray[np.float32]:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((topics, dims)).astype(np.float32)
    vectors = centres[rng.integers(0, topics, rows)] + 0.6 * rng.standard_normal((rows, dims))
    unit: npt.NDArray[np.float32] = (
        vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    ).astype(np.float32)
    return unit


def built(vectors: npt.NDArray[np.float32], count: int) -> Partitions:
    centroids = train(vectors[::3], count)
    bits = np.ascontiguousarray(signs(vectors, (vectors.shape[1] + 63) // 64).T)
    return Partitions.of(centroids, assign(vectors, centroids), bits)


def test_small_generations_are_searched_flat_and_large_ones_get_about_root_partitions() -> None:
    assert centroid_count(partitions_module.PARTITION_MIN_ROWS - 1) == 0
    assert centroid_count(100_000) == 316
    assert centroid_count(1_000_000) == 1_000


def test_every_row_is_in_the_partition_of_its_nearest_centroid() -> None:
    vectors = clustered(3_000, 32, 12)
    partitioner = Partitioner(len(vectors), None)
    partitioner.count = 40  # as a large generation would be
    partitioner._stride = 5  # noqa: SLF001 - a sample of 600 rows
    for start in range(0, len(vectors), 700):
        partitioner.take(vectors[start : start + 700])
    found = partitioner.finish(lambda start, stop: vectors[start:stop])
    assert found is not None and found.fits(len(vectors))
    best = np.argmax(vectors @ found.centroids.T, axis=1)
    assert np.array_equal(found.assignment, best)
    for part in range(len(found.centroids)):
        rows = found.order[found.offsets[part] : found.offsets[part + 1]]
        assert (found.assignment[rows] == part).all()
    assert sorted(found.order.tolist()) == list(range(len(vectors)))


def test_the_previous_centroids_are_kept_until_the_store_changes_size_fourfold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(partitions_module, "PARTITION_MIN_ROWS", 10)
    vectors = clustered(400, 16, 5)
    previous = train(vectors, centroid_count(400))
    same = Partitioner(400, previous)
    same.take(vectors)
    kept = same.finish(lambda start, stop: vectors[start:stop])
    assert kept is not None and kept.centroids is previous
    grown = Partitioner(400 * 5, previous)
    assert grown.centroids is None  # trained anew at the next save


def test_a_probe_returns_only_rows_under_the_mask_and_enough_of_them() -> None:
    vectors = clustered(20_000, 32, 40)
    parts = built(vectors, 140)
    rng = np.random.default_rng(3)
    mask = np.zeros(len(vectors), np.bool_)
    mask[rng.choice(len(vectors), 600, replace=False)] = True  # a rare namespace, say
    query = vectors[17]
    found = parts.order[parts.probe(query, mask, 400)]
    assert found.size >= 400
    assert mask[found].all()
    assert len(set(found.tolist())) == found.size
    every = parts.order[parts.probe(query, mask, 10_000)]
    assert sorted(every.tolist()) == np.flatnonzero(mask).tolist()


@pytest.mark.parametrize("grouped", [True, False])
def test_a_partitioned_search_finds_the_nearest_rows_and_honours_the_filter(
    monkeypatch: pytest.MonkeyPatch, grouped: bool
) -> None:
    if grouped:  # as a generation of a few hundred thousand rows has
        monkeypatch.setattr(partitions_module, "GROUPED_BITS_MIN_ROWS", 1)
    vectors = clustered(30_000, 64, 60)
    parts = built(vectors, 170)
    assert (parts.grouped_bits is not None) == grouped
    bits = np.ascontiguousarray(signs(vectors, 1).T)
    rng = np.random.default_rng(4)
    every = np.ones(len(vectors), np.bool_)
    hits = 0
    for pick in rng.integers(0, len(vectors), 20):
        query = vectors[pick] + 0.05 * rng.standard_normal(64).astype(np.float32)
        query /= np.linalg.norm(query)
        exact = set(np.argsort(-(vectors @ query))[:10].tolist())
        found = nearest(query, vectors, bits, every, 10, 1_000, 100, parts)
        assert [score for _, score in found] == sorted((s for _, s in found), reverse=True)
        hits += len({at for at, _ in found} & exact)
    assert hits / 200 >= 0.97
    mask = np.zeros(len(vectors), np.bool_)
    mask[::20] = True  # 1,500 rows: above the threshold, so searched by partition
    found = nearest(vectors[5], vectors, bits, mask, 10, 1_000, 100, parts)
    assert len(found) == 10 and all(mask[at] for at, _ in found)


async def test_a_saved_generation_keeps_its_partitions_and_searches_with_them(
    open_store: OpenStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(partitions_module, "PARTITION_MIN_ROWS", 20)
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    header = json.loads((index_folder(path) / HEADER_NAME).read_text())
    assert header["format"] == 4 and header["partitions"] == centroid_count(len(TEXTS))
    # A threshold below the store's size: every search goes through the partitions.
    store = await open_store(
        CountingEmbedder(DIMS),
        path=path,
        index_file_min_vectors=0,
        min_relevance_score=0.0,
        ann_threshold=10,
    )
    await store.recall("load the index", limit=1, query_vector=await vector_of("x"))
    assert from_files(store)
    base = index_of(store).base
    assert base is not None and base.rows.partitions is not None
    assert base.rows.partitions.fits(len(TEXTS))
    assert (await top_keys(store, TEXTS[12]))[0] == "k12"
    query = await vector_of(TEXTS[40])
    assert index_of(store).search(query, 1)[0][1] == pytest.approx(1.0, abs=1e-5)
    await store.close()


async def test_a_generation_saved_before_partitions_existed_is_still_used(
    open_store: OpenStore, tmp_path: Path
) -> None:
    path = tmp_path / "brain.db"
    await filled(open_store, path)  # small: no partitions, the same columns as format 3
    target = index_folder(path) / HEADER_NAME
    fields = json.loads(target.read_text())
    del fields["partitions"]
    fields["format"] = 3
    columns = next(index_folder(path).glob("*.columns")).read_bytes()
    fields["columns_crc"] = _checksum(columns, IndexHeader(**fields))
    target.write_text(json.dumps(fields))
    store = await reopened(open_store, path)
    assert from_files(store)
    assert not store._core.warnings  # noqa: SLF001
    assert (await top_keys(store, TEXTS[12]))[0] == "k12"
    await store.close()


def forged(path: Path, change_header: dict[str, object], change_columns: str | None) -> None:
    """Rewrite the header and column file as a forger would: checksum made again."""
    folder = index_folder(path)
    target = folder / HEADER_NAME
    fields = json.loads(target.read_text())
    columns_file = next(folder.glob("*.columns"))
    raw = bytearray(columns_file.read_bytes())
    words = (fields["dims"] + 63) // 64
    offset = 0
    for name, dtype, count in _column_layout(
        fields["rows"], words, fields["partitions"], fields["dims"]
    ):
        size = count * np.dtype(dtype).itemsize
        column = np.frombuffer(raw, dtype=dtype, count=count, offset=offset).copy()
        if name == change_columns == "namespace":
            column[:] = 5  # names no namespace the header holds
        elif name == change_columns == "centroids":
            column[:] = np.nan
        elif name == change_columns == "partition":
            column[:] = (column + 1) % fields["partitions"]  # every row one partition on
        elif name == "partition" and change_columns == "partition out of range":
            column[0] = 60_000
        raw[offset : offset + size] = column.tobytes()
        offset += size
    columns_file.write_bytes(bytes(raw))
    fields.update(change_header)
    fields["columns_crc"] = _checksum(bytes(raw), IndexHeader(**fields))
    target.write_text(json.dumps(fields))


@pytest.mark.parametrize(
    ("header", "columns", "said"),
    [
        ({"partitions": 9}, None, "not the size its header says"),
        ({"partitions": 10**24}, None, "more partitions than it can have"),
        ({"partitions": 4096}, None, "more partitions than it can have"),
        ({}, "namespace", "namespace column names a value its header lacks"),
        ({}, "centroids", "centroids are not numbers"),
        ({}, "partition", "partitions do not match their vectors"),
        ({}, "partition out of range", "names a partition it does not hold"),
    ],
)
async def test_index_files_forged_with_their_checksum_are_reported_and_rebuilt(
    open_store: OpenStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    header: dict[str, object],
    columns: str | None,
    said: str,
) -> None:
    """Found by an adversary: a forged header crashed every search; forged columns were
    used as they were, hiding memories without a word."""
    monkeypatch.setattr(partitions_module, "PARTITION_MIN_ROWS", 20)
    path = tmp_path / "brain.db"
    await filled(open_store, path)
    forged(path, header, columns)
    store = await reopened(open_store, path)
    warnings = " ".join(store._core.warnings)  # noqa: SLF001
    assert said in warnings
    assert (await top_keys(store, TEXTS[12]))[0] == "k12"
    await store.close()
