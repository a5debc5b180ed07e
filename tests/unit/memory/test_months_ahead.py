"""A month or a year ahead said relative to now is kept until it is over, and no longer.

Found by an adversary: "I'm going to Beijing next month" went on the first of that month;
"来年、京都に引っ越します" went in the first days of the year it named; "下个月再说吧 哈哈" (let's
talk next month, haha) was kept a year.
"""

from __future__ import annotations

from datetime import date

import pytest

from memory.months_ahead import months_ahead

SAID = date(2027, 3, 1)


@pytest.mark.parametrize(
    ("text", "until"),
    [
        ("I'm going to Beijing next month", date(2027, 4, 30)),
        ("agle mahine Goa ja rahe hain", date(2027, 4, 30)),
        ("下个月十五号看牙医", date(2027, 4, 30)),
        ("来月引っ越し", date(2027, 4, 30)),
        ("다음 달에 이사", date(2027, 4, 30)),
        ("再来月に結婚式", date(2027, 5, 31)),
        ("来年、京都に引っ越します", date(2028, 12, 31)),
        ("明年春天去北京", date(2028, 12, 31)),
        ("내년에 이사 가요", date(2028, 12, 31)),
        ("Eid ka party agle saal karenge", date(2028, 12, 31)),
        ("3か月後に歯医者の予約があります", date(2027, 6, 30)),
        ("三个月后搬家", date(2027, 6, 30)),
        ("3 mahine baad exam hai", date(2027, 6, 30)),
        ("十一个月后毕业", date(2028, 2, 29)),
    ],
)
def test_kept_until_the_month_or_year_it_names_is_over(text: str, until: date) -> None:
    assert max(months_ahead(text, SAID)) == until


@pytest.mark.parametrize(
    "text", ["last month was busy", "the month was long", "3 months ago I moved", "年末に"]
)
def test_no_month_ahead_named(text: str) -> None:
    assert months_ahead(text, SAID) == []
