"""Build the configured memory backend."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory.registry import backend_class

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
    """Open the backend named by `settings.backend` (unknown names list the valid ones)."""
    cls: Any = backend_class(settings.backend)
    if settings.backend == "none":
        return cls()  # type: ignore[no-any-return]
    return await cls.open(default_db_path(settings, data_dir), settings, embedder)  # type: ignore[no-any-return]
