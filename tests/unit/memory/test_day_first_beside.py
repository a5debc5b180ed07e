"""A day and month that can only be day first says the others beside it are too (0052).

Found by a new user, a student in Bengaluru: "Mid-sem exams: DSA 10/03, DBMS 12/03, OS 15/03",
and on Monday 8 March "what do I have this week?" found only the OS exam.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.postgres.schema import DAY_FIRST_BESIDE_READ
from memory.read_anew import day_first_beside_read
from memory.text import entry_terms
from tests.helpers.older_index import (
    DatedMessage,
    postgres_as_before,
    sqlite_as_before,
    without_dates,
)
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

SAID = datetime(2026, 2, 5, 9, tzinfo=UTC)
EXAMS = "Mid-sem exams: DSA 10/03, DBMS 12/03, OS 15/03"


def _days(text: str) -> set[str]:
    return {term for term in entry_terms("k", text, SAID) if term.startswith("dtd")}


def test_the_days_beside_a_plainly_day_first_one_are_read_day_first() -> None:
    assert _days(EXAMS) == {"dtd20260310", "dtd20260312", "dtd20260315"}
    assert day_first_beside_read(EXAMS)


@pytest.mark.parametrize(
    "text",
    [
        "Mid-sem exams: DSA 10/03, DBMS 12/03",
        "add 1/2 cup of sugar, bake on 15/03",
        "scored 3/4 on 15/03",
    ],
)
def test_without_one_or_as_a_fraction_they_are_read_as_before(text: str) -> None:
    assert not {"dtd20260310", "dtd20260312", "dtd20260103", "dtd20260304"} & _days(text)


MESSAGE = DatedMessage("exams", EXAMS, SAID, "what is on 12 March?")


async def test_a_sqlite_store_indexed_before_finds_it(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, MESSAGE.fill, "exams", without_dates, "0052_day_first_beside_read"
    ) as again:
        assert await MESSAGE.found_alone(again)


async def test_a_postgres_store_indexed_before_finds_it(postgres_url: str, tmp_path: Path) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, MESSAGE.fill, "exams", without_dates, DAY_FIRST_BESIDE_READ
    ) as again:
        assert await MESSAGE.found_alone(again)
