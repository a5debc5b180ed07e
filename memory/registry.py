"""Backend names mapped to lazily imported classes, so unused drivers are never loaded."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from memory.errors import BackendUnavailableError, UnknownBackendError

if TYPE_CHECKING:
    from memory.protocol import Memory

_BACKENDS: dict[str, str] = {
    "sqlite": "memory.sqlite.store:SqliteMemory",
    "none": "memory.none_backend:NoneMemory",
    "markdown": "memory.markdown_backend:MarkdownMemory",
    "lucid": "memory.lucid_backend:LucidMemory",
    "qdrant": "memory.qdrant.store:QdrantMemory",
    "postgres": "memory.postgres.store:PostgresMemory",
}

# Optional drivers and the extra that installs each one.
_EXTRAS: dict[str, str] = {"qdrant": "qdrant", "postgres": "postgres"}


def register_backend(name: str, target: str, extra: str | None = None) -> None:
    """Register `module:Class` under `name` (later backends plug in here)."""
    _BACKENDS[name] = target
    if extra is not None:
        _EXTRAS[name] = extra


def backend_names() -> list[str]:
    """Every registered backend name, sorted."""
    return sorted(_BACKENDS)


def backend_class(name: str) -> type[Memory]:
    """Import and return the class registered under `name`."""
    try:
        target = _BACKENDS[name]
    except KeyError:
        raise UnknownBackendError(name, list(_BACKENDS)) from None
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        extra = _EXTRAS.get(name, name)
        raise BackendUnavailableError(
            f"the {name!r} memory backend needs an optional driver ({exc.name}); "
            f"install it with: pip install 'memchat[{extra}]'"
        ) from exc
    cls: Any = getattr(module, class_name)
    return cls  # type: ignore[no-any-return]
