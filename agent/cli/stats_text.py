"""`memchat memory stats` in words: counts with their nouns, sizes in units."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memory.lazy_patterns import lazy_compile
from memory.wording import counted, memories

if TYPE_CHECKING:
    from memory.protocol import MemoryStats


def _size(count: int) -> str:
    if count < 1024:
        return f"{count:,} bytes"
    size = count / 1024
    for unit in ("KiB", "MiB"):
        if size < 1024:
            return f"{size:,.1f} {unit}"
        size /= 1024
    return f"{size:,.1f} GiB"


_PLAIN_NAME = lazy_compile(r"[A-Za-z0-9_.:/-]+")


def _shown(name: str) -> str:
    # Quoted (Python's way, which escapes backslashes) unless plain: "a, b" or a name
    # that spells an escape would otherwise read like others.
    return name if _PLAIN_NAME.fullmatch(name) else repr(name)


def _counts(by_name: dict[str, int]) -> str:
    ordered = sorted(by_name.items(), key=lambda pair: (-pair[1], pair[0]))
    return ", ".join(f"{_shown(name)} {count:,}" for name, count in ordered) or "none"


def stats_lines(
    stats: MemoryStats,
    namespace: str | None = None,
    namespaces: list[str] | None = None,
    *,
    reindexable: bool = True,
) -> list[str]:
    """One `name: value` line per figure, in words a user reads without the docs.

    With `namespace`, the counts are that namespace's (`stats` already cut to it) and the
    lines about vectors and the file, which are the whole store's, say so; `namespaces`
    are the store's, named when the one asked for holds nothing.
    """
    whole = "" if namespace is None else " (whole store)"
    earlier = stats.total - stats.active
    total = f"total: {memories(stats.total)}"
    if earlier:
        # "earlier version" alone puzzled a new user who had changed nothing: the messages
        # made facts ("remember …") are history too.
        versions = counted(earlier, "earlier version", "earlier versions")
        total += (
            f" ({stats.active:,} in effect, {versions} kept as history: replaced facts and "
            "messages that became facts)"
        )
    lines = [f"backend: {stats.backend}"]
    if namespace is None:
        lines += [total, f"by category: {_counts(stats.by_category)}"]
        lines.append(f"by namespace: {_counts(stats.by_namespace)}")
    else:
        lines += [f"namespace: {_shown(namespace)}", total]
        lines.append(f"by category: {_counts(stats.by_category)}")
        if not stats.total:
            known = ", ".join(_shown(name) for name in sorted(namespaces or [])) or "none yet"
            lines.append(f"no memory is in namespace {namespace!r} (the store has: {known})")
    if stats.embedding_identity is not None:
        lines.append(f"embedding model: {stats.embedding_identity}")
        vectors = f"vectors{whole}: {stats.with_embedding:,} from this model"
        if stats.stale_embedding:
            fix = "`memchat memory reindex`" if reindexable else "an export and import again"
            vectors += (
                f"; {memories(stats.stale_embedding)} without one, found by keyword only "
                f"until {fix} embeds them"
            )
        lines.append(vectors)
        cached = counted(stats.embedding_cache_entries, "vector", "vectors")
        lines.append(f"embedding cache{whole}: {cached} kept for texts seen before")
    else:
        lines.append("embedding model: none (recall by keyword only)")
    if stats.path is not None:
        size = "" if stats.file_bytes is None else f" ({_size(stats.file_bytes)})"
        label = "schema" if stats.backend == "postgres" else "file"  # a name, not a path
        lines.append(f"{label}{whole}: {stats.path}{size}")
    return lines
