"""Days said in Polish (0053).

Found by a new user, a taxi driver from Poland: "jutro mrs patel cancelled" was found by no
"what do I have tomorrow"; "ola wedding in krakow 12 czerwca" by no "what is in june"; "w
piątek" was read as no Friday, and the message went at 30 days.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.postgres.schema import POLISH_DAYS_READ
from memory.read_anew import polish_days_read
from memory.text import entry_terms
from tests.helpers.older_index import (
    DatedMessage,
    postgres_as_before,
    sqlite_as_before,
    without_dates,
)
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

SAID = datetime(2026, 3, 10, 21, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("jutro mrs patel cancelled, her son drives her", "dtd20260311"),
        ("pojutrze dentist", "dtd20260312"),
        ("ola wedding in krakow 12 czerwca", "dtd20260612"),
        ("wesele 3 lipca", "dtd20260703"),
        ("w piątek pickup at 5", "friday"),
    ],
)
def test_a_polish_day_is_read(text: str, term: str) -> None:
    assert term in entry_terms("k", text, SAID)
    assert polish_days_read(text)


def test_english_is_read_as_before() -> None:
    assert not polish_days_read("the marathon is on the 12th, pick up at 5")


MESSAGE = DatedMessage("wedding", "ola wedding in krakow 12 czerwca", SAID, "what is on 12 June?")


async def test_a_sqlite_store_indexed_before_finds_it(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, MESSAGE.fill, "wedding", without_dates, "0053_polish_days_read"
    ) as again:
        assert await MESSAGE.found_alone(again)


async def test_a_postgres_store_indexed_before_finds_it(postgres_url: str, tmp_path: Path) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, MESSAGE.fill, "wedding", without_dates, POLISH_DAYS_READ
    ) as again:
        assert await MESSAGE.found_alone(again)
