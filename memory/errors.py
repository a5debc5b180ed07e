"""Errors raised by the memory layer, all under one base class."""

from __future__ import annotations

from pathlib import Path


def in_words(exc: BaseException) -> str:
    """An error as a user reads it: an OS error's own text and file, not `[Errno N] …`."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror + (f": {exc.filename}" if exc.filename else "")
    return str(exc)


class MemoryStoreError(Exception):
    """Base class of every error the memory layer raises on purpose."""


class NoStoreYetError(MemoryStoreError):
    """A command that only reads found no store: it creates none (a typo'd path stays one)."""

    def __init__(
        self,
        path: Path | str,
        snapshot: Path | None = None,
        *,
        backend: str = "",
        others: tuple[str, ...] = (),
    ) -> None:
        if others and snapshot is None:
            # A new user set memory.backend = "markdown" beside a sqlite store of 12
            # memories, and was told "nothing has been saved there".
            other = others[0]
            super().__init__(
                f"no {backend} memory store at {path} yet, but the {other!r} store beside "
                f'it holds memories: set memory.backend = "{other}" to use it, or run '
                f"`memchat memory migrate --from {other} --to {backend}` to copy them"
            )
            return
        if snapshot is not None:
            super().__init__(
                f"no memory store at {path}, but {snapshot.name} is beside it: the app, or "
                "a command that writes (such as `memchat memory reindex`), restores the "
                "store from it first"
            )
            return
        super().__init__(
            f"no memory store at {path} yet: nothing has been saved there. The app saves "
            "to it as you chat, and `memchat memory import FILE` loads an export. Check "
            "$MEMCHAT_HOME or memory.path if you expected memories here."
        )


class UnknownBackendError(MemoryStoreError):
    """The configured backend name is not registered."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(
            f"unknown memory backend {name!r}; valid backends are: {', '.join(sorted(known))}"
        )
        self.name = name
        self.known = known


class BackendUnavailableError(MemoryStoreError):
    """A backend's optional driver is not installed."""


class UnsupportedOperationError(MemoryStoreError):
    """The backend cannot perform this operation (see its capability flags)."""

    def __init__(self, backend: str, operation: str) -> None:
        super().__init__(f"the {backend!r} memory backend does not support {operation}")
        self.backend = backend
        self.operation = operation


class DatabaseCorruptError(MemoryStoreError):
    """The database file is damaged or is not a memchat database; it was left untouched."""

    def __init__(self, path: Path, detail: str) -> None:
        # Found by an adversary: only the export was named, though the snapshot beside
        # the file rebuilds every core fact once the file is moved aside. Imported here:
        # `memory.files` imports this module.
        from memory.files import snapshot_beside

        snapshot = snapshot_beside(path)
        rebuilt = (
            f" (its core facts are rebuilt from {snapshot.name} beside it on the next start)"
            if snapshot.is_file()
            else ""
        )
        super().__init__(
            f"{path} is not a usable memchat database ({detail}). The file was left untouched. "
            f"Move it aside to start a fresh store{rebuilt}, or restore it from an export "
            "(memchat memory import FILE)."
        )
        self.path = path
        self.detail = detail


class StorageFullError(MemoryStoreError):
    """The database cannot grow (disk full or page limit reached); nothing was written."""


class UnsafeTargetError(MemoryStoreError):
    """A file memchat was asked to write must not be replaced; nothing was written.

    It is not a regular file (a device, a pipe, a link), or it is one of the store's own.
    """


class EmbeddingError(MemoryStoreError):
    """The embedder failed or timed out."""


class EmbeddingDimensionError(EmbeddingError):
    """A vector's dimension does not match the store's embedding identity."""


class InvalidEntryError(MemoryStoreError, ValueError):
    """A key, content or metadata value was rejected before it reached storage."""


class ImportFormatError(MemoryStoreError):
    """An import file line could not be read as a memchat export record."""

    def __init__(self, line_number: int, detail: str) -> None:
        super().__init__(f"import line {line_number}: {detail}")
        self.line_number = line_number


class RecordFieldError(ImportFormatError):
    """A record is refused because of one field, alone or beside the other records."""

    def __init__(self, line_number: int, field: str, detail: str) -> None:
        super().__init__(line_number, detail)
        self.args = (f"import line {line_number}, field {field!r}: {detail}",)
        self.field = field
        self.detail = detail
