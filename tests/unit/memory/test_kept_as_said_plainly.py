"""What a new user in Wales and an adversary saw deleted at 30 days that holds for longer,
and the small talk a new user saw kept for 30 days.
"""

from __future__ import annotations

from datetime import date

import pytest

from agent.autosave import should_autosave
from memory.days_to_keep import last_day_said
from memory.more_days import kept_for_years

SAID = date(2027, 3, 1)


@pytest.mark.parametrize(
    "text",
    [
        "My GP is Dr Pritchard at the Padarn Surgery.",
        "my gp is dr pritchard",
        "The chemist is Boots on Terrace Road, they deliver on a Friday.",
        "My dentist is Sarah Jones in Aber",
        "Rhys's pen-blwydd is the 2nd of August.",
        "Megan's pen-blwydd yw 3 Fehefin",
        "sinh nhật con tôi 12/5",
        "I was born on 3/4/1990",
    ],
)
def test_kept_for_years(text: str) -> None:
    assert kept_for_years(text, SAID)


@pytest.mark.parametrize(
    "text",
    ["my doctor is away this week", "the chemist is closed today", "where was I born?"],
)
def test_not_kept_for_years(text: str) -> None:
    assert not kept_for_years(text, SAID)


@pytest.mark.parametrize(
    "text",
    [
        "I pay the gardener £40 every fortnight",
        "once a month I call grandma",
        "water bill quarterly, £120",
    ],
)
def test_what_comes_again_is_kept_a_year(text: str) -> None:
    kept = last_day_said(text, SAID)
    assert kept is not None
    assert kept >= "20280101"


@pytest.mark.parametrize(
    ("text", "saved"),
    [
        ("Thank you very much!", False),
        ("Good night!", False),
        ("Nos da!", False),
        ("Diolch yn fawr iawn!", False),
        ("Diolch yn fawr, you are very kind.", False),
        ("Bore da!", False),
        ("night shift tonight", True),
        ("very kind of Megan to visit", True),
        ("Mae Megan yn dod dydd Sadwrn", True),
    ],
)
def test_small_talk_is_not_saved(text: str, saved: bool) -> None:
    assert should_autosave(text, 2) is saved
