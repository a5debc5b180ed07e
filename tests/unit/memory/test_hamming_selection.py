"""The sign-bit stage of the vector search picks exactly the rows it should."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from memory.vector_index import (
    EXACT_SHARE,
    RowColumns,
    VectorIndex,
    _closest_codes,
    _smallest,
    nearest,
    rescore_size,
    sign_estimates,
    signs,
)

DISTANCES = hnp.arrays(np.uint16, st.integers(1, 300), elements=st.integers(0, 40))


@given(distance=DISTANCES, data=st.data())
def test_the_smallest_distances_ties_at_the_cut_taken_first_come(
    distance: np.ndarray, data: st.DataObject
) -> None:
    keep = data.draw(st.integers(1, distance.size))
    expected = np.sort(np.argsort(distance, kind="stable")[:keep])
    assert np.array_equal(np.sort(_smallest(distance, keep)), expected)


@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 200), data=st.data())
def test_masked_rows_are_never_picked_and_a_full_mask_needs_no_masking(
    seed: int, rows: int, data: st.DataObject
) -> None:
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((rows, 100)).astype(np.float32)
    bits = np.ascontiguousarray(signs(vectors, 2).T)
    query = rng.standard_normal(100).astype(np.float32)
    mask = rng.random(rows) < data.draw(st.floats(0.1, 1.0))
    keep = data.draw(st.integers(1, max(1, int(mask.sum())))) if mask.any() else 1
    if mask.any():
        picked = _closest_codes(query, bits, mask, keep)
        assert mask[picked].all() and picked.size == keep
    everything = np.ones(rows, dtype=np.bool_)
    assert np.array_equal(
        np.sort(_closest_codes(query, bits, everything, keep, every=True)),
        np.sort(_closest_codes(query, bits, everything, keep)),
    )


@given(seed=st.integers(0, 2**32 - 1), dims=st.integers(1, 200))
def test_sign_estimates_are_the_query_against_each_rows_signs(seed: int, dims: int) -> None:
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((50, dims)).astype(np.float32)
    query = rng.standard_normal(dims).astype(np.float32)
    bits = np.ascontiguousarray(signs(vectors, (dims + 63) // 64).T)
    rows = rng.choice(50, size=12, replace=False)
    expected = np.where(vectors[rows] > 0, 1.0, -1.0) @ query
    assert np.allclose(sign_estimates(query, bits, rows), expected, atol=1e-4)


def test_the_narrowed_shortlist_still_finds_each_clear_neighbour() -> None:
    # 3,000 rows with the Hamming stage forced on: 821 shortlisted, 410 scored exactly.
    rng = np.random.default_rng(7)
    rows, dims = 3_000, 768
    vectors = rng.standard_normal((rows, dims)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = VectorIndex(dims, ann_threshold=0, rescore=1)
    meta = RowColumns(
        ["default"] * rows, [None] * rows, ["daily"] * rows, [False] * rows, [0.0] * rows
    )
    index.add_many(list(range(1, rows + 1)), vectors, meta)
    assert rescore_size(rows, 1, 10, dims) > max(80, int(EXACT_SHARE * 821))
    for source in rng.choice(rows, size=40, replace=False).tolist():
        noisy = vectors[source] + 0.6 * rng.standard_normal(dims).astype(np.float32) / 28
        noisy /= np.linalg.norm(noisy)
        assert index.search(noisy, 10)[0][0] == source + 1


def test_a_damaged_row_makes_no_numpy_warning_reach_the_terminal() -> None:
    vectors = np.full((50, 16), 0.25, dtype=np.float32)
    vectors[7] = np.nan
    vectors[8] = 3e38
    bits = np.ascontiguousarray(signs(vectors, 1).T)
    mask = np.ones(50, dtype=np.bool_)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for threshold in (0, 100):
            assert nearest(vectors[0], vectors, bits, mask, 5, threshold, 10)
