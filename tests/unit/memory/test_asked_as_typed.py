"""Questions typed the way a busy person types them find what they ask for.

Found by a new user, a freelancer: "whats my address" (no apostrophe), "when do i go to the
gym", "how much do I charge Bluefin" and "whats biscuits weight" each missed the memory
that answers it (below the relevance floor, or not found at all).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from agent.injection import ABOUT_THE_USER
from memory.date_term_names import is_date_term
from memory.relative_dates import relative_date_terms
from memory.sqlite.store import SqliteMemory
from memory.text import entry_terms, query_terms
from memory.write_rules import NewMemory
from tests.helpers.older_index import keyword_only

SAID = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
FACTS = {
    "address": "New address is 88 Harbord St apt 4, Toronto",
    "gym": "Gym mon/wed 7am",
    "rate": "Bluefin rate is $135/hr USD",
    "weight": "Biscuit weighs 17.9kg now",
    "dentist": "Dentist is Dr. Okafor on Bloor",
}


@pytest.mark.parametrize(
    ("query", "key"),
    [
        ("whats my address", "address"),
        ("wheres my new address", "address"),
        ("when do i go to the gym", "gym"),
        ("how much do I charge Bluefin", "rate"),
        ("whats biscuits weight", "weight"),
        ("what's Biscuit's weight?", "weight"),
    ],
)
async def test_a_question_typed_short_finds_its_answer(
    tmp_path: Path, query: str, key: str
) -> None:
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        for name, content in FACTS.items():
            await store.write(NewMemory(key=name, content=content, created_at=SAID))
        found = (await store.recall(query)).entries
        assert [entry.key for entry in found][:1] == [key]
        assert len(found) == 1, [entry.content for entry in found]
        # Every word asking for it matched: none left over to pull it under the floor.
        assert (found[0].score or 0.0) > 0.95
    finally:
        await store.close()


@pytest.mark.parametrize(
    "message",
    ["what do u know about me", "wat do u remember abt me?", "What do you know about me?"],
)
def test_asking_what_is_known_of_the_user_typed_short_is_that_question(message: str) -> None:
    assert ABOUT_THE_USER.match(message)


def test_asking_about_someone_else_is_not_that_question() -> None:
    assert not ABOUT_THE_USER.match("what do u know about my sister")


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("when's my next dentist?", ["dentist"]),
        ("next dentist appointment", ["dentist"]),
        ("when is the next night shift", ["night", "shift"]),
        ("what did she do next", ["next"]),
    ],
)
def test_next_asks_which_one_and_is_no_word_of_it(query: str, terms: list[str]) -> None:
    """Found by an adversary: "next dentist appointment" recalled "Haircut next Tuesday"
    first, and the dentist's own facts (without "appointment") fell under the floor."""
    assert [t for t in query_terms(query) if not is_date_term(t)] == terms


async def test_an_appointment_is_found_by_what_it_is(tmp_path: Path) -> None:
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        for key, content in (
            ("haircut", "Haircut next Tuesday 3pm"),
            ("dentist", "Dentist on 14/1 at 9am"),
        ):
            await store.write(NewMemory(key=key, content=content, created_at=SAID))
        found = (await store.recall("when is my next dentist appointment")).entries
        assert [entry.key for entry in found] == ["dentist"]
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("Night shift Wed 2/12 21:00", "dtmd1202"),
        ("Night shift Thu 3/12 21:00", "dtmd1203"),
        ("Lunch Fri 5/2 12:30", "dtmd0205"),  # 5 February 2027 is a Friday; 2 May is not
    ],
)
def test_a_weekday_before_a_day_and_month_picks_the_reading_on_it(said: str, day: str) -> None:
    """Found by an adversary: "Wed 2/12" was 12 February too, so a past shift looked ahead."""
    assert [t for t in entry_terms("k", said, SAID) if t.startswith("dtmd")] == [day]


@pytest.mark.parametrize("said", ["what's on Saturday 19th", "Sat 19th", "lunch Sat, 19th"])
def test_a_weekday_before_a_day_of_the_month_is_that_day(said: str) -> None:
    """Found by an adversary: "Saturday 19th" was read as the coming Saturday, the 12th, and
    "Sat 19th" as no day; "Saturday the 19th" was the 19th."""
    days = [t for t in relative_date_terms(said, date(2026, 12, 5)) if t.startswith("dtd")]
    assert days == ["dtd20261219"]
    terms = entry_terms("k", said, SAID)
    assert "dtd20261219" in terms and "dtd20261212" not in terms


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("Sat 16th: BBQ", "dtd20270116"),
        ("Saturday the 16th", "dtd20270116"),
        ("on the 16th", "dtd20261216"),
    ],
)
def test_a_weekday_before_a_day_of_the_month_is_the_next_one_on_it(said: str, day: str) -> None:
    """Found by an adversary: "Sat 16th", said on 5 December 2026, was Wednesday the 16th
    of December; the next 16th on a Saturday is in January."""
    assert [
        t
        for t in entry_terms("k", said, SAID)
        if t.startswith("dtd2027") or t.startswith("dtd202612")
    ] == [day]


@pytest.mark.parametrize("query", ["when do i work on saturday", "do i work on sunday?"])
async def test_weekends_are_saturdays_and_sundays(tmp_path: Path, query: str) -> None:
    """Found by a new user: "I work at Café Aurora now only on weekends" was found by
    neither question (0.106 for the Sunday)."""
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        for key, content in (
            ("work", "I work at Café Aurora now only on weekends, sat sun 9-15"),
            ("gym", "Gym every Monday at 7am"),
        ):
            await store.write(NewMemory(key=key, content=content, created_at=SAID))
        found = (await store.recall(query)).entries
        assert [entry.key for entry in found][:1] == ["work"]
        assert (found[0].score or 0.0) > 0.5
    finally:
        await store.close()


@pytest.mark.parametrize(
    "home", ["I live at 12 Oak St, Porto", "We live at 5 Elm Road", "I live in Porto"]
)
@pytest.mark.parametrize("query", ["what's my address", "whats my address", "my address?"])
async def test_where_the_user_lives_is_found_by_address(
    tmp_path: Path, home: str, query: str
) -> None:
    """Found by an adversary: only "My address is …" was found by "what's my address"."""
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        await store.write(NewMemory(key="home", content=home, created_at=SAID))
        await store.write(NewMemory(key="gym", content="Gym mon/wed 7am", created_at=SAID))
        found = (await store.recall(query)).entries
        assert [entry.key for entry in found] == ["home"]
    finally:
        await store.close()


def test_what_someone_is_on_asks_for_their_medicines() -> None:
    """Found by a new user, a carer: "what's dad on now" searched "dad" alone. (Dad is
    asked for as "father", which every memory naming him holds: `memory.kin_words`.)"""
    assert query_terms("what's dad on now") == ["father", "med"]
    assert query_terms("what's on tv") == ["tv"]


async def test_bp_is_blood_pressure(tmp_path: Path) -> None:
    """Found by a new user, a carer: "BP 138/84 this morning" was found by no "blood
    pressure"."""
    store = await SqliteMemory.open(tmp_path / "brain.db", keyword_only())
    try:
        await store.write(
            NewMemory(key="bp", content="BP 138/84 this morning, weight 70.6kg", created_at=SAID)
        )
        await store.write(NewMemory(key="nurse", content="Nurse came today", created_at=SAID))
        found = (await store.recall("what was his blood pressure")).entries
        assert [entry.key for entry in found] == ["bp"]
    finally:
        await store.close()
