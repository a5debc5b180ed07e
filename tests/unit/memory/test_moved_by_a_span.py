"""An event moved by a span of time is kept to its new day (`memory.moved_by_a_span`).

Found by an adversary: "Dentist on 20/3 at 10am", then "dentist pushed back six weeks";
both went at 30 days, on 2 April, and the appointment, now at the start of May, was
forgotten before it came.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.entry import MemoryEntry
from memory.lifecycle import plan_hygiene
from memory.moved_by_a_span import moved_by_a_span
from memory.settings import MemorySettings
from tests.helpers.entries import one_chat

SAID = datetime(2027, 3, 1, 9, tzinfo=UTC)


def _chat(*texts: str) -> list[MemoryEntry]:
    return one_chat(SAID, *texts, session_id="chat")


def _gone(entries: list[MemoryEntry], on: datetime) -> list[str]:
    return [d.entry.content for d in plan_hygiene(entries, MemorySettings(), on)]


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("dentist pushed back six weeks", 42),
        ("the vet postponed it by 2 weeks", 14),
        ("physio moved a week later", 7),
        ("dentist moved forward by 3 days", -3),
        ("meeting delayed a couple of days", 2),
        ("I moved to Leeds two weeks ago", None),
        ("we moved two weeks ago", None),
        ("pushed the car back six feet", None),
    ],
)
def test_how_far_a_move_says(text: str, days: int | None) -> None:
    moved = moved_by_a_span(text)
    assert (None if moved is None else moved.days) == days


def test_the_move_and_what_it_moves_stay_until_the_new_day() -> None:
    chat = _chat("Dentist on 20/3 at 10am", "dentist pushed back six weeks", "ok thanks")
    assert _gone(chat, datetime(2027, 4, 2, 9, tzinfo=UTC)) == ["ok thanks"]
    assert len(_gone(chat, datetime(2027, 5, 5, 9, tzinfo=UTC))) == 3  # the 1st of May has come


def test_a_move_sharing_no_word_moves_nothing() -> None:
    chat = _chat("Flight to Oslo on 20/3", "dentist pushed back six weeks")
    assert len(_gone(chat, datetime(2027, 4, 2, 9, tzinfo=UTC))) == 2
