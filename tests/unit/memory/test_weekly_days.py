"""What happens every week is found by the days a question names (memory.weekly_days)."""

from __future__ import annotations

from memory.text import query_terms
from memory.weekly_days import weekday_terms, weekly_terms
from tests.unit.memory.conftest import OpenStore


def test_what_happens_every_week_is_indexed_by_its_weekday() -> None:
    assert weekly_terms("Kenji's lesson every Monday at 7pm") == ["dtwd1"]
    assert weekly_terms("I tutor Aiko on Wednesdays and Fridays") == ["dtwd3", "dtwd5"]
    assert weekly_terms("Choir on Tuesday evenings") == ["dtwd2"]
    assert weekly_terms("The plumber comes on Monday") == []  # once: `relative_dates`
    assert weekly_terms("Mondays are hard") == ["dtwd1"]
    assert weekly_terms("no day named here") == []


def test_a_question_naming_days_asks_for_their_weekdays() -> None:
    assert weekday_terms(["dtd20261207", "dtmd1207", "dty2026"]) == ["dtwd1"]
    assert weekday_terms(["dtd20260231"]) == []  # no such day
    assert "dtwd1" in query_terms("what is on December 14, 2026?")  # a Monday


async def test_a_weekly_lesson_is_found_by_the_week_or_the_day_asked_about(
    open_store: OpenStore,
) -> None:
    """Found by a new user: "who do I tutor this week?" and "what do I have on Monday?"
    found none of the weekly lessons; without the time word all three were found."""
    store = await open_store(None)
    await store.store("kenji", "I tutor Kenji every Monday at 7pm")
    await store.store("aiko", "I tutor Aiko on Wednesdays at 6pm")
    await store.store("supervisor", "Meeting with my supervisor every Tuesday at 3pm")
    await store.store("cat", "My cat Mochi takes methimazole twice a day")
    week = await store.recall("who do I tutor this week?")
    assert {e.key for e in week.entries} >= {"kenji", "aiko"}
    assert "cat" not in {e.key for e in week.entries}
    monday = await store.recall("what do I have on Monday?")
    assert [e.key for e in monday.entries][:1] == ["kenji"]
