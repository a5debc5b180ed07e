"""The layered index (a generation from files plus the changes since) answers exactly as
one in-memory index given the same operations, through any number of saves."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory.partitions as partitions_module
from memory.layered_index import LayeredIndex
from memory.vector_files import (
    IndexFileDamagedError,
    index_folder,
    publish,
    read_index,
    write_generation,
    writing_lock,
)
from memory.vector_index import RowMeta, VectorFilter, VectorIndex

DIMS = 16
SEQS = st.integers(min_value=1, max_value=40)
META = st.builds(
    RowMeta,
    namespace=st.sampled_from(["default", "work"]),
    session_id=st.sampled_from([None, "a", "b"]),
    category=st.sampled_from(["core", "daily", "conversation"]),
    superseded=st.booleans(),
    created=st.floats(min_value=0, max_value=100, allow_nan=False),
)
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("upsert"), SEQS, st.integers(0, 2**32 - 1), META),
        st.tuples(st.just("remove"), SEQS),
        st.tuples(st.just("save")),
    ),
    max_size=60,
)
FILTERS = [
    VectorFilter(),
    VectorFilter(namespace="work"),
    VectorFilter(session_id="a"),
    VectorFilter(category="daily", include_superseded=True),
    VectorFilter(since=20.0, until=80.0, exclude=frozenset({1, 2, 3, 4, 5})),
]


def unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).standard_normal(DIMS).astype(np.float32)
    return (vector / np.linalg.norm(vector)).astype(np.float32)


def twenty_saved(database: Path, ann: int) -> LayeredIndex:
    """An index of rows 1-20 (row n holds `unit(n)`), saved and read back as its base."""
    index = LayeredIndex(DIMS, ann_threshold=ann)
    meta = RowMeta("default", None, "core", False, 1.0)
    for seq in range(1, 21):
        index.upsert(seq, unit(seq), meta)
    save_and_reread(index, database, 1)
    assert index.base is not None
    return index


def save_and_reread(index: LayeredIndex, database: Path, generation: int) -> None:
    with writing_lock(database):
        columns, chunks = index.merged()
        fields = {
            "dims": index.dimensions,
            "identity": "t",
            "last_change": 0,
            "skipped": [],
            "token": "x",
        }
        centroids, carried = index.partitions_carried(columns.seq)
        header = write_generation(database, generation, columns, chunks, fields, centroids, carried)
        publish(database, header)
    loaded = read_index(database)
    assert not isinstance(loaded, str), loaded
    index.set_base(loaded.rows, loaded.checks, loaded.mapped)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations=OPERATIONS, ann=st.sampled_from([0, 1000]), partitioned=st.booleans())
def test_layered_index_matches_one_in_memory_index(
    tmp_path: Path, operations: list[tuple[object, ...]], ann: int, partitioned: bool
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        if partitioned:  # every generation of 4 rows or more is partitioned
            patch.setattr(partitions_module, "PARTITION_MIN_ROWS", 4)
        layered_matches_in_memory(tmp_path, operations, ann, partitioned)


def layered_matches_in_memory(
    tmp_path: Path, operations: list[tuple[object, ...]], ann: int, partitioned: bool
) -> None:
    database = tmp_path / f"brain-{abs(hash(str(operations)))}-{ann}-{partitioned}.db"
    reference = VectorIndex(DIMS, ann_threshold=10**9)
    layered = LayeredIndex(DIMS, ann_threshold=ann)
    generation = 0
    for operation in operations:
        if operation[0] == "upsert":
            _, seq, seed, meta = operation
            assert isinstance(seq, int) and isinstance(seed, int) and isinstance(meta, RowMeta)
            reference.upsert(seq, unit(seed), meta)
            layered.upsert(seq, unit(seed), meta)
        elif operation[0] == "remove":
            removed = operation[1]
            assert isinstance(removed, int)
            reference.remove(removed)
            layered.remove(removed)
        else:
            generation += 1
            save_and_reread(layered, database, generation)
            base = layered.base
            assert base is not None
            assert (base.rows.partitions is not None) == (partitioned and len(base.rows.seq) >= 4)
    assert len(layered) == len(reference) and layered.seqs() == reference.seqs()
    for seq in range(1, 41):
        assert (seq in layered) == (seq in reference)
        ours, theirs = layered.vector(seq), reference.vector(seq)
        assert (ours is None) == (theirs is None)
        if ours is not None:
            np.testing.assert_array_equal(ours, theirs)
    query = unit(7)
    for flt in FILTERS:
        # Every row is a candidate at ann=1000 (exact); at 0 the sign bits prefilter, but
        # with so few rows every one of them is rescored, so the answer is still exact.
        ours_found = layered.search(query, 5, flt)
        theirs_found = reference.search(query, 5, flt)
        # Equal scores may come in either order: compare the scores, and that each row
        # returned passes the filter and has that score.
        np.testing.assert_allclose(
            [score for _, score in ours_found],
            [score for _, score in theirs_found],
            rtol=1e-5,
            atol=1e-6,
        )
        allowed = {seq for seq, _ in reference.search(query, 100, flt)}
        exact = reference.similarity(query, [seq for seq, _ in ours_found])
        for seq, score in ours_found:
            assert seq in allowed and abs(exact[seq] - score) < 1e-5, flt
    wanted = list(range(1, 41))
    assert layered.similarity(query, wanted).keys() == reference.similarity(query, wanted).keys()


def test_a_save_assigns_only_the_rows_new_or_changed_since_the_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(partitions_module, "PARTITION_MIN_ROWS", 10)
    assigned: list[int] = []
    real_assign = partitions_module.assign

    def counting(vectors: np.ndarray, centroids: np.ndarray) -> np.ndarray:
        assigned.append(len(vectors))
        return real_assign(vectors, centroids)

    monkeypatch.setattr(partitions_module, "assign", counting)
    database = tmp_path / "brain.db"
    index = LayeredIndex(DIMS, ann_threshold=0)
    meta = RowMeta("default", None, "core", False, 1.0)
    for seq in range(1, 41):
        index.upsert(seq, unit(seq), meta)
    save_and_reread(index, database, 1)
    first = index.base
    assert first is not None and first.rows.partitions is not None
    assert sum(assigned) == 40  # trained, then every row assigned
    assigned.clear()
    index.upsert(3, unit(300), meta)  # changed
    index.upsert(41, unit(41), meta)  # new
    index.remove(7)
    save_and_reread(index, database, 2)
    second = index.base
    assert second is not None and second.rows.partitions is not None
    assert sum(assigned) == 2
    assert second.rows.partitions.centroids.tobytes() == first.rows.partitions.centroids.tobytes()
    before = dict(
        zip(first.rows.seq.tolist(), first.rows.partitions.assignment.tolist(), strict=True)
    )
    after = dict(
        zip(second.rows.seq.tolist(), second.rows.partitions.assignment.tolist(), strict=True)
    )
    assert all(after[seq] == before[seq] for seq in after if seq not in (3, 41))
    nearest = partitions_module.assign(
        np.stack([unit(300), unit(41)]), second.rows.partitions.centroids
    )
    assert [after[3], after[41]] == nearest.tolist()


def test_a_damaged_base_row_stops_a_save_and_every_read_of_it(tmp_path: Path) -> None:
    database = tmp_path / "brain.db"
    index = twenty_saved(database, 1000)
    with next(index_folder(database).glob("*.vectors")).open("r+b") as vectors:
        vectors.seek(4 * DIMS * 7 + 2)  # one bit of row 8, seen through the mapping
        byte = vectors.read(1)[0]
        vectors.seek(4 * DIMS * 7 + 2)
        vectors.write(bytes([byte ^ 0x01]))
    with pytest.raises(IndexFileDamagedError, match="row 8"):
        index.vector(8)
    with pytest.raises(IndexFileDamagedError):
        index.search(unit(8), 3)
    with pytest.raises(IndexFileDamagedError):
        _, chunks = index.merged()
        list(chunks)
    assert index.vector(9) is not None  # the other rows read as written


@pytest.mark.parametrize(("ann", "mapped"), [(1000, True), (5, False)])
def test_a_large_generation_is_read_row_by_row_never_through_the_mapping(
    tmp_path: Path, ann: int, mapped: bool
) -> None:
    """A generation scanned whole on every search reads its mapping (its pages stay), for
    the rows it returns and compares too; a large one reads the rows it scores from the
    file, so no page is left mapped."""
    database = tmp_path / "brain.db"
    index = twenty_saved(database, ann)
    assert index.base is not None
    original = index.base.mapped
    # The mapping replaced by zeros: a read of it is caught by the row checks.
    zeros = np.lib.stride_tricks.as_strided(
        np.zeros(1, dtype=np.float32), shape=original.vectors.shape, strides=(0, 0)
    )
    index.base.mapped = type(original)(zeros, original.whole, original.read_rows, original.read_at)
    index.base.rows = replace(index.base.rows, vectors=zeros)
    reads: list[Callable[[], object]] = [
        lambda: index.search(unit(3), 3),
        lambda: index.similarity(unit(3), [3]),
        lambda: index.vector(5),
    ]
    if mapped:
        for read in reads:
            with pytest.raises(IndexFileDamagedError):
                read()
        return
    best = index.search(unit(3), 3)[0]
    assert best[0] == 3 and best[1] == pytest.approx(1.0)
    assert index.similarity(unit(3), [3])[3] == pytest.approx(1.0)
    found = index.vector(5)
    assert found is not None and np.array_equal(found, unit(5))


def test_rows_read_by_position_come_back_in_the_order_asked(tmp_path: Path) -> None:
    database = tmp_path / "brain.db"
    index = twenty_saved(database, 5)
    assert index.base is not None
    read_at = index.base.mapped.read_at
    found = read_at(np.array([5, 2, 2, 19, 3, 4], dtype=np.intp))
    np.testing.assert_array_equal(found, np.stack([unit(s + 1) for s in (5, 2, 2, 19, 3, 4)]))
    assert read_at(np.zeros(0, dtype=np.intp)).shape == (0, DIMS)
    with pytest.raises(IndexError):
        read_at(np.array([20], dtype=np.intp))
    vectors_file = next(index_folder(database).glob("*.vectors"))
    with vectors_file.open("r+b") as file:
        file.truncate(4 * DIMS * 10)  # another program cuts the file short
    with pytest.raises(IndexFileDamagedError, match="cut short"):
        read_at(np.array([12], dtype=np.intp))


@pytest.mark.parametrize("saved", [False, True])
def test_sparse_vectors_are_searched_exactly_however_many(tmp_path: Path, saved: bool) -> None:
    """Found by an adversary: sign bits cannot rank a feature-hashing embedder's vectors
    (mostly zeros), so above the exact-search threshold the best match was often lost."""
    rng = np.random.default_rng(5)
    dims, rows = 256, 3_000

    def sparse(nonzero: int) -> np.ndarray:
        vector = np.zeros(dims, dtype=np.float32)
        vector[rng.choice(dims, nonzero, replace=False)] = rng.standard_normal(nonzero)
        return (vector / np.linalg.norm(vector)).astype(np.float32)

    vectors = np.stack([sparse(27) for _ in range(rows)])
    index = LayeredIndex(dims, ann_threshold=100, rescore=50)
    meta = RowMeta("default", None, "core", False, 1.0)
    for seq in range(rows):
        index.upsert(seq + 1, vectors[seq], meta)
    if saved:
        save_and_reread(index, tmp_path / "brain.db", 1)
    for _ in range(20):
        query = sparse(9)
        best = int(np.argmax(vectors @ query)) + 1
        assert index.search(query, 5)[0][0] == best
