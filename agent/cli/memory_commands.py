"""`memchat memory stats | reindex | hygiene | audit`: the commands about the whole store.

Every line printed goes through `say` (stored text is escaped); single memories are
`agent.cli.entry_commands`'s, export, import and snapshot `agent.cli.file_commands`'s.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TextIO

from agent.bringing_back import DELETIONS, back_since
from agent.cli.entry_commands import local_day
from agent.cli.stats_text import stats_lines
from agent.cli.store import MemoryArgs, ProgressBar, opened_memory, say
from agent.terminal_text import safe_json
from memory.date_term_names import local_time
from memory.errors import MemoryStoreError
from memory.wording import memories

if TYPE_CHECKING:
    from agent.config import Config
    from memory.protocol import Memory, MemoryStats


async def _namespace_stats(memory: Memory, stats: MemoryStats, namespace: str) -> MemoryStats:
    """The counts of one namespace; file and embedding figures stay those of the store."""
    total = await memory.count(namespace=namespace)
    by_category = {
        category: count
        for category in stats.by_category
        if (count := await memory.count(namespace=namespace, category=category))
    }
    return stats.model_copy(
        update={
            "total": total,
            "active": await memory.count(namespace=namespace, include_superseded=False),
            "by_category": by_category,
            "by_namespace": {namespace: total} if total else {},
        }
    )


async def cmd_stats(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Counts, sizes and embedding state (counts of one namespace with --namespace).

    Reading every page for damage takes seconds on a large store, so only `--check` does.
    """
    async with opened_memory(config, reading_only=True) as memory:
        stats = await memory.stats()
        namespaces = list(stats.by_namespace)
        if args.namespace is not None:
            stats = await _namespace_stats(memory, stats, args.namespace)
        health = await memory.health_check() if args.check else None
        reindexable = memory.reindexing is not None
    if args.json:
        document = json.loads(stats.model_dump_json())
        if health is not None:
            document["health"] = {"ok": health.ok, "detail": health.detail}
        out.write(safe_json(json.dumps(document)) + "\n")
        return 0 if health is None or health.ok else 1
    for line in stats_lines(stats, args.namespace, namespaces, reindexable=reindexable):
        say(out, line)
    if health is None:
        say(out, "health: not checked (`memchat memory stats --check` reads every page)")
        return 0
    say(out, f"health: {'ok' if health.ok else 'PROBLEM'} ({health.detail})")
    return 0 if health.ok else 1


async def cmd_reindex(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Embed every entry whose vector is missing or stale, with a progress bar."""
    progress = ProgressBar()
    async with opened_memory(config) as memory:
        reindexing = memory.reindexing
        if reindexing is None and memory.capabilities.supports_vectors:
            raise MemoryStoreError(
                f"the {memory.name!r} backend cannot re-embed stored memories in place yet: "
                "`memchat memory export FILE` then `memchat memory import FILE` embeds again "
                "what lacks a vector from the current model"
            )
        if reindexing is None:
            raise MemoryStoreError(f"the {memory.name!r} backend has no vectors to rebuild")
        try:
            done = await reindexing.reindex(
                batch_size=args.batch_size, progress=progress, namespace=args.namespace
            )
        finally:
            progress.finish()  # a failure's message starts a line of its own
    out.write(f"reindexed {memories(done)}\n")
    return 0


async def cmd_hygiene(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Apply retention and budgets now; with --dry-run only list what would go."""
    from agent.maintenance import maintain

    async with opened_memory(config) as memory:
        report, snapshot = await maintain(
            memory, config.memory, dry_run=args.dry_run, namespace=args.namespace
        )
    if report is None:
        say(out, f"the {config.memory.backend!r} backend has no hygiene")
        return 0
    verb = "would remove" if report.dry_run else "removed"
    out.write(f"{verb} {memories(len(report.removed))}\n")
    for entry, reason in report.removed:
        # The text too: a key alone did not say which message would go (an adversary).
        say(
            out,
            f"  {entry.key}  ({entry.category}, {local_day(entry.updated_at)})  {reason}  "
            f"“{_excerpt(entry.content)}”",
        )
    if snapshot is not None:
        say(out, f"snapshot written to {snapshot}")
    return 0


def _excerpt(content: str) -> str:
    """A memory's text on one line, its first 60 characters."""
    text = " ".join(content.split())
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


_EXCERPT = 60


async def cmd_audit(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Deletions, newest first: what went, when and why."""
    async with opened_memory(config, reading_only=True) as memory:
        lifecycle = memory.lifecycle
        if lifecycle is None:
            say(out, f"the {memory.name!r} backend keeps no audit log (it deletes nothing)")
            return 0
        records = await lifecycle.audit_log(limit=args.limit, namespace=args.namespace)
        back = await back_since(memory, list(records))
    for record in records:
        where = f"  [namespace {record.namespace}]" if record.namespace != "default" else ""
        where += f" ({back[record.entry_id]})" if record.entry_id in back else ""
        excerpt = _excerpt(record.content)
        say(
            out,
            f"{local_time(record.at):%Y-%m-%d %H:%M}  {record.action:<7}  {record.key}  "
            f"({record.category})  {record.reason}{where}  “{excerpt}”  id {record.entry_id}",
        )
    if not records:
        out.write("no deletions recorded\n")
    elif any(r.action in DELETIONS and r.entry_id not in back for r in records):
        say(out, "`memchat memory restore ID` brings a deleted memory back")
    return 0
