"""The vector index kept in files beside the database, so an open reads no vectors.

`brain.db-vectors/` holds one generation of the index: `<n>.vectors` (every vector as
float32 rows, memory-mapped, so only the rows a search scores are read) and `<n>.columns`
(row ids, sign bits and the filter columns, read into memory: about 130 bytes a row at
768 dimensions). `current.json` names the generation and what it was built from: the
embedding identity, the change-log position it includes, and a token that is also written
into the database. It is replaced last, by rename, so a crash leaves the previous
generation in effect.

The files are derived: `brain.db` stays the source of truth. Whoever opens them checks
them against it (see `SqliteCore`); anything that does not match is rebuilt from the
database.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import mmap
import os
import re
import stat
import threading
import weakref
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memory.errors import in_words
from memory.files import INDEX_FOLDER_SUFFIX, sync_folder
from memory.lazy_patterns import lazy_compile
from memory.partitions import Partitioner, Partitions
from memory.vector_index import FilterColumns, IndexRows

FORMAT = 4
_READABLE = (3, 4)
"""Format 3 is format 4 without partitions: a store saved by an older version opens
without a rebuild and gets its partitions at the next save."""
HEADER_NAME = "current.json"
_OWN_NAME = lazy_compile(r"([0-9]{8})\.(?:vectors|columns)", re.ASCII)
_HEADER_LIMIT = 64 * 2**20
_VERIFY_CHUNK = 4096
"""No header of ours comes near this (it holds the namespace and session names)."""
LOCK_NAME = "lock"


def index_folder(database: Path) -> Path:
    """The folder beside `database` that holds its vector index files."""
    return database.with_name(database.name + INDEX_FOLDER_SUFFIX)


@dataclass(frozen=True)
class IndexHeader:
    """What `current.json` says about the generation in effect."""

    format: int
    generation: int
    rows: int
    dims: int
    identity: str
    last_change: int
    """The change-log position whose changes the files include."""
    token: str
    """Also written into the database's meta table: a restored or swapped database has
    another one, so its index is rebuilt."""
    strings: list[str]
    columns_crc: int
    skipped: list[str]
    """Warnings about rows left out of the index (damaged vectors), repeated at open."""
    partitions: int = 0
    """How many partition centroids the column file holds (see `memory.partitions`)."""


@dataclass(frozen=True)
class MappedVectors:
    """The vector file as a read-only array, with what a reader needs around it."""

    vectors: npt.NDArray[np.float32]
    """The mapping: read by small generations, which every search scans whole."""
    whole: Callable[[], None]
    """Raises `IndexFileDamagedError` if the file is now shorter than the rows mapped.

    Reading a mapped page past a file's end kills the process (SIGBUS), and memchat never
    shortens these files: another program did. Every read of the mapping asks first, so
    only a cut made during the few milliseconds of one search can still do it.
    """
    read_rows: Callable[[int, int], npt.NDArray[np.float32]]
    """Rows `start` to `stop` read from the file, not through the mapping.

    For reads of every row (the background check, `stats --check`): they take seconds,
    long enough for a cut to land inside one, and a short read is an error, not a crash.
    """
    read_at: Callable[[npt.NDArray[np.intp]], npt.NDArray[np.float32]]
    """The rows at these positions (any order), read from the file, not the mapping.

    How a large generation is read: a search reads a few thousand scattered rows. Read
    through the mapping, each row cost a page fault, and the pages had to be let go after
    every search or the whole file ended up in the process's memory; at a million rows
    that was 40-55 ms a search (faults 22-46 ms, letting go 9-20 ms), against 16 ms for
    one read per run of adjacent rows.
    """

    @staticmethod
    def in_memory(vectors: npt.NDArray[np.float32]) -> MappedVectors:
        """Vectors held in memory: nothing that can be cut short."""
        return MappedVectors(
            vectors,
            _nothing,
            lambda start, stop: vectors[start:stop],
            lambda positions: np.array(vectors[positions], dtype=np.float32),
        )


@dataclass(frozen=True)
class LoadedIndex:
    """A generation read back: columns in memory, vectors memory-mapped."""

    header: IndexHeader
    rows: IndexRows
    """The columns; `rows.vectors` is `mapped.vectors`."""
    checks: npt.NDArray[np.uint32]
    """Each row's `row_checks` when it was written."""
    mapped: MappedVectors


