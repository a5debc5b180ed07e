"""Writing an export file: every entry, every field and vector, whole or not at all.

The CLI's `memchat memory export` and the app's "Export memory" command both write here.
The target is created 0600 from its first byte and replaces an existing file only once the
new content is complete and on disk (`memory.files.atomic_writer`), so a damaged store, a
full disk or an interrupted run leaves an existing backup exactly as it was. The store's own
files and targets that are not regular files are refused before anything is written.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from agent.errors import AgentError
from agent.export_log import OWN_FILES
from agent.paths import config_path, data_dir, ensure_private_dir
from agent.terminal_text import safe_json
from memory.errors import MemoryStoreError, UnsafeTargetError
from memory.files import DEFAULT_DATABASE_NAME, atomic_writer
from memory.files import protected_files as store_protected_files

if TYPE_CHECKING:
    from memory.protocol import Memory


class FileWriteError(AgentError):
    """An export or snapshot could not be written; the existing file was left untouched."""


def unchanged(target: Path) -> str:
    """What became of the target when a write failed."""
    return f"{target} was left as it was" if target.exists() else "nothing was written"


def protected_files(memory: Memory, target: Path) -> list[Path]:
    """The store's own files, which an export must never replace.

    `memory.files.protected_files` of the data folder and of the open store's folder (the
    SQLite database and its journals, MEMORY_SNAPSHOT.md and its kept copies, the Markdown
    backend's MEMORY.md, daily files and lock file), whichever backend is open; the config
    file; the exports and sessions folders (a file put in their place breaks them); the note
    of where exports went (`agent.export_log`); and
    `target` itself when it would be a new daily file or lies among the chats.
    """
    folder = data_dir()
    files = store_protected_files(folder / DEFAULT_DATABASE_NAME)
    # The config (an export over it stops memchat from starting) and its kept copy.
    config = config_path()
    files.extend([config, config.with_name(f"{config.name}.before-generation")])
    # Folders the app writes into: a file in their place breaks every later write there.
    files.extend([folder / "exports", folder / "sessions"])
    # The note of where exports went: replaced by one, an erase named none of them (found by
    # an adversary: `export --force exports-written.txt`).
    files.extend(folder / name for name in OWN_FILES)
    if target.parent.resolve() == (folder / "sessions").resolve():
        files.append(target)  # a chat, whole: replaced by an export it is gone
    location = memory.location
    if location is not None and location.suffix == ".db":
        files.extend(store_protected_files(location))
    folders = [folder]
    if location is not None and location.suffix != ".db":
        folders.append(location)  # Markdown files, or a local Qdrant store's folder
        own = location.resolve()
        if own != folder.resolve() and target.resolve().is_relative_to(own):
            # A folder only the store writes in (a local Qdrant store): none of it is an
            # export's to replace (found by the adversary: its write-ahead log, say).
            files.append(target)
    for base in folders:
        daily = base / "memory"
        files.extend(store_protected_files(base / DEFAULT_DATABASE_NAME))
        if target.suffix == ".md" and target.parent.resolve() == daily.resolve():
            files.append(target)
    return files


async def write_records(memory: Memory, namespace: str | None, stream: TextIO) -> int:
    """Every entry (of one namespace, or all) as JSON lines; returns how many."""
    count = 0
    async for entry in memory.export(namespace=namespace):
        # Valid JSON whose C1, bidi and separator characters are escaped like C0 ones.
        stream.write(safe_json(entry.model_dump_json()) + "\n")
        count += 1
    return count


async def export_to_file(memory: Memory, target: Path, namespace: str | None = None) -> int:
    """Write the export to `target` atomically; returns how many entries it holds.

    Raises:
        UnsafeTargetError: `target` is one of the store's own files, or not a regular file.
        FileWriteError: the file could not be written, or the store stopped the export; it
            says what became of the target.
    """
    try:
        with atomic_writer(target, protected_files(memory, target)) as stream:
            return await write_records(memory, namespace, stream)
    except UnsafeTargetError:
        raise
    except OSError as exc:
        raise FileWriteError(
            f"cannot write {target}: {exc.strerror or exc}; {unchanged(target)}"
        ) from None
    except MemoryStoreError as exc:
        raise FileWriteError(f"export stopped: {exc}; {unchanged(target)}") from None


async def damage_found(memory: Memory) -> str | None:
    """What the store's own check finds wrong, said after an export of it; None if nothing.

    Found by an adversary: a store whose texts another program had overwritten was
    exported, damaged bytes and all, into what a user keeps as a backup, without a word
    (`memchat memory stats --check` said so; the export did not).
    """
    try:
        report = await memory.health_check()
    except MemoryStoreError as exc:
        return str(exc)
    return None if report.ok else report.detail


def not_an_export(target: Path) -> bool:
    """Whether `target` holds something an export would replace unasked: not an export.

    Found by an adversary: `memchat memory export notes.txt` replaced a file of theirs
    without a word. An empty file, or one whose every line is a memory as an export writes
    it, is fine.
    """
    try:
        with target.open("rb") as stream:
            # Every line: a second adversary saw an export's first line with notes after it
            # replaced, notes and all.
            return any(_not_a_record(line) for line in stream if line.strip())
    except FileNotFoundError:
        return False
    except OSError:
        return True


_EXPORTED_FIELDS = frozenset(
    {"id", "key", "content", "category", "timestamp", "updated_at", "session_id", "namespace"}
    | {"importance", "superseded_by"}
)
"""What every export writes of an entry: a record written by hand for an import holds fewer
(an adversary's file of the README's example record was replaced without a word)."""


def ids_in_export(target: Path) -> set[str]:
    """The ids of the memories an export file holds (none if it cannot be read)."""
    ids: set[str] = set()
    try:
        with target.open("rb") as stream:
            for line in stream:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if isinstance(record, dict) and isinstance(record.get("id"), str):
                    ids.add(record["id"])
    except OSError:
        return set()
    return ids


def _not_a_record(line: bytes) -> bool:
    try:
        record = json.loads(line)
    except ValueError:
        return True
    return not (isinstance(record, dict) and _EXPORTED_FIELDS <= record.keys())


def timestamped_export_path() -> Path:
    """A new file in the data folder's private exports/ folder, named by the time (UTC)."""
    folder = ensure_private_dir(data_dir() / "exports")
    return folder / f"memchat-{datetime.now(UTC):%Y%m%d-%H%M%S}.jsonl"
