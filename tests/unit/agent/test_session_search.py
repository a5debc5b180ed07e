"""Searching past chats: every word, any case, newest chat first, edits left out."""

from __future__ import annotations

import os
from pathlib import Path

from agent.messages import ChatMessage
from agent.session_search import search_sessions
from agent.sessions import SessionStore
from tests.helpers.hostile import HOSTILE_TEXTS


def _message(role: str, content: str) -> ChatMessage:
    return ChatMessage(role=role, content=content)  # type: ignore[arg-type]


def test_every_word_any_case_newest_chat_first(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    old, new = store.new(), store.new()
    store.append(
        old, [_message("user", "The plumber comes on FRIDAY"), _message("assistant", "Ok")]
    )
    store.append(
        new,
        [
            _message("user", "Is the plumber still coming friday?"),
            _message("tool", "plumber friday"),
            _message("assistant", "Yes, the plumber comes Friday at nine."),
            _message("user", "plumber only"),
        ],
    )
    os.utime(tmp_path / f"{old.id}.jsonl", (1_000_000_000, 1_000_000_000))
    hits = search_sessions(store, "friday Plumber")
    assert [(h.session_id, h.index, h.role) for h in hits] == [
        (new.id, 0, "user"),
        (new.id, 2, "assistant"),
        (old.id, 0, "user"),
    ]
    assert hits[0].title == "Is the plumber still coming friday?"
    assert search_sessions(store, "   ") == []
    assert len(search_sessions(store, "plumber", limit=2)) == 2


def test_a_snippet_is_one_line_around_the_match(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    text = "word " * 60 + "needle\nin a\nhaystack " + "tail " * 60
    store.append(session, [_message("user", text)])
    [hit] = search_sessions(store, "needle")
    assert "needle in a haystack" in hit.snippet and "\n" not in hit.snippet
    assert hit.snippet.startswith("…") and hit.snippet.endswith("…")


def test_a_snippet_shows_the_match_after_letters_that_fold_longer(tmp_path: Path) -> None:
    # "İ" folds to two characters: positions in the folded text run ahead of the message.
    store = SessionStore(tmp_path)
    session = store.new()
    for count in (24, 60):
        store.append(session, [_message("user", "İ" * count + " needleword yarın")])
    hits = search_sessions(store, "NEEDLEWORD")
    assert len(hits) == 2 and all("needleword yarın" in hit.snippet for hit in hits)


def test_words_are_found_with_or_without_their_accents(tmp_path: Path) -> None:
    """Found by an adversary: "sao paulo" missed "São Paulo" (and "são" missed "Sao")."""
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(
        session,
        [
            _message("user", "We land in São Paulo on Friday, " + "then " * 40 + "Łódź"),
            _message("assistant", "Sao Paulo it is."),
        ],
    )
    assert [h.index for h in search_sessions(store, "sao paulo")] == [0, 1]
    assert [h.index for h in search_sessions(store, "SÃO")] == [0, 1]
    [far] = search_sessions(store, "lodz")
    assert far.snippet.endswith("Łódź") and far.snippet.startswith("…")


def test_arabic_is_found_without_its_marks_and_its_digits_as_0_to_9(tmp_path: Path) -> None:
    """Found by a new user, a pharmacist in Cairo: "مهم" missed "مُهِمّ", "إبن" missed
    "ابن سينا", and "1200" missed "١٢٠٠ جنيه"."""
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(
        session,
        [
            _message("user", "شُكْرًا، مُهِمّ جدا: الرخصة لازم تتجدد قبل ١٠/٣"),
            _message("user", "طلبية المورد النهاردة ١٢٠٠ جنيه من شركة ابن سينا"),
        ],
    )
    assert [h.index for h in search_sessions(store, "مهم")] == [0]
    assert [h.index for h in search_sessions(store, "شكرا")] == [0]
    assert [h.index for h in search_sessions(store, "إبن")] == [1]
    [order] = search_sessions(store, "1200")
    assert "١٢٠٠" in order.snippet


def test_a_number_is_found_whole(tmp_path: Path) -> None:
    """Found by a new user: "walked 3 km" found the notes of days 13, 23 and 30 to 39."""
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(
        session, [_message("user", f"Day {n} note: walked {n + 100} m") for n in range(1, 40)]
    )
    hits = search_sessions(store, "day 3 walked")
    assert [h.snippet for h in hits] == ["Day 3 note: walked 103 m"]
    store.append(session, [_message("user", "3.5 kg of luggage, 1,250 euros")])
    assert search_sessions(store, "5 luggage") == []
    assert len(search_sessions(store, "3.5 luggage")) == 1
    assert len(search_sessions(store, "3,5 luggage")) == 1  # either mark (a new user)
    assert len(search_sessions(store, "1.250 euros")) == 1


def test_a_word_is_found_at_a_words_start(tmp_path: Path) -> None:
    """Found by a new user, a parent: "ROM" (the museum) found every "from"."""
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(
        session,
        [
            _message("user", "Dev is in Calgary from December 9"),
            _message("user", "The ROM trip is on Thursday"),
            _message("user", "the plumber walked in"),
            _message("user", "우리 고양이는 보리"),
        ],
    )
    assert [h.snippet for h in search_sessions(store, "rom")] == ["The ROM trip is on Thursday"]
    assert len(search_sessions(store, "walk")) == 1  # a word's start: its other forms too
    assert len(search_sessions(store, "고양이")) == 1  # written without spaces: anywhere
    store.append(session, [_message("user", "ฉันไปกรุงเทพ")])
    assert len(search_sessions(store, "กรุงเทพ")) == 1  # Thai, too (an adversary)


def test_messages_an_edit_replaced_are_not_found(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [_message("user", "I live in Porto"), _message("assistant", "Nice")])
    store.rewind(session, 0)
    store.append(session, [_message("user", "I live in Lisbon")])
    assert search_sessions(store, "Porto") == []
    assert [h.index for h in search_sessions(store, "Lisbon")] == [0]


def test_hostile_text_is_searched_without_errors(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [_message("user", text) for text in HOSTILE_TEXTS if text.strip()])
    for text in HOSTILE_TEXTS:
        for hit in search_sessions(store, text):
            assert all(
                t in session.messages[hit.index].content.casefold() for t in text.casefold().split()
            )


def test_a_password_is_in_no_title_or_hit(tmp_path: Path) -> None:
    """Found by a new user: the picker, the window header and search results showed
    "Mein Passwort ist Sonnenblume42" though memory had it redacted."""
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [_message("user", "Mein Passwort ist Sonnenblume42")])
    reopened = store.load(session.id)
    assert "Sonnenblume42" not in reopened.title and "[REDACTED" in reopened.title
    [hit] = search_sessions(store, "passwort")
    assert "Sonnenblume42" not in hit.snippet and "Sonnenblume42" not in hit.title


def test_a_secret_does_not_find_the_message_that_held_it(tmp_path: Path) -> None:
    """Found by an adversary: Ctrl+F for a stored key found its message, shown redacted:
    a guessed secret could be confirmed."""
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [ChatMessage(role="user", content="my key is AKIAIOSFODNN7EXAMPLE ok")])
    assert search_sessions(store, "AKIAIOSFODNN7EXAMPLE") == []
    [hit] = search_sessions(store, "my key")
    assert "AKIAIOSFODNN7EXAMPLE" not in hit.snippet


