"""What a message keeps itself for, said as two new users and an adversary said it.

A student in Bengaluru (Hinglish), a baker in Guadalajara (Spanish), and an adversary
writing Japanese, Chinese and Korean each saw these deleted at 30 days: a brother's phone
number, who she is, a fee by the term or the year, a birthday said as a verb or with its
day first or in Hindi, plans for next year or in three months.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.lifecycle import plan_hygiene
from memory.settings import MemorySettings
from tests.helpers.entries import one_chat

SAID = datetime(2027, 1, 4, 9, tzinfo=UTC)
A_MONTH_ON = datetime(2027, 2, 10, 9, tzinfo=UTC)
FOUR_MONTHS_ON = datetime(2027, 5, 10, 9, tzinfo=UTC)


def _kept(text: str, now: datetime) -> bool:
    return not plan_hygiene(one_chat(SAID, text), MemorySettings(), now)


@pytest.mark.parametrize(
    "text",
    [
        "Bhaiya ka number 98450 12345 hai",
        "Hi! Main Priya hoon, 21, engineering student in Bengaluru, hostel mein rehti hoon",
        "mera naam Priya Sharma hai",
        "mess fee is ₹45,000 per semester, due 15/01",
        "Hostel fee Rs 1.2 lakh for the year, Papa will pay by 31/01",
        "मम्मी का जन्मदिन 5 अप्रैल को है",
        "mi suegra Doña Refugio cumple años el 22 de marzo, hay que hacerle su pastel de nuez",
        "a minha mãe faz anos a 3 de maio",
        "Oma hat am 3. Mai Geburtstag",
        # A new user, a taxi driver, in lower case and without the apostrophe.
        "hi im tomasz, taxi driver in manchester 58 years, from poland",
        # His second medicine, its dose in words.
        "also ramipril two point five mg at night, doctor hussain",
    ],
)
def test_kept_past_its_day_and_its_month(text: str) -> None:
    assert _kept(text, A_MONTH_ON)
    assert _kept(text, FOUR_MONTHS_ON)


@pytest.mark.parametrize(
    "text",
    [
        "来年の夏に日本へ引っ越す",
        "歯医者は3か月後",
        "下个月十五号看牙医",
        "三个月后搬家",
        "내년에 이사 가요",
        "再来月に結婚式",
    ],
)
def test_a_plan_for_next_year_or_months_on_outlives_30_days(text: str) -> None:
    assert _kept(text, A_MONTH_ON)


@pytest.mark.parametrize(
    "text",
    [
        "Nani ka birthday kab hai?",
        "when is Tom's birthday?",
        "Main Street is closed today",
        "mera dost late hai",
        "hi im tired, can you help me",
        # An adversary's numbers that are no years.
        "the 2030 bus was late again",
        "Cabin 2033 on the ferry",
        "hey im new, how does this work",
    ],
)
def test_what_gives_no_such_detail_goes_at_30_days(text: str) -> None:
    assert not _kept(text, A_MONTH_ON)


@pytest.mark.parametrize(
    "text",
    [
        "Flight was cancelled, new one on 20/9",
        "the dentist was moved to 3/5",
        "we are moving in 2028",
        "in 2028 flights will resume",
    ],
)
def test_a_day_to_come_said_beside_what_was_is_kept(text: str) -> None:
    assert _kept(text, A_MONTH_ON)


def test_a_bank_text_of_a_charge_goes_at_30_days() -> None:
    """Found by a new user, a taxi driver: kept to 3 January next year, 01/03 read both ways."""
    said = datetime(2027, 3, 1, 9, tzinfo=UTC)
    text = "Santander: your card ending 4421 was charged £32.50 at SHELL MANCHESTER on 01/03"
    entries = one_chat(said, text)
    assert plan_hygiene(entries, MemorySettings(), datetime(2027, 4, 5, tzinfo=UTC))


@pytest.mark.parametrize(
    ("text", "gone_by"),
    [
        # A later adversary: the bank's fraud line is no number given; the other date of a
        # text that writes its days day first reads the first day first too.
        (
            "Barclays: Your card ending 4821 was charged £32.50 at TESCO on 01/03. Not you? "
            "Call 0800 123 456",
            datetime(2027, 4, 5, tzinfo=UTC),
        ),
        (
            "HSBC: A payment of £1,200 was charged on 01/03. Your loan payment of £450 is due "
            "15/06",
            datetime(2027, 7, 1, tzinfo=UTC),
        ),
        ("hi im lagging, wifi sucks", datetime(2027, 4, 5, tzinfo=UTC)),
        ("hi im outside, open the door", datetime(2027, 4, 5, tzinfo=UTC)),
    ],
)
def test_a_bank_text_or_a_hello_goes_in_its_time(text: str, gone_by: datetime) -> None:
    said = datetime(2027, 3, 1, 9, tzinfo=UTC)
    assert plan_hygiene(one_chat(said, text), MemorySettings(), gone_by)


def test_a_joke_of_a_dose_takes_no_medicines_place() -> None:
    """Found by a later adversary: "one mg of common sense would help lol" was read as a new
    dose of sertraline, and "Sertraline 50mg daily" went as what it changed."""
    said = datetime(2026, 5, 10, 9, tzinfo=UTC)
    chat = one_chat(
        said,
        "Sertraline 50mg daily",
        "I forgot my sertraline yesterday, my wife said one mg of common sense would help lol",
    )
    gone = plan_hygiene(chat, MemorySettings(), datetime(2027, 5, 11, tzinfo=UTC))
    assert "Sertraline 50mg daily" not in [decision.entry.content for decision in gone]
