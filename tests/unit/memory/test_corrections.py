"""Corrections naming nothing, and how long retention keeps those of a fact."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.corrections import corrections_of_facts, corrects_the_last
from memory.entry import MemoryEntry

SAID = datetime(2027, 1, 10, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "corrects"),
    [
        # A third adversary: each was deleted at 30 days, the fact it put right kept.
        ("sorry, 19th not 18th", True),
        ("actually it's the 19th", True),
        ("make that the 19th", True),
        ("no wait, the 19th", True),
        ("actually, Thursday", True),
        ("actually I like it", False),
        ("sorry, I am late", False),
    ],
)
def test_a_correction_naming_nothing_is_read_as_one(text: str, corrects: bool) -> None:
    assert corrects_the_last(text) is corrects


def _said(key: str, content: str, minutes: int, **fields: object) -> MemoryEntry:
    at = SAID + timedelta(minutes=minutes)
    return MemoryEntry.model_validate(
        {
            "id": key,
            "key": key,
            "content": content,
            "category": "conversation",
            "session_id": "s1",
            "timestamp": at,
            "updated_at": at,
            **fields,
        }
    )


def test_each_correction_of_a_fact_in_a_row_is_kept_with_it() -> None:
    """Found by a third adversary: "no wait, the 19th", then "no wait, the 20th": the last
    word went at 30 days, and the one it put right stayed."""
    fact = _said("fact", "The concert is on 18.03 at 19:00", 0, category="core", session_id=None)
    entries = [
        fact,
        _said("asked", "remember the concert is on 18.03 at 19:00", 0, superseded_by="fact"),
        _said("first", "no wait, the 19th", 1),
        _said("second", "no wait, the 20th", 2),
        _said("other", "and book a taxi for 7", 3),
    ]
    assert corrections_of_facts(entries) == {"asked", "first", "second"}
