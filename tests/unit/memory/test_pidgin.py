"""Nigerian Pidgin read as English is (found by a new user, a nurse in Lagos).

"wetin" (what), "abeg" (please) and "na" (is) were terms that found unrelated messages;
"no be Tuesday o, na Thursday 14/1" and "harvest thanksgiving don move to Sunday 28 March"
were read as no correction and no move, so the old day was shown alone, and the correction
went at 30 days while the message it put right stayed.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.corrections import corrects_the_last, the_ones_corrected
from memory.entry import MemoryEntry
from memory.event_days import moves_it
from memory.lifecycle import plan_hygiene
from memory.settings import MemorySettings
from memory.text import analyze, query_terms
from tests.helpers.entries import one_chat

SAID = datetime(2027, 1, 4, 8, tzinfo=UTC)


def test_pidgin_function_words_are_no_terms() -> None:
    assert analyze("abeg wetin dey for March? i need plan") == ["march", "need", "plan"]
    assert analyze("gen fuel budget na ₦40,000") == ["gen", "fuel", "budget", "40000"]
    assert "abeg" not in query_terms("landlord number abeg")
    # One word of it alone is kept: "Dey" is a surname too.
    assert "dey" in analyze("Dey family reunion")


@pytest.mark.parametrize(
    "text",
    [
        "no be Tuesday o, na Thursday 14/1. same 4pm",
        "no be April again, na May now",
        "e no be Tuesday, na Thursday",
        "i mean Thursday",
    ],
)
def test_it_is_not_this_it_is_that_corrects_the_last(text: str) -> None:
    assert corrects_the_last(text)


@pytest.mark.parametrize("text", ["no be small thing o", "I mean, it is fine"])
def test_words_alike_correct_nothing(text: str) -> None:
    assert not corrects_the_last(text)


def test_an_event_that_don_move_moved() -> None:
    old = "church harvest thanksgiving na Sunday 21 March"
    assert moves_it("harvest thanksgiving don move to Sunday 28 March", old)
    assert moves_it("harvest thanksgiving don shift to Sunday 28 March", old)


def _said(*texts: str) -> list[MemoryEntry]:
    return one_chat(SAID, *texts, session_id="chat")


def test_the_pidgin_correction_stays_while_what_it_corrects_stays() -> None:
    said = _said(
        "my husband Emeka birthday na 3 March",
        "no be 3 March o, na 13 March",
        "ok",
    )
    assert the_ones_corrected(said)["m1"] == "m0"
    later = SAID + timedelta(days=80)  # past 30 days, and past the 13th of March
    gone = {d.entry.id for d in plan_hygiene(said, MemorySettings(), later)}
    assert "m0" not in gone and "m1" not in gone and "m2" in gone
