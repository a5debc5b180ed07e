"""A saved message is read against the few facts nearest it, not every fact (`LastWords`).

Found by an adversary: with a word held by hundreds of facts ("note"), hygiene read every
expired message against every fact: 3 minutes at 2,000 memories, unfinished after 16 at
20,000.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory import last_word
from memory.entry import MemoryEntry
from memory.last_word import LastWords

SAID = datetime(2026, 11, 1, 9, tzinfo=UTC)


def _entry(at: int, content: str, category: str) -> MemoryEntry:
    return MemoryEntry(
        id=f"e{at}",
        key=f"e{at}",
        content=content,
        category=category,
        timestamp=SAID + timedelta(minutes=at),
        updated_at=SAID + timedelta(minutes=at),
    )


def test_a_message_is_read_against_few_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    facts = [_entry(n, f"Invoice {n} for the garden note is 40 euro", "core") for n in range(300)]
    facts.append(_entry(300, "My gym locker is number 42", "core"))
    read: list[str] = []

    def counted(message: str, fact: str) -> bool:
        read.append(fact)
        return fact == "My gym locker is number 42"

    monkeypatch.setattr(last_word, "ends_or_replaces", counted)
    words = LastWords(facts)
    assert words.keeps(_entry(400, "my gym locker note: it's 24 now", "conversation"))
    assert len(read) <= 8
    read.clear()
    assert not words.keeps(_entry(401, "a short note on the garden", "conversation"))
    assert 0 < len(read) <= 8
