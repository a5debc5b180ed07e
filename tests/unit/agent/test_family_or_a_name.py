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
