"""Words typed short ("tmrw", "thurs", "appt") read as the words they stand for; a weekday
with its day of the month ("Friday the 18th") is that day alone."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.postgres.schema import SHORT_WORDS_READ
from memory.protocol import Memory
from memory.relative_dates import named_days
from memory.short_words import written_out
from memory.sqlite.store import SqliteMemory
from memory.text import analyze
from memory.write_rules import NewMemory
from tests.helpers.older_index import keyword_only, postgres_as_before
from tests.helpers.postgres import postgres_url
from tests.unit.memory.conftest import as_before

__all__ = ["postgres_url"]

SAID = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)  # a Saturday; noon keeps every zone's date
DENTIST = "Maya has dentist tmrw at 10am"


def test_every_short_word_passes_the_quick_test() -> None:
    from memory.short_words import SHORT_WORDS

    for word in SHORT_WORDS:
        assert written_out(f"see you {word}!") == f"see you {SHORT_WORDS[word]}!", word


def test_short_words_are_the_words_they_stand_for() -> None:
    assert written_out("dentist TMRW, swim on sat, appt next fri.") == (
        "dentist tomorrow, swim on saturday, appointment next friday"
    )
    # Three letters of a weekday alone are other words.
    assert written_out("I sat in the sun, we wed in May") == "I sat in the sun, we wed in May"
    # Alone before a clock time (an adversary: "dentist fri 9am" was no Friday).
    assert written_out("dentist fri 9am, gym Sat at 10:30am") == (
        "dentist friday 9am, gym saturday at 10:30am"
    )
    assert written_out("I sat 2 hours") == "I sat 2 hours"
    # Nor before a noun (an adversary): "by sat phone", "on sun loungers".
    for said in ("Call me by sat phone", "I lay on sun loungers all week"):
        assert written_out(said) == said
    assert analyze("leo's dr appt thurs") == analyze("leo's dr appointment thursday")
    # Found by a new user and an adversary: each read as nothing, or as two days.
    days = {n.words: n.spans[0][0].isoformat() for n in named_days(DENTIST, SAID)}
    assert days == {"tomorrow": "2026-12-06"}
    party = named_days("Party on Friday the 18th", SAID)
    assert [(n.words, n.spans) for n in party] == [
        ("Friday the 18th", ((party[0].spans[0][0],) * 2,))
    ] and party[0].spans[0][0].isoformat() == "2026-12-18"


def test_a_redaction_marker_is_no_word() -> None:
    """Found by an adversary: "pin" of "[REDACTED:pin]" made a message about a PIN a
    follow-up of one about a birthplace, and "secret santa" found a redacted password."""
    assert analyze("My SIM PIN is [REDACTED:pin], wifi [REDACTED:card-number]") == analyze(
        "My SIM PIN is, wifi"
    )


async def _store(store: Memory) -> None:
    await store.write(
        NewMemory(
            key="router", content="Router note: [REDACTED:secret] by the door", created_at=SAID
        )
    )
    await store.write(NewMemory(key="dentist", content=DENTIST, created_at=SAID))
    await store.write(NewMemory(key="party", content="Party on Friday the 18th", created_at=SAID))
    await store.write(NewMemory(key="tea", content="I like green tea", created_at=SAID))


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave them: no day from "tmrw"; the 11th for "on Friday"."""
    return [t for t in terms if not t.startswith("dt") and t != "tomorrow"] + ["dtd20261211"]


async def test_a_sqlite_store_indexed_before_reads_them_anew(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    store = await SqliteMemory.open(path, keyword_only())
    await _store(store)
    found = await store.recall("06.12.2026")
    assert [e.key for e in found.entries][:1] == ["dentist"]
    coming_friday = await store.recall("what is on 11.12.2026?")
    assert "party" not in [e.key for e in coming_friday.entries]
    await store.close()
    with as_before(path, "0022_short_words_read") as conn:
        (terms,) = conn.execute("SELECT terms FROM memories WHERE key = 'router'").fetchone()
        conn.execute("UPDATE memories SET terms = ? WHERE key = 'router'", (terms + " santa",))
        for key in ("dentist", "party"):
            (terms,) = conn.execute("SELECT terms FROM memories WHERE key = ?", (key,)).fetchone()
            older = " ".join(_older(terms.split()))
            conn.execute("UPDATE memories SET terms = ? WHERE key = ?", (older, key))
    store = await SqliteMemory.open(path, keyword_only())
    try:
        found = await store.recall("06.12.2026")
        assert [e.key for e in found.entries][:1] == ["dentist"]
        coming_friday = await store.recall("what is on 11.12.2026?")
        assert "party" not in [e.key for e in coming_friday.entries]
        santa = await store.recall("santa")
        assert "router" not in [e.key for e in santa.entries]
    finally:
        await store.close()


async def test_a_postgres_store_indexed_before_reads_them_anew(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "dentist", _older, SHORT_WORDS_READ
    ) as again:
        found = await again.recall("06.12.2026")
        assert [e.key for e in found.entries][:1] == ["dentist"]
