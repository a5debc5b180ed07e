"""Dates as search terms: what a query's date phrases name, and what an entry is indexed by."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st

import memory.date_terms as date_terms
from memory.date_term_names import entry_date_terms, saved_term
from memory.date_terms import date_terms_of, find_dates
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.text import analyze, distinct_terms, entry_terms, query_terms
from tests.unit.memory.conftest import as_before

TERM = re.compile(r"^dt(d[0-9]{8}|ym[0-9]{6}|md[0-9]{4}|m[0-9]{2}|y[0-9]{4})$")


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("What painting did I show on October 13, 2023?", ["dtd20231013", "dtmd1013"]),
        ("the 5 march 2024 meeting", ["dtd20240305", "dtmd0305"]),
        ("notes of 2023-10-13", ["dtd20231013", "dtmd1013"]),
        ("13th of Oct", ["dtmd1013"]),
        ("Sept. 5th", ["dtmd0905"]),
        ("our June 2023 trip", ["dtym202306"]),
        ("When did I go camping in June?", ["dtm06"]),
        ("last March", ["dtm03"]),
        ("what happened in 2022", ["dty2022"]),
        ("in May and in July", ["dtm05", "dtm07"]),
        ("February 31", ["dtm02"]),  # no such day: the month is what it names
        ("29 February 2023", ["dtym202302"]),  # no such day: February of 2023
        ("29 February 2024", ["dtd20240229", "dtmd0229"]),
    ],
)
def test_a_date_phrase_names_its_own_grain(text: str, terms: list[str]) -> None:
    assert find_dates(text)[0] == terms


@pytest.mark.parametrize(
    "text",
    [
        "May I ask you something?",
        "this may be wrong",
        "I want to march on",
        "ask Jan about it",
        "meet at 5:30",
        "version 2023 of the tool",
        "2023-13-45 is not a day",
    ],
)
def test_words_that_only_look_like_dates_name_none(text: str) -> None:
    assert find_dates(text)[0] == []


def test_a_queries_date_words_are_replaced_by_the_date() -> None:
    # Asked what was said that day: the day saved too ("tell you" is how it asks).
    assert query_terms("what did I tell you on October 13, 2023?") == [
        "dtd20231013",
        "dtmd1013",
        "dsd20231013",
        "dsmd1013",
        "dtwd5",  # a Friday: what happens every Friday (`memory.weekly_days`)
    ]
    # Procedures are keyed by the request's words alone.
    assert distinct_terms("remind me on 13 October") == analyze("remind 13 October")


def test_an_entry_is_indexed_by_its_saving_day_and_the_days_it_names() -> None:
    saved = datetime(2024, 2, 29, 12, 0).astimezone()
    terms = entry_terms("birthday", "my birthday is October 13", saved)
    assert {"birthday", "octob", "13", "dtmd1013"} <= set(terms)
    assert set(entry_date_terms(saved)) <= set(terms)
    assert entry_date_terms(saved) == ["dsd20240229", "dsym202402", "dsmd0229", "dsm02", "dsy2024"]


def test_the_saving_day_is_the_local_calendar_day() -> None:
    moment = datetime(2023, 10, 13, 23, 30, tzinfo=UTC)
    local = moment.astimezone()
    assert entry_date_terms(moment)[0] == f"dsd{local:%Y%m%d}"


@given(
    st.datetimes(
        min_value=datetime(1900, 1, 2), max_value=datetime(2099, 12, 30), timezones=st.just(UTC)
    ),
    st.sampled_from(["{d} {B} {Y}", "{B} {d}, {Y}", "{b} {d} {Y}", "{Y}-{m}-{d}"]),
)
def test_a_day_asked_for_is_a_day_the_entry_saved_then_holds(moment: datetime, form: str) -> None:
    local = moment.astimezone()
    phrase = form.format(
        d=local.day, B=f"{local:%B}", b=f"{local:%b}", Y=local.year, m=f"{local:%m}"
    )
    asked, rest = find_dates(f"what did I say on {phrase}?")
    assert asked and {saved_term(term) for term in asked} <= set(entry_date_terms(moment))
    assert str(local.year) not in rest


@given(st.text(max_size=200))
def test_any_text_gives_well_formed_terms_and_keeps_the_rest(text: str) -> None:
    terms, rest = find_dates(text)
    assert all(TERM.match(term) for term in terms)
    assert len(rest) <= len(text) + len(terms)
    if not terms:
        assert rest == text


def _settings() -> MemorySettings:
    return MemorySettings(backend="sqlite", embedding_provider="none")


async def test_a_store_from_before_dates_were_indexed_gets_them(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, _settings())
    await store.store("trip", "Booked a ryokan in Kyoto", "daily")
    await store.store("birthday", "Ana's birthday is on 13 October", "core")
    await store.store("damaged", "a row whose time is damaged", "daily")
    await store.close()
    with as_before(path, "0009_date_terms") as conn:
        for seq, key, content in conn.execute("SELECT seq, key, content FROM memories").fetchall():
            conn.execute(
                "UPDATE memories SET terms = ? WHERE seq = ?",
                (" ".join(analyze(key) + analyze(content)), seq),
            )
        conn.execute("UPDATE memories SET created_at = 'not a time' WHERE key = 'damaged'")

    store = await SqliteMemory.open(path, _settings())
    try:
        today = datetime.now().astimezone()
        found = await store.recall(f"what did I save on {today:%B} {today.day}, {today.year}?")
        assert {e.key for e in found.entries} == {"trip", "birthday"}
        named = await store.recall("what is on October 13?")
        assert [e.key for e in named.entries][:1] == ["birthday"]
        yesterday = today - timedelta(days=1)
        earlier = await store.recall(f"what did I save on {yesterday:%B} {yesterday.day}?")
        assert [e.key for e in earlier.entries if (e.scores and e.scores.keyword)] == []
    finally:
        await store.close()


def test_a_text_full_of_dates_is_read_in_one_pass() -> None:
    # Each date was checked against every earlier one: 220 KB of dates took 30 s, a
    # megabyte minutes. In a child process, so a relapse fails here instead of hanging.
    script = (
        "from memory.date_terms import find_dates; "
        "terms, rest = find_dates('1 May 2023 in June 2024-02-29 ' * 40_000); "
        "print(sorted(terms), len(rest))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split("]")[0] + "]" == str(
        sorted(["dtd20230501", "dtmd0501", "dtm06", "dtd20240229", "dtmd0229"])
    )


@pytest.mark.parametrize(
    "text", ["APRİL 5", "auguſt 13", "13 ſept 2023", "aprıl 5", "in ſeptember"]
)
def test_letters_that_fold_to_ascii_do_not_break_the_reading(text: str) -> None:
    terms, _ = find_dates(text)
    assert all(TERM.match(term) for term in terms)
    assert all(TERM.match(t) or not t.startswith("dt") for t in query_terms(text))


def test_a_month_takes_only_itself_out_of_the_query() -> None:
    assert query_terms("dentist appointment june") == ["dentist", "appoint", "dtm06"]
    assert query_terms("Kubernetes december") == ["kubernet", "dtm12"]


@pytest.mark.parametrize(
    ("zone", "moment", "day"),
    [
        ("America/New_York", datetime(1, 1, 1, tzinfo=UTC), "dsd00010101"),
        ("Pacific/Kiritimati", datetime(9999, 12, 31, 23, tzinfo=UTC), "dsd99991231"),
    ],
)
def test_a_time_at_the_ends_of_the_calendar_keeps_its_own_date(
    zone: str, moment: datetime, day: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In these zones the local date would fall outside years 1-9999.
    import time

    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        assert entry_date_terms(moment)[0] == day
    finally:
        monkeypatch.undo()
        time.tzset()


_DATE_WORDS = st.sampled_from(
    ["May", "may", "in", "march", "Oct.", "13th", "of", "2023", "5", "2024-02-29", ",", "I", "x"]
    # Letters whose lower case holds an ASCII letter (found by an adversary): "APRİL".
    + ["APR\u0130L", "Oct\u212a", "\u0130", "\u212a"]
)


@given(st.lists(_DATE_WORDS | st.text(max_size=4), max_size=12).map(" ".join))
def test_skipping_patterns_a_text_cannot_match_changes_nothing(text: str) -> None:
    # find_dates runs only the patterns whose digit or month word the text has: the same
    # answer as running every pattern on every text.
    quick = find_dates(text)
    anything = re.compile("")
    with (
        patch.object(date_terms, "_DIGIT", anything),
        patch.object(date_terms, "_has_month_word", lambda _: True),
    ):
        assert find_dates(text) == quick


def test_a_mentioned_day_is_also_in_its_month_and_year_but_a_question_keeps_its_grain() -> None:
    mentioned = date_terms_of("We met on 21 June 2023, then in July 2023 and on October 13", None)
    assert {"dtd20230621", "dtym202306", "dty2023", "dtm06", "dtym202307", "dtm07"} <= set(
        mentioned
    )
    years = [t for t in mentioned if re.fullmatch(r"dty[0-9]{4}", t)]
    assert "dtm10" in mentioned and years == ["dty2023"]
    assert query_terms("what happened on 21 June 2023?") == [
        "happen",
        "dtd20230621",
        "dtmd0621",
        "dsd20230621",  # a day gone by: what was said then too
        "dsmd0621",
        "dtwd3",  # a Wednesday
    ]


async def test_my_notes_from_a_month_find_a_day_mentioned_in_it(tmp_path: Path) -> None:
    store = await SqliteMemory.open(tmp_path / "brain.db", _settings())
    try:
        await store.store("trip", "We met Ana on 21 June 2023 in Porto", "daily")
        await store.store("other", "Tea with milk, no sugar", "daily")
        found = await store.recall("my notes from June 2023")
        assert [e.key for e in found.entries] == ["trip"]
    finally:
        await store.close()


async def test_a_store_from_before_months_were_implied_gets_them(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, _settings())
    await store.store("trip", "We met Ana on 21 June 2023 in Porto", "daily")
    await store.close()
    with as_before(path, "0010_implied_date_terms") as conn:
        (terms,) = conn.execute("SELECT terms FROM memories").fetchone()
        older = " ".join(t for t in terms.split() if t not in {"dtym202306", "dtm06", "dty2023"})
        conn.execute("UPDATE memories SET terms = ?", (older,))
    assert "dtym202306" not in older
    store = await SqliteMemory.open(path, _settings())
    try:
        found = await store.recall("my notes from June 2023")
        assert [e.key for e in found.entries] == ["trip"]
    finally:
        await store.close()


async def test_a_store_from_before_marked_letters_were_folded_finds_them_as_typed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, _settings())
    await store.store("friend", "Søren lives on Königstraße", "core")
    await store.store("other", "Tea with milk", "core")
    await store.close()
    with as_before(path, "0011_letters_without_marks") as conn:
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'friend'").fetchone()
        assert "soren" in terms.split()
        conn.execute(
            "UPDATE memories SET terms = ? WHERE key = 'friend'",
            (terms.replace("soren", "søren").replace("konigstrass", "königstraß"),),
        )
    store = await SqliteMemory.open(path, _settings())
    try:
        for question in ("where does Soren live?", "konigstrasse", "Søren"):
            found = await store.recall(question)
            assert [e.key for e in found.entries] == ["friend"], question
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("invoice due 3/3/2026", ["dtd20260303", "dtmd0303"]),
        ("invoice due 03/03/2026", ["dtd20260303", "dtmd0303"]),
        ("born 13/10/2024", ["dtd20241013", "dtmd1013"]),
        ("born 10/13/2024", ["dtd20241013", "dtmd1013"]),
        ("on 10/04/2026", ["dtd20260410", "dtmd0410", "dtd20261004", "dtmd1004"]),
        ("Rechnung fällig am 13.10.2024", ["dtd20241013", "dtmd1013"]),
        ("party 13-10-2024", ["dtd20241013", "dtmd1013"]),
        ("Frist 2024/10/13", ["dtd20241013", "dtmd1013"]),
        ("on 2024.10.13.", ["dtd20241013", "dtmd1013"]),
        ("host 10.10.2020.1", []),  # an address, not a date
        ("1/2 cup of sugar", []),  # no year: a fraction, not a date
        ("version 2/3/2020a", []),
    ],
)
def test_a_numeric_date_with_its_year_is_a_date_either_way_round(
    text: str, terms: list[str]
) -> None:
    # Found by a new user: "3/3/2026" and "03/03/2026" found different memories, and
    # "3/3" matched every memory holding a 3.
    assert find_dates(text)[0] == terms


async def test_a_numeric_date_finds_the_day_however_it_was_written(tmp_path: Path) -> None:
    store = await SqliteMemory.open(tmp_path / "brain.db", _settings())
    try:
        await store.store("invoice", "Invoice due 2026-03-03", "core")
        await store.store("birthday", "Anna's birthday is March 3rd", "core")
        await store.store("salary", "salary 3.200 EUR net", "core")
        found = await store.recall("what is on 03/03/2026?")
        assert {e.key for e in found.entries} == {"invoice", "birthday"}
    finally:
        await store.close()


async def test_a_store_from_before_saved_days_had_terms_of_their_own_gets_them(
    tmp_path: Path,
) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, _settings())
    await store.store("move", "I moved to Berlin", "core")
    today = datetime.now().astimezone()
    await store.store("dinner", f"Dinner with Ana on {today:%d %B %Y}", "core")
    await store.store("damaged", "a row whose terms are damaged", "core")
    await store.store("plumber", "The plumber comes tomorrow", "core")
    await store.close()
    with as_before(path, "0019_saved_days_apart") as conn:
        for seq, terms in conn.execute("SELECT seq, terms FROM memories").fetchall():
            # As indexed before: the saving day's terms were those of a date named, and no day
            # was read from the day it was said ("tomorrow").
            named = [t for t in terms.split() if t.startswith("dt")]
            kept = (
                terms.split()
                if "plumb" not in terms
                else [t for t in terms.split() if t[:2] != "dt"]
            )
            old = " ".join(t.replace("ds", "dt", 1) if t.startswith("ds") else t for t in kept)
            assert "plumb" not in terms or named  # it names tomorrow now
            conn.execute("UPDATE memories SET terms = ? WHERE seq = ?", (old, seq))
        conn.execute("UPDATE memories SET terms = CAST(x'00ff' AS BLOB) WHERE key = 'damaged'")
    store = await SqliteMemory.open(path, _settings())
    try:
        asked = await store.recall("what do I have on today?")
        assert [e.key for e in asked.entries] == ["dinner"]
        told = await store.recall("what did I tell you today?")
        assert {"move", "dinner"} <= {e.key for e in told.entries}
        tomorrow = today + timedelta(days=1)
        plumber = await store.recall(f"what is on {tomorrow:%B} {tomorrow.day}?")
        assert [e.key for e in plumber.entries] == ["plumber"]
    finally:
        await store.close()
    (terms,) = sqlite3.connect(path).execute("SELECT terms FROM memories WHERE key = 'dinner'")
    named = [t for t in terms[0].split() if t.startswith("dtd")]
    assert named == [f"dtd{today:%Y%m%d}"]  # the day the dinner names stays a day named


def test_a_weekday_or_a_day_of_the_month_asked_about_is_the_next_such_day() -> None:
    """Found by a new user: "what's on the 11th?" and "is anything happening on Friday?"
    were read as words only."""
    from datetime import date

    from memory.relative_dates import relative_date_terms, this_years

    friday = date(2026, 12, 4)
    assert relative_date_terms("what's on the 11th?", friday) == ["dtd20261211", "dtmd1211"]
    assert relative_date_terms("what's on the 2nd?", friday) == ["dtd20270102", "dtmd0102"]
    assert relative_date_terms("anything on Friday?", friday) == ["dtd20261211", "dtmd1211"]
    assert relative_date_terms("this Friday", friday) == ["dtd20261204", "dtmd1204"]
    assert relative_date_terms("on the 31st", date(2026, 11, 4)) == ["dtd20261231", "dtmd1231"]
    assert relative_date_terms("on the 31st", date(2026, 9, 4))[0] == "dtd20261031"
    assert relative_date_terms("on the 45th", friday) == []
    # A day named without its year is this year's, and next year's once gone by.
    assert this_years(["dtmd1211"], friday) == ["dtd20261211"]
    assert this_years(["dtmd1202"], friday) == ["dtd20261202", "dtd20271202"]
