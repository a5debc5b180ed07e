"""Ending a failed transaction without hiding why it failed."""

from __future__ import annotations

import sqlite3


def rollback_quietly(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not already done so.

    On SQLITE_FULL, SQLITE_IOERR and a few other errors SQLite rolls the transaction back
    itself; a `ROLLBACK` then fails with "no transaction is active" and, raised from an
    exception handler, would replace the real error (a full disk) with a misleading one.
    So roll back only while a transaction is open, and never let the rollback's own
    failure escape: the caller is already raising the error that matters.
    """
    if not conn.in_transaction:
        return
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        # The connection is unusable for writes until SQLite recovers; the caller's
        # error says why, and the next write reports its own failure.
        pass
