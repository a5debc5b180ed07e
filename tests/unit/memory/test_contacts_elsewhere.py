"""A new address, number or email said in another language, read as its English wording."""

from __future__ import annotations

import pytest

from memory.contacts_elsewhere import in_english


@pytest.mark.parametrize(
    ("said", "english"),
    [
        ("mi nueva dirección es Calle Sueca 12", "My new address is Calle Sueca 12"),
        ("la gestoría tiene número nuevo: 961 55 80 33", "Gestoría has a new number: 961 55 80 33"),
        ("il mio nuovo numero è 333 1234567", "My new number is 333 1234567"),
        ("meine neue Adresse ist Hauptstr. 5", "My new address is Hauptstr. 5"),
        ("ma nouvelle adresse est 3 rue Victor Hugo", "My new address is 3 rue Victor Hugo"),
        ("O meu novo endereço é Rua Augusta 5", "My new address is Rua Augusta 5"),
        ("mi correo electrónico nuevo es a@b.es", "My new email is a@b.es"),
        ("mi número es 600 111 222", "My number is 600 111 222"),
        # An adversary: the German e-mail's full name (the old one stayed in effect).
        ("Meine neue E-Mail-Adresse ist jan@posteo.de", "My new email is jan@posteo.de"),
        ("Meine E-Mail lautet jetzt a.meier@web.de", "My email is a.meier@web.de"),
    ],
)
def test_a_contact_said_in_another_language_reads_in_english(said: str, english: str) -> None:
    """Found by a new user, a translator: "mi nueva dirección es …" and "la gestoría tiene
    número nuevo: …" left the old address and number in effect."""
    assert in_english(said) == english


@pytest.mark.parametrize(
    "said", ["mi perro es grande", "la gestoría tiene mucho trabajo", "I live in Valencia"]
)
def test_what_says_no_contact_is_left_as_it_is(said: str) -> None:
    assert in_english(said) == said
