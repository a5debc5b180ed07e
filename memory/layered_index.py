"""The vector index as a read-only base from the index files plus the changes since.

The base is a generation read by `memory.vector_files`: its vectors stay in the file
(memory-mapped) and only its row ids, sign bits and filter columns are in memory. Rows
changed or added since live in a small in-memory `VectorIndex` (the overlay); a base row
that was changed or deleted is hidden, not rewritten. A search asks both and merges.
`save` writes base and overlay together as the next generation.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from memory.vector_files import IndexFileDamagedError, MappedVectors, damaged_row
from memory.vector_index import (
    FilterColumns,
    IndexRows,
    RowColumns,
    RowMeta,
    VectorFilter,
    VectorIndex,
    filter_mask,
    nearest,
)

_WRITE_CHUNK = 8192
_ANY = VectorFilter()


class BaseRows:
    """A generation's rows: searchable, never changed, rows hidden by id."""

    def __init__(
        self,
        rows: IndexRows,
        checks: npt.NDArray[np.uint32] | None,
        mapped: MappedVectors | None = None,
        scanned: bool = True,
    ) -> None:
        self.rows = rows
        self.checks = checks
        self.mapped = mapped or MappedVectors.in_memory(rows.vectors)
        """How `rows.vectors` is read: see `MappedVectors`."""
        self.scanned = scanned
        """Small enough that every search reads it whole: its pages are in memory, and a
        few rows are copied from the mapping rather than read from the file one by one."""
        self.codes = {name: code for code, name in enumerate(rows.strings)}
        self.alive = np.ones(len(rows.seq), dtype=np.bool_)
        self.count = len(rows.seq)

    def position(self, seq: int) -> int | None:
        """Where a live row is (row ids are stored in ascending order)."""
        at = int(np.searchsorted(self.rows.seq, seq))
        if at < self.alive.size and int(self.rows.seq[at]) == seq and self.alive[at]:
            return at
        return None

    def positions(self, seqs: list[int]) -> tuple[list[int], npt.NDArray[np.intp]]:
        """The live rows among `seqs`, and where each is: `position` for many at once."""
        if not self.alive.size:
            return [], np.zeros(0, dtype=np.intp)
        wanted = np.asarray(seqs, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.rows.seq, wanted), self.alive.size - 1)
        found = (self.rows.seq[at] == wanted) & self.alive[at]
        return wanted[found].tolist(), at[found]

    def read(self, positions: npt.NDArray[np.intp] | list[int]) -> npt.NDArray[np.float32]:
        """The vectors at `positions`, checked against what was written.

        Raises `IndexFileDamagedError` for a row whose bytes changed in the file: its
        score would be wrong, and nothing else would ever say so.
        """
        at = np.asarray(positions, dtype=np.intp)
        if self.scanned:
            self.mapped.whole()
            vectors = np.array(self.rows.vectors[at], dtype=np.float32)
        else:
            vectors = self.mapped.read_at(at)
        if self.checks is not None and len(at):
            problem = damaged_row(vectors, self.checks[at], self.rows.seq[at])
            if problem is not None:
                raise IndexFileDamagedError(problem)
        return vectors

    def hide(self, seq: int) -> None:
        """Leave a row out from now on (it changed, or is gone)."""
        at = self.position(seq)
        if at is not None:
            self.alive[at] = False
            self.count -= 1

    def search(
        self,
        query: npt.NDArray[np.float32],
        k: int,
        flt: VectorFilter,
        threshold: int,
        rescore: int,
    ) -> list[tuple[int, float]]:
        """(seq, cosine) of the k best live rows that pass `flt`, best first."""
        mask = filter_mask(self.rows.columns, self.alive, self.codes, flt)
        for seq in flt.exclude:
            at = self.position(seq)
            if at is not None:
                mask[at] = False
        # A small generation is scanned whole through the mapping (its pages stay: every
        # search reads them all); a large one is read row by row (`MappedVectors.read_at`).
        scanned = self.scanned
        if scanned:
            self.mapped.whole()
        found = nearest(
            query,
            self.rows.vectors,
            self.rows.bits,
            mask,
            k,
            threshold,
            rescore,
            self.rows.partitions,
            None if scanned else self.mapped.read_at,
        )
        self.read([at for at, _ in found])  # what is returned was read intact
        return [(int(self.rows.seq[at]), score) for at, score in found]


@dataclass(frozen=True)
class _Source:
    seq: npt.NDArray[np.int64]
    from_base: npt.NDArray[np.bool_]
    position: npt.NDArray[np.intp]


