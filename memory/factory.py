"""Build the configured memory backend (and rebuild a lost store from its snapshot)."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory.errors import NoStoreYetError
from memory.files import DEFAULT_DATABASE_NAME, snapshot_beside
from memory.hydration import hydrate
from memory.registry import backend_class
from memory.wording import memories, model_with_size, without_vectors

if TYPE_CHECKING:
    from memory.embedding.base import Embedder
    from memory.protocol import Memory
    from memory.settings import MemorySettings


def _missing_or_empty(path: Path) -> bool:
    """No store at `path`: no file, or a 0-byte one (with no journal) that SQLite starts anew.

    A 0-byte file holds nothing, so it is restored from the snapshot like a missing one;
    with a non-empty write-ahead log beside it SQLite may still recover data, so it is not.
    """
    try:
        found = path.stat()
        if found.st_size > 0 or not stat.S_ISREG(found.st_mode):
            # A device (memory.path = "/dev/null") is no store to start: opening says what
            # it is (an adversary read "no memory store … yet" from `list`).
            return False
    except FileNotFoundError:
        return True
    except OSError:
        return False  # opening reports the problem
    try:
        return path.with_name(path.name + "-wal").stat().st_size == 0
    except FileNotFoundError:
        return True
    except OSError:
        return False


def default_db_path(settings: MemorySettings, data_dir: Path) -> Path:
    """The SQLite file: `memory.path` if set, else brain.db in the data directory."""
    return Path(settings.path).expanduser() if settings.path else data_dir / DEFAULT_DATABASE_NAME


async def open_memory(
    settings: MemorySettings,
    data_dir: Path,
    embedder: Embedder | None,
    *,
    reading_only: bool = False,
    create: bool = True,
) -> Memory:
    """Open the backend named by `settings.backend` (unknown names list the valid ones).

    When the SQLite file is missing (or 0 bytes) but MEMORY_SNAPSHOT.md is beside it, the
    new store is filled from the snapshot; `hydration` on the store says how that went.
    `reading_only` is for callers that never write: an existing SQLite store then opens
    without reading every page first (other backends open as usual). Such callers, and
    those that pass `create=False`, get `NoStoreYetError` where there is no SQLite store.
    """
    cls: Any = backend_class(settings.backend)
    if settings.backend == "none":
        return cls()  # type: ignore[no-any-return]
    path = default_db_path(settings, data_dir)
    snapshot = snapshot_beside(path)
    existed = path.exists()
    # Only a store kept in that file restores from the snapshot beside it.
    cold_boot = (
        cls.capabilities.restores_from_snapshot and _missing_or_empty(path) and snapshot.exists()
    )
    if reading_only or not create:
        from memory.sqlite.store import SqliteMemory

        if issubclass(cls, SqliteMemory) and _missing_or_empty(path):
            # Restoring from the snapshot writes a store: for the app or a writing command.
            raise NoStoreYetError(
                path,
                snapshot if snapshot.exists() else None,
                backend=settings.backend,
                others=_other_stores(settings, path),
            )
        local = settings.backend == "markdown" or (
            settings.backend == "qdrant" and not settings.qdrant_url
        )
        if local and not _has_files(settings, path):
            where = path.parent
            if settings.backend == "qdrant":
                where = where / "qdrant-edge" / settings.qdrant_collection
            raise NoStoreYetError(
                where, backend=settings.backend, others=_other_stores(settings, path)
            )
        if settings.backend == "postgres":
            # A mistyped schema must not become a new, empty store.
            server: Memory = await cls.open(path, settings, embedder, create=False)
            return server
        if reading_only and issubclass(cls, SqliteMemory):
            reader: Memory = await cls.open(path, settings, embedder, reading_only=True)
            return reader
    memory = await cls.open(path, settings, embedder)
    if cold_boot:
        # Tolerant: a damaged snapshot restores what it can and says so (never fails here).
        state = "empty (0 bytes)" if existed else "missing"
        memory.follow_snapshot = False  # the file it is filled from stays as it is
        try:
            memory.hydration = await hydrate(memory, snapshot, state, path.name)
        finally:
            memory.follow_snapshot = True
    return memory  # type: ignore[no-any-return]


def _other_stores(settings: MemorySettings, db_path: Path) -> tuple[str, ...]:
    """The other local backends whose files are in the data folder."""
    return tuple(
        name
        for name in ("sqlite", "markdown", "qdrant")
        if name != settings.backend
        and _has_files(settings.model_copy(update={"backend": name}), db_path)
    )


def _has_files(settings: MemorySettings, db_path: Path) -> bool:
    name = settings.backend
    if name == "sqlite":
        return db_path.is_file()
    if name == "markdown":
        root = db_path.parent
        return (root / "MEMORY.md").is_file() or any((root / "memory").glob("*.md"))
    if name == "qdrant":
        # The configured collection's own folder: a mistyped name is no store.
        collection = db_path.parent / "qdrant-edge" / settings.qdrant_collection
        return collection.is_dir() or (db_path.parent / "qdrant").is_dir()
    return False


async def vectors_missing(memory: Memory, embedder: Embedder | None) -> str | None:
    """When stored memories lack a vector from the current embedding model, say so.

    After a change of model, of its size or of its task prefixes, older vectors are not
    comparable: those memories are found by keyword only until they are re-embedded.
    """
    if embedder is None or not memory.capabilities.supports_vectors:
        return None
    try:
        stale = (await memory.stats()).stale_embedding
    except Exception:  # noqa: BLE001 - a hint must never stop the app from starting
        return None
    if not stale:
        return None
    model = model_with_size(embedder.model, embedder.dimensions)
    return without_vectors(stale, model, reindexable=memory.reindexing is not None)


async def data_left_behind(
    settings: MemorySettings, data_dir: Path, memory: Memory, embedder: Embedder | None = None
) -> str | None:
    """When the configured store is empty but another backend's files hold entries, say so.

    Changing `memory.backend` never moves data; this is how the user learns that the old
    store is still there and how to bring it over.
    """
    if not memory.capabilities.persistent or await memory.count() > 0:
        return None
    db_path = default_db_path(settings, data_dir)
    for name in ("sqlite", "markdown", "qdrant"):
        other_settings = settings.model_copy(update={"backend": name})
        if name == settings.backend or not _has_files(other_settings, db_path):
            continue
        try:
            other = await backend_class(name).open(db_path, other_settings, embedder)  # type: ignore[attr-defined]
            try:
                count = await other.count()
            finally:
                await other.close()
        except Exception:  # noqa: BLE001 - a hint must never stop the app from starting
            continue
        if count:
            return (
                f"the {settings.backend!r} memory store is empty, but the {name!r} store "
                f"holds {memories(count)}; changing memory.backend does not move them. "
                f"Run `memchat memory migrate --from {name} --to {settings.backend}` "
                "to copy them over."
            )
    return None
