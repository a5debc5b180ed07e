"""`memchat memory migrate`: copy the store to another backend, verified, source untouched."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from agent.paths import data_dir, ensure_private_dir, resolve_ollama_host
from memory.embedding import make_embedder
from memory.factory import open_memory
from memory.migration import MigrationError, migrate
from memory.wording import memories

if TYPE_CHECKING:
    from agent.config import Config
    from agent.memory_commands import MemoryArgs


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()


async def cmd_migrate(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Copy every entry from --from (default: the configured backend) to --to."""
    source_name = args.source or config.memory.backend
    if args.to == source_name:
        raise MigrationError(f"--from and --to are both {source_name!r}; nothing to do")
    folder = ensure_private_dir(data_dir())
    embedder = make_embedder(config.memory, resolve_ollama_host(config.ollama.host))
    source = await open_memory(
        config.memory.model_copy(update={"backend": source_name}), folder, embedder
    )
    try:
        target = await open_memory(
            config.memory.model_copy(update={"backend": args.to}), folder, embedder
        )
        try:
            report = await migrate(
                source, target, batch_size=args.batch_size, dry_run=args.dry_run, progress=_progress
            )
            stale = (await target.stats()).stale_embedding if not args.dry_run else 0
        finally:
            await target.close()
    finally:
        await source.close()
    sys.stderr.write("\n")
    if report.dry_run:
        out.write(
            f"would copy {memories(report.total)} from {report.source} to {report.target} "
            f"({report.already_present} already there); nothing was written\n"
        )
        return 0
    if report.mismatched:
        out.write(
            f"copied {memories(report.copied)}, but {len(report.mismatched)} differ in "
            f"{report.target} (first: {report.mismatched[0]}); the {report.source} store is "
            "untouched\n"
        )
        return 1
    out.write(
        f"copied {memories(report.copied)} from {report.source} to {report.target}; every field "
        f"verified. The {report.source} store is untouched. Set memory.backend = "
        f'"{report.target}" in the config to use the copy.\n'
    )
    if stale:
        out.write(f"{stale} copies have no vector yet: run `memchat memory reindex`.\n")
    return 0
