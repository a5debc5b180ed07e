"""An in-memory vector index derived from the database.

Small stores are searched exactly; large ones through binary (sign-bit) prefiltering
with exact rescoring of the survivors.

Every filter recall supports is applied as a mask *before* the top-k cut, so a filtered
query never comes back short because unfiltered rows used up the limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

_T = TypeVar("_T", bound=np.generic)
_NO_CODE = -1
_GROWTH = 1.5


@dataclass(frozen=True)
class RowMeta:
    """The filterable fields of one indexed entry."""

    namespace: str
    session_id: str | None
    category: str
    superseded: bool
    created: float
    """Creation time as a UTC epoch."""


@dataclass(frozen=True)
class RowColumns:
    """The filterable fields of many rows, a list per field (see `RowMeta`)."""

    namespaces: list[str]
    sessions: list[str | None]
    categories: list[str]
    superseded: list[bool]
    created: list[float]


@dataclass(frozen=True)
class VectorFilter:
    """Which rows a search may return; None means no constraint."""

    namespace: str | None = None
    session_id: str | None = None
    """Rows of this session plus rows stored without a session."""
    category: str | None = None
    include_superseded: bool = False
    since: float | None = None
    until: float | None = None
    exclude: frozenset[int] = frozenset()


class VectorIndex:
    """Unit vectors keyed by row id (the table's integer `seq`)."""

    def __init__(self, dimensions: int, ann_threshold: int = 20_000, rescore: int = 400) -> None:
        self.dimensions = dimensions
        self.ann_threshold = ann_threshold
        self.rescore = rescore
        self._words = (dimensions + 63) // 64
        self._codes: dict[str, int] = {}
        self._position: dict[int, int] = {}
        self._free: list[int] = []
        self._rows = 0
        self._capacity = 1024
        self._vectors = np.zeros((self._capacity, dimensions), dtype=np.float32)
        self._bits = np.zeros((self._capacity, self._words), dtype=np.uint64)
        self._seq = np.zeros(self._capacity, dtype=np.int64)
        self._namespace = np.zeros(self._capacity, dtype=np.int32)
        self._session = np.zeros(self._capacity, dtype=np.int32)
        self._category = np.zeros(self._capacity, dtype=np.int32)
        self._superseded = np.zeros(self._capacity, dtype=np.bool_)
        self._created = np.zeros(self._capacity, dtype=np.float64)
        self._alive = np.zeros(self._capacity, dtype=np.bool_)

    def _grow(self) -> None:
        capacity = int(self._capacity * _GROWTH) + 1

        def resized(array: npt.NDArray[_T]) -> npt.NDArray[_T]:
            new = np.zeros((capacity, *array.shape[1:]), dtype=array.dtype)
            new[: self._rows] = array[: self._rows]
            return new

        self._vectors = resized(self._vectors)
        self._bits = resized(self._bits)
        self._seq = resized(self._seq)
        self._namespace = resized(self._namespace)
        self._session = resized(self._session)
        self._category = resized(self._category)
        self._superseded = resized(self._superseded)
        self._created = resized(self._created)
        self._alive = resized(self._alive)
        self._capacity = capacity

    def __len__(self) -> int:
        return len(self._position)

    def __contains__(self, seq: int) -> bool:
        return seq in self._position

    def _code(self, value: str | None) -> int:
        if value is None:
            return _NO_CODE
        return self._codes.setdefault(value, len(self._codes))

    def _signs(self, vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.uint64]:
        packed = np.packbits(vectors > 0, axis=-1)
        pad = self._words * 8 - packed.shape[-1]
        if pad:
            packed = np.pad(packed, [(0, 0)] * (packed.ndim - 1) + [(0, pad)])
        return np.ascontiguousarray(packed).view(np.uint64)

    def upsert(self, seq: int, vector: npt.NDArray[np.float32], meta: RowMeta) -> None:
        """Add or replace one row; `vector` must already be unit length."""
        position = self._position.get(seq)
        if position is None:
            if self._free:
                position = self._free.pop()
            else:
                if self._rows == self._capacity:
                    self._grow()
                position = self._rows
                self._rows += 1
            self._position[seq] = position
        self._vectors[position] = vector
        self._bits[position] = self._signs(vector.reshape(1, -1))[0]
        self._seq[position] = seq
        self._namespace[position] = self._code(meta.namespace)
        self._session[position] = self._code(meta.session_id)
        self._category[position] = self._code(meta.category)
        self._superseded[position] = meta.superseded
        self._created[position] = meta.created
        self._alive[position] = True

    def reserve(self, rows: int) -> None:
        """Make room for `rows` rows at once (before loading them)."""
        while self._capacity < rows:
            self._grow()

    def add_many(self, seqs: list[int], vectors: npt.NDArray[np.float32], meta: RowColumns) -> None:
        """Add rows not yet in the index in one go (loading a store); unit vectors."""
        count = len(seqs)
        self.reserve(self._rows + count)
        start, end = self._rows, self._rows + count
        self._vectors[start:end] = vectors
        self._bits[start:end] = self._signs(vectors)
        self._seq[start:end] = seqs
        self._namespace[start:end] = [self._code(value) for value in meta.namespaces]
        self._session[start:end] = [self._code(value) for value in meta.sessions]
        self._category[start:end] = [self._code(value) for value in meta.categories]
        self._superseded[start:end] = meta.superseded
        self._created[start:end] = meta.created
        self._alive[start:end] = True
        self._position.update(zip(seqs, range(start, end), strict=True))
        self._rows = end

    def remove(self, seq: int) -> None:
        """Drop a row if present."""
        position = self._position.pop(seq, None)
        if position is not None:
            self._alive[position] = False
            self._free.append(position)

    def clear(self) -> None:
        """Forget every row."""
        self._position.clear()
        self._free.clear()
        self._rows = 0
        self._alive[:] = False

    def _mask(self, flt: VectorFilter) -> npt.NDArray[np.bool_]:
        n = self._rows
        mask = self._alive[:n].copy()
        if flt.namespace is not None:
            mask &= self._namespace[:n] == self._codes.get(flt.namespace, -2)
        if flt.session_id is not None:
            session = self._session[:n]
            mask &= (session == self._codes.get(flt.session_id, -2)) | (session == _NO_CODE)
        if flt.category is not None:
            mask &= self._category[:n] == self._codes.get(flt.category, -2)
        if not flt.include_superseded:
            mask &= ~self._superseded[:n]
        if flt.since is not None:
            mask &= self._created[:n] >= flt.since
        if flt.until is not None:
            mask &= self._created[:n] < flt.until
        for seq in flt.exclude:
            position = self._position.get(seq)
            if position is not None:
                mask[position] = False
        return mask

    def search(
        self, query: npt.NDArray[np.float32], k: int, flt: VectorFilter = VectorFilter()
    ) -> list[tuple[int, float]]:
        """The k rows most similar to `query` (unit length), best first, as (seq, cosine)."""
        mask = self._mask(flt)
        candidates = np.flatnonzero(mask)
        if k <= 0 or candidates.size == 0:
            return []
        if candidates.size > self.ann_threshold:
            candidates = self._prefilter(query, mask, max(self.rescore, 8 * k))
            scores = self._vectors[candidates] @ query
        elif candidates.size * 4 < self._rows:
            scores = self._vectors[candidates] @ query  # few rows: gathering them is cheaper
        else:
            scores = (self._vectors[: self._rows] @ query)[candidates]
        take = min(k, scores.size)
        top = np.argpartition(-scores, take - 1)[:take]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(self._seq[candidates[i]]), float(scores[i])) for i in top]

    def _prefilter(
        self, query: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_], keep: int
    ) -> npt.NDArray[np.intp]:
        query_bits = self._signs(query.reshape(1, -1))[0]
        distance = np.bitwise_count(self._bits[: self._rows] ^ query_bits).sum(
            axis=1, dtype=np.uint16
        )
        distance[~mask] = np.iinfo(np.uint16).max
        keep = min(keep, int(mask.sum()))
        return np.argpartition(distance, keep - 1)[:keep]

    def similarity(self, query: npt.NDArray[np.float32], seqs: list[int]) -> dict[int, float]:
        """Exact cosine for specific rows; rows without a vector are absent."""
        positions = [(seq, self._position[seq]) for seq in seqs if seq in self._position]
        if not positions:
            return {}
        scores = self._vectors[[p for _, p in positions]] @ query
        return {seq: float(score) for (seq, _), score in zip(positions, scores, strict=True)}

    def seqs(self) -> set[int]:
        """Row ids that have a vector in the index."""
        return set(self._position)

    def vector(self, seq: int) -> npt.NDArray[np.float32] | None:
        """The stored vector of one row (a copy), or None."""
        position = self._position.get(seq)
        return None if position is None else self._vectors[position].copy()

    def nbytes(self) -> int:
        """Memory held by the index arrays."""
        return int(self._vectors.nbytes + self._bits.nbytes + self._created.nbytes * 4)
