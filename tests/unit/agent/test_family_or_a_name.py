"""A name written as a word for one of the family, but for its accent, is someone else.

Found by an adversary: "Mae's birthday is 2 July" replaced "Mãe's birthday is 23 de abril"
(the user's mother's), and "Mae's phone is 913 000 111" her phone, the accent folded away.
"""

from __future__ import annotations

import pytest

from memory.fact_subjects import family_or_a_name
from tests.unit.agent.conftest import Harness


async def test_a_name_replaces_no_fact_of_the_family(harness: Harness) -> None:
    for fact in (
        "Mãe's birthday is 23 de abril",
        "Mãe's phone is 912 345 678",
        "Mae's birthday is 2 July",
        "Mae's phone is 913 000 111",
    ):
        await harness.turn(f"/remember {fact}")
    facts = await harness.memory.list(category="core", include_superseded=True)
    assert len(facts) == 4
    assert all(fact.superseded_by is None for fact in facts)


@pytest.mark.parametrize(
    ("new", "old", "apart"),
    [
        ("Mae's phone is 913 000 111", "Mãe's phone is 912 345 678", True),
        ("Mãe's phone is 912 345 678", "Mae's phone is 913 000 111", True),
        ("Mom's phone is 912 345 679", "Mãe's phone is 912 345 678", False),
        ("Mae's phone is 913 000 112", "Mae's phone is 913 000 111", False),
    ],
)
def test_family_or_a_name(new: str, old: str, apart: bool) -> None:
    assert family_or_a_name(new, old) == apart


async def test_one_of_the_family_by_any_word_holds_one_phone(harness: Harness) -> None:
    """Found by a third adversary: "Mom's", "Mum's", "Mother's" and "Mãe's phone is …" were
    four numbers in effect for one mother, and "Papá's" and "Dad's address" two homes."""
    for fact in (
        "Mãe's phone is 912 345 678",
        "Mae's phone is 913 000 111",
        "Mom's phone is 914 999 000",
        "Mum's phone is 914 888 777",
        "Mother's phone is 914 777 666",
        "Papá's address is Calle Mayor 3, Madrid",
        "Dad's address is 5 Elm Road, Leeds",
    ):
        await harness.turn(f"/remember {fact}")
    facts = await harness.memory.list(category="core")
    assert sorted(fact.content for fact in facts) == [
        "Dad's address is 5 Elm Road, Leeds",
        "Mae's phone is 913 000 111",
        "Mother's phone is 914 777 666",
    ]
