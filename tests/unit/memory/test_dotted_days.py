"""A day and month written with a dot and none after are that day where said as one (0038).

Found by a new user, a baker in Kraków: "Aneks to sign on 20.01" was not found for "what do
I have on January 20?", nor "Jasełka on 18.12 at 17:00" for 18 December. "20.01." and
"20/01" were.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memory.date_terms import mentioned_date_terms
from memory.postgres.schema import DOTTED_DAYS_READ
from memory.read_anew import dotted_days_read
from tests.helpers.older_index import DatedMessage, postgres_finds_again, sqlite_finds_again
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

SAID = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)  # a day gone by: a store takes no future


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("Aneks to sign on 20.01", ["dtmd0120"]),
        ("due 20.01", ["dtmd0120"]),
        ("Jasełka on 18.12 at 17:00", ["dtmd1218"]),
        ("new cennik from 1.01, typ 650 now 3,05", ["dtmd0101"]),
        # Not a day: no word says so, or a price, a version, a dose.
        ("paid 20.01 for the taxi", []),
        ("it costs 20.01 zł", []),
        ("on 1.10 zł a loaf", []),
        ("version 1.10 released", []),
        ("I was on 2.05 mg", []),
    ],
)
def test_a_dotted_day_is_a_day_where_the_words_say_so(text: str, days: list[str]) -> None:
    terms = mentioned_date_terms(text, date(2027, 1, 12))
    assert [term for term in terms if term.startswith("dtmd")] == days


MESSAGE = DatedMessage(
    "aneks", "Aneks to sign on 20.01 with Kowalczyk", SAID, "what have I on 20 January 2026?"
)


def test_the_migration_reads_these_again() -> None:
    assert dotted_days_read("Aneks to sign on 20.01 with Kowalczyk")
    assert not dotted_days_read("Aneks signed on 20.01.2026")
    assert not dotted_days_read("version 1.2")


async def test_a_sqlite_store_indexed_before_finds_it_by_its_date(tmp_path: Path) -> None:
    assert await sqlite_finds_again(tmp_path, MESSAGE, "0038_dotted_days_read")


async def test_a_postgres_store_indexed_before_finds_it_by_its_date(
    postgres_url: str, tmp_path: Path
) -> None:
    assert await postgres_finds_again(postgres_url, tmp_path, MESSAGE, DOTTED_DAYS_READ)
