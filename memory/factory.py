"""Build the configured memory backend (and rebuild a lost store from its snapshot)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory.files import SNAPSHOT_NAME
from memory.registry import backend_class
from memory.snapshot import parse_snapshot

if TYPE_CHECKING:
    from memory.embedding.base import Embedder
    from memory.protocol import Memory
    from memory.settings import MemorySettings


def default_db_path(settings: MemorySettings, data_dir: Path) -> Path:
    """The SQLite file: `memory.path` if set, else brain.db in the data directory."""
    return Path(settings.path).expanduser() if settings.path else data_dir / "brain.db"


async def open_memory(
    settings: MemorySettings, data_dir: Path, embedder: Embedder | None
) -> Memory:
    """Open the backend named by `settings.backend` (unknown names list the valid ones).

    When the SQLite file is missing but MEMORY_SNAPSHOT.md is beside it, the new store is
    filled from the snapshot; `hydration` on the store says how that went.
    """
    cls: Any = backend_class(settings.backend)
    if settings.backend == "none":
        return cls()  # type: ignore[no-any-return]
    path = default_db_path(settings, data_dir)
    snapshot = path.with_name(SNAPSHOT_NAME)
    cold_boot = not path.exists() and snapshot.exists()
    memory = await cls.open(path, settings, embedder)
    if cold_boot:
        try:
            entries = parse_snapshot(snapshot.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            memory.hydration = (
                f"{snapshot} could not be read ({exc}); the store starts "
                "empty and the snapshot was left as it is"
            )
        else:
            await memory.import_(entries)
            memory.hydration = (
                f"brain.db was missing: restored {len(entries)} core memories from {snapshot}"
            )
    return memory  # type: ignore[no-any-return]