class IndexFileDamagedError(Exception):
    """A vector read from the index files is not the one written there."""


_CHECK_WEIGHTS: dict[int, npt.NDArray[np.uint32]] = {}


def row_checks(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.uint32]:
    """A 32-bit check of each row's bytes: every bit of every value counts, in place.

    A weighted sum (odd weights, different per position) of the 32-bit words, each
    folded onto its low half, wrapping at 2**32: numpy computes it for many rows at
    once without widening them (0.15 s for 100,000 rows of 768); a crc per row in
    Python would cost more than the search it guards.
    """
    dims = vectors.shape[1]
    weights = _CHECK_WEIGHTS.get(dims)
    if weights is None:
        spread = np.arange(dims, dtype=np.uint64) * np.uint64(2654435761)
        weights = ((spread | np.uint64(1)) & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        _CHECK_WEIGHTS[dims] = weights
    raw = np.ascontiguousarray(vectors, dtype="<f4").view(np.uint32)
    # Folded first: multiplying wraps away high bits, and a sign flip of every value
    # (a negated row) would otherwise add up to nothing.
    folded = raw ^ (raw >> np.uint32(16))
    checks: npt.NDArray[np.uint32] = (folded * weights).sum(axis=1, dtype=np.uint32)
    return checks


def damaged_row(
    vectors: npt.NDArray[np.float32],
    checks: npt.NDArray[np.uint32],
    seqs: npt.NDArray[np.int64],
) -> str | None:
    """What is wrong with the first of these rows that does not match its check, if any."""
    wrong = np.flatnonzero(row_checks(vectors) != checks)
    if not wrong.size:
        return None
    return f"the vector of row {int(seqs[wrong[0]])} is not the one written"


def set_aside(database: Path) -> None:
    """Stop the index files from being used: their header goes, the next save replaces them.

    A folder that cannot be changed is left as it is.
    """
    with contextlib.suppress(OSError):
        (index_folder(database) / HEADER_NAME).unlink()


def _names(generation: int) -> tuple[str, str]:
    return f"{generation:08d}.vectors", f"{generation:08d}.columns"


def _column_layout(
    rows: int, words: int, partitions: int = 0, dims: int = 0
) -> list[tuple[str, type[np.generic], int]]:
    """(name, dtype, count) in file order: the widest columns first, so all are aligned."""
    return [
        ("seq", np.int64, rows),
        ("created", np.float64, rows),
        ("bits", np.uint64, rows * words),
        ("namespace", np.int32, rows),
        ("session", np.int32, rows),
        ("category", np.int32, rows),
        ("checks", np.uint32, rows),
        ("centroids", np.float32, partitions * dims),
        ("partition", np.uint16, rows if partitions else 0),
        ("superseded", np.bool_, rows),
    ]


def _mapped(path: Path, rows: int, dims: int) -> MappedVectors:
    size = rows * dims * 4
    descriptor = _open_regular(path)
    try:
        if os.fstat(descriptor).st_size != size:
            raise OSError(f"{path.name} is not the size its header says")
        if rows == 0:
            os.close(descriptor)
            return MappedVectors.in_memory(np.zeros((0, dims), dtype=np.float32))
        mapping = mmap.mmap(descriptor, size, prot=mmap.PROT_READ)
    except BaseException:
        os.close(descriptor)
        raise
    # The descriptor stays open to ask the file's size; it closes with the mapping.
    weakref.finalize(mapping, os.close, descriptor)
    mapping.madvise(mmap.MADV_RANDOM)

    def whole() -> None:
        if os.fstat(descriptor).st_size < size:
            raise IndexFileDamagedError(f"{path.name} was cut short by another program")

    def read_into(buffer: memoryview, row: int) -> None:
        # Refers to the mapping, so the descriptor stays open while a reader is held.
        if mapping.closed or os.preadv(descriptor, [buffer], row * dims * 4) != len(buffer):
            raise IndexFileDamagedError(f"{path.name} was cut short by another program")

    def read_rows(start: int, stop: int) -> npt.NDArray[np.float32]:
        buffer = bytearray((stop - start) * dims * 4)
        read_into(memoryview(buffer), start)
        return np.frombuffer(buffer, dtype="<f4").reshape(stop - start, dims)

    def read_at(positions: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
        return _read_scattered(read_into, positions, rows, dims)

    vectors = np.frombuffer(mapping, dtype="<f4").reshape(rows, dims)
    return MappedVectors(vectors, whole, read_rows, read_at)


def _read_scattered(
    read_into: Callable[[memoryview, int], None],
    positions: npt.NDArray[np.intp],
    rows: int,
    dims: int,
) -> npt.NDArray[np.float32]:
    """The rows at `positions` (any order), with one read per run of adjacent rows."""
    at = np.asarray(positions, dtype=np.int64)
    order = np.argsort(at, kind="stable")
    ordered = at[order]
    if ordered.size and (ordered[0] < 0 or ordered[-1] >= rows):
        raise IndexError(f"rows {int(ordered[0])}..{int(ordered[-1])} are not all in the file")
    found = np.empty((at.size, dims), dtype="<f4")
    if not at.size:
        return found
    view = found.data.cast("B")
    width = dims * 4
    breaks = (np.flatnonzero(np.diff(ordered) != 1) + 1).tolist()
    for start, stop in zip([0, *breaks], [*breaks, at.size], strict=True):
        if stop > start:
            read_into(view[start * width : stop * width], int(ordered[start]))
    if (order[1:] > order[:-1]).all():
        return found  # asked in file order (a search's candidates): no second copy
    result: npt.NDArray[np.float32] = np.empty_like(found)
    result[order] = found
    return result


def _nothing() -> None:
    return None


def read_index(database: Path) -> LoadedIndex | str:
    """The generation in effect, or why there is none that can be used."""
    for attempt in range(2):
        found = _read_generation(database)
        # Another process may have made a newer generation current, and deleted this
        # one's files, between our reading the header and opening them: read it again.
        if not (isinstance(found, FileNotFoundError) and attempt == 0):
            break
    if isinstance(found, FileNotFoundError):
        return f"its files cannot be read ({found.strerror or found})"
    return found


def _open_regular(path: Path) -> int:
    """A descriptor of a regular file; never a link, a FIFO (which would block) or a device."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise OSError(f"{path.name} is not a regular file")
    return descriptor


def _read_regular(path: Path, limit: int) -> bytes:
    """A regular file's bytes, refused past `limit` (exactly `limit` for a column file)."""
    descriptor = _open_regular(path)
    try:
        size = os.fstat(descriptor).st_size
        if size > limit:
            raise OSError(f"{path.name} is larger than its header allows")
        with os.fdopen(os.dup(descriptor), "rb") as file:
            return file.read(size)
    finally:
        os.close(descriptor)


def _checksum(columns: bytes, header: IndexHeader) -> int:
    """A check over the column file and every other header field.

    A name changed in the header (a namespace, say) would otherwise send rows to the
    wrong filter without a word.
    """
    fields = {name: value for name, value in asdict(header).items() if name != "columns_crc"}
    if header.format == 3:
        del fields["partitions"]  # not a field of that format: its check was made without
    return zlib.crc32(columns, zlib.crc32(json.dumps(fields, sort_keys=True).encode()))


def _header(raw: bytes) -> IndexHeader | str:
    try:
        fields = json.loads(raw)
    except UnicodeDecodeError:
        return "its header is not UTF-8 text"
    except (ValueError, RecursionError):
        return "its header is not valid JSON"
    if not isinstance(fields, dict):
        return "its header is not a JSON object"
    try:
        header = IndexHeader(**fields)
    except TypeError:
        return "its header lacks fields memchat writes, or has others"
    numbers = (
        header.format,
        header.generation,
        header.rows,
        header.dims,
        header.last_change,
        header.partitions,
    )
    if not all(type(value) is int and value >= 0 for value in (*numbers, header.columns_crc)):
        return "its header holds a number that is not a count"
    texts = [header.identity, header.token, *header.strings, *header.skipped]
    if not (
        isinstance(header.strings, list)
        and isinstance(header.skipped, list)
        and all(isinstance(text, str) for text in texts)
        and header.dims > 0
    ):
        return "its header holds a value of the wrong kind"
    if header.format not in _READABLE:
        return f"it is of format {header.format!r}, this version reads {FORMAT}"
    if header.format == 3 and header.partitions:
        return "its header holds partitions, which its format has not"
    if header.partitions > min(header.rows, 2**16):
        return "its header holds more partitions than it can have"
    return header


def _read_generation(database: Path) -> LoadedIndex | str | FileNotFoundError:
    folder = index_folder(database)
    if folder.is_symlink():
        return f"{folder.name} is a link, not a folder of memchat's own"
    try:
        raw = _read_regular(folder / HEADER_NAME, _HEADER_LIMIT)
    except FileNotFoundError:
        return "absent"
    except OSError as exc:
        return f"its header cannot be read ({exc.strerror or exc})"
    header = _header(raw)
    if isinstance(header, str):
        return header
    vectors_name, columns_name = _names(header.generation)
    words = (header.dims + 63) // 64
    layout = _column_layout(header.rows, words, header.partitions, header.dims)
    try:
        size = sum(np.dtype(t).itemsize * n for _, t, n in layout)
        columns = _read_regular(folder / columns_name, size)
        mapped = _mapped(folder / vectors_name, header.rows, header.dims)
    except FileNotFoundError as exc:
        return exc
    except (OSError, ValueError) as exc:
        return f"its files cannot be read ({in_words(exc)})"
    if _checksum(columns, header) != header.columns_crc:
        return "its header or column file does not match its checksum"
    if len(columns) != size:  # a header rewritten with its checksum made again
        return "its column file is not the size its header says"
    arrays: dict[str, npt.NDArray[np.generic]] = {}
    offset = 0
    for name, dtype, count in layout:
        arrays[name] = np.frombuffer(columns, dtype=dtype, count=count, offset=offset)
        offset += count * np.dtype(dtype).itemsize
    bits = arrays["bits"].reshape(words, header.rows)
    partitions = _codes_problem(header, arrays) or _partitions(header, arrays, bits)  # type: ignore[arg-type]
    if isinstance(partitions, str):
        return partitions
    rows = IndexRows(
        seq=arrays["seq"],  # type: ignore[arg-type]
        vectors=mapped.vectors,
        bits=bits,  # type: ignore[arg-type]
        columns=FilterColumns(
            arrays["namespace"],  # type: ignore[arg-type]
            arrays["session"],  # type: ignore[arg-type]
            arrays["category"],  # type: ignore[arg-type]
            arrays["superseded"],  # type: ignore[arg-type]
            arrays["created"],  # type: ignore[arg-type]
        ),
        strings=header.strings,
        partitions=partitions,
    )
    return LoadedIndex(header, rows, arrays["checks"], mapped)  # type: ignore[arg-type]


def _codes_problem(header: IndexHeader, arrays: dict[str, npt.NDArray[np.generic]]) -> str | None:
    """What is wrong with the filter columns' name codes, if anything.

    The checksum catches damage, not a column file rewritten with its checksum made
    again: a namespace code naming no namespace would hide rows from every search.
    """
    names = len(header.strings)
    for column, lowest in (("namespace", 0), ("category", 0), ("session", -1)):
        codes = arrays[column]
        if codes.size and (int(codes.min()) < lowest or int(codes.max()) >= names):
            return f"its {column} column names a value its header lacks"
    return None


def _partitions(
    header: IndexHeader, arrays: dict[str, npt.NDArray[np.generic]], bits: npt.NDArray[np.uint64]
) -> Partitions | str | None:
    """The partitions a column file holds (None if none), or what is wrong with them."""
    if not header.partitions:
        return None
    centroids = arrays["centroids"].reshape(header.partitions, header.dims)
    if not np.isfinite(centroids).all():
        return "its partition centroids are not numbers"
    partitions = Partitions.of(centroids, arrays["partition"], bits)  # type: ignore[arg-type]
    if not partitions.fits(header.rows):
        return "its column file names a partition it does not hold"
    return partitions


@contextlib.contextmanager
def writing_lock(database: Path) -> Iterator[None]:
    """Held while a generation is written: two processes never write one at once."""
    folder = index_folder(database)
    folder.mkdir(mode=0o700, exist_ok=True)
    if folder.is_symlink() or not folder.is_dir():
        raise OSError(f"{folder} is not a folder of memchat's own (a link, or a file)")
    descriptor = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def _write_synced(path: Path, chunks: Iterable[bytes | memoryview]) -> None:
    """Write a new file (whatever had the name goes first: a link is never followed)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        for chunk in chunks:
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())


def _generation_of(name: str) -> int | None:
    """The generation a file of ours belongs to (`00000012.vectors`), else None."""
    match = _OWN_NAME.fullmatch(name)
    return None if match is None else int(match.group(1))


def next_generation(database: Path) -> int:
    """One more than the highest generation with files in the folder."""
    numbers = [_generation_of(path.name) for path in index_folder(database).iterdir()]
    return max((n for n in numbers if n is not None), default=0) + 1


def write_generation(
    database: Path,
    generation: int,
    columns: IndexRows,
    vector_chunks: Iterable[npt.NDArray[np.float32]],
    header_fields: dict[str, object],
    centroids: npt.NDArray[np.float32] | None = None,
    carried: npt.NDArray[np.int32] | None = None,
) -> IndexHeader:
    """Write a generation's files (fsynced) and its header to a temporary name.

    `columns.vectors` is ignored: the vectors come from `vector_chunks`, in row order,
    so a large index is never copied whole. `centroids`: the previous generation's
    partition centroids, kept if they still fit the size, with the partition of each
    row it held (`carried`, -1 for the others). `publish` makes the generation current.
    """
    folder = index_folder(database)
    vectors_name, columns_name = _names(generation)
    rows = len(columns.seq)
    dims = int(header_fields["dims"])  # type: ignore[call-overload]
    checks: list[npt.NDArray[np.uint32]] = []
    partitioner = Partitioner(rows, centroids, carried)

    def checked(chunk: npt.NDArray[np.float32]) -> bytes:
        checks.append(row_checks(chunk))
        partitioner.take(chunk)
        return np.ascontiguousarray(chunk, dtype="<f4").tobytes()

    _write_synced(folder / vectors_name, (checked(chunk) for chunk in vector_chunks))
    written = _mapped(folder / vectors_name, rows, dims)  # held: its descriptor closes with it
    partitions = partitioner.finish(written.read_rows)
    arrays: dict[str, npt.NDArray[np.generic]] = {
        "checks": np.concatenate(checks) if checks else np.zeros(0, np.uint32),
        "seq": columns.seq,
        "created": columns.columns.created,
        "bits": columns.bits,
        "namespace": columns.columns.namespace,
        "session": columns.columns.session,
        "category": columns.columns.category,
        "superseded": columns.columns.superseded,
        "centroids": np.zeros(0, np.float32) if partitions is None else partitions.centroids,
        "partition": np.zeros(0, np.uint16) if partitions is None else partitions.assignment,
    }
    words = columns.bits.shape[0]
    count = 0 if partitions is None else len(partitions.centroids)
    payload = b"".join(
        np.ascontiguousarray(arrays[name], dtype=dtype).tobytes()
        for name, dtype, _ in _column_layout(rows, words, count, dims)
    )
    _write_synced(folder / columns_name, [payload])
    header = IndexHeader(
        format=FORMAT,
        generation=generation,
        rows=rows,
        strings=columns.strings,
        columns_crc=0,
        partitions=count,
        **header_fields,  # type: ignore[arg-type]
    )
    header = replace(header, columns_crc=_checksum(payload, header))
    _write_synced(folder / f"{HEADER_NAME}.new", [json.dumps(asdict(header)).encode()])
    return header


def discard_generation(database: Path, generation: int) -> None:
    """Remove what a failed write of `generation` left (never the one in effect)."""
    folder = index_folder(database)
    for name in (*_names(generation), f"{HEADER_NAME}.new"):
        with contextlib.suppress(OSError):
            (folder / name).unlink()


def remove_files(database: Path) -> None:
    """Delete every generation of the index files.

    They are derived: the next open rebuilds them from the database. An erase does this,
    because a deleted row's vector stays in its generation's file until the next save
    (found by an adversary, who matched an erased code's vector there).
    """
    folder = index_folder(database)
    if not folder.is_dir():
        return
    with writing_lock(database):
        for path in folder.iterdir():
            name = path.name
            if name in (HEADER_NAME, f"{HEADER_NAME}.new") or _generation_of(name) is not None:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
        sync_folder(folder)


def publish(database: Path, header: IndexHeader) -> None:
    """Make a written generation current, then delete every other generation's files.

    Another process may still have an old generation mapped: its pages stay readable
    until it lets go of them, so deleting them under it is safe.
    """
    folder = index_folder(database)
    os.replace(folder / f"{HEADER_NAME}.new", folder / HEADER_NAME)
    sync_folder(folder)
    keep = set(_names(header.generation))
    for path in folder.iterdir():
        if _generation_of(path.name) is not None and path.name not in keep:
            with contextlib.suppress(OSError):
                path.unlink()


class RowVerifier:
    """Checks every row of a generation against its row check, in a thread of its own.

    Opening compares only a sample, and a search checks only the rows it returns: a
    damaged row that no longer ranks would be missed without a word. This reads the
    whole file once (at 100,000 rows about 0.3 GB, well under a second) while the store
    serves; the owner polls `problem` and rebuilds if a row is wrong.
    """

    def __init__(self, loaded: LoadedIndex) -> None:
        self._loaded = loaded
        self._stop = threading.Event()
        self._done = threading.Event()
        self._problem: str | None = None
        self._thread = threading.Thread(target=self._run, name="memchat-index-verify", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        rows = self._loaded.rows
        try:
            for start in range(0, len(rows.seq), _VERIFY_CHUNK):
                if self._stop.is_set():
                    return
                part = slice(start, start + _VERIFY_CHUNK)
                vectors = self._loaded.mapped.read_rows(
                    start, min(start + _VERIFY_CHUNK, len(rows.seq))
                )
                self._problem = damaged_row(vectors, self._loaded.checks[part], rows.seq[part])
                if self._problem is not None:
                    return
        except IndexFileDamagedError as exc:
            self._problem = str(exc)
        except (OSError, ValueError) as exc:
            self._problem = f"its vector file cannot be read ({in_words(exc)})"
        finally:
            self._done.set()

    def problem(self) -> str | None:
        """What the check found wrong, once it has finished; None meanwhile or if sound."""
        return self._problem if self._done.is_set() else None

    @property
    def done(self) -> bool:
        """Whether every row has been checked (or the check stopped)."""
        return self._done.is_set()

    def stop(self) -> None:
        """Stop early (the store is closing, or the generation was replaced)."""
        self._stop.set()
        self._thread.join()
