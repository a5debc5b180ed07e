"""Memory hygiene: retention per category and size budgets, every deletion audited."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from memory.entry import MemoryEntry
from memory.sqlite.core import SqliteCore
from memory.sqlite.history import record_deletions
from memory.sqlite.rows import ENTRY_COLUMNS, entry_from_row, format_time


@dataclass(frozen=True)
class Doomed:
    """An entry hygiene removes (or would remove), and why."""

    entry: MemoryEntry
    reason: str


def _retention(core: SqliteCore, now: datetime) -> list[Doomed]:
    retention = core.settings.retention_days
    doomed: list[Doomed] = []
    for category, days in (
        ("core", retention.core),
        ("daily", retention.daily),
        ("conversation", retention.conversation),
    ):
        if days <= 0:
            continue
        cutoff = format_time(now - timedelta(days=days))
        rows = core.conn.execute(
            f"SELECT {ENTRY_COLUMNS} FROM memories WHERE category = ? AND pinned = 0 "
            "AND updated_at < ? ORDER BY seq",
            (category, cutoff),
        ).fetchall()
        reason = f"retention: {category} older than {days} days"
        doomed.extend(Doomed(entry_from_row(row), reason) for row in rows)
    return doomed


def _budgets(core: SqliteCore, already: set[str]) -> list[Doomed]:
    budgets = core.settings.budgets
    doomed: list[Doomed] = []
    for category, max_entries, max_bytes in (
        ("core", budgets.core_max_entries, budgets.core_max_bytes),
        ("daily", budgets.daily_max_entries, budgets.daily_max_bytes),
    ):
        if not max_entries and not max_bytes:
            continue
        rows = core.conn.execute(
            f"SELECT {ENTRY_COLUMNS}, length(CAST(content AS BLOB)) FROM memories "
            "WHERE category = ? ORDER BY pinned, importance, updated_at, seq",
            (category,),
        ).fetchall()
        kept = [row for row in rows if row[1] not in already]
        count = len(kept)
        size = sum(row[13] for row in kept)
        # Least important first, then oldest; pinned rows sort last and are never removed.
        for row in kept:
            over_count = bool(max_entries) and count > max_entries
            over_size = bool(max_bytes) and size > max_bytes
            if not (over_count or over_size) or row[8]:
                break
            what = f"{max_entries} entries" if over_count else f"{max_bytes} bytes"
            doomed.append(Doomed(entry_from_row(row), f"budget: {category} over {what}"))
            count -= 1
            size -= row[13]
    return doomed


def plan(core: SqliteCore, now: datetime) -> list[Doomed]:
    """What a hygiene run at `now` removes, in order."""
    core.refresh()
    doomed = _retention(core, now)
    return doomed + _budgets(core, {d.entry.id for d in doomed})


def run(core: SqliteCore, now: datetime, dry_run: bool) -> list[Doomed]:
    """Plan, and unless `dry_run`, delete with an audit row for each entry."""
    doomed = plan(core, now)
    if dry_run or not doomed:
        return doomed
    with core.write() as conn:
        for item in doomed:
            record_deletions(conn, "id = ?", (item.entry.id,), "hygiene", item.reason)
    core.after_write()
    return doomed
