"""A range of dates holds the days between its ends; a score of a date's shape is no date.

"Away in Goa 20/12 to 2/1" was not found by "what's on 24/12?", and its "2/1" was no date;
"Passed 12/12 tests" was found by "12 December".
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memory.date_terms import date_terms_of, find_dates, mentioned_date_terms
from memory.postgres.schema import RANGES_AND_WORDS_READ
from memory.protocol import Memory
from memory.sqlite.store import SqliteMemory
from memory.text import entry_terms
from memory.write_rules import NewMemory
from tests.helpers.older_index import keyword_only, postgres_as_before
from tests.helpers.postgres import postgres_url
from tests.unit.memory.conftest import as_before

__all__ = ["postgres_url"]

SAID = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


def _days(text: str) -> list[str]:
    return [t for t in mentioned_date_terms(text) if t.startswith("dtmd")]


@pytest.mark.parametrize(
    "text",
    [
        "Away in Goa 20/12 to 2/1, no work",
        "Holiday Dec 20 - Jan 2",
        "off 20 December until 2 January",
        "Away 20/12–2/1",
    ],
)
def test_a_range_holds_every_day_between_its_ends(text: str) -> None:
    days = _days(text)
    assert days[:2] == ["dtmd1220", "dtmd0102"]  # "2/1" after "to" is 2 January alone
    assert sorted(days[2:]) == sorted([f"dtmd12{d}" for d in range(21, 32)] + ["dtmd0101"])


def test_a_range_with_its_year_holds_the_days_of_those_years() -> None:
    terms = mentioned_date_terms("Sabbatical 20 Dec to 2 Jan 2027")
    assert "dtd20261224" in terms and "dtd20270101" in terms
    assert "dtym202612" in terms and "dty2026" in terms


def test_a_hyphen_joins_two_days_and_months() -> None:
    assert _days("conference 14/5-16/5") == ["dtmd0514", "dtmd0516", "dtmd0515"]


@pytest.mark.parametrize(
    "text",
    [
        "Jan 3 to June 30",  # months, not days anyone asks about one by one
        "from 2/1 to 20/12",  # backwards: 2 January to 20 December is most of a year
        "3/4 to 5/4",  # neither end is told apart from a fraction
    ],
)
def test_a_long_or_unclear_range_holds_its_ends_alone(text: str) -> None:
    ends = {t for t in find_dates(text)[0] if t.startswith("dtmd")}
    # Its ends alone: as a query reads them, or in the one order the other end shows
    # ("20/12" says "2/1" is 2 January).
    assert set(_days(text)) <= ends


@pytest.mark.parametrize(
    "text",
    [
        "Passed 12/12 tests",
        "scored 12/12",
        "12/12 correct!",
        "got 14/20 questions",
        "Got 11/11 right",
        # A second adversary: parts, ratios, sections, a match's score, a blood pressure.
        "Max is on 1/2 tablet of Apoquel daily",
        "Mum is on 2/3 of her old dose",
        "Ratio 16/9 screen",
        "Read section 13.4. of the manual",
        "Our team won 21/7 against the Sharks",
        "My blood pressure was 13/8 at the GP",
    ],
)
def test_a_score_of_a_dates_shape_is_no_date(text: str) -> None:
    assert find_dates(text) == ([], text)


def test_a_day_said_so_beside_a_count_is_still_a_date() -> None:
    assert _days("exam on 12/12, 40 questions") == ["dtmd1212"]


async def _store(store: Memory) -> None:
    for key, content in (
        ("away", "Away in Goa 20/12 to 2/1, no work"),
        ("tests", "Passed 12/12 tests today"),
        ("party", "Office party 12/12 at 7pm"),
        ("rate", "Bluefin pays $135/hr"),
    ):
        await store.write(NewMemory(key=key, content=content, created_at=SAID))


async def _keys(store: Memory, query: str) -> list[str]:
    return [entry.key for entry in (await store.recall(query)).entries]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave them: the range's ends alone, the score a date."""
    return [t for t in terms if not t.startswith("dt") or t in ("dtmd1220", "dtm12")] + ["dtmd1212"]


