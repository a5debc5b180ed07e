"""Korean read as it is written, and dates in Korean, Japanese and Chinese (migration 0034).

Found by a new user, a translator in Seoul writing half in Korean: "월세가 얼마였지?" (how much
was the rent?) found nothing of "월세 120만원": its bigrams "세가", "마였", "였지" were in no
memory and pulled the rent under the floor. "what do I have on December 18?" found no "치과
예약 12월 18일"; a message of "인보이스 12월 15일까지" would have been deleted before its day;
"Hanbit 담당자 누구였지?" was used as a memory, above the answer.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memory.date_terms import find_dates
from memory.days_to_keep import last_day_said
from memory.event_days import cancels_it
from memory.follow_ups import goes_on
from memory.postgres.schema import KOREAN_AND_CJK_DATES_READ
from memory.protocol import Memory
from memory.questions import asks_only
from memory.read_anew import korean_and_cjk_dates_read
from memory.text import analyze, query_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

DENTIST = "치과 예약 12월 18일 오후 3시 미소치과"
THE_18TH = "dtmd1218"


@pytest.mark.parametrize(
    ("with_particles", "alone"),
    [
        ("월세가", "월세"),
        ("보리는", "보리"),
        ("고양이는", "고양이"),
        ("영어로", "영어"),
        ("목요일에", "목요일"),
        ("학교에서는", "학교"),
        ("서울까지", "서울"),
        ("얼마였지", "얼마"),
    ],
)
def test_a_korean_word_reads_the_same_with_its_particles(with_particles: str, alone: str) -> None:
    assert analyze(with_particles) == analyze(alone)


def test_a_korean_question_searches_for_what_it_asks_about() -> None:
    assert analyze("월세가 얼마였지?") == ["월세"]
    assert analyze("감수 영어로 뭐라고 하기로 했지?") == ["감수", "영어"]
    # A word of two syllables keeps them, particle-like or not ("치과" is a dentist's).
    assert analyze("치과 사과 요가") == ["치과", "사과", "요가"]
    # Nor is a word a pronoun and a particle: "나이" (age), "내과" (internal medicine).
    assert analyze("나이가 몇이야?") == ["나이"] and analyze("내과가 언제야?") == ["내과"]
    assert analyze("제도 제과 이과") == ["제도", "제과", "이과"]
    # A particle joined to Latin letters or digits is no term.
    assert analyze("PIN은") == ["pin"]
    # Japanese and Chinese are read in bigrams as before.
    assert analyze("北京") == ["北京"]


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        (DENTIST, [THE_18TH]),
        ("12月18日に歯医者", [THE_18TH]),
        ("2027년 1월 10일 비자 만료", ["dtd20270110", "dtmd0110"]),
        ("12월에 뭐 있지?", ["dtm12"]),
        ("2027년 1월", ["dtym202701"]),
        ("12개월 계약", []),  # twelve months long: no month
        ("월요일", []),  # Monday
        ("13월 5일", []),
        ("2027년 2월 29일", []),
    ],
)
def test_a_date_in_korean_japanese_or_chinese_is_a_date(text: str, terms: list[str]) -> None:
    assert find_dates(text, date(2026, 12, 1))[0] == terms


@pytest.mark.parametrize(
    ("text", "kept_until"),
    [
        ("인보이스 12월 15일까지 보내기", "20261215"),
        (DENTIST, "20261218"),
        ("12月18日に歯医者", "20261218"),
        ("3월에 이사 가", "20270331"),
        ("비자 만료 2027년 1월 10일", "20271231"),
    ],
)
def test_a_message_with_such_a_date_is_kept_until_then(text: str, kept_until: str) -> None:
    assert last_day_said(text, date(2026, 11, 1)) == kept_until


@pytest.mark.parametrize(
    ("text", "asks_only_that"),
    [
        ("Hanbit 담당자 누구였지?", True),
        ("월세 얼마야?", True),
        ("歯医者はいつ？", True),
        ("我的医生是谁?", True),
        ("내 동생 리옹으로 이사간 거 알아?", False),  # "did you know my sister moved …"
        ("감수 영어로 뭐라고 하기로 했지? Hanbit glossary", False),
        ("우리 고양이 이름은 보리야", False),
        # A second adversary: a clause that tells before the question, a peanut allergy
        # among them, was held back with it.
        ("땅콩 알레르기 있는데 태국 음식 뭐 먹을 수 있어?", False),
        ("내 생일이 5월 3일인데 뭐 선물 받을까?", False),
        ("私はピーナッツアレルギーですが、何を食べられますか?", False),
        ("我对花生过敏，能吃什么?", False),
        ("12月18日に歯医者の予約があるけど何時だっけ?", False),
        ("ぶどうアレルギーなんだけど大丈夫?", False),
        ("住所?", True),
    ],
)
def test_a_plain_question_in_korean_is_held_back(text: str, asks_only_that: bool) -> None:
    assert asks_only(text) is asks_only_that


def test_a_short_korean_note_goes_not_on_with_the_one_before() -> None:
    rent = "집주인한테 월세 120만원 매달 25일에 보내"
    # "일" (day) in both is no word in common; three Korean words are a note of its own.
    assert not goes_on(rent, DENTIST)
    assert not goes_on(DENTIST, "비자 만료 2027년 1월 10일")
    assert not goes_on(DENTIST, "우리 고양이 이름은 보리야")
    assert goes_on(DENTIST, "그 치과 오후 4시로 바뀜")  # the dentist's again
    assert goes_on(DENTIST, "고마워")  # a word alone: an answer


def test_the_migration_reads_korean_and_cjk_dates_again() -> None:
    assert korean_and_cjk_dates_read(DENTIST) and korean_and_cjk_dates_read("12月18日")
    assert not korean_and_cjk_dates_read("dentist on 18 December")


async def _store(store: Memory) -> None:
    await store.store("dentist", DENTIST, "core")
    await store.store("rent", "월세는 매달 25일에 보내", "core")


async def _the_dentist_alone(store: Memory) -> bool:
    found = (await store.recall("what do I have on December 18?")).entries
    return [entry.key for entry in found] == ["dentist"]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the appointment: no day, and the old bigrams."""
    return [term for term in terms if not term.startswith("dt")] + ["치과", "미소", "소치"]


