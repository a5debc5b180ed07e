"""Persian and Arabic as people type them: questions, function words, letters, days, doses.

Found by a new user writing Persian and English (a dispatcher in Toronto) and an adversary:
"کی جلسه است؟" (when is the meeting?) brought a SIN and a bank's code by "است" (is) alone;
"/remember کی تولد آرین است؟" was stored as a fact; "كد" found no "کد"; "سه‌شنبه" and "۲۰
مارس" named no day; "تولد آرین ۱۲ آوریل است" (Arian's birthday) went after its first day;
"doctor raised maman's metformin to 1000mg" marked her amlodipine; "should mom take Concor
5mg?" took the real dose's place; a phone number in Arabic-Indic digits went at 30 days.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.health_values import health_changed, health_values
from memory.lifecycle import plan_hygiene
from memory.questions import asks_only, only_asks
from memory.settings import MemorySettings
from memory.text import analyze, entry_terms, fold, query_terms
from tests.helpers.entries import one_chat

SAID = datetime(2027, 1, 10, 9, tzinfo=UTC)


def _gone(texts: list[str], at: datetime) -> set[str]:
    said = one_chat(SAID, *texts)
    return {d.entry.content for d in plan_hygiene(said, MemorySettings(), at)}


@pytest.mark.parametrize(
    "text",
    [
        "کی جلسه است؟",
        "کی تولد آرین است؟",
        "هل ماما تاخد Concor ٥ مجم",
        "آیا جلسه فردا است",
        "دکترم کیه",  # a later adversary: asked last, no mark, stored as a fact
        "الروشتة فين",
    ],
)
def test_a_question_in_persian_or_arabic_is_one(text: str) -> None:
    assert asks_only(text)
    assert only_asks(text)


def test_a_statement_in_persian_is_none() -> None:
    assert not asks_only("تولد آرین ۱۲ آوریل است")


def test_persian_and_arabic_function_words_find_nothing() -> None:
    assert query_terms("کی جلسه است؟") == ["جلسه"]
    assert analyze("شماره SIN من [REDACTED:ssn] است") == ["شماره", "sin"]
    assert "علي" in analyze("علي راح البيت")  # the name Ali stays


@pytest.mark.parametrize(("typed", "written"), [("كد", "کد"), ("ميكنم", "می‌کنم"), ("يك", "یک")])
def test_persian_letters_and_the_half_space_fold_as_typed(typed: str, written: str) -> None:
    assert fold(typed) == fold(written)


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("جلسه سه‌شنبه ساعت ۵", "tuesday"),
        ("جلسه سه شنبه", "tuesday"),
        ("Reza pickup پنجشنبه", "thursday"),
        ("شنبه کار دارم", "saturday"),
        ("برنامه نوروز: ۲۰ مارس", "dtd20270320"),
        ("تولد آرین ۱۲ آوریل است", "dtd20270412"),
        ("المقابلة يوم ٢٠ مارس", "dtd20270320"),
    ],
)
def test_a_day_in_persian_or_arabic_is_read(text: str, term: str) -> None:
    assert term in entry_terms("k", text, SAID)


def test_birthdays_in_czech_arabic_and_persian_are_kept_for_years() -> None:
    birthdays = [
        "Jana má narozeniny 3. května",
        "ماما عيد ميلادها ٣ مايو",
        "تولد آرین ۱۲ آوریل است",
    ]
    assert _gone(birthdays, datetime(2031, 1, 1, tzinfo=UTC)) == set()


def test_another_scripts_digits_are_read_by_retention_as_0_to_9() -> None:
    texts = ["samir's number is ٠١٢٢٣٤٥٦٧٨٩", "السفر من ١/٦ الى ١٥/٦", "المقابلة يوم ٢٠ مارس"]
    assert _gone(texts, datetime(2027, 2, 20, tzinfo=UTC)) == set()
    assert _gone(texts, datetime(2027, 6, 16, tzinfo=UTC)) == set(texts[1:])


def test_a_day_further_off_than_30_years_keeps_nothing() -> None:
    assert _gone(["lol 12/12/2099", "lol ١٢/١٢/٢٠٩٩"], datetime(2027, 2, 20, tzinfo=UTC)) == {
        "lol 12/12/2099",
        "lol ١٢/١٢/٢٠٩٩",
    }


@pytest.mark.parametrize(
    "asked", ["should mom take Concor 5mg?", "ماما تاخد Concor ٥ مجم؟", "هل ماما تاخد Concor ٥ مجم"]
)
def test_a_question_about_a_dose_takes_no_doses_place(asked: str) -> None:
    said = one_chat(SAID, "Mom takes Concor 10mg", asked)
    gone = {
        d.entry.content
        for d in plan_hygiene(said, MemorySettings(), datetime(2027, 3, 1, tzinfo=UTC))
    }
    assert gone == {asked}


def test_maman_is_mum() -> None:
    raised = "doctor raised maman's metformin to 1000mg twice a day"
    assert health_values(raised) == {"mum's dose of metformin": frozenset({"1000mg"})}
    assert health_changed(raised, "Maman's metformin dose is 500mg twice a day")
    assert not health_changed(raised, "maman takes amlodipine 5mg every morning")
    assert health_changed("Maman stopped taking amlodipine", "maman takes amlodipine 5mg")


def test_standing_prices_and_ones_own_details_are_kept_past_30_days() -> None:
    kept = [
        "Airport flat rate for regular customers is $65 per trip from now on",
        "Reza pays $45 per trip",
        "سلام، من شیرین هستم، دفتر دیسپچ یک شرکت تاکسی در تورنتو را اداره می‌کنم",
        "انا عمر، صيدلي في القاهرة",
        "platím nájem 15. každý měsíc",
        "الإيجار ٥٠٠٠ جنيه كل شهر",
    ]
    gone = [
        "the trip was fun",
        "من خسته هستم",
        "من خسته هستم، امروز کار زیاد بود",
        "انا تعبان، اليوم كان صعب جدا",  # a later adversary: kept ten years as one's details
    ]
    assert _gone(kept + gone, datetime(2027, 4, 5, tzinfo=UTC)) == set(gone)
