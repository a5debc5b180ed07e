"""Days said in Czech or Egyptian Arabic, Arabic with or without its marks, other scripts'
digits (0054).

Found by two new users. A developer in Prague: "Letím do Lisabonu na konferenci 15.
července" went at her 45 days, two months before the flight; "schůzka … v pátek 9. dubna"
was found by no "what do I have on April 9?". A pharmacist in Cairo: "١٢٠٠ جنيه" was found
by no "1200", "١٥/٢" was no date, "مهم" did not find "مُهِمّ", nor "إبن" "ابن", and "امتى
امتحان يوسف؟" was used as a memory; "الخميس الجاي" (next Thursday) and "ba3d bokra" (the day
after tomorrow) were read as no day.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.lifecycle import plan_hygiene
from memory.postgres.schema import CZECH_DAYS_AND_OTHER_SCRIPTS_READ
from memory.questions import asks_only, only_asks
from memory.read_anew import czech_days_and_other_scripts_read
from memory.settings import MemorySettings
from memory.text import entry_terms, fold, query_terms
from tests.helpers.entries import one_chat
from tests.helpers.older_index import (
    DatedMessage,
    postgres_as_before,
    sqlite_as_before,
    without_dates,
)
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

SAID = datetime(2027, 4, 5, 9, tzinfo=UTC)
MIGRATION = "0054_czech_days_and_other_scripts_read"


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("Letím do Lisabonu na konferenci 15. července, flight OK1234", "dtd20270715"),
        ("Dentist is MUDr. Nováková, schůzka v 10 v pátek 9. dubna", "dtd20270409"),
        ("zítra v 10 schůzka", "dtd20270406"),
        ("pozítří dentist", "dtd20270407"),
        ("svatba 15. září", "dtd20270915"),
        ("review v pátek", "friday"),
        ("امتحان يوسف في الرياضيات يوم ١٥/٢", "dtmd0215"),
        # Egyptian Arabic, in its script and in Arabizi.
        ("بكرة الساعة ٥ عند الدكتور", "dtd20270406"),
        ("el sa3a 5 3and doctor el 3oyoon ma3 mama ba3d bokra", "dtd20270407"),
        ("النهاردة طلبية المورد", "dtd20270405"),
        ("امتحان يوسف العربي الخميس الجاي", "thursday"),
    ],
)
def test_a_day_in_czech_or_in_arabic_digits_is_read(text: str, term: str) -> None:
    assert term in entry_terms("k", text, SAID)
    assert czech_days_and_other_scripts_read(text)


@pytest.mark.parametrize(
    "text", ["De club heeft 12 leden", "Dentist is MUDr. Nováková", "Octávio called"]
)
def test_a_word_alike_names_no_month(text: str) -> None:
    assert not [term for term in entry_terms("k", text, SAID) if term.startswith("dtm")]


def test_english_is_read_as_before() -> None:
    assert not czech_days_and_other_scripts_read("the led lights are on the 12th, pick up at 5")


@pytest.mark.parametrize(
    ("written", "typed"),
    [("شُكْرًا، مُهِمّ جدا", "شكرا مهم جدا"), ("إبن سينا", "ابن سينا"), ("مكتبة", "مكتبه")],
)
def test_arabic_is_found_with_or_without_its_marks(written: str, typed: str) -> None:
    assert fold(written).replace("،", "") == fold(typed)


def test_another_scripts_digits_are_found_by_0_to_9() -> None:
    assert "1200" in entry_terms("k", "طلبية المورد النهاردة ١٢٠٠ جنيه", SAID)
    assert "1200" in entry_terms("k", "पूरे १२०० रुपये", SAID)
    assert query_terms("١٢٠٠") == query_terms("1200")


def test_a_day_to_come_in_czech_keeps_the_message_until_it() -> None:
    messages = one_chat(
        SAID,
        "Letím do Lisabonu na konferenci 15. července, flight OK1234",
        "De club heeft 12 leden",
    )
    settings = MemorySettings()
    gone_in_may = {
        d.entry.content for d in plan_hygiene(messages, settings, datetime(2027, 5, 25, tzinfo=UTC))
    }
    gone_after = {
        d.entry.content for d in plan_hygiene(messages, settings, datetime(2027, 7, 20, tzinfo=UTC))
    }
    assert gone_in_may == {"De club heeft 12 leden"}
    assert messages[0].content in gone_after


@pytest.mark.parametrize(
    "text", ["امتى امتحان يوسف؟", "ماما بتاخد Concor كام مجم؟", "فين الروشتة؟"]
)
def test_a_question_in_arabic_is_a_question(text: str) -> None:
    assert asks_only(text)
    assert only_asks(text)


def test_a_statement_in_arabic_is_none() -> None:
    said = "الدكتور قال ماما تاخد Concor ٥ مجم بدل ١٠ من النهاردة"
    assert not asks_only(said)
    assert not only_asks(said)


SAID_BEFORE = datetime(2026, 4, 5, 9, tzinfo=UTC)
"""A day gone by: an import takes no timestamp in the future."""
FLIGHT = DatedMessage(
    "flight", "Letím do Lisabonu na konferenci 15. července", SAID_BEFORE, "what is on 15 July?"
)
ORDER = DatedMessage("order", "طلبية المورد النهاردة ١٢٠٠ جنيه", SAID_BEFORE, "1200")
Older = Callable[[list[str]], list[str]]


def _digits_as_written(terms: list[str]) -> list[str]:
    """The terms an older memchat gave Arabic-Indic digits: as written."""
    return [term.replace("1200", "١٢٠٠") for term in terms]


@pytest.mark.parametrize(
    ("message", "older"), [(FLIGHT, without_dates), (ORDER, _digits_as_written)]
)
async def test_a_sqlite_store_indexed_before_finds_it(
    tmp_path: Path, message: DatedMessage, older: Older
) -> None:
    async with sqlite_as_before(tmp_path, message.fill, message.key, older, MIGRATION) as again:
        assert await message.found_alone(again)


@pytest.mark.parametrize(
    ("message", "older"), [(FLIGHT, without_dates), (ORDER, _digits_as_written)]
)
async def test_a_postgres_store_indexed_before_finds_it(
    postgres_url: str, tmp_path: Path, message: DatedMessage, older: Older
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, message.fill, message.key, older, CZECH_DAYS_AND_OTHER_SCRIPTS_READ
    ) as again:
        assert await message.found_alone(again)
