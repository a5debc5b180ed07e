"""A sum written "50k" or "N50,000" is the number (0049).

Found by a new user, a nurse in Lagos: "my ajo is 50k" and "N50,000" (the letter for "₦")
found nothing of "₦50,000", nor it of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.postgres.schema import SUMS_IN_THOUSANDS_READ
from memory.protocol import Memory
from memory.read_anew import sums_in_thousands_read
from memory.text import analyze
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

AJO = "my ajo contribution is 50k on the 25th"


@pytest.mark.parametrize(
    ("text", "number"),
    [
        (AJO, "50000"),
        ("ajo N50,000 every month", "50000"),
        ("₦50,000 for ajo", "50000"),
        ("rent went up to 1.2k", "1200"),
        ("school fees R2,500", "2500"),
        ("€2K bonus", "2000"),
    ],
)
def test_a_sum_in_thousands_is_its_number(text: str, number: str) -> None:
    assert number in analyze(text)


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("the N50 road to Kildare", ["n50", "road", "kildar"]),
        ("50kg of flour", ["50", "kg", "flour"]),
        ("rooms 101,102", ["room", "101102", "101", "102"]),
    ],
)
def test_a_letter_or_a_unit_by_a_number_is_read_as_before(text: str, terms: list[str]) -> None:
    assert analyze(text) == terms
    assert not sums_in_thousands_read(text)


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the row: "50k" as written."""
    return ["50k" if term == "50000" else term for term in terms]


async def _storing(memory: Memory) -> None:
    await memory.store("ajo", AJO, "core")
    await memory.store("fuel", "generator fuel budget is 40,000 a month", "core")


async def _found(store: Memory) -> bool:
    found = await store.recall("what is the ₦50,000 for?")
    return [entry.key for entry in found.entries][:1] == ["ajo"]


async def test_a_sqlite_store_indexed_before_finds_it(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _storing, "ajo", _older, "0049_sums_in_thousands_read"
    ) as again:
        assert await _found(again)


async def test_a_postgres_store_indexed_before_finds_it(postgres_url: str, tmp_path: Path) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing, "ajo", _older, SUMS_IN_THOUSANDS_READ
    ) as again:
        assert await _found(again)
