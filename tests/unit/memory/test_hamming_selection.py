"""The sign-bit stage of the vector search picks exactly the rows it should."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from memory.vector_index import _closest_codes, _smallest, signs

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
