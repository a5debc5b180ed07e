"""A question's words in another language are looked up with their English ones."""

from __future__ import annotations

import pytest

from memory.retrieval import term_weights
from memory.text import query_terms


@pytest.mark.parametrize(
    ("question", "english"),
    [
        ("quando faz anos o tiago?", {"birthday"}),
        ("preciso do código da porta do lab", {"code", "door"}),
        ("wann hat Tiago Geburtstag?", {"birthday"}),
        # An adversary: each found nothing of the English fact.
        ("Wie heißt meine Katze?", {"cat", "call"}),
        ("¿Cuál es el número del fontanero?", {"number", "plumber"}),
        ("Wie lautet die Nummer des Klempners?", {"number", "plumber"}),
        ("Welche Farbe hat mein Auto?", {"colour", "car"}),
        ("¿Dónde vive mi hermana?", {"live", "sister"}),
        ("Sou alérgico a alguma coisa?", {"allergi"}),
        # A second adversary: a month alone in another language asks for that month.
        ("was habe ich im Januar?", {"januar", "dtm01"}),
        ("qué tengo en enero?", {"enero", "dtm01"}),
        # A later adversary: German and Polish wifi passwords found nothing.
        ("wie lautet das WLAN-Passwort?", {"wifi", "password"}),
        ("jakie jest hasło do wifi?", {"wifi", "password"}),
        ("jaki jest mój kod do drzwi?", {"code", "door"}),
    ],
)
def test_the_english_words_are_asked_for_too(question: str, english: set[str]) -> None:
    assert english <= set(query_terms(question))


@pytest.mark.parametrize(
    "question",
    [
        "what port does the server use",
        "my mere presence",
        "is it handy",
        "Irma called",
        "what does my llama eat",
        "where is my cane",
        "marco polo",
        "mayo on everything",
    ],
)
def test_an_english_question_is_asked_as_it_is(question: str) -> None:
    """Words that are English words or names too are not read as another language's."""
    assert not {"door", "mother", "phone", "sister", "dog"} & set(query_terms(question))
    assert "call" not in query_terms(question) or "called" in question
    assert not any(term.startswith("dtm") for term in query_terms(question))


def test_each_word_weighs_in_the_language_the_store_holds_it() -> None:
    asked = {"codigo": 0, "code": 3, "lab": 1}
    assert set(term_weights(asked, 10)) == {"code", "lab"}
    kept_in_portuguese = {"codigo": 2, "code": 0, "lab": 1}
    assert set(term_weights(kept_in_portuguese, 10)) == {"codigo", "lab"}


@pytest.mark.parametrize(
    ("question", "left_out"),
    [
        ("wie lautet das WLAN-Passwort?", "lautet"),
        ("jakie jest hasło do wifi?", "jest"),
        # A new user, a translator in Montréal: "de la" found the door code.
        ("c'est quoi le numéro de la gardienne?", "de"),
        ("c'est quoi le numéro de la gardienne?", "la"),
        # A new user, a nurse in Madrid: "mi" found every fact of hers but the address.
        ("cual es mi direccion", "mi"),
        ("q turno tengo ahora?", "q"),
        # A new user, an electrician: "ist" and "die" found the workshop's address first.
        ("wie ist die Nummer von Sonepar?", "die"),
        ("Was weisst du ueber Lena?", "weisst"),
        ("was ist mit Lena", "mit"),
    ],
)
def test_a_languages_function_words_ask_for_nothing(question: str, left_out: str) -> None:
    """ "lautet", "jakie", "jest" outweighed the words that said what was asked."""
    assert left_out not in query_terms(question)


def test_a_word_of_both_languages_is_left_only_in_a_text_of_the_other() -> None:
    assert "die" in query_terms("what was the die size?")
    assert "mit" in query_terms("I studied at MIT in Boston")
