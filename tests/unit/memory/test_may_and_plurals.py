"""What migration 0033 reads anew: "may" after a day's number and before a verb, plurals
the stemmer left apart from their singular ("loaves").

Found by an adversary: "8 may be too many for the flat" was indexed as 8 May, so a question
about that day found it beside the day's plans (`memory.date_terms`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.date_terms import find_dates
from memory.postgres.schema import MAY_AND_PLURALS_READ
from memory.protocol import Memory
from memory.read_anew import may_and_plurals_read
from memory.text import analyze
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

TOO_MANY = "I think 8 may be too many people for the flat"
EIGHTH_OF_MAY = "dtmd0508"


@pytest.mark.parametrize(
    ("text", "a_day"),
    [
        (TOO_MANY, False),
        ("3 may not come on Saturday", False),
        ("the 2 of them may have to share", False),
        ("party on 8 May", True),
        ("dentist 8 may at 3pm", True),
        ("8 May is fine", True),
        ("8 may, 10am", True),
    ],
)
def test_may_as_a_verb_after_a_number_is_no_day(text: str, a_day: bool) -> None:
    assert bool(find_dates(text)[0]) is a_day


def test_a_plural_the_stemmer_left_apart_is_its_singular() -> None:
    """Found by a new user, a baker: "sesame allergy - which loaves?" found no "walnut loaf
    … contains sesame" ("loaves" was "loav")."""
    assert analyze("which loaves have sesame") == ["loaf", "sesam"]
    assert analyze("knives teeth") == analyze("knife tooth")
    # A later new user, a retired nurse: "goes" was "goe", found by no "go".
    assert analyze("Aoife goes to Scoil Mhuire")[1] == analyze("does Aoife go")[-1] == "go"
    assert may_and_plurals_read("Two loaves for the Corrib") and not may_and_plurals_read("loaf")


def test_the_migration_reads_every_may_after_a_day() -> None:
    assert may_and_plurals_read(TOO_MANY) and may_and_plurals_read("party on 8 May at noon")
    assert not may_and_plurals_read("party in May") and not may_and_plurals_read("May 8 party")


async def _store(store: Memory) -> None:
    await store.store("guests", TOO_MANY, "core")
    await store.store("party", "Party at the flat on 8 May", "core")


async def _the_party_alone(store: Memory) -> bool:
    found = (await store.recall("what's on 8 May?")).entries
    return [entry.key for entry in found] == ["party"]


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave "8 may be too many": the 8th of May."""
    return [*terms, EIGHTH_OF_MAY] if EIGHTH_OF_MAY not in terms else terms


async def test_a_sqlite_store_indexed_before_finds_no_day_in_may_as_a_verb(
    tmp_path: Path,
) -> None:
    async with sqlite_as_before(
        tmp_path, _store, "guests", _older, "0033_may_and_plurals_read"
    ) as again:
        assert await _the_party_alone(again)


async def test_a_postgres_store_indexed_before_finds_no_day_in_may_as_a_verb(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "guests", _older, MAY_AND_PLURALS_READ
    ) as again:
        assert await _the_party_alone(again)
