"""How many entries contain each term, cached in memory and kept exact.

FTS5 stores no per-term document count: `memories_vocab` walks the term's whole doclist,
about 1 ms a query at 100k memories (15% of a recall). Counts are read from it once per
term; TEMP triggers on this connection adjust the cached ones inside each write, so they
stay exact. A rollback, a write outside `SqliteCore.write`, or another process's commit
empties the cache, and the next query reads the counts again.
"""

from __future__ import annotations

import sqlite3

_MAX_TERMS = 200_000
_FUNCTION = "memchat_terms_changed"
_TRIGGERS = (
    f"CREATE TEMP TRIGGER IF NOT EXISTS memchat_df_insert AFTER INSERT ON main.memories "
    f"BEGIN SELECT {_FUNCTION}(new.terms, 1); END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS memchat_df_delete AFTER DELETE ON main.memories "
    f"BEGIN SELECT {_FUNCTION}(old.terms, -1); END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS memchat_df_update AFTER UPDATE OF terms "
    f"ON main.memories BEGIN SELECT {_FUNCTION}(old.terms, -1); "
    f"SELECT {_FUNCTION}(new.terms, 1); END",
)


class DocumentFrequencies:
    """Per-term document counts for one connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._counts: dict[str, int] = {}
        self._unsettled = False
        conn.create_function(_FUNCTION, 2, self._changed)
        for trigger in _TRIGGERS:
            conn.execute(trigger)

    def _changed(self, terms: str | None, delta: int) -> None:
        # Runs inside the writing statement; the write's outcome is not known yet.
        self._unsettled = True
        if terms and self._counts:
            for term in set(terms.split()):
                if term in self._counts:
                    self._counts[term] += delta

    def __contains__(self, term: object) -> bool:
        return term in self._counts

    def settle(self) -> None:
        """The transaction that made the last changes committed: the counts are exact."""
        self._unsettled = False

    def clear(self) -> None:
        """Forget every count (a rollback, or another process wrote)."""
        self._counts.clear()
        self._unsettled = False

    def counts(self, terms: list[str]) -> dict[str, int]:
        """How many entries contain each term (0 for terms the store has never seen)."""
        if self._unsettled:
            self.clear()  # changes from a write whose outcome we never saw
        missing = [term for term in dict.fromkeys(terms) if term not in self._counts]
        if missing:
            found = dict(
                self._conn.execute(
                    "SELECT term, doc FROM memories_vocab "
                    f"WHERE term IN ({','.join('?' * len(missing))})",
                    missing,
                ).fetchall()
            )
            if len(self._counts) + len(missing) > _MAX_TERMS:
                self._counts.clear()
            for term in missing:
                self._counts[term] = int(found.get(term, 0))
        return {term: self._counts[term] for term in terms}
