"""A home or employer said in one sentence or clause of several is found by every wording,
and a medicine stopped by the words asking for medicines (migration 0025).

Found reading a new user's first message: "Hi! My name is Sam and I live in Porto. I work
at Acme." was found by neither "address" nor "who is my employer"; and "I live in Porto,
work at Acme" was replaced whole by a move, the job with it. Found by an adversary: "I'm
off lisinopril now" was not recalled for "what medication am I on?".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.health_values import DOSE_WORDINGS
from memory.postgres.schema import CLAIMS_STOPS_AND_DAYS_READ
from memory.predicates import every_wording_of, says_more
from memory.protocol import Memory
from memory.sqlite.store import SqliteMemory
from memory.text import analyze
from memory.write_rules import NewMemory
from tests.helpers.older_index import keyword_only, postgres_as_before
from tests.helpers.postgres import postgres_url
from tests.unit.memory.conftest import as_before

__all__ = ["postgres_url"]

GREETING = "Hi! My name is Sam and I live in Porto. I work at Acme."
HOME = "live move reside relocated based home address"
JOB = "work employed job hired"


@pytest.mark.parametrize(
    ("text", "wordings"),
    [
        (GREETING, f"{HOME} {JOB}"),
        ("Hi, I'm Sam, I live in Porto, work at Acme", f"{HOME} {JOB}"),
        ("I live in Porto.", HOME),
        # Someone said by how is not the user: no wording says whose home it is.
        ("My sister lives in Rome and I work at Acme", JOB),
        ("The house I live in, I love it", ""),
        # An adversary: the user's address, found by "where do I live?" by no word.
        ("My address is 12 Rua Augusta, Lisboa", HOME),
        ("My flat is at 12 R. Augusta, Lisboa", HOME),
        ("Lisbon is home", HOME),
        ("My address book is full", ""),
        ("write me a haiku about autumn", ""),
    ],
)
def test_each_claim_of_a_text_gives_its_wordings(text: str, wordings: str) -> None:
    assert every_wording_of(text) == wordings


def test_a_comma_before_a_claim_without_its_i_says_more() -> None:
    assert says_more("I live in Porto, work at Acme as a dev")
    assert not says_more("I live in Porto, Portugal")


async def _store(store: Memory) -> None:
    await store.write(NewMemory(key="hi", content=GREETING, category="conversation"))
    await store.store("cat", "My cat is called Tom", "core")
    await store.store("off", "I'm off lisinopril now", "core")


async def _keys(store: Memory, query: str) -> list[str]:
    return [entry.key for entry in (await store.recall(query)).entries]


async def test_a_move_does_not_replace_a_fact_that_says_more(tmp_path: Path) -> None:
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        await store.store("me", "I live in Porto, work at Acme as a dev", "core")
        await store.store("moved", "I moved to Lisbon", "core")
        kept = {entry.key for entry in await store.list()}
        assert kept == {"me", "moved"}
    finally:
        await store.close()


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the greeting: no wording of its claims."""
    wordings = set(analyze(f"{HOME} {JOB}")) - set(analyze(GREETING))
    assert wordings <= set(terms)
    return [term for term in terms if term not in wordings]


async def test_a_sqlite_store_indexed_before_finds_the_greeting(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await _store(store)
    assert await _keys(store, "what's my address") == ["hi"]
    assert await _keys(store, "what medication am I on") == ["off"]
    await store.close()
    with as_before(path, "0025_claims_stops_and_days_read") as conn:
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'hi'").fetchone()
        older = " ".join(_older(terms.split()))
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'hi'", (older,))
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'off'").fetchone()
        older = " ".join(t for t in terms.split() if t not in analyze(DOSE_WORDINGS))
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'off'", (older,))
    store = await SqliteMemory.open(path, keyword_only())
    try:
        assert await _keys(store, "what's my address") == ["hi"]
        assert await _keys(store, "who is my employer") == ["hi"]
        assert await _keys(store, "what medication am I on") == ["off"]
    finally:
        await store.close()


async def test_a_postgres_store_indexed_before_finds_the_greeting(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "hi", _older, CLAIMS_STOPS_AND_DAYS_READ
    ) as again:
        assert await _keys(again, "what's my address") == ["hi"]


@pytest.mark.parametrize("query", ["what tablets do i take now", "WHAT PILLS AM I ON"])
async def test_a_medicine_is_found_by_tablets_and_pills(tmp_path: Path, query: str) -> None:
    """Found by a new user: neither found "I take atorvastatin 20mg at night"."""
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        await store.store("statin", "I take atorvastatin 20mg at night", "core")
        await store.store("cat", "My cat is called Pickles", "core")
        assert await _keys(store, query) == ["statin"]
    finally:
        await store.close()
