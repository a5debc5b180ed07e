"""`memchat memory …`: list, search, get, forget, stats, export, import, reindex."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from agent.config import Config
from agent.paths import data_dir, ensure_private_dir, resolve_ollama_host
from memory.embedding import make_embedder
from memory.errors import ImportFormatError, MemoryStoreError
from memory.factory import open_memory
from memory.records import MemoryRecord
from memory.wording import memories

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from memory.protocol import Memory


@dataclass
class MemoryArgs:
    """Arguments of the `memchat memory` subcommands."""

    command: str
    query: str = ""
    key: str = ""
    file: str | None = None
    namespace: str | None = "default"
    category: str | None = None
    limit: int = 50
    offset: int = 0
    all: bool = False
    json: bool = False
    batch_size: int = 64
    dry_run: bool = False
    to: str = ""
    source: str | None = None


@asynccontextmanager
async def opened_memory(config: Config) -> AsyncIterator[Memory]:
    """The configured store, closed on exit."""
    embedder = make_embedder(config.memory, resolve_ollama_host(config.ollama.host))
    memory = await open_memory(config.memory, ensure_private_dir(data_dir()), embedder)
    try:
        yield memory
    finally:
        await memory.close()


def _line(entry: MemoryEntry) -> str:
    flags = " [superseded]" if entry.superseded_by else ""
    flags += " [pinned]" if entry.pinned else ""
    score = f"{entry.score:.3f} " if entry.score is not None else ""
    content = entry.content.replace("\n", " ")
    if len(content) > 100:
        content = content[:99] + "…"
    return f"{score}{entry.key}  ({entry.category}, {entry.timestamp:%Y-%m-%d}){flags}  {content}"


def _print_entries(entries: list[MemoryEntry], as_json: bool, out: TextIO) -> None:
    for entry in entries:
        out.write((entry.model_dump_json() if as_json else _line(entry)) + "\n")


async def cmd_list(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Print one page of entries."""
    async with opened_memory(config) as memory:
        entries = await memory.list(
            namespace=args.namespace,
            category=args.category,
            include_superseded=args.all,
            limit=args.limit,
            offset=args.offset,
        )
    _print_entries(entries, args.json, out)
    if not entries and not args.json:
        out.write("no memories\n")
    return 0


