"""Hindi written in Latin letters, as a new user (a student in Bengaluru) wrote it.

Her questions ask last ("Nani ka birthday kab hai?") and were used as memories for 30 days,
filling four of five slots; their function words ("ka", "hai", "kab") found one another.
"""

from __future__ import annotations

import pytest

from memory.questions import asks_only
from memory.text import analyze


@pytest.mark.parametrize(
    "text",
    [
        "Nani ka birthday kab hai?",
        "mess fee kitna hai?",
        "DSA exam kab hai?",
        "laptop ready hai kya?",
        "Bhaiya ka number kya hai?",
        "mujhe ke baare mein kya pata hai?",
        "hostel ka warden kaun hai?",
        # A second adversary: a word after, an emoji, the question word first.
        "flight kitne baje hai?",
        "kab hai exam?",
        "Nani ka birthday kab hai yaar?",
        "bhai, exam kab hai?",
        "Nani ka birthday kab aata hai?",
        "mess fee kitna hai? 🙏",
    ],
)
def test_a_question_asked_last_is_held_back(text: str) -> None:
    assert asks_only(text)


@pytest.mark.parametrize(
    "text",
    [
        "Nani ka birthday 12 March ko hai",
        "Bhaiya ka number 98450 12345 hai",
        "I had kya ramen? no, udon",
    ],
)
def test_what_tells_something_is_no_question(text: str) -> None:
    assert not asks_only(text)


def test_its_function_words_are_no_index_terms() -> None:
    assert analyze("Nani ka birthday kab hai?") == ["nani", "birthday"]
    assert analyze("mess fee kitna hai?") == ["mess", "fee"]


def test_one_such_word_alone_is_kept_as_english_or_a_name() -> None:
    assert "main" in analyze("The main office is closed")
    assert "hai" in analyze("Hai Nguyen called")
