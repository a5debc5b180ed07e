"""Stores indexed before "day after tomorrow" and "the deadline is Friday" named days."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.postgres.schema import DAYS_READ_ANEW
from memory.protocol import Memory
from memory.sqlite.store import SqliteMemory
from memory.write_rules import NewMemory
from tests.helpers.older_index import keyword_only, postgres_as_before
from tests.helpers.postgres import postgres_url
from tests.unit.memory.conftest import as_before

__all__ = ["postgres_url"]

DENTIST = "Dentist day after tomorrow at 9am"
SAID = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
"""Noon: every machine's zone keeps the date."""
ASKED = "07.12.2026"


def _undated(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the dentist: the day it was saved and tomorrow only."""
    return [term for term in terms if not term.startswith("dt")]


async def _store_both(store: Memory) -> None:
    await store.write(NewMemory(key="dentist", content=DENTIST, created_at=SAID))
    await store.write(NewMemory(key="gym", content="Gym on Mondays", created_at=SAID))
    await store.write(NewMemory(key="tea", content="I like green tea", created_at=SAID))


async def test_a_sqlite_store_indexed_before_finds_the_day_after_tomorrow(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await _store_both(store)
    await store.close()
    with as_before(path, "0021_days_read_anew") as conn:
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'dentist'").fetchone()
        assert "dtd20261207" in terms.split()
        older = " ".join(_undated(terms.split()))
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'dentist'", (older,))
        # Before, "on Mondays" named no day either.
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'gym'").fetchone()
        assert "dtwd1" in terms.split()
        older = " ".join(_undated(terms.split()))
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'gym'", (older,))
    store = await SqliteMemory.open(path, keyword_only())
    try:
        found = await store.recall(ASKED)
        assert [e.key for e in found.entries][:1] == ["dentist"]
        monday = await store.recall("what is on 14.12.2026?")  # a Monday
        assert [e.key for e in monday.entries][:1] == ["gym"]
    finally:
        await store.close()


async def test_a_postgres_store_indexed_before_finds_the_day_after_tomorrow(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store_both, "dentist", _undated, DAYS_READ_ANEW
    ) as again:
        found = await again.recall(ASKED)
        assert [e.key for e in found.entries][:1] == ["dentist"]
