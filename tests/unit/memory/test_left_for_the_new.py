"""Stores indexed before "I left Fintrack, I've been hired by Revolut" stated an employer."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from memory.factory import open_memory
from memory.postgres.schema import LEFT_FOR_THE_NEW
from memory.postgres.store import PostgresMemory
from memory.sqlite.store import SqliteMemory
from memory.text import analyze
from tests.helpers.older_index import keyword_only, postgres_indexed_before, postgres_keyword_only
from tests.helpers.postgres import postgres_url
from tests.unit.memory.conftest import as_before

__all__ = ["postgres_url"]

HIRED = "I left Fintrack, I've been hired by Revolut"


def _as_before(terms: list[str]) -> list[str]:
    """The terms an older memchat gave: none of the employer's wordings."""
    wordings = set(analyze("work employed job hired")) | {"mcownclaim"}
    assert wordings & set(terms)
    return [term for term in terms if term not in wordings or term in analyze(HIRED)]


async def test_a_sqlite_store_indexed_before_finds_the_new_employer(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await store.store("job", HIRED, "core")
    await store.store("sister", "My sister Ana works at a bakery", "core")
    await store.store("rent", "Rent due in two weeks", "core")
    await store.close()
    due = datetime.now().astimezone().date() + timedelta(weeks=2)
    with as_before(path, "0020_left_for_the_new_days_ahead") as conn:
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'job'").fetchone()
        older = " ".join(_as_before(terms.split()))
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'job'", (older,))
        # Before, "in two weeks" named no day: only the day saved was a date of it.
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'rent'").fetchone()
        assert f"dtd{due:%Y%m%d}" in terms.split()
        undated = " ".join(t for t in terms.split() if not t.startswith("dt"))
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'rent'", (undated,))
    store = await SqliteMemory.open(path, keyword_only())
    try:
        found = await store.recall("who do I work for?")
        assert [e.key for e in found.entries][:1] == ["job"]
        on_the_day = await store.recall(f"{due:%d.%m.%Y}")
        assert [e.key for e in on_the_day.entries][:1] == ["rent"]
    finally:
        await store.close()


async def test_a_postgres_store_indexed_before_finds_the_new_employer(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = postgres_keyword_only(postgres_url)
    store = await open_memory(settings, tmp_path, None)
    assert isinstance(store, PostgresMemory)
    await store.store("job", HIRED, "core")
    await store.store("sister", "My sister Ana works at a bakery", "core")
    await store.close()
    await postgres_indexed_before(settings, "job", _as_before, LEFT_FOR_THE_NEW)
    again = await open_memory(settings, tmp_path, None)
    try:
        found = await again.recall("who do I work for?")
        assert [e.key for e in found.entries][:1] == ["job"]
    finally:
        await again.close()
