"""Days said in Vietnamese or Welsh (0056); Vietnamese questions and function words.

Found by two new users. A nurse in Sydney: "Lịch trực tuần này: ca đêm thứ Hai 1/3, thứ Tư
3/3 và thứ Sáu 5/3" was kept until January 2028 (its weekdays unread, "1/3" was read as 3
January too), and "hẹn bác sĩ ngày mai" named no day. A retired librarian in Wales: "My eye
appointment is on the 20fed o Fehefin" went at 30 days, two months before its day.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memory.days_to_keep import last_day_said
from memory.postgres.schema import VIETNAMESE_AND_WELSH_DAYS_READ
from memory.questions import asks_only, only_asks
from memory.read_anew import vietnamese_and_welsh_days_read
from memory.text import entry_terms, query_terms
from tests.helpers.older_index import (
    DatedMessage,
    postgres_as_before,
    sqlite_as_before,
    without_dates,
)
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

SAID = datetime(2027, 3, 1, 9, tzinfo=UTC)
MIGRATION = "0056_vietnamese_and_welsh_days_read"
ROSTER = "Lịch trực tuần này: ca đêm thứ Hai 1/3, thứ Tư 3/3 và thứ Sáu 5/3, 21:00-07:30"


@pytest.mark.parametrize(
    ("text", "term"),
    [
        (ROSTER, "dtd20270305"),
        ("ca dem thu sau 5/3", "dtd20270305"),
        ("hẹn bác sĩ ngày mai", "dtd20270302"),
        ("hen nha si thu ba tuan sau", "tuesday"),
        ("ca đêm chủ nhật", "sunday"),
        ("My eye appointment is on the 20fed o Fehefin.", "dtd20270620"),
        ("apwyntiad llygaid 20 Mehefin", "dtd20270620"),
        ("côr dydd Iau", "thursday"),
        ("deintydd yfory am 10", "dtd20270302"),
        ("Megan 2 Awst", "dtd20270802"),
    ],
)
def test_a_day_in_vietnamese_or_welsh_is_read(text: str, term: str) -> None:
    assert term in entry_terms("k", text, SAID)
    assert vietnamese_and_welsh_days_read(text)


@pytest.mark.parametrize(
    ("text", "kept_to"),
    [
        (ROSTER, "20270305"),
        ("ca đêm thứ Sáu 5/3", "20270305"),
        ("My eye appointment is on the 20fed o Fehefin.", "20270620"),
        ("Megan 2 Awst", "20270802"),
    ],
)
def test_retention_reads_the_day(text: str, kept_to: str) -> None:
    assert last_day_said(text, date(2027, 3, 1)) == kept_to


@pytest.mark.parametrize("text", ["I had 2 o mine", "Thu 5/3 dentist", "the bay is at 3"])
def test_english_is_read_as_before(text: str) -> None:
    assert not vietnamese_and_welsh_days_read(text)


SAID_BEFORE = datetime(2026, 3, 1, 9, tzinfo=UTC)
"""A day gone by: an import takes no timestamp in the future."""
APPOINTMENT = DatedMessage(
    "eye", "My eye appointment is on the 20fed o Fehefin", SAID_BEFORE, "what is on 20 June?"
)


async def test_a_sqlite_store_indexed_before_finds_it(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, APPOINTMENT.fill, APPOINTMENT.key, without_dates, MIGRATION
    ) as again:
        assert await APPOINTMENT.found_alone(again)


async def test_a_postgres_store_indexed_before_finds_it(postgres_url: str, tmp_path: Path) -> None:
    async with postgres_as_before(
        postgres_url,
        tmp_path,
        APPOINTMENT.fill,
        APPOINTMENT.key,
        without_dates,
        VIETNAMESE_AND_WELSH_DAYS_READ,
    ) as again:
        assert await APPOINTMENT.found_alone(again)


@pytest.mark.parametrize(
    "text",
    [
        "ca đêm tiếp theo của tôi là khi nào?",
        "con tôi đi dã ngoại ngày nào?",
        "ca dem tuan nay cua toi la thu may?",
        "Thứ Tư này tôi có hẹn gì không?",
    ],
)
def test_a_question_in_vietnamese_is_a_question(text: str) -> None:
    """The nurse saw her own questions shown to the model as memories."""
    assert asks_only(text)
    assert only_asks(text)


def test_a_statement_in_vietnamese_is_none() -> None:
    said = "Buổi dã ngoại của Bảo dời sang 27/3 vì trời mưa"
    assert not asks_only(said)
    assert not only_asks(said)


def test_vietnamese_function_words_find_nothing_alone() -> None:
    """ "ca đêm tiếp theo của tôi là khi nào?" found a Medicare number by "của" and "tôi"."""
    asked = set(query_terms("ca đêm tiếp theo của tôi là khi nào?"))
    assert asked.isdisjoint(query_terms("Thẻ Medicare của mẹ tôi số 5123"))
    assert "dem" in asked
