"""`memchat memory migrate`: copy the store to another backend, verified, source untouched."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from agent.cli.file_commands import back_again, forgotten_in
from agent.cli.store import ProgressBar, say, store_folder, warn
from agent.erased_ids import erased_ids
from agent.other_windows import apps_open
from agent.wiring import build_embedder, open_store
from memory.migration import MigrationError, MigrationReport, migrate
from memory.wording import memories, older_than_replaced, without_vectors

if TYPE_CHECKING:
    from agent.cli.store import MemoryArgs
    from agent.config import Config
    from memory.protocol import Memory


def _warn_about(memory: Memory) -> None:
    for line in dict.fromkeys(memory.warnings):
        warn(f"{memory.name}: {line}")


async def cmd_migrate(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Copy every entry from --from (default: the configured backend) to --to."""
    source_name = args.source or config.memory.backend
    if args.to == source_name:
        raise MigrationError(f"--from and --to are both {source_name!r}; nothing to do")
    folder = store_folder()
    progress = ProgressBar()
    embedder = build_embedder(config)
    source = await open_store(config, folder, embedder, backend=source_name)
    try:
        target = await open_store(config, folder, embedder, backend=args.to)
        try:
            # What the target forgot that the copy brings back (found by an adversary: a
            # migrate back put a forgotten memory in effect again, unsaid).
            erased = frozenset() if args.include_erased else erased_ids(folder)
            forgotten = await forgotten_in(
                target, [entry async for entry in source.export() if entry.id not in erased]
            )
            report = await migrate(
                source,
                target,
                batch_size=args.batch_size,
                dry_run=args.dry_run,
                progress=progress,
                leave_out=erased,
            )
            stale = (await target.stats()).stale_embedding if not args.dry_run else 0
            reindexable = target.reindexing is not None
            can_forget = target.capabilities.supports_delete
        finally:
            # The bar's line ends before any warning: a warning went on after the bar, and
            # a new user read the bar as printed after the result.
            progress.finish()
            await target.close()
            _warn_about(target)
    finally:
        await source.close()
        _warn_about(source)
    if (running := apps_open(folder)) and source_name == config.memory.backend:
        # A new user migrated with the app open, went on chatting, then switched backend:
        # what he had said since was not in the copy, and nothing said so.
        warn(
            f"a memchat app (process {', '.join(map(str, running))}) has this data folder "
            f"open: what it saves from now on goes to {source_name}, not to the copy in "
            f"{args.to}. Quit it before switching memory.backend, then migrate again (a "
            "repeat copies only what is new)"
        )
    if report.dry_run:
        _say_what_a_copy_would_do(out, report, forgotten, can_forget)
        return 0
    if report.mismatched:
        say(
            out,
            f"copied {memories(report.copied)}, but {len(report.mismatched)} differ in "
            f"{report.target} (first: {report.mismatched[0]}); the {report.source} store is "
            "untouched",
        )
        return 1
    parts = [
        f"{report.unchanged:,} of them were already there, unchanged" if report.unchanged else "",
        f"{report.replaced:,} replaced another version there, kept as its history"
        if report.replaced
        else "",
    ]
    already = f" ({'; '.join(part for part in parts if part)})" if any(parts) else ""
    say(
        out,
        f"copied {memories(report.copied)} from {report.source} to {report.target}{already}; "
        f"every field verified. The {report.source} store is untouched. Set memory.backend = "
        f'"{report.target}" in the config to use the copy.',
    )
    if report.older_than_replaced:
        say(out, f"note: in {report.target}, {older_than_replaced(report.older_than_replaced)}")
    if report.left_out:
        say(out, f"note: {_left_out(report, done=True)}")
    if report.only_in_target:
        say(out, f"note: {_only_in_target(report, can_forget)}")
    if forgotten:
        say(out, f"note: in {report.target}, {back_again(forgotten, report.source)}")
    if stale:
        model = config.memory.embedding_model_name
        say(out, f"note: {without_vectors(stale, model, reindexable=reindexable)}")
    return 0


def _say_what_a_copy_would_do(
    out: TextIO, report: MigrationReport, forgotten: list[str], can_forget: bool
) -> None:
    say(
        out,
        f"would copy {memories(report.total)} from {report.source} to {report.target} "
        f"({report.already_present:,} already there); nothing was written",
    )
    if report.only_in_target:
        say(out, f"note: {_only_in_target(report, can_forget)}")
    if report.left_out:
        say(out, f"note: {_left_out(report, done=False)}")
    if forgotten:
        said = back_again(forgotten, report.source, done=False)
        say(out, f"note: in {report.target}, {said}")
    if report.older_than_replaced:
        say(
            out,
            f"note: {report.older_than_replaced} of them would replace a newer version in "
            f"{report.target}: the older text would be in effect again, the newer one "
            "kept as history",
        )


def _left_out(report: MigrationReport, *, done: bool) -> str:
    """The source's records erased for good, which the copy leaves out, as import does."""
    one = report.left_out == 1
    were = ("was" if one else "were") if done else "would be"
    return (
        f"{report.left_out:,} record{'' if one else 's'} of {report.source} {were} left out: "
        f"erased for good (`forget --erase`) while {report.source} still holds "
        f"{'it' if one else 'them'} (forget or edit {'it' if one else 'them'} there); "
        f"--include-erased copies {'it' if one else 'them'} too"
    )


def _only_in_target(report: MigrationReport, can_forget: bool) -> str:
    """The target's memories the source does not hold, which a copy neither adds nor removes.

    Found by a new user: a second copy to markdown left a door code forgotten in sqlite
    since the first one in the markdown store, unsaid.
    """
    count = memories(report.only_in_target)
    return (
        f"{report.target} also holds {count} that {report.source} does not (from an earlier "
        f"copy and forgotten or replaced in {report.source} since, or added in "
        f"{report.target}); the copy leaves them as they are: `memchat memory list --all` "
        f'with memory.backend = "{report.target}" shows them'
        + (", `forget` removes one" if can_forget else "")
    )
