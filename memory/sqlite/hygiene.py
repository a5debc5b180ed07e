"""Memory hygiene: retention per category and size budgets, every deletion audited.

Budgets hold per namespace: a namespace's facts never make room for another's. Retention
accepts any number of days; a cutoff before the earliest representable date means nothing
is old enough to go.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from memory.entry import MemoryEntry, utc_now
from memory.lifecycle import Doomed, retention_removals
from memory.sqlite.core import SqliteCore
from memory.sqlite.history import record_deletions
from memory.sqlite.rows import (
    ENTRY_COLUMNS,
    BadRowError,
    entry_from_row,
    format_time,
    readable_entries,
    time_or_none,
)

_ID, _NAMESPACE, _PINNED, _SUPERSEDED_BY, _BYTES = 1, 2, 8, 10, 13
"""Positions in a row selected with ENTRY_COLUMNS (then the content's length in bytes)."""


def cutoff_text(now: datetime, days: int) -> str | None:
    """The stored-time text `days` before `now`; None when that is before year 1.

    The year is written with four digits whatever its size, so the text still sorts with the
    stored times (strftime writes year 216 as "216", which would sort after "2026").
    """
    try:
        cutoff = now - timedelta(days=days)
    except OverflowError:  # too many days for a timedelta, or a date before year 1
        return None
    return f"{cutoff.year:04d}" + cutoff.strftime("-%m-%dT%H:%M:%S.%fZ")


def _namespace_clause(namespace: str | None) -> tuple[str, tuple[object, ...]]:
    return ("", ()) if namespace is None else (" AND namespace = ?", (namespace,))


@dataclass(frozen=True)
class RetentionRead:
    """What retention judges, read from the store: the facts in effect, and the old rows."""

    facts: list[MemoryEntry]
    old: list[tuple[MemoryEntry, str]]
    """Each row past its category's days, unpinned, with the reason it would go."""


def read_retention(core: SqliteCore, now: datetime, namespace: str | None) -> RetentionRead:
    """The rows retention judges (on the store's thread; the judging is not)."""
    core.refresh()
    retention = core.settings.retention_days
    clause, params = _namespace_clause(namespace)
    facts = core.conn.execute(
        f"SELECT {ENTRY_COLUMNS} FROM memories WHERE (category = 'core' OR pinned = 1) "
        f"AND superseded_by IS NULL{clause}",
        params,
    ).fetchall()
    old: list[tuple[MemoryEntry, str]] = []
    for category, days in (
        ("core", retention.core),
        ("daily", retention.daily),
        ("conversation", retention.conversation),
    ):
        cutoff = cutoff_text(now, days) if days > 0 else None
        if cutoff is None:
            continue
        rows = core.conn.execute(
            f"SELECT {ENTRY_COLUMNS} FROM memories WHERE category = ? AND pinned = 0 "
            f"AND updated_at < ?{clause} ORDER BY seq",
            (category, cutoff, *params),
        ).fetchall()
        reason = f"retention: {category} older than {days} days"
        old += [(entry, reason) for entry in readable_entries(rows, core.warn)]
    return RetentionRead(readable_entries(facts, core.warn), old)


def judge_retention(read: RetentionRead, now: datetime) -> list[Doomed]:
    """What retention removes of `read`: the rules' reading of each text, on any thread.

    Found by an adversary: with 5,000 messages, judging took over a minute on the store's
    own thread, and the chat's recall waited behind it (no reply for minutes at start).
    """
    context = [*(entry for entry, _ in read.old), *read.facts]
    return retention_removals(read.old, read.facts, context, now)


def _over_budget(
    core: SqliteCore,
    rows: Sequence[sqlite3.Row],
    category: str,
    max_entries: int,
    max_bytes: int,
) -> list[Doomed]:
    """Rows of one namespace and category beyond the budget, in eviction order."""
    doomed: list[Doomed] = []
    count = len(rows)
    size = sum(row[_BYTES] for row in rows)
    # In eviction order; pinned rows in effect sort last and are never removed.
    for row in rows:
        over_count = bool(max_entries) and count > max_entries
        over_size = bool(max_bytes) and size > max_bytes
        if not (over_count or over_size) or (row[_PINNED] and row[_SUPERSEDED_BY] is None):
            break
        what = f"{max_entries} entries" if over_count else f"{max_bytes} bytes"
        try:
            entry = entry_from_row(row)
        except BadRowError as exc:
            # A row we cannot read is never deleted blind: it stays, and the user hears of it.
            core.warn(f"{exc}; hygiene left it in place")
            continue
        doomed.append(Doomed(entry, f"budget: {category} over {what}"))
        count -= 1
        size -= row[_BYTES]
    return doomed


def _budgets(core: SqliteCore, already: set[str], namespace: str | None) -> list[Doomed]:
    budgets = core.settings.budgets
    clause, params = _namespace_clause(namespace)
    doomed: list[Doomed] = []
    for category, max_entries, max_bytes in (
        ("core", budgets.core_max_entries, budgets.core_max_bytes),
        ("daily", budgets.daily_max_entries, budgets.daily_max_bytes),
    ):
        if not max_entries and not max_bytes:
            continue
        rows = core.conn.execute(
            f"SELECT {ENTRY_COLUMNS}, length(CAST(content AS BLOB)) FROM memories "
            # History before what is in effect, then the least important, then the oldest;
            # a pin protects only a version in effect (a pinned old version outlived the one
            # fact in effect, and a restored version went while its successor stayed: found
            # by adversaries). Equal times go by id, as on every backend.
            f"WHERE category = ?{clause} ORDER BY namespace, "
            "(pinned AND superseded_by IS NULL), superseded_by IS NULL, importance, "
            "updated_at, id",
            (category, *params),
        ).fetchall()
        by_namespace: dict[str, list[sqlite3.Row]] = {}
        for row in rows:
            if row[_ID] not in already:
                by_namespace.setdefault(row[_NAMESPACE], []).append(row)
        for kept in by_namespace.values():
            doomed.extend(_over_budget(core, kept, category, max_entries, max_bytes))
    return doomed


def finish(
    core: SqliteCore, retention: list[Doomed], dry_run: bool, namespace: str | None = None
) -> list[Doomed]:
    """Add the budgets' removals to `retention`'s and, unless `dry_run`, delete each audited.

    Judged off the store's thread, an entry another process pinned or changed since is
    judged as it now is: it stays. Nothing to remove means no write at all (a read-only
    store runs hygiene fine).
    """
    core.refresh()
    doomed = retention + _budgets(core, {d.entry.id for d in retention}, namespace)
    if dry_run or not doomed:
        return doomed
    with core.write() as conn:
        still = [d for d in retention if _as_judged(conn, d.entry)]
        doomed = still + _budgets(core, {d.entry.id for d in still}, namespace)
        revived_at = format_time(utc_now())
        for item in doomed:
            # As it is now: an entry mended back into effect a moment ago is in effect.
            found = conn.execute(
                "SELECT superseded_by FROM memories WHERE id = ?", (item.entry.id,)
            ).fetchone()
            record_deletions(conn, "id = ?", (item.entry.id,), "hygiene", item.reason)
            if found is not None:
                _mend_history(conn, item.entry.id, found[0], revived_at)
    core.after_write()
    return doomed


def _as_judged(conn: sqlite3.Connection, entry: MemoryEntry) -> bool:
    """Whether `entry` is still unpinned and unchanged since it was read."""
    row = conn.execute(
        "SELECT pinned, updated_at FROM memories WHERE id = ?", (entry.id,)
    ).fetchone()
    return row is not None and not row[0] and time_or_none(row[1]) == entry.updated_at


def _mend_history(
    conn: sqlite3.Connection, gone: str, successor: str | None, revived_at: str
) -> None:
    """Keep what the entry `gone` had replaced reachable (as `SharedLifecycle` does).

    Replaced by a deleted entry, a version is history of nothing: never recalled, and
    `get`/`forget` cannot name it. A core fact a model rewrote as a 30-day conversation
    note would have gone that way when the note expired. A version back in effect is
    restored as `restore` does it, dated `revived_at`.
    """
    if successor is not None:  # history itself: its versions follow its successor
        conn.execute(
            "UPDATE memories SET superseded_by = ? WHERE superseded_by = ?", (successor, gone)
        )
        return
    replaced = conn.execute(
        "SELECT id, namespace, key FROM memories WHERE superseded_by = ? "
        "ORDER BY updated_at DESC, seq DESC",
        (gone,),
    ).fetchall()
    for entry_id, namespace, key in replaced:
        taken = conn.execute(
            "SELECT 1 FROM memories WHERE namespace = ? AND key = ? AND superseded_by IS NULL",
            (namespace, key),
        ).fetchone()
        if taken is None:
            conn.execute(
                "UPDATE memories SET superseded_by = NULL, updated_at = ? WHERE id = ?",
                (revived_at, entry_id),
            )
            conn.execute(
                "UPDATE memories SET superseded_by = ? WHERE superseded_by = ?",
                (entry_id, gone),
            )
            return
