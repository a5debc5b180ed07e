"""Dutch is read as the other languages are: its function words say nothing of a text.

Found by a new user, a teacher in Utrecht: "de code van mijn fietsslot is …" came along
with "Mijn IBAN is …" for "what's my IBAN?" (both held "mijn", "de" and "van" as words),
and "wanneer is de tandarts?" weighed its question words above the dentist.
"""

from __future__ import annotations

from memory.follow_ups import goes_on
from memory.text import analyze


def test_dutch_function_words_are_no_terms() -> None:
    assert analyze("wanneer is de tandarts?") == ["tandart"]
    assert "mijn" not in analyze("de code van mijn fietsslot")
    # Alone, they are English words and names: "Ben is in town", "Die Hard".
    assert analyze("Ben is in town") == ["ben", "town"]
    assert "die" in analyze("Die Hard is a film")


def test_a_dutch_message_of_its_own_does_not_go_on_from_the_one_before() -> None:
    iban = "Mijn IBAN is [REDACTED:iban]"
    assert not goes_on(iban, "de code van mijn fietsslot is [REDACTED:code]")
    assert not goes_on(iban, "Ik heb morgen om 10 uur een afspraak bij de tandarts")
    assert goes_on("Ik heb een nieuwe fiets gekocht", "hij is rood")
