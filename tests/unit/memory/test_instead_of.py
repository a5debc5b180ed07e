"""Someone said to do what another did: "Aoife now does Saturdays instead of Ciarán".

Found by a new user, a baker: Ciarán's Saturday shift stayed in effect, unmarked, after
she said Aoife had taken it, in chat and as a fact.
"""

from __future__ import annotations

import pytest

from memory.instead_of import takes_the_place_of

SHIFT = "Ciarán works the Saturday shift, 6am to 2pm"


@pytest.mark.parametrize(
    "new",
    [
        "Aoife now does Saturdays instead of Ciarán",
        "Aoife now works the Saturday shift instead of Ciarán, 6am to 2pm",
        "Aoife took over from Ciaran on the Saturday shift",
        "Saturday shift: Aoife, in place of Ciarán",
    ],
)
def test_one_named_instead_of_another_takes_their_place(new: str) -> None:
    assert takes_the_place_of(new, SHIFT)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        # Another of their facts: nothing shared beyond the names.
        ("Aoife covers the till instead of Ciarán", SHIFT),
        ("Aoife now does Saturdays instead of Ciarán", "Ciarán's phone is 087 555 1234"),
        # Someone else replaced, or the fact not about who is replaced.
        ("Aoife now does Saturdays instead of Niamh", SHIFT),
        ("Aoife now does Saturdays instead of Ciarán", "The Saturday market opens at 9"),
        # Said of another, not instead of them.
        ("I'm seeing Tom not Ciarán on Saturday", SHIFT),
        ("Aoife works Saturdays", SHIFT),
        # A later adversary: "works" alone is no task shared.
        ("Aoife now works Saturdays instead of Ciarán", "Ciarán works at the bakery"),
        # A later adversary: what Ciarán does no more is not what he holds now.
        (
            "Aoife now does Saturdays instead of Ciarán",
            "Ciarán now works Mondays instead of Saturdays",
        ),
        ("Ciarán now works Mondays instead of Saturdays", "Ciarán works at the bakery"),
        ("Ciarán now works Mondays instead of Saturdays", "Aoife works Saturdays"),
    ],
)
def test_nothing_else_is_taken(new: str, old: str) -> None:
    assert not takes_the_place_of(new, old)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Ciarán now works Mondays instead of Saturdays", "Ciarán works Saturdays"),
        ("Ciarán does the till now instead of the ovens", "Ciarán does the ovens, 6am to 2pm"),
    ],
)
def test_another_thing_done_instead_takes_its_place(new: str, old: str) -> None:
    """Found by an adversary: "Ciarán now works Mondays instead of Saturdays" replaced
    nothing, and "which days does Ciarán work?" gave Saturdays first."""
    assert takes_the_place_of(new, old)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Sam now works Mondays", "Sam works Saturdays"),
        ("Sam now works Monday to Friday", "Sam works Saturdays and Sundays"),
        ("Sam now works Mondays", "Sam works Saturdays at the bakery"),
        ("The nanny now comes on Tuesdays", "The nanny comes on Mondays and Thursdays"),
        ("my Portuguese class is now on Thursdays", "my Portuguese class is on Tuesdays"),
        ("On-call now moves to Thursdays", "On-call is on Tuesdays at 9"),
        # A new user, an engineer: moved, with no "now", of "my" class.
        (
            "Portuguese class moved to Wednesdays at 19:00",
            "My Portuguese class is on Mondays at 19:00",
        ),
    ],
)
def test_other_days_said_now_take_the_place_of_the_old(new: str, old: str) -> None:
    """Found by an adversary: "Sam now works Mondays" left "Sam works Saturdays" in effect,
    recalled first for "which days does Sam work?"."""
    assert takes_the_place_of(new, old)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        # A day added, not another.
        ("Sam now also works Mondays", "Sam works Saturdays"),
        ("Sam now works Mondays too", "Sam works Saturdays"),
        ("Sam now works Mondays and Saturdays", "Sam works Saturdays"),
        # Another person, another thing done, or no day said before.
        ("Sam now works Mondays", "Tom works Saturdays"),
        ("Sam now works Mondays", "Sam plays football on Saturdays"),
        ("Sam now works Mondays", "Sam works at the bakery"),
        ("Sam now goes to the gym on Mondays", "Sam goes swimming on Saturdays"),
        ("Sam is now on holiday till Monday", "Sam works Saturdays"),
        ("my class is now on Thursdays", "my dentist is on Tuesdays"),
        ("the gym class moved to Friday", "My Portuguese class is on Mondays"),
        ("Sam moved to Berlin on Monday", "Sam works Saturdays"),
    ],
)
def test_a_day_added_or_another_thing_done_takes_nothing(new: str, old: str) -> None:
    assert not takes_the_place_of(new, old)
