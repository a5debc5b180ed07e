"""A move said with a new address, or in other words, is where the user lives now (0039, 0041).

Found by a new user, a nurse in Melbourne: after "I live at 27 Ballarat Rd, Footscray …",
"We moved house yesterday! New address is 14 Wattle Ave, Sunshine North VIC 3020" was not
found by "where do I live?", and the old address was recalled alone, unmarked.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.fact_values import new_value
from memory.postgres.schema import (
    MOVES_SAID_OTHERWISE_READ,
    NEW_ADDRESSES_READ,
    STREETS_IN_LOWER_CASE_READ,
)
from memory.read_anew import (
    moves_said_otherwise_read,
    new_addresses_read,
    streets_in_lower_case_read,
)
from memory.stated_values import changed_topics, stated_values
from tests.helpers.older_index import DatedMessage, postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

SAID = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)
OLD_HOME = "I live at 27 Ballarat Rd, Footscray VIC 3011. My phone number is 0433 218 905."


@pytest.mark.parametrize(
    ("later", "changed"),
    [
        ("We moved house yesterday! New address is 14 Wattle Ave, Sunshine North VIC 3020", True),
        ("our new address: 14 Wattle Ave, Sunshine North", True),
        ("I live at 14 Wattle Ave, Sunshine North VIC 3020", True),
        ("and my new phone number is 0455 902 317 (the old Optus one is cancelled)", True),
        # The same home in fewer or other words, or someone else's.
        ("I live in Footscray", False),
        ("my address is 27 Ballarat Rd Footscray", False),
        ("Tom's new address is 14 Wattle Ave", False),
        ("the clinic has a new address: 14 Wattle Ave", False),
        ("Phone: 0455 902 317 (dentist)", False),
    ],
)
def test_a_new_address_or_number_changes_the_old_one(later: str, changed: bool) -> None:
    assert bool(changed_topics(stated_values(OLD_HOME), stated_values(later))) is changed


MESSAGE = DatedMessage(
    "moved",
    "We moved house yesterday! New address is 14 Wattle Ave, Sunshine North VIC 3020",
    SAID,
    "where do I live?",
)


def test_the_migration_reads_these_again() -> None:
    assert new_addresses_read(MESSAGE.content)
    assert new_addresses_read("New address: 14 Wattle Ave")
    assert not new_addresses_read("the clinic has a new address: 14 Wattle Ave")


MOVED_INTO = DatedMessage("moved", "We just moved into 4 Elm Road, Leeds", SAID, "where do I live?")
"""A move said in other words (0041): found by a third adversary, it replaced no home."""
IN_LOWER_CASE = DatedMessage("home", "I live at 4521 rue Fabre, Montréal", SAID, "where do I live?")
"""A street whose kind is in lower case (0042): found by a new user, a translator in
Montréal, it named no home."""
READ_AGAIN = [
    (MESSAGE, "0039_new_addresses_read", NEW_ADDRESSES_READ),
    (MOVED_INTO, "0041_moves_said_otherwise_read", MOVES_SAID_OTHERWISE_READ),
    (IN_LOWER_CASE, "0042_streets_in_lower_case_read", STREETS_IN_LOWER_CASE_READ),
]


def _without_home_words(terms: list[str]) -> list[str]:
    """The terms an older memchat gave such a message: its words, no home's wordings."""
    return [t for t in terms if t not in {"live", "resid", "reloc", "base", "home", "address"}]


@pytest.mark.parametrize(("message", "migration", "step"), READ_AGAIN)
async def test_a_sqlite_store_indexed_before_finds_it_by_where_i_live(
    tmp_path: Path, message: DatedMessage, migration: str, step: str
) -> None:
    async with sqlite_as_before(
        tmp_path, message.fill, message.key, _without_home_words, migration
    ) as again:
        assert await message.found_alone(again)


@pytest.mark.parametrize(("message", "migration", "step"), READ_AGAIN)
async def test_a_postgres_store_indexed_before_finds_it_by_where_i_live(
    postgres_url: str, tmp_path: Path, message: DatedMessage, migration: str, step: str
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, message.fill, message.key, _without_home_words, step
    ) as again:
        assert await message.found_alone(again)


def test_a_street_in_lower_case_is_read_again() -> None:
    assert streets_in_lower_case_read(IN_LOWER_CASE.content)
    assert streets_in_lower_case_read("Martin's email is per@club.no")
    assert not streets_in_lower_case_read("I live at 12 Oak Street, Bristol")


@pytest.mark.parametrize(
    "moved",
    [
        "I moved to 4521 rue Fabre, Montréal",
        # An adversary and a new user, a translator: the same said in French or German.
        "On a déménagé, nouvelle adresse : 14 rue des Lilas, Lyon",
        "On a déménagé! Nouvelle adresse: 4521 rue Fabre, app. 3, Montréal",
        "On a déménagé au 4521 rue Fabre, Montréal",
        "J'habite maintenant au 4521 rue Fabre, Montréal",
        "Wir sind umgezogen, neue Adresse: Lindenstraße 8, Berlin",
        "Wir sind umgezogen, wir wohnen jetzt in der Lindenstraße 8, Berlin",
        "Nos mudamos, nueva dirección: Calle Mayor 5, Madrid",
        # A second adversary: to a city, or in Portuguese.
        "Je viens de déménager à Québec",
        "Je me suis installé à Québec",
        "Mudámos de casa, a nova morada é Rua Augusta 20, Lisboa",
        "A nossa nova morada é Rua Augusta 20, Lisboa",
    ],
)
def test_a_move_in_lower_case_or_another_language_gives_the_new_home(moved: str) -> None:
    assert new_value(moved, "I live at 12 Oak Street, Bristol")


@pytest.mark.parametrize(
    "said",
    [
        "Grosse nouvelle: on déménage le 1er juillet! Nouvelle adresse: 4521 rue Fabre",
        "La clinique a déménagé, nouvelle adresse: 5 rue Saint-Denis",
        "j'habite au 3e étage",
        "Wir ziehen im Juli um, neue Adresse: Lindenstraße 8, Berlin",
    ],
)
def test_a_move_to_come_or_of_another_gives_no_new_home(said: str) -> None:
    assert not new_value(said, "I live at 12 Oak Street, Bristol")


@pytest.mark.parametrize(
    ("moved", "replaces"),
    [
        ("We moved house, new address is 4 Elm Road, Leeds", True),
        ("Moved house last week, new address: 4 Elm Road, Leeds", True),
        ("Finally moved! We're now at 4 Elm Road, Leeds", True),
        ("We've moved house, we now live at 4 Elm Road, Leeds", True),
        ("We just moved into 4 Elm Road, Leeds", True),
        # Not the user's home.
        ("We moved the office, new address is 100 Collins St", False),
        ("We just moved into a bigger room at work", False),
    ],
)
def test_a_move_said_otherwise_gives_the_new_home(moved: str, replaces: bool) -> None:
    assert new_value(moved, "I live at 12 Oak Street, Bristol") is replaces
    assert moves_said_otherwise_read(moved) is replaces
