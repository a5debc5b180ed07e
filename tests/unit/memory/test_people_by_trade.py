"""What migration 0032 reads anew: "accountant", "assistant", "consultant" stemmed apart.

Found by a new user, a translator: the stemmer made "accountant" "account", so "what's my
accountant's name?" found "My IBAN is … (AIB business account)" at 1.0 and showed it to the
model every time, taking a place of the accountant's fact (`memory.text`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.postgres.schema import PEOPLE_BY_TRADE_READ
from memory.protocol import Memory
from memory.read_anew import people_by_trade_read
from memory.text import analyze
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

BANK = "My IBAN is on file (AIB business account)"


def test_a_trade_is_not_the_word_it_comes_from() -> None:
    assert analyze("accountant accountants") == ["accountant", "accountant"]
    assert "account" not in analyze("my accountant's name")
    assert analyze("account accounts") == ["account", "account"]
    assert "assist" not in analyze("my assistant Maria") and "assist" in analyze("assisted")
    assert people_by_trade_read("My Accountant is Siobhán") and not people_by_trade_read(BANK)


async def _store(store: Memory) -> None:
    await store.store("bank", BANK, "core")
    await store.store("accountant", "My accountant is Siobhán Murphy", "core")


async def _the_accountant_alone(store: Memory) -> bool:
    found = (await store.recall("what's my accountant's name?")).entries
    return [entry.key for entry in found] == ["accountant"]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the accountant: "account"."""
    return ["account" if term == "accountant" else term for term in terms]


@pytest.mark.parametrize("key", ["accountant"])
async def test_a_sqlite_store_indexed_before_tells_the_accountant_from_the_account(
    tmp_path: Path, key: str
) -> None:
    async with sqlite_as_before(
        tmp_path, _store, key, _older, "0032_people_by_trade_read"
    ) as again:
        assert await _the_accountant_alone(again)


async def test_a_postgres_store_indexed_before_tells_the_accountant_from_the_account(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "accountant", _older, PEOPLE_BY_TRADE_READ
    ) as again:
        assert await _the_accountant_alone(again)
