"""Which clauses ask from their first word, and which muse on a change."""

from __future__ import annotations

import pytest

from memory.asked_first import asked_first, hedged, told_before_asking


@pytest.mark.parametrize(
    "clause",
    [
        "should mom take Concor 5mg?",
        "should mom take Concor 5mg instead",
        "Does Sam take 5mg now",
        "is my dose 20mg now",
        "what dose is mom on",
        "mom takes 5mg now?",
        "and can dad take ibuprofen with it",
    ],
)
def test_asks(clause: str) -> None:
    assert asked_first(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "mom's concor went up to 20mg, can you remind her tomorrow?",
        "can you note that mom's Concor is 5mg now",
        "Will takes metformin 500mg",
        "May is when her dose went up",
        "my dose is 20mg now",
        "Had the GP raise my dose to 20mg today",
    ],
)
def test_tells(clause: str) -> None:
    assert not asked_first(clause)


def test_the_told_part_ends_where_the_asking_starts() -> None:
    said = "dose of concor for mom went up to 20mg, can you remind her tomorrow?"
    assert told_before_asking(said) == "dose of concor for mom went up to 20mg"
    assert told_before_asking("my dose is 20mg, from today") == "my dose is 20mg, from today"


@pytest.mark.parametrize(
    ("text", "mused"),
    [
        ("maybe mom should take Concor 5mg instead", True),
        ("thinking of switching to the 5mg", True),
        ("not sure if the dose went up", True),
        ("mom's concor went up to 20mg, maybe because of her BP", False),
        ("the dose went up to 20mg", False),
        ("considering my dose went up to 20mg, I feel fine", False),
        ("I was thinking about it and my rent is now 950", False),
        ("thinking mom should switch to Concor 5mg", True),
    ],
)
def test_hedged(text: str, mused: bool) -> None:
    assert hedged(text) is mused
