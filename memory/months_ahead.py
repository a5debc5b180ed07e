"""A month or a year ahead said relative to now: kept until that month or year is over.

Found by an adversary: "I'm going to Beijing next month", said on 1 March, went on 1 April;
"来年、京都に引っ越します" (moving next year), kept a flat year from when said, went in the
first days of the year it named; "3か月後に歯医者" was kept a year where "dentist in 3 months"
was kept three. Read in English, Hinglish, Japanese, Chinese and Korean, each to its own
end (the periods said otherwise in English and the European languages:
`memory.periods_ahead`; Korean months on: `memory.more_days`).
"""

from __future__ import annotations

from datetime import date

from memory.lazy_patterns import lazy_compile
from memory.periods_ahead import period_after

_NEXT_MONTH = lazy_compile(
    # Not a day of it: "the 20th of next month" is read as that day.
    r"(?i)(?<!\bof\s)\bnext\s+month\b|"
    r"\bagle\s+mahine\b|来月|下个月|下個月|다음\s*달"
)
_MONTH_AFTER_NEXT = lazy_compile(r"再来月|下下个月|다다음\s*달")
_NEXT_YEAR = lazy_compile(r"(?i)\bagle\s+saal\b|来年|明年|내년")
_YEAR_AFTER_NEXT = lazy_compile(r"再来年|后年|後年|내후년")
_NUMERALS = {"一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_NUMERALS |= {"七": 7, "八": 8, "九": 9, "十": 10, "十一": 11, "十二": 12}
_IN_MONTHS = lazy_compile(
    r"(?i)\b(?P<n>\d{1,2})\s+(?:mahine|mahina)\s+(?:baad|mein)\b"
    r"|(?P<m>\d{1,2}|十[一二]?|[一二两兩三四五六七八九])\s*(?:ヶ月|か月|カ月|ケ月|个月|個月)\s*(?:後|后)"
)


def months_ahead(text: str, said: date) -> list[date]:
    """The last day of each month or year ahead `text`, said on `said`, names so."""
    days: list[date] = []
    for rule, count, unit in (
        (_NEXT_MONTH, 1, "months"),
        (_MONTH_AFTER_NEXT, 2, "months"),
        (_NEXT_YEAR, 1, "years"),
        (_YEAR_AFTER_NEXT, 2, "years"),
    ):
        if rule.search(text):
            days.append(period_after(said, str(count), unit))
    for found in _IN_MONTHS.finditer(text):
        written = found["n"] or found["m"]
        count = int(written) if written.isdigit() else _NUMERALS[written]
        days.append(period_after(said, str(count), "months"))
    return days
