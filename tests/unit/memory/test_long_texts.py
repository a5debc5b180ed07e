"""A pasted page is read in time proportional to its length, not to its square.

Found by an adversary: a page of "1/2 " (the date rules read the words before each date from
the text's start) and a page saying "may" thousands of times (retention looked for the
month's cue from the text's start, and for a word of the past once per month named) each
held the app for minutes, and the second again at each start, when hygiene read it. Waited
for as a state, with a bound far above what each needs on a busy machine: before, each
took minutes.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import date

from memory.date_terms import find_dates
from memory.days_to_keep import last_day_said

_BOUND_S = 60


def test_a_page_of_fractions_is_read_in_one_pass() -> None:
    page = "the party moved to 3/4 " * 20_000
    with ThreadPoolExecutor(max_workers=1) as pool:
        found, _rest = pool.submit(find_dates, page).result(timeout=_BOUND_S)
    assert found == find_dates("the party moved to 3/4")[0] == ["dtmd0403", "dtmd0304"]
    assert find_dates("My blood pressure was 13/8")[0] == []


def test_a_page_saying_may_is_read_in_one_pass() -> None:
    said = date(2026, 12, 6)
    with ThreadPoolExecutor(max_workers=1) as pool:
        kept = pool.submit(last_day_said, "You may copy it in May. " * 15_000, said)
        assert kept.result(timeout=_BOUND_S) == "20270531"
    assert last_day_said("I may go", said) is None
