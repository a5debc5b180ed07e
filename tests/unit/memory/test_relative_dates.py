"""Days a question names from today become the date terms memories are indexed with."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from memory.relative_dates import (
    _NAMES_A_DAY,
    named_days,
    names_a_relative_day,
    relative_date_terms,
    said_relative_terms,
)
from tests.helpers.hostile import HOSTILE_TEXTS

_DAYS_PIECES = st.sampled_from(
    ["the", " ", "\n", "\u00a0", "14th", "on", "next", "friday", "Today", "week", "end", "7", "٣"]
)

THURSDAY = date(2026, 12, 31)


def _days(*days: str) -> list[str]:
    return [term for day in days for term in (f"dtd{day}", f"dtmd{day[4:]}")]


@pytest.mark.parametrize(
    ("asked", "terms"),
    [
        ("what's on today?", _days("20261231")),
        ("anything tonight", _days("20261231")),
        ("what do I have tomorrow", _days("20270101")),
        ("what did I say yesterday?", _days("20261230")),
        ("and the day after tomorrow?", _days("20270102")),
        ("plans this weekend", _days("20270102", "20270103")),
        ("next week", _days(*(f"202701{d:02d}" for d in range(4, 11)))),
        ("what happened last week", _days(*(f"202612{d:02d}" for d in range(21, 28)))),
        ("bills next month", ["dtym202701"]),
        ("trips last year", ["dty2025"]),
        ("nothing relative in 2026", []),
        ("a weekly plan", []),
    ],
)
def test_each_wording_names_its_days(asked: str, terms: list[str]) -> None:
    assert relative_date_terms(asked, THURSDAY) == terms


def test_the_ends_of_the_calendar_name_no_day() -> None:
    assert relative_date_terms("tomorrow, next year", date(9999, 12, 31)) == []
    assert relative_date_terms("yesterday", date(1, 1, 1)) == []


def test_the_days_named_are_told_in_the_order_written_with_each_reading() -> None:
    saved = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)  # a Friday
    named = named_days("I lent it to Tom on Saturday. Next weekend we go, this year too", saved)
    assert [(days.words, days.spans) for days in named] == [
        ("on Saturday", ((date(2026, 11, 28), date(2026, 11, 28)),)),
        ("Next weekend", ((date(2026, 12, 12), date(2026, 12, 13)),)),
        ("this year", ((date(2026, 1, 1), date(2026, 12, 31)),)),
    ]
    assert named_days("Every Monday I swim", saved) == []


@pytest.mark.parametrize(
    ("text", "saved"),
    [
        ("see you next year", datetime(9999, 12, 31, 12, tzinfo=UTC)),
        ("last year", datetime(1, 1, 1, 12, tzinfo=UTC)),
    ],
)
def test_days_beyond_the_calendar_are_not_told(text: str, saved: datetime) -> None:
    assert named_days(text, saved) == []
    assert relative_date_terms(text, saved.date()) == []


@example("Due on the 14th")
@example("moved to the\u00a03rd")
@example("Lunch TOMORROW")
@given(st.one_of(st.sampled_from(HOSTILE_TEXTS), st.lists(_DAYS_PIECES, max_size=12).map("".join)))
def test_the_quick_check_passes_over_only_texts_the_pattern_would(text: str) -> None:
    """`names_a_relative_day` looks for parts of day words before running its pattern."""
    assert names_a_relative_day(text) == (_NAMES_A_DAY.search(text.lower()) is not None)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Rent due in two weeks", date(2026, 12, 18)),
        ("Tax return due in 3 days", date(2026, 12, 7)),
        ("Conference at the end of the month", date(2026, 12, 31)),
        ("see you in a couple of weeks", date(2026, 12, 18)),
        ("back in a week", date(2026, 12, 11)),
    ],
)
def test_a_day_some_days_or_weeks_ahead_is_the_day_it_names(text: str, day: date) -> None:
    """Found by an adversary: "Rent due in two weeks" and "at the end of the month" were
    found by no date."""
    saved = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
    assert f"dtd{day:%Y%m%d}" in said_relative_terms(text, saved)
    assert [named.spans for named in named_days(text, saved)] == [((day, day),)]


def test_being_in_two_minds_names_no_day() -> None:
    saved = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
    assert said_relative_terms("I was in two minds about it", saved) == []


@pytest.mark.parametrize(
    "text",
    [
        "I read the whole Dune book in 3 days",
        "I lost 4 kg in two weeks on the keto diet",
        "I finished it in two weeks",
    ],
)
def test_how_long_something_took_names_no_day(text: str) -> None:
    """Found by a second adversary: "I lost 4 kg in two weeks", said in November, answered
    "what is on November 24" at 1.0, and the model was told "in 3 days" meant a day."""
    saved = datetime(2026, 11, 10, 12, 0, tzinfo=UTC)
    assert not [t for t in said_relative_terms(text, saved) if t.startswith("dtd")]
    assert named_days(text, saved) == []


def test_a_day_ahead_after_a_need_or_a_plan_is_still_a_day() -> None:
    saved = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
    for text in ("I need to renew it in 3 days", "I'll read it in 3 days"):
        assert "dtd20261207" in said_relative_terms(text, saved), text


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Dentist day after tomorrow at 9am", date(2026, 12, 7)),
        ("Day after tomorrow: dentist", date(2026, 12, 7)),
        ("I saw her the day before yesterday", date(2026, 12, 3)),
        ("Dinner a week tomorrow", date(2026, 12, 13)),
        ("Dinner a week from today", date(2026, 12, 12)),
        ("Deadline for the Schmidt job is Friday", date(2026, 12, 11)),
        ("The report is due Monday", date(2026, 12, 7)),
        ("I ordered a sofa from IKEA, it arrives in two weeks", date(2026, 12, 19)),
        ("The lab called, my blood test results come in 3 days", date(2026, 12, 8)),
        ("I met Anna yesterday, and we have dinner on Friday", date(2026, 12, 11)),
    ],
)
def test_each_wording_an_adversary_or_a_new_user_found_names_its_day(text: str, day: date) -> None:
    """Found by an adversary: "day after tomorrow" was told as tomorrow, "a week tomorrow"
    as tomorrow, and the sofa's day as how long something took (a past tense before its
    comma); by a new user: "the deadline is Friday" named no day."""
    saved = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)  # a Saturday
    assert [named.spans[-1] for named in named_days(text, saved)][-1] == (day, day)
    assert f"dtd{day:%Y%m%d}" in said_relative_terms(text, saved)


@pytest.mark.parametrize(
    "text",
    [
        "Dentist on Friday 18 December at 10am",
        "Flight to Tokyo on Monday, January 4",
        "Meeting on Tuesday 15.12. at 10",
        "Today is Friday",
    ],
)
def test_a_weekday_dated_beside_it_or_said_of_today_names_no_other_day(text: str) -> None:
    """Found by an adversary: "on Friday 18 December", said on 5 December, was told as
    Friday 11 December and found by it."""
    saved = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    assert [named.words for named in named_days(text, saved)] in ([], ["Today"])
    days = {term for term in said_relative_terms(text, saved) if term.startswith("dtd")}
    assert days <= {"dtd20261205"}  # today's, of "Today is Friday"


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("Visa appointment two weeks from today", date(2026, 12, 19), date(2026, 12, 19)),
        ("Results in a fortnight", date(2026, 12, 19), date(2026, 12, 19)),
        ("Dinner tomorrow week", date(2026, 12, 13), date(2026, 12, 13)),
        ("Dinner a week from tomorrow", date(2026, 12, 13), date(2026, 12, 13)),
        ("We fly the week after next", date(2026, 12, 14), date(2026, 12, 20)),
        ("Party Friday the 18th", date(2026, 12, 18), date(2026, 12, 18)),
    ],
)
def test_a_second_adversarys_wordings_name_their_days(text: str, first: date, last: date) -> None:
    """Found by a second adversary: "two weeks from today" was read as today, "tomorrow
    week" as tomorrow, and the rest as no day."""
    saved = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)  # a Saturday
    assert [named.spans for named in named_days(text, saved)] == [((first, last),)]


def test_a_weekday_before_a_month_and_an_ordinal_is_that_date() -> None:
    saved = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    assert named_days("Board meeting on Friday, December 18th", saved) == []