class LayeredIndex:
    """Unit vectors keyed by row id: a base generation (optional) plus an overlay."""

    def __init__(self, dimensions: int, ann_threshold: int = 20_000, rescore: int = 400) -> None:
        self.dimensions = dimensions
        self.ann_threshold = ann_threshold
        self.rescore = rescore
        self.base: BaseRows | None = None
        self.overlay = VectorIndex(dimensions, ann_threshold, rescore)

    def set_base(
        self,
        rows: IndexRows | None,
        checks: npt.NDArray[np.uint32] | None = None,
        mapped: MappedVectors | None = None,
    ) -> None:
        """Start from a generation (or from nothing); the overlay is emptied.

        `mapped`: how a generation read from files reads its vectors (in memory if None).
        """
        scanned = rows is not None and rows.seq.size <= self.ann_threshold
        self.base = None if rows is None else BaseRows(rows, checks, mapped, scanned)
        # A new overlay, not a cleared one: its arrays may have grown large.
        self.overlay = VectorIndex(self.dimensions, self.ann_threshold, self.rescore)

    @property
    def in_files(self) -> int:
        """Rows served from the base generation (those not changed since it was read)."""
        return 0 if self.base is None else self.base.count

    @property
    def changed(self) -> int:
        """Rows added, changed or deleted since the base was read (what the files lack)."""
        hidden = 0 if self.base is None else self.base.alive.size - self.base.count
        return len(self.overlay) + hidden

    def __len__(self) -> int:
        return self.in_files + len(self.overlay)

    def __contains__(self, seq: int) -> bool:
        in_base = self.base is not None and self.base.position(seq) is not None
        return in_base or seq in self.overlay

    def _hide(self, seq: int) -> None:
        if self.base is not None:
            self.base.hide(seq)

    def upsert(self, seq: int, vector: npt.NDArray[np.float32], meta: RowMeta) -> None:
        """Add or replace one row; `vector` must already be unit length."""
        self._hide(seq)
        self.overlay.upsert(seq, vector, meta)

    def reserve(self, rows: int) -> None:
        """Make room for `rows` rows at once (before loading them)."""
        self.overlay.reserve(rows)

    def add_many(self, seqs: list[int], vectors: npt.NDArray[np.float32], meta: RowColumns) -> None:
        """Add rows that are in neither layer (loading a store); unit vectors."""
        self.overlay.add_many(seqs, vectors, meta)

    def remove(self, seq: int) -> None:
        """Drop a row if present."""
        self._hide(seq)
        self.overlay.remove(seq)

    def clear(self) -> None:
        """Forget every row."""
        self.set_base(None)

    def search(
        self, query: npt.NDArray[np.float32], k: int, flt: VectorFilter = _ANY
    ) -> list[tuple[int, float]]:
        """The k rows most similar to `query` (unit length), best first, as (seq, cosine)."""
        found = self.overlay.search(query, k, flt)
        if self.base is not None:
            found += self.base.search(query, k, flt, self.ann_threshold, self.rescore)
            found.sort(key=lambda pair: -pair[1])
        return found[:k]

    def similarity(self, query: npt.NDArray[np.float32], seqs: list[int]) -> dict[int, float]:
        """Exact cosine for specific rows; rows without a vector are absent."""
        scores = self.overlay.similarity(query, seqs)
        if self.base is not None:
            found, positions = self.base.positions([seq for seq in seqs if seq not in scores])
            if found:
                rows = self.base.read(positions) @ query
                scores.update(zip(found, rows.tolist(), strict=True))
        return scores

    def seqs(self) -> set[int]:
        """Row ids that have a vector in the index."""
        found = self.overlay.seqs()
        if self.base is not None:
            found.update(self.base.rows.seq[self.base.alive].tolist())
        return found

    def vector(self, seq: int) -> npt.NDArray[np.float32] | None:
        """The stored vector of one row (a copy), or None."""
        own = self.overlay.vector(seq)
        if own is not None or self.base is None:
            return own
        at = self.base.position(seq)
        if at is None:
            return None
        vector: npt.NDArray[np.float32] = self.base.read([at])[0]
        return vector

    def nbytes(self) -> int:
        """Memory held by the index (the base's vectors stay in their file)."""
        held = self.overlay.nbytes()
        if self.base is not None:
            rows = self.base.rows
            held += rows.bits.nbytes + rows.seq.nbytes + self.base.alive.nbytes
            held += sum(column.nbytes for column in rows.columns.arrays())
            if rows.partitions is not None:
                parts = rows.partitions
                held += parts.order.nbytes + parts.offsets.nbytes + parts.centroids.nbytes
                held += 0 if parts.grouped_bits is None else parts.grouped_bits.nbytes
        return int(held)

    def partitions_carried(
        self, seqs: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.float32] | None, npt.NDArray[np.int32] | None]:
        """What the next generation can keep of the base's partitions.

        The base's centroids, and the partition of each of `seqs` the base holds
        unchanged (-1 for the rest: new, changed, or no base).
        """
        base = self.base
        if base is None or base.rows.partitions is None:
            return None, None
        carried = np.full(len(seqs), -1, dtype=np.int32)
        if base.alive.size and len(seqs):
            at = np.minimum(np.searchsorted(base.rows.seq, seqs), base.alive.size - 1)
            held = (base.rows.seq[at] == seqs) & base.alive[at]
            carried[held] = base.rows.partitions.assignment[at[held]]
        return base.rows.partitions.centroids, carried

    def merged(self) -> tuple[IndexRows, Iterator[npt.NDArray[np.float32]]]:
        """Every live row of both layers, in ascending row id: columns, then the vectors.

        The vectors come in chunks, so writing a large index copies no more than a
        chunk of the file at a time.
        """
        own = self.overlay.live_rows()
        strings = list(own.strings)
        if self.base is None:
            source = _Source(own.seq, np.zeros(len(own.seq), np.bool_), np.arange(len(own.seq)))
            parts = [(own, np.arange(len(own.strings), dtype=np.int32))]
        else:
            base = self.base.rows
            kept = np.flatnonzero(self.base.alive)
            lookup = {name: code for code, name in enumerate(strings)}
            remap = np.array(
                [lookup.setdefault(name, len(lookup)) for name in base.strings], dtype=np.int32
            )
            strings = list(lookup)
            source = _Source(
                np.concatenate([base.seq[kept], own.seq]),
                np.concatenate([np.ones(kept.size, np.bool_), np.zeros(len(own.seq), np.bool_)]),
                np.concatenate([kept, np.arange(len(own.seq))]),
            )
            parts = [(_take(base, kept), remap), (own, np.arange(len(own.strings), dtype=np.int32))]
        order = np.argsort(source.seq, kind="stable")
        columns = _concatenate(parts, order, strings)
        return columns, self._vector_chunks(source, order, own)

    def _vector_chunks(
        self, source: _Source, order: npt.NDArray[np.intp], own: IndexRows
    ) -> Iterator[npt.NDArray[np.float32]]:
        for start in range(0, order.size, _WRITE_CHUNK):
            picked = order[start : start + _WRITE_CHUNK]
            chunk = np.empty((picked.size, self.dimensions), dtype=np.float32)
            from_base = source.from_base[picked]
            if self.base is not None and from_base.any():
                # Checked: a damaged row is never copied into the next generation.
                chunk[from_base] = self.base.read(source.position[picked[from_base]])
            if (~from_base).any():
                chunk[~from_base] = own.vectors[source.position[picked[~from_base]]]
            yield chunk