async def test_a_sqlite_store_indexed_before_finds_a_day_said_in_korean(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _store, "dentist", _older, "0034_korean_and_cjk_dates_read"
    ) as again:
        assert await _the_dentist_alone(again)


async def test_a_postgres_store_indexed_before_finds_a_day_said_in_korean(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "dentist", _older, KOREAN_AND_CJK_DATES_READ
    ) as again:
        assert await _the_dentist_alone(again)


def test_an_appointment_called_off_in_korean_is_called_off() -> None:
    """Found by a new user writing in Korean: "치과 예약 취소됐어. 12월 22일 오전 10시로 다시
    잡았어" (the dentist cancelled, booked again) left the 18 December booking current."""
    booked = "치과 예약 12월 18일 오후 3시 미소치과"
    assert cancels_it("치과 예약 취소됐어. 12월 22일 오전 10시로 다시 잡았어", booked)
    assert cancels_it("치과 취소했어", booked)
    assert not cancels_it("미용실 예약 취소됐어", booked)  # the hairdresser's
    assert not cancels_it("회의 취소됨", booked)  # a meeting


@pytest.mark.parametrize(
    "asked", ["12月18日の予定は?", "12月18日に何がある?", "12月18日有什么安排?", "12月18日(金)"]
)
def test_a_japanese_or_chinese_question_of_a_day_asks_for_the_day(asked: str) -> None:
    """Found by an adversary: each found nothing (0.14, below the floor), its question's
    words in no memory, and "12月18日(金)" brought another day's at 0.40."""
    terms = query_terms(asked)
    assert "dtmd1218" in terms and all(term.startswith("dt") for term in terms)
    assert "歯医" in query_terms("12月18日の歯医者")  # what is asked of it stays