async def test_a_sqlite_store_indexed_before_reads_them_anew(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await _store(store)
    assert await _keys(store, "what's on 24/12?") == ["away"]
    assert await _keys(store, "anything on 12 December?") == ["party"]
    await store.close()
    with as_before(path, "0024_ranges_and_words_read") as conn:
        for key in ("away", "tests"):
            (terms,) = conn.execute("SELECT terms FROM memories WHERE key = ?", (key,)).fetchone()
            older = " ".join(_older(terms.split()))
            conn.execute("UPDATE memories SET terms = ? WHERE key = ?", (older, key))
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'rate'").fetchone()
        older = " ".join(t for t in terms.split() if t not in ("charg", "rate", "fee"))
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'rate'", (older,))
    store = await SqliteMemory.open(path, keyword_only())
    try:
        assert await _keys(store, "what's on 24/12?") == ["away"]
        assert await _keys(store, "anything on 12 December?") == ["party"]
        assert await _keys(store, "what's my rate with Bluefin?") == ["rate"]
    finally:
        await store.close()


async def test_a_postgres_store_indexed_before_reads_them_anew(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "away", _older, RANGES_AND_WORDS_READ
    ) as again:
        assert await _keys(again, "what's on 24/12?") == ["away"]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("acme deadline pushed to Dec 12 now", "dtd20261212"),
        ("Rent was due on Dec 1", "dtd20261201"),  # a few days back: still this year's
        ("Tax return due 31/1", "dtd20270131"),  # long gone this year: next year's
        ("My birthday is on 29 February", "dtd20280229"),
        ("Party on 12 December 2025", "dtd20251212"),  # said with its year: that one only
    ],
)
def test_a_day_without_its_year_is_the_one_that_comes_next(text: str, day: str) -> None:
    """Found by a new user: "what's due this month?" (December) missed "acme deadline
    pushed to Dec 12", a December of no year."""
    days = [t for t in date_terms_of(text, SAID) if t.startswith("dtd")]
    assert days == [day]
    assert f"dtym{day[3:9]}" in date_terms_of(text, SAID)


async def test_a_month_of_a_year_finds_a_day_said_without_the_year(tmp_path: Path) -> None:
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        await _store(store)
        await store.write(
            NewMemory(key="acme", content="acme deadline pushed to Dec 12 now", created_at=SAID)
        )
        assert "acme" in await _keys(store, "what's due in December 2026?")
        assert "acme" not in await _keys(store, "what's due in December 2027?")
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("Conference 20-23/1", "dtd20270120", "dtd20270123"),
        ("Trip from 3 to 7 February", "dtd20270203", "dtd20270207"),
        ("Kids at grandma's between 10/2 and 14/2", "dtd20270210", "dtd20270214"),
        ("Away 12/20 to 1/2", "dtd20261220", "dtd20270102"),
    ],
)
def test_a_range_in_other_words_holds_the_days_between(text: str, first: str, last: str) -> None:
    """Found by an adversary: none was found by a day between its ends."""
    days = sorted(t for t in entry_terms("k", text, SAID) if t.startswith("dtd"))
    assert days[0] == first and days[-1] == last
    span = _day(last) - _day(first)
    assert len(days) == span.days + 1


def _day(term: str) -> date:
    return date(int(term[3:7]), int(term[7:9]), int(term[9:]))


@pytest.mark.parametrize(
    "text", ["Score was 20-23 in the end", "pages 3-7 of chapter 2", "Mix 2-3/4 cup"]
)
def test_numbers_with_a_dash_are_no_range(text: str) -> None:
    assert not [t for t in entry_terms("k", text, SAID) if t.startswith("dtd")]