def test_an_umlaut_is_found_spelt_out(tmp_path: Path) -> None:
    """Found by a new user: "juergen" did not find "Jürgen"."""
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [ChatMessage(role="user", content="Lunch with Jürgen Müller today")])
    for typed in ("juergen", "jurgen", "Jürgen", "mueller lunch"):
        assert len(search_sessions(store, typed)) == 1, typed


def test_a_chat_opening_on_a_pasted_page_is_titled_by_its_opening_redacted(
    tmp_path: Path,
) -> None:
    """The title reads the opening of the first message, not all of it: a chat that opened
    on a 300 KB page was read whole for secrets each time it was opened (an adversary)."""
    store = SessionStore(tmp_path)
    session = store.new()
    page = "\n\n   Mein Passwort ist Sonnenblume42.\n" + "Ordinary words of a long page. " * 1_000
    store.append(session, [_message("user", page)])
    reopened = store.load(session.id)
    assert reopened.title.startswith("Mein Passwort ist [REDACTED")
    assert "Sonnenblume42" not in reopened.title and len(reopened.title) <= 60


def test_a_snippet_is_around_the_word_found_least_often(tmp_path: Path) -> None:
    """Found by an adversary: "line 1999" in a pasted 2,000-line log showed its first line,
    "line 0 line 1 …"."""
    store = SessionStore(tmp_path)
    session = store.new()
    log = "\n".join(f"line {number}" for number in range(2000))
    store.append(session, [ChatMessage(role="user", content=log)])
    [hit] = search_sessions(store, "line 1999")
    assert "line 1999" in hit.snippet and "line 0 " not in hit.snippet


def test_each_hit_says_when_its_message_was_said(tmp_path: Path) -> None:
    """Found by two new users: every hit was dated by its file's last change, so a chat
    written to today showed last month's messages as today's."""
    from datetime import UTC, datetime

    times = iter(datetime(2027, month, 1, 9, tzinfo=UTC) for month in range(1, 13))
    store = SessionStore(tmp_path, clock=lambda: next(times))
    session = store.new()
    store.append(session, [ChatMessage(role="user", content="the plumber is Gerry")])
    store.append(session, [ChatMessage(role="user", content="the plumber came at last")])
    assert [hit.said_at.month for hit in search_sessions(store, "plumber")] == [1, 2]
    assert store.list()[0].updated_at.month == 2
    # An edit takes the later message out; the one in its place is dated anew.
    store.rewind(session, 1)
    store.append(session, [ChatMessage(role="user", content="the plumber never came")])
    assert [hit.said_at.month for hit in search_sessions(store, "plumber")] == [1, 3]
    # A file written by an older version holds no times: its last change dates the hits.
    older = tmp_path / "older"
    older.mkdir()
    lines = (tmp_path / f"{session.id}.jsonl").read_text().splitlines()
    kept = [line for line in lines if '"written"' not in line]
    (older / f"{session.id}.jsonl").write_text("\n".join(kept) + "\n")
    stamp = datetime(2026, 6, 1, tzinfo=UTC).timestamp()
    os.utime(older / f"{session.id}.jsonl", (stamp, stamp))
    assert {hit.said_at.year for hit in search_sessions(SessionStore(older), "plumber")} == {2026}


def test_a_message_that_fits_is_shown_whole(tmp_path: Path) -> None:
    """Found by an adversary: a short message was shown "…he door code they gave me …"."""
    store = SessionStore(tmp_path)
    session = store.new()
    said = "the door code of the shed, they gave it to me on Monday, is in the drawer"
    store.append(session, [_message("user", said)])
    [hit] = search_sessions(store, "drawer")
    assert hit.snippet == said
