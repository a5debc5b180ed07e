"""A sum in millions, lakhs or crores, or a currency's letter before a sum in short (0051).

Found by an adversary: "Lagos rent is ₦1.2m a year" was not found by "1,200,000", nor "I owe
Tunde N50,000" by "N50k"; a student's "Hostel fee Rs 1.2 lakh" was not its number.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.postgres.schema import SUMS_IN_MILLIONS_READ
from memory.protocol import Memory
from memory.read_anew import sums_in_millions_read
from memory.text import analyze
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

RENT = "Lagos rent is ₦1.2m a year"


@pytest.mark.parametrize(
    ("text", "number"),
    [
        (RENT, "1200000"),
        ("I owe Tunde N50k for the generator", "50000"),
        ("Hostel fee Rs 1.2 lakh for the year", "120000"),
        ("a 2 crore flat in Pune", "20000000"),
        ("1.5 million people", "1500000"),
        ("a $2.5m deal", "2500000"),
        ("1,200,000", "1200000"),
        # A second adversary: India's grouping, crores and lakhs in short.
        ("Hostel fee Rs. 1,20,000 per year", "120000"),
        ("a flat for 2,00,00,000", "20000000"),
        ("Flat in Pune costs ₹1.2 Cr", "12000000"),
        ("Car loan Rs 4.5L at 9%", "450000"),
    ],
)
def test_a_sum_in_millions_is_its_number(text: str, number: str) -> None:
    assert number in analyze(text)


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("the shelf is 1.2m wide", ["shelf", "1", "2", "wide"]),
        ("a 5m walk", ["5", "walk"]),
        ("4.5L of water", ["4", "5", "l", "water"]),
        ("the N50 road to Kildare", ["n50", "road", "kildar"]),
    ],
)
def test_metres_and_a_road_are_read_as_before(text: str, terms: list[str]) -> None:
    assert analyze(text) == terms
    assert not sums_in_millions_read(text)


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the row: "1.2m" as "1" and "2"."""
    return [older for term in terms for older in (["1", "2"] if term == "1200000" else [term])]


async def _storing(memory: Memory) -> None:
    await memory.store("rent", RENT, "core")
    await memory.store("fuel", "generator fuel budget is 40,000 a month", "core")


async def _found(store: Memory) -> bool:
    found = await store.recall("₦1,200,000?")
    return [entry.key for entry in found.entries][:1] == ["rent"]


async def test_a_sqlite_store_indexed_before_finds_it(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _storing, "rent", _older, "0051_sums_in_millions_read"
    ) as again:
        assert await _found(again)


async def test_a_postgres_store_indexed_before_finds_it(postgres_url: str, tmp_path: Path) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing, "rent", _older, SUMS_IN_MILLIONS_READ
    ) as again:
        assert await _found(again)
