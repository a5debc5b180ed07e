"""`memchat memory …`: list, search, get, forget, stats, reindex, hygiene, audit.

Every line printed goes through `say` (stored text is escaped) or `safe_json`; export,
import and snapshot live in `agent.cli.file_commands`.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import TYPE_CHECKING, TextIO

from agent.cli.stats_text import stats_lines
from agent.cli.store import MemoryArgs, ProgressBar, opened_memory, say
from agent.memory_editing import back_since
from agent.terminal_text import safe_json
from memory.date_terms import local_time
from memory.errors import MemoryStoreError
from memory.wording import counted, memories, without_vectors

if TYPE_CHECKING:
    from agent.config import Config
    from memory.entry import MemoryEntry
    from memory.protocol import Memory, MemoryStats

_CONTENT_CHARS = 100


def _local_day(moment: datetime) -> str:
    """The calendar day in this machine's time zone, as dates are searched (YYYY-MM-DD)."""
    local = local_time(moment)
    return f"{local.year:04d}-{local.month:02d}-{local.day:02d}"


def _line(entry: MemoryEntry) -> str:
    flags = " [superseded]" if entry.superseded_by else ""
    flags += " [pinned]" if entry.pinned else ""
    score = f"{entry.score:.3f} " if entry.score is not None else ""
    content = entry.content
    if len(content) > _CONTENT_CHARS:
        content = content[: _CONTENT_CHARS - 1] + "…"
    saved = _local_day(entry.timestamp)
    return f"{score}{entry.key}  ({entry.category}, {saved}){flags}  {content}"


def _print_entries(entries: list[MemoryEntry], as_json: bool, out: TextIO) -> None:
    for entry in entries:
        if as_json:
            out.write(safe_json(entry.model_dump_json()) + "\n")
        else:
            say(out, _line(entry))


async def cmd_list(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Print one page of entries."""
    async with opened_memory(config, reading_only=True) as memory:
        entries = await memory.list(
            namespace=args.namespace,
            category=args.category,
            include_superseded=args.all,
            limit=args.limit,
            offset=args.offset,
        )
        total = (
            await memory.count(
                namespace=args.namespace, category=args.category, include_superseded=args.all
            )
            if len(entries) == args.limit and not args.json
            else 0
        )
        held = await _held_elsewhere(memory, args) if not entries and not args.json else ""
    _print_entries(entries, args.json, out)
    if not entries and not args.json:
        say(out, f"no memories{held}")
    if total > args.offset + len(entries):
        shown = f"{args.offset + 1}-{args.offset + len(entries)}"
        say(
            sys.stderr,
            f"showing {shown} of {total:,}; --offset {args.offset + len(entries)} for more",
        )
    return 0


async def _held_elsewhere(memory: Memory, args: MemoryArgs) -> str:
    """For an empty listing with a filter: what the store does hold (a typo shows)."""
    if args.offset:
        count = await memory.count(
            namespace=args.namespace, category=args.category, include_superseded=args.all
        )
        if count:
            return f" from {args.offset + 1:,} on: the list has {count:,}"
    if args.category is None and args.namespace is None:
        return ""
    stats = await memory.stats()
    if not stats.total:
        return ""
    kinds = [
        (args.namespace, "namespace", stats.by_namespace),
        (args.category, "category", stats.by_category),
    ]
    said = [
        f"{kind} {asked!r} holds none; the store has "
        + (", ".join(f"{name!r} ({count:,})" for name, count in sorted(counts.items())) or "none")
        for asked, kind, counts in kinds
        if asked is not None and asked not in counts
    ]
    return f" ({'; '.join(said)})" if said else ""


async def cmd_search(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Recall exactly as the agent does, and show why each entry matched."""
    # Here, not at the top: every other command would pay for the turn's modules.
    from agent.injection import SKIPPED_NOTE, recall_for_message

    async with opened_memory(config, create=False) as memory:
        # Unless asked for more, what a turn would recall: the same question, the same answer.
        limit = args.limit or config.memory.recall_limit
        result = await recall_for_message(
            memory, args.query, limit, None, exclude_ids=[], namespace=args.namespace or "default"
        )
        stale = (await memory.stats()).stale_embedding if not args.json else 0
        reindexable = memory.reindexing is not None
    if args.json:
        out.write(safe_json(result.model_dump_json()) + "\n")
        return 0
    say(out, f"mode: {result.mode}" + (f" ({result.degraded})" if result.degraded else ""))
    if result.mode == "skipped":
        say(out, SKIPPED_NOTE)
        return 0
    if result.calibration:
        say(out, result.calibration)
    if stale and not result.degraded:
        model = config.memory.embedding_model_name
        say(out, f"note: {without_vectors(stale, model, reindexable=reindexable)}")
    for entry in result.entries:
        say(out, _line(entry))
        if entry.scores is not None:
            say(out, f"    {entry.scores.explanation(result.mode)}")
    if not result.entries:
        floor = config.memory.min_relevance_score
        weaker = [entry for entry in result.below_floor if (entry.score or 0.0) > 0]
        out.write(
            f"nothing above the relevance floor ({floor:.2f})"
            + ("; the weaker matches left out:\n" if weaker else "\n")
        )
        for entry in weaker:
            say(out, "  " + _line(entry))
            if entry.scores is not None:
                say(out, f"      {entry.scores.explanation(result.mode)}")
    return 0


async def _only_history(memory: Memory, key: str, namespace: str) -> str:
    """Why a key shown by `list --all` is not found: none of its versions is in effect."""
    versions = [
        entry
        for entry in await memory.list(
            namespace=namespace, prefix=key, include_superseded=True, limit=500
        )
        if entry.key == key
    ]
    if not versions:
        return ""
    return (
        f" in effect: {counted(len(versions), 'earlier version is', 'earlier versions are')} "
        "history of other memories (`memchat memory list --all` shows them; forgetting the "
        "memory that replaced them forgets them too)"
    )


async def cmd_get(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Print every field of one entry."""
    namespace = args.namespace or "default"
    async with opened_memory(config, reading_only=True) as memory:
        entry = await memory.get(args.key, namespace)
        why = "" if entry is not None else await _only_history(memory, args.key, namespace)
    if entry is None:
        say(sys.stderr, f"memchat: no memory with key {args.key!r}{why}")
        return 1
    out.write(safe_json(entry.model_dump_json(indent=2)) + "\n")
    return 0


async def cmd_forget(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Delete one entry."""
    namespace = args.namespace or "default"
    async with opened_memory(config) as memory:
        removed = await memory.forget(args.key, namespace)
        why = "" if removed else await _only_history(memory, args.key, namespace)
    say(out, ("forgot " if removed else "no memory with key ") + repr(args.key) + why)
    return 0 if removed else 1


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
        done = await reindexing.reindex(
            batch_size=args.batch_size, progress=progress, namespace=args.namespace
        )
    progress.finish()
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
        say(out, f"  {entry.key}  ({entry.category}, {_local_day(entry.updated_at)})  {reason}")
    if snapshot is not None:
        say(out, f"snapshot written to {snapshot}")
    return 0


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
        where += " (restored since)" if record.entry_id in back else ""
        text = " ".join(record.content.split())
        excerpt = text if len(text) <= 60 else text[:59] + "…"
        say(
            out,
            f"{record.at:%Y-%m-%d %H:%M}  {record.action:<7} {record.key}  "
            f"({record.category})  {record.reason}{where}  “{excerpt}”",
        )
    if not records:
        out.write("no deletions recorded\n")
    return 0