def _take(rows: IndexRows, kept: npt.NDArray[np.intp]) -> IndexRows:
    """The columns of some rows (the vectors are left out: they are read in chunks)."""
    return IndexRows(
        seq=rows.seq[kept],
        vectors=np.zeros((0, 0), dtype=np.float32),
        bits=np.take(rows.bits, kept, axis=1),
        columns=rows.columns.take(kept),
        strings=rows.strings,
    )


def _concatenate(
    parts: list[tuple[IndexRows, npt.NDArray[np.int32]]],
    order: npt.NDArray[np.intp],
    strings: list[str],
) -> IndexRows:
    """Parts joined, their codes mapped into `strings`, rows put in `order`."""

    def recoded(
        codes: npt.NDArray[np.int32], remap: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.int32]:
        # -1 (no session) stays -1; every other code is looked up.
        return np.where(codes < 0, codes, remap[np.maximum(codes, 0)] if remap.size else codes)

    def joined(values: list[npt.NDArray[np.generic]]) -> npt.NDArray[np.generic]:
        return np.concatenate(values)[order]

    return IndexRows(
        seq=joined([part.seq for part, _ in parts]),  # type: ignore[arg-type]
        vectors=np.zeros((0, 0), dtype=np.float32),
        bits=np.take(np.concatenate([part.bits for part, _ in parts], axis=1), order, axis=1),
        columns=FilterColumns(
            joined([recoded(p.columns.namespace, r) for p, r in parts]),  # type: ignore[arg-type]
            joined([recoded(p.columns.session, r) for p, r in parts]),  # type: ignore[arg-type]
            joined([recoded(p.columns.category, r) for p, r in parts]),  # type: ignore[arg-type]
            joined([p.columns.superseded for p, _ in parts]),  # type: ignore[arg-type]
            joined([p.columns.created for p, _ in parts]),  # type: ignore[arg-type]
        ),
        strings=strings,
    )