async def cmd_search(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Recall exactly as the agent does, and show why each entry matched."""
    async with opened_memory(config) as memory:
        result = await memory.recall(args.query, limit=args.limit, namespace=args.namespace)
    if args.json:
        out.write(result.model_dump_json() + "\n")
        return 0
    note = f"mode: {result.mode}" + (f" ({result.degraded})" if result.degraded else "")
    out.write(note + "\n")
    for entry in result.entries:
        out.write(_line(entry) + "\n")
        if entry.scores is not None:
            s = entry.scores
            out.write(f"    keyword={s.keyword} vector={s.vector} lane={s.lane}\n")
    if not result.entries:
        out.write("nothing above the relevance floor\n")
    return 0


async def cmd_get(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Print every field of one entry."""
    async with opened_memory(config) as memory:
        entry = await memory.get(args.key, args.namespace or "default")
    if entry is None:
        sys.stderr.write(f"memchat: no memory with key {args.key!r}\n")
        return 1
    out.write(entry.model_dump_json(indent=2) + "\n")
    return 0


async def cmd_forget(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Delete one entry."""
    async with opened_memory(config) as memory:
        removed = await memory.forget(args.key, args.namespace or "default")
    out.write(("forgot " if removed else "no memory with key ") + repr(args.key) + "\n")
    return 0 if removed else 1


async def cmd_stats(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Counts, sizes and embedding state."""
    async with opened_memory(config) as memory:
        stats = await memory.stats()
        health = await memory.health_check()
    if args.json:
        out.write(stats.model_dump_json() + "\n")
        return 0
    for name, value in stats.model_dump().items():
        out.write(f"{name}: {value}\n")
    out.write(f"health: {'ok' if health.ok else 'PROBLEM'} ({health.detail})\n")
    return 0


async def cmd_export(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Write every entry, every field and vector, as JSON lines."""
    target = args.file
    stream = out if target in (None, "-") else Path(str(target)).open("w", encoding="utf-8")
    count = 0
    try:
        async with opened_memory(config) as memory:
            async for entry in memory.export(namespace=args.namespace):
                stream.write(entry.model_dump_json() + "\n")
                count += 1
    finally:
        if stream is not out:
            stream.close()
            Path(str(target)).chmod(0o600)
    if stream is not out:
        sys.stderr.write(f"exported {memories(count)} to {target}\n")
    return 0


def read_export(path: Path) -> list[MemoryRecord]:
    """Parse an export file, naming the first bad line."""
    records = []
    with path.open(encoding="utf-8") as stream:
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            try:
                records.append(MemoryRecord.model_validate_json(line))
            except ValueError as exc:
                raise ImportFormatError(number, str(exc).splitlines()[0]) from None
    return records


async def cmd_import(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Load an export file; nothing is written unless the whole file parses."""
    records = read_export(Path(str(args.file)))
    async with opened_memory(config) as memory:
        summary = await memory.import_(records)
    out.write(f"imported {summary.added} new, replaced {summary.replaced}\n")
    return 0


async def cmd_reindex(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Embed every entry whose vector is missing or stale, with a progress bar."""

    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        sys.stderr.flush()

    async with opened_memory(config) as memory:
        reindex = getattr(memory, "reindex", None)
        if reindex is None:
            raise MemoryStoreError(f"the {memory.name!r} backend has no vectors to rebuild")
        done = await reindex(batch_size=args.batch_size, progress=progress)
    sys.stderr.write("\n" if done else "")
    out.write(f"reindexed {memories(done)}\n")
    return 0


COMMANDS: dict[str, Callable[[Config, MemoryArgs, TextIO], Coroutine[Any, Any, int]]] = {
    "list": cmd_list,
    "search": cmd_search,
    "get": cmd_get,
    "forget": cmd_forget,
    "stats": cmd_stats,
    "export": cmd_export,
    "import": cmd_import,
    "reindex": cmd_reindex,
}


async def cmd_hygiene(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Apply retention and budgets now; with --dry-run only list what would go."""
    from agent.maintenance import maintain

    async with opened_memory(config) as memory:
        report, snapshot = await maintain(memory, config.memory, dry_run=args.dry_run)
    if report is None:
        out.write(f"the {config.memory.backend!r} backend has no hygiene\n")
        return 0
    verb = "would remove" if report.dry_run else "removed"
    out.write(f"{verb} {memories(len(report.removed))}\n")
    for entry, reason in report.removed:
        out.write(f"  {entry.key}  ({entry.category}, {entry.updated_at:%Y-%m-%d})  {reason}\n")
    if snapshot is not None:
        out.write(f"snapshot written to {snapshot}\n")
    return 0


async def cmd_snapshot(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Write MEMORY_SNAPSHOT.md (or FILE): core memories, readable and restorable."""
    async with opened_memory(config) as memory:
        write = getattr(memory, "write_snapshot", None)
        if write is None:
            raise MemoryStoreError(f"the {memory.name!r} backend cannot write snapshots")
        path = await write(Path(args.file) if args.file else None)
    out.write(f"snapshot written to {path}\n")
    return 0


async def cmd_audit(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Deletions, newest first: what went, when and why."""
    async with opened_memory(config) as memory:
        audit_log = getattr(memory, "audit_log", None)
        records = await audit_log(limit=args.limit) if audit_log is not None else []
    for record in records:
        out.write(
            f"{record.at:%Y-%m-%d %H:%M}  {record.action:<7} {record.key}  "
            f"({record.category})  {record.reason}\n"
        )
    if not records:
        out.write("no deletions recorded\n")
    return 0


COMMANDS.update({"hygiene": cmd_hygiene, "snapshot": cmd_snapshot, "audit": cmd_audit})


async def _cmd_migrate(config: Config, args: MemoryArgs, out: TextIO) -> int:
    from agent.migrate_command import cmd_migrate

    return await cmd_migrate(config, args, out)


COMMANDS["migrate"] = _cmd_migrate
