"""A day relative to now, or one of the family, in Japanese, Chinese or Korean; in-laws (0050).

Found by a new user, a Japanese engineer in Berlin: "/remember 明日は歯医者 10時" named no
day, so weeks later nothing said which day "tomorrow" had been; "お母さんの誕生日は5月3日です"
was found by no "when is my mother's birthday?". An adversary: "My mother-in-law Rosa's
birthday" was found by "when is mom's birthday?" as the user's mother.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.days_to_keep import last_day_said
from memory.kin_words import kin_wordings
from memory.postgres.schema import DAYS_AND_KIN_ELSEWHERE_READ
from memory.protocol import Memory
from memory.read_anew import days_and_kin_elsewhere_read
from memory.text import analyze, entry_terms, query_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

SAID = datetime(2027, 3, 5, 9, tzinfo=UTC)
BIRTHDAY = "お母さんの誕生日は5月3日です"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("明日は歯医者 10時", "dtd20270306"),
        ("내일 치과 예약", "dtd20270306"),
        ("明天去看牙医", "dtd20270306"),
        ("明後日は休み", "dtd20270307"),
    ],
)
def test_a_day_relative_to_now_is_dated_from_the_day_said(text: str, day: str) -> None:
    assert day in entry_terms("k", text, SAID) and days_and_kin_elsewhere_read(text)


@pytest.mark.parametrize(
    ("text", "kin"),
    [
        (BIRTHDAY, "mother"),
        ("母の誕生日", "mother"),
        ("パパの車", "father"),
        ("엄마 생일은 5월 3일", "mother"),
        ("我妈妈的生日", "mother"),
        ("祖母の家", "grandmother"),
    ],
)
def test_one_of_the_family_is_indexed_by_the_english_word(text: str, kin: str) -> None:
    assert kin_wordings(text) == kin and days_and_kin_elsewhere_read(text)


@pytest.mark.parametrize("text", ["明日香の誕生日", "パパイヤが好き", "母国語は日本語"])
def test_a_name_or_a_word_of_the_same_letters_is_neither(text: str) -> None:
    """ "明日香" is a name (Asuka), "パパイヤ" papaya, "母国語" a mother tongue."""
    assert not days_and_kin_elsewhere_read(text)


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the row: no English kin word."""
    return [term for term in terms if term != "mother"]


async def _storing(memory: Memory) -> None:
    await memory.store("birthday", BIRTHDAY, "core")
    await memory.store("yuki", "My sister Yuki's birthday is 21 August", "core")


async def _found(store: Memory) -> bool:
    found = await store.recall("when is my mother's birthday?")
    return [entry.key for entry in found.entries][:1] == ["birthday"]


async def test_a_sqlite_store_indexed_before_finds_it(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _storing, "birthday", _older, "0050_days_and_kin_elsewhere_read"
    ) as again:
        assert await _found(again)


async def test_a_postgres_store_indexed_before_finds_it(postgres_url: str, tmp_path: Path) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing, "birthday", _older, DAYS_AND_KIN_ELSEWHERE_READ
    ) as again:
        assert await _found(again)


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("My mother-in-law Rosa's birthday is 3 May", "motherinlaw"),
        ("my mom in law is visiting", "motherinlaw"),
        ("my sister-in-law Ana", "sisterinlaw"),
        ("both brothers-in-law came", "brotherinlaw"),
    ],
)
def test_one_of_the_family_by_marriage_is_one_word(text: str, term: str) -> None:
    terms = analyze(text)
    assert term in terms and "mother" not in terms and "law" not in terms
    assert days_and_kin_elsewhere_read(text)
    assert "motherinlaw" not in query_terms("when is mom's birthday?")


@pytest.mark.parametrize(
    ("text", "day", "kept_to"),
    [
        ("Peluquería sábado 9/1", "dtmd0109", "20270109"),
        ("Coiffeur samedi 9/1", "dtmd0109", "20270109"),
        ("Friseur Samstag 9.1.", "dtmd0109", "20270109"),
        ("Elternabend am Donnerstag, 11.2.", "dtmd0211", "20270211"),
        ("Termin Donnerstag 11.02.", "dtmd0211", "20270211"),
        ("Friseur am 9.1.", "dtmd0109", "20270109"),  # dotted: day first, never month first
    ],
)
def test_a_weekday_in_another_language_picks_the_reading_on_it(
    text: str, day: str, kept_to: str
) -> None:
    """Found by an adversary: "sábado 9/1" and "Samstag 9.1." (9 January 2027, a Saturday)
    were kept to 1 September, and "Donnerstag 11.02." found by no "February 11"."""
    said = datetime(2026, 12, 5, 9, tzinfo=UTC)
    days = [term for term in entry_terms("k", text, said) if term.startswith("dtmd")]
    assert days == [day]
    assert last_day_said(text, said.date()) == kept_to
    if "am 9.1." not in text:
        assert days_and_kin_elsewhere_read(text)
