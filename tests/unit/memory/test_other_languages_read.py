"""What migration 0028 reads anew: a medicine stopped in Italian, or named in its Italian
or Spanish form; a day and month in another language.

Found by a translator's chat: "Non prendo più l'omeprazolo" left "I take 20mg of omeprazole"
in effect, and neither "what medication am I on?" nor "omeprazole" found the stop; "what's
on december 20?" did not find "cena con Marc el 20 de diciembre".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.health_values import DOSE_WORDINGS
from memory.postgres.schema import OTHER_LANGUAGES_READ
from memory.protocol import Memory
from memory.read_anew import other_languages_read
from memory.text import analyze, entry_terms, query_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

STOP = "Non prendo più l'omeprazolo"
ASKED = "what medication am I on?"


def test_an_italian_stop_is_found_by_a_medicine_word_and_the_english_name() -> None:
    for said in (STOP, "Ho smesso di prendere l'omeprazolo", "Ho sospeso la metformina"):
        assert "medic" in entry_terms("s", said) and other_languages_read(said)
    assert "omeprazol" in entry_terms("s", "Prendo 20mg di omeprazolo ogni mattina")
    assert "metformin" in entry_terms("s", "Tomo 850 mg de metformina")
    assert not other_languages_read("Non prendo più il treno")
    assert not other_languages_read("Tomo un café con leche")


async def _store(store: Memory) -> None:
    await store.store("stop", STOP, "core")
    await store.store("cat", "My cat is called Tom", "core")


async def _stop_found(store: Memory) -> bool:
    return "stop" in [entry.key for entry in (await store.recall(ASKED)).entries]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the stop: none of the words a dose is asked with."""
    wordings = {*analyze(DOSE_WORDINGS), "omeprazol"} - set(analyze(STOP))
    assert wordings & set(terms)
    return [term for term in terms if term not in wordings]


async def test_a_sqlite_store_indexed_before_finds_the_stop(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _store, "stop", _older, "0028_other_languages_read"
    ) as again:
        assert await _stop_found(again)


async def test_a_postgres_store_indexed_before_finds_the_stop(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "stop", _older, OTHER_LANGUAGES_READ
    ) as again:
        assert await _stop_found(again)


DINNER = "cena con Marc el 20 de diciembre"


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        (DINNER, "what's on december 20?"),
        ("Termin am 14. Januar", "what do I have on 14 January"),
        ("Tula tiene el veterinario el 15 de enero de 2027", "vet 15/1/2027"),
        ("dentista il 15 gennaio", "anything on jan 15"),
        ("rendez-vous le 3 février", "what's on 3 Feb?"),
        ("cita el 12 de mayo", "what's on 12 may"),
        # A seventh adversary: a French short month, and the days inside a range.
        ("Rapport 3 mars à rendre", "what's on March 3?"),
        ("del 20 al 23 de diciembre estaremos en Sevilla", "December 22"),
        ("Urlaub vom 27. Dezember bis 4. Januar", "January 2"),
    ],
)
def test_a_day_in_another_language_is_found_by_the_day(said: str, asked: str) -> None:
    assert other_languages_read(said)
    day_terms = {term for term in entry_terms("s", said) if term.startswith("dtmd")}
    asked_days = {term for term in query_terms(asked) if term.startswith("dtmd")}
    assert asked_days and asked_days <= day_terms


@pytest.mark.parametrize(
    "said",
    [
        "I saw Mars 3 times",
        "2 mayo sandwiches please",
        "3 days ago",
        "Marco 12 is here",
        "3 Mars bars",
    ],
)
def test_words_that_only_look_like_a_month_name_no_day(said: str) -> None:
    assert not [term for term in entry_terms("s", said) if term.startswith("dtmd")]
    assert not other_languages_read(said)


async def _store_dinner(store: Memory) -> None:
    await store.store("dinner", DINNER, "core")
    await store.store("cat", "My cat is called Tom", "core")


def _no_day(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the dinner: no day."""
    assert any(term.startswith("dt") for term in terms)
    return [term for term in terms if not term.startswith("dt")]


async def test_a_sqlite_store_indexed_before_finds_the_day(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _store_dinner, "dinner", _no_day, "0028_other_languages_read"
    ) as again:
        found = await again.recall("what's on december 20?")
        assert "dinner" in [entry.key for entry in found.entries]


@pytest.mark.parametrize(
    ("said", "weekday"),
    [
        ("gestoría el martes a las 9:30", "tuesday"),
        ("Termin am Freitag um 10", "friday"),
        ("rendez-vous jeudi 14h", "thursday"),
        ("il sabato mattina", "saturday"),
        ("cita el miércoles", "wednesday"),
        ("Zahnarzt am Freitag um 10", "friday"),
    ],
)
def test_a_weekday_in_another_language_is_found_by_its_english_name(
    said: str, weekday: str
) -> None:
    """Found by a new user, a translator: "qué tengo el jueves?" found nothing of Thursday."""
    assert other_languages_read(said)
    assert weekday in entry_terms("s", said)
    assert weekday in query_terms(said)


@pytest.mark.parametrize("said", ["Plácido Domingo canta", "las lunes de Júpiter", "mercado"])
def test_a_name_or_a_word_like_a_weekday_is_no_weekday(said: str) -> None:
    terms = entry_terms("s", said)
    assert not {"sunday", "monday", "wednesday"} & set(terms)


def test_a_weekday_after_its_preposition_is_a_day_said() -> None:
    """Found by an adversary: "Zahnarzt am Freitag um 10" scored 0.24 for "what's on
    Friday?", where "Dentist on Friday at 10" scored 1.00: "am" is "on", "jeden" "every"."""
    from datetime import UTC, datetime

    said = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    german = {t for t in entry_terms("s", "Zahnarzt am Freitag um 10", said) if t.startswith("dt")}
    english = {t for t in entry_terms("s", "Dentist on Friday at 10", said) if t.startswith("dt")}
    assert german and german == english
    weekly = {t for t in entry_terms("s", "jeden Montag Yoga") if t.startswith("dtwd")}
    assert weekly == {"dtwd1"}
