"""Numbers written in groups are indexed joined too (`memory.numbers.joined_numbers`),
and stores indexed before are indexed again once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from memory.factory import open_memory
from memory.numbers import joined_numbers
from memory.owners import SELF_TERM
from memory.postgres.schema import TERMS_ADDED
from memory.postgres.store import PostgresMemory
from memory.qdrant.payload import TERMS_MADE
from memory.qdrant.points import TERMS, TERMS_RULE, PointFilter, StoredPoint
from memory.qdrant.store import QdrantMemory
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from memory.text import analyze, entry_terms
from tests.helpers.older_index import (
    keyword_only,
    postgres_indexed_before,
    postgres_keyword_only,
    qdrant_hashing,
)
from tests.helpers.postgres import postgres_url
from tests.unit.memory.conftest import as_before

__all__ = ["postgres_url"]

PHONE = "My phone number is 0176 8888888"


@pytest.mark.parametrize(
    ("text", "joined"),
    [
        ("my phone number is 0176 8888888", ["01768888888"]),
        ("call 555-1234", ["5551234"]),
        ("+351 912 345 678", ["351912345", "351912345678", "912345678"]),
        # Each number of a run is found too (a second adversary).
        ("taxi 0176 8888888 24 hours", ["01768888888", "0176888888824", "888888824"]),
        (
            "card 4111 1111 1111 1111",
            ["41111111", "411111111111", "4111111111111111", "11111111", "111111111111"],
        ),
        ("(030) 1234-5678", ["0301234", "03012345678", "12345678"]),
        ("on 2024-10-13", []),  # a date
        ("rent 1 250", []),  # too few digits
        ("pi is 3.14 15 92", []),  # a decimal
        # Dots and slashes (found by a new user): not dates, decimals or network addresses.
        ("call 555.123.4567", ["5551234567", "1234567"]),
        ("fax 030/1234567", ["0301234567"]),
        ("mobile 0176.8888888", ["01768888888"]),
        ("1.250.000 euros", ["1250000"]),
        ("on 12.03.2026 and 3/12/2026 or 2026/12/03", []),
        ("server 192.168.100.200", []),
        ("pi is 3.14159265", []),
        ("the 2024/2025 season", []),
        # Found by an adversary: a decimal or an address after a number lost it, and runs
        # of decimals, coordinates or dates became numbers.
        ("taxi 0176 8888888 3.5 km", ["01768888888"]),
        ("call 0176 8888888 192.168.1.1", ["01768888888"]),
        ("+1.555.123.4567", ["1555123", "15551234567", "5551234567", "1234567"]),
        ("sydney -33.8688 151.2093", []),
        ("03/12/2026 10/04/2026", []),
        ("12.03.2026 2 bags", []),
        ("12.49 15.99 19.99", []),
        ("192.168.100.200 192.168.100.201", []),
        ("09.2025-03.2026", []),
        ("at 10:30 20 31", []),  # a time
        ("code 12 34", []),
        ("tea with milk", []),
    ],
)
def test_a_number_in_groups_is_also_one_run_of_digits(text: str, joined: list[str]) -> None:
    assert joined_numbers(text) == joined


def _old_terms(terms: str) -> str:
    return " ".join(term for term in terms.split() if term != "01768888888")


async def test_a_sqlite_store_indexed_before_is_indexed_again(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await store.store("phone", PHONE, "core")
    await store.store("tea", "Tea with milk", "core")
    await store.store("home", "I moved to Lisbon", "core")
    await store.close()
    with as_before(path, "0013_joined_numbers_and_wordings") as conn:
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'phone'").fetchone()
        assert "01768888888" in terms.split()
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'phone'", (_old_terms(terms),))
        (moved,) = conn.execute("SELECT terms FROM memories WHERE key = 'home'").fetchone()
        assert "live" in moved.split()  # "I moved to Lisbon" is found by "live" too
        unworded = " ".join(term for term in moved.split() if term != "live")
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'home'", (unworded,))
    store = await SqliteMemory.open(path, keyword_only())
    try:
        found = await store.recall("01768888888")
        assert [e.key for e in found.entries] == ["phone"]
        assert [e.key for e in (await store.recall("where do I live")).entries] == ["home"]
    finally:
        await store.close()


async def test_a_sqlite_store_before_numbers_in_dots_is_indexed_again(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await store.store("phone", "My phone number is 555.123.4567", "core")
    await store.store("bob", "Bob lives in Berlin", "core")
    await store.store("home", "I live in Lisbon", "core")
    await store.close()
    with as_before(path, "0014_numbers_in_dots_and_slashes") as conn:
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'phone'").fetchone()
        assert "5551234567" in terms.split()
        older = " ".join(term for term in terms.split() if term not in ("5551234567", "1234567"))
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'phone'", (older,))
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'home'").fetchone()
        assert SELF_TERM in terms.split()  # the user's own fact (`memory.owners`), since 0014
        older = " ".join(term for term in terms.split() if term != SELF_TERM)
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'home'", (older,))
    store = await SqliteMemory.open(path, keyword_only())
    try:
        assert [e.key for e in (await store.recall("5551234567")).entries] == ["phone"]
        home = await store.recall("where do I live")
        assert [e.key for e in home.entries][:1] == ["home"]
    finally:
        await store.close()


async def test_a_sqlite_store_before_claims_were_read_anew_is_indexed_again(
    tmp_path: Path,
) -> None:
    """ "I live in fear" was indexed as a home before 0015; it is not one."""
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await store.store("fear", "I live in fear of spiders", "core")
    await store.store("home", "My wife and I live in Lisbon", "core")
    await store.close()
    with as_before(path, "0015_claims_read_anew") as conn:
        made = dict(conn.execute("SELECT key, terms FROM memories").fetchall())
        assert "resid" not in made["fear"].split() and "resid" in made["home"].split()
        conn.execute("UPDATE memories SET terms = terms || ' resid reloc' WHERE key = 'fear'")
    store = await SqliteMemory.open(path, keyword_only())
    await store.close()
    conn = sqlite3.connect(path)
    try:
        assert dict(conn.execute("SELECT key, terms FROM memories").fetchall()) == made
    finally:
        conn.close()


async def test_a_sqlite_store_before_since_clauses_were_read_is_indexed_again(
    tmp_path: Path,
) -> None:
    """ "I live in Porto since I lost my job" states a home since 0017."""
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await store.store("home", "I live in Porto since I lost my job", "core")
    await store.store("allergy", "I'm allergic to peanuts", "core")
    await store.store("boss", "My boss is Jürgen", "core")
    await store.close()
    with as_before(path, "0017_claims_and_conditions_read") as conn:
        made = conn.execute("SELECT terms FROM memories WHERE key = 'home'").fetchone()[0]
        assert "resid" in made.split()
        older = " ".join(term for term in made.split() if term not in ("resid", "reloc"))
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'home'", (older,))
        # As indexed before "allergic" was read as "allergies".
        conn.execute(
            "UPDATE memories SET terms = replace(terms, 'allergi', 'allerg') WHERE key = 'allergy'"
        )
        conn.execute("UPDATE memories SET terms = replace(terms, 'juergen', '') WHERE key = 'boss'")
    store = await SqliteMemory.open(path, keyword_only())
    try:
        assert [e.key for e in (await store.recall("where do I live")).entries][:1] == ["home"]
        assert [e.key for e in (await store.recall("allergies")).entries][:1] == ["allergy"]
        assert [e.key for e in (await store.recall("juergen")).entries][:1] == ["boss"]
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT terms FROM memories WHERE key = 'home'").fetchone()[0] == made
    finally:
        conn.close()


async def test_a_sqlite_store_before_doses_were_worded_is_indexed_again(tmp_path: Path) -> None:
    """ "I take 10mg of lisinopril" is found by "what's my dose?" since 0018."""
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await store.store("dose", "I take 10mg of lisinopril every morning", "core")
    await store.store("tea", "I like green tea every morning", "core")
    await store.close()
    with as_before(path, "0018_doses_by_the_words_asking") as conn:
        made = dict(conn.execute("SELECT key, terms FROM memories").fetchall())
        assert "dose" in made["dose"].split()
        older = " ".join(term for term in made["dose"].split() if term not in ("dose", "medic"))
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'dose'", (older,))
    store = await SqliteMemory.open(path, keyword_only())
    try:
        found = await store.recall("what's my current dose?")
        assert [e.key for e in found.entries][:1] == ["dose"]
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    try:
        assert dict(conn.execute("SELECT key, terms FROM memories").fetchall()) == made
    finally:
        conn.close()


async def test_qdrant_points_indexed_before_are_indexed_again_once(tmp_path: Path) -> None:
    store = await open_memory(qdrant_hashing(), tmp_path, CountingEmbedder(64))
    assert isinstance(store, QdrantMemory)
    phone = await store.store("phone", PHONE, "core")
    await store.store("tea", "Tea with milk", "core")
    points = store._points  # noqa: SLF001 - the test writes points as an older memchat did
    for point in points.retrieve([p.id for p in points.scroll(None)], vectors=True):
        payload = {**point.payload, TERMS_RULE: "2"}
        if point.payload["key"] == "phone":
            payload[TERMS] = sorted(set(analyze("phone")) | set(analyze(PHONE)))
        points.upsert([StoredPoint(point.id, payload, point.vector)])
    earlier = PointFilter(differing=((TERMS_RULE, TERMS_MADE),))
    assert points.count(earlier) == 2
    await store.close()

    again = await open_memory(qdrant_hashing(), tmp_path, CountingEmbedder(64))
    assert isinstance(again, QdrantMemory)
    try:
        assert again._points.count(earlier) == 0  # noqa: SLF001
        found = await again.recall("01768888888")
        assert found.entries[0].id == phone.id
    finally:
        await again.close()


async def test_a_postgres_store_indexed_before_is_indexed_again(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = postgres_keyword_only(postgres_url)
    store = await open_memory(settings, tmp_path, None)
    assert isinstance(store, PostgresMemory)
    await store.store("phone", PHONE, "core")
    await store.store("tea", "Tea with milk", "core")
    await store.close()

    def without_joined(terms: list[str]) -> list[str]:
        assert "01768888888" in terms
        return [term for term in terms if term != "01768888888"]

    await postgres_indexed_before(settings, "phone", without_joined, TERMS_ADDED)
    again = await open_memory(settings, tmp_path, None)
    try:
        found = await again.recall("01768888888")
        assert [e.key for e in found.entries] == ["phone"]
    finally:
        await again.close()


@pytest.mark.parametrize(
    "text",
    [
        "The printer moved to room 4",
        "Our server is based in Frankfurt",
        "My brother moved to Oslo",
        "The meeting moved to Friday",
    ],
)
def test_only_the_users_own_home_or_job_is_found_by_its_other_wordings(text: str) -> None:
    """Found by an adversary: every "moved to" and "based in" answered "where do I live"."""
    assert "live" in entry_terms("home", "I moved to Lisbon")
    assert "live" not in entry_terms("k", text)
