"""History writes: supersede, restore, and deletions that leave an audit trail."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from memory.entry import MemoryEntry, utc_now
from memory.errors import MemoryStoreError
from memory.forgetting import Link, plan_rehoming, split_history
from memory.sqlite.core import SqliteCore
from memory.sqlite.rows import ENTRY_COLUMNS, entry_from_row, format_time

AUDIT_COLUMNS = (
    "at, action, reason, entry_id, namespace, key, category, content, created_at, session_id"
)
AUDITED = "id, namespace, key, category, content, created_at, session_id"
"""What the audit log keeps of a row (since 0016 its first time and chat too)."""


def record_deletions(
    conn: sqlite3.Connection,
    where: str,
    params: tuple[object, ...],
    action: str,
    reason: str,
    at: str | None = None,
) -> int:
    """Delete the rows matching `where`, leaving an audit row for each (what, when, why).

    `at`: the time recorded (one for all the deletions of one forget, as PostgreSQL's
    transaction time is), now when None.
    """
    now = at or format_time(utc_now())
    conn.execute(
        f"INSERT INTO memory_audit ({AUDIT_COLUMNS}) SELECT ?, ?, ?, {AUDITED} FROM memories "
        f"WHERE {where}",
        (now, action, reason, *params),
    )
    return int(conn.execute(f"DELETE FROM memories WHERE {where}", params).rowcount)


def audit_row(conn: sqlite3.Connection, seq: int, now: str, action: str, reason: str) -> None:
    """Record one row as it is now (it is about to be set aside, not deleted)."""
    conn.execute(
        f"INSERT INTO memory_audit ({AUDIT_COLUMNS}) SELECT ?, ?, ?, {AUDITED} FROM memories "
        "WHERE seq = ?",
        (now, action, reason, seq),
    )


# The key's rows, and every entry they superseded, however far back the chain goes.
_HISTORY = (
    "SELECT id, namespace, key, category, superseded_by, updated_at || ' ' || created_at "
    "FROM memories WHERE id IN (WITH RECURSIVE history(id) AS ("
    "SELECT id FROM memories WHERE namespace = ? AND key = ? UNION SELECT m.id FROM "
    "memories m JOIN history h ON m.superseded_by = h.id) SELECT id FROM history)"
)


def forget(core: SqliteCore, key: str, namespace: str, reason: str = "forgotten") -> bool:
    """Delete every version under key; what they replaced under other keys stays.

    True when the key was in effect. Each deleted row is recorded in the audit log. The
    saved messages the versions replaced go with them; a fact under another key comes back
    into effect, or becomes history of its key's holder (`memory.forgetting`).
    """
    with core.write() as conn:
        active = conn.execute(
            "SELECT 1 FROM memories WHERE namespace = ? AND key = ? AND superseded_by IS NULL",
            (namespace, key),
        ).fetchone()
        if not active:
            return False
        # Links, not whole entries: a damaged row must still be forgettable.
        history = [Link(*row) for row in conn.execute(_HISTORY, (namespace, key))]
        gone, kept = split_history(history, namespace, key)
        gone_ids = {entry.id for entry in gone}
        plan = plan_rehoming(gone_ids, kept, _holders(conn, kept, gone_ids))
        at = format_time(utc_now())
        for entry in gone:
            record_deletions(conn, "id = ?", (entry.id,), "forget", reason, at)
        # As it was before it was replaced, its times too: an undo of the forget is exact,
        # and history keeps its order (found by an adversary).
        for step in plan:
            conn.execute(
                "UPDATE memories SET superseded_by = ? WHERE id = ?",
                (step.successor, step.link.id),
            )
    core.after_write()
    return True


def _holders(
    conn: sqlite3.Connection, kept: Sequence[Link], gone: set[str]
) -> dict[tuple[str, str], str]:
    """Who is in effect under each key of the `kept` entries (gone ones aside)."""
    holders: dict[tuple[str, str], str] = {}
    for place in {(entry.namespace, entry.key) for entry in kept}:
        row = conn.execute(
            "SELECT id FROM memories WHERE namespace = ? AND key = ? AND superseded_by IS NULL",
            place,
        ).fetchone()
        if row is not None and row[0] not in gone:
            holders[place] = row[0]
    return holders


def supersede(core: SqliteCore, old_ids: Sequence[str], new_id: str) -> int:
    """Point old entries at their replacement; the replacement itself must exist."""
    with core.write() as conn:
        if not conn.execute("SELECT 1 FROM memories WHERE id = ?", (new_id,)).fetchone():
            raise MemoryStoreError(f"cannot supersede: no entry with id {new_id!r}")
        changed = 0
        for old in old_ids:
            if old != new_id:
                changed += conn.execute(
                    "UPDATE memories SET superseded_by = ? WHERE id = ?", (new_id, old)
                ).rowcount
    core.after_write()
    return changed


def restore(core: SqliteCore, entry_id: str) -> MemoryEntry:
    """Reactivate an entry; what replaced it steps aside (see `Memory.restore`)."""
    with core.write() as conn:
        row = conn.execute(
            "SELECT superseded_by, namespace, key, category FROM memories WHERE id = ?",
            (entry_id,),
        ).fetchone()
        if row is None:
            raise MemoryStoreError(f"cannot restore: no entry with id {entry_id!r}")
        successor, namespace, key, category = row
        # The active holder of the key steps aside first: keys are unique among active rows.
        conn.execute(
            "UPDATE memories SET superseded_by = ? WHERE namespace = ? AND key = ? "
            "AND superseded_by IS NULL AND id != ?",
            (entry_id, namespace, key, entry_id),
        )
        # The one in effect at the end of the chain (`memory.front.in_effect_after`).
        seen = {entry_id}
        while successor is not None and successor not in seen:
            seen.add(successor)
            found = conn.execute(
                "SELECT superseded_by FROM memories WHERE id = ?", (successor,)
            ).fetchone()
            if found is None or found[0] is None:
                break
            successor = found[0]
        if successor is not None and successor != entry_id:
            conn.execute(
                "UPDATE memories SET superseded_by = ? WHERE id = ? AND superseded_by IS NULL "
                "AND category = ?",
                (entry_id, successor, category),
            )
        # Restored now: retention and budgets judge it by this, not by when it was replaced.
        conn.execute(
            "UPDATE memories SET superseded_by = NULL, updated_at = ? WHERE id = ?",
            (format_time(utc_now()), entry_id),
        )
        restored = conn.execute(
            f"SELECT {ENTRY_COLUMNS} FROM memories WHERE id = ?", (entry_id,)
        ).fetchone()
    core.after_write()
    return entry_from_row(restored)
