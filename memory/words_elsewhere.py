"""The English words a question's words in another language ask for, to search facts by.

Found by a new user writing half in Portuguese: "quando faz anos o tiago?" found nothing of
"my partner is Tiago, his birthday is 23 de fevereiro", and "preciso do código da porta do
lab" not "The lab door keypad code is 4817#". A question's words are looked up with their English
ones (`memory.text.query_terms`), and each weighs by whichever of the two the store holds
(`in_one_language`): a fact kept in Portuguese is still found by the Portuguese words, and
an English word no memory holds weighs nothing against it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from memory.lazy_patterns import lazy_compile

_IN_ENGLISH = {
    "birthday": "cumpleaños cumple aniversário aniversario anniversaire compleanno geburtstag",
    "code": "código codigo codice kod",
    "door": "porta puerta tür tuer drzwi",
    "gate": "portão portao portón porton portail cancello",
    # An adversary: "wie lautet das WLAN-Passwort?", "jakie jest hasło do wifi?" found
    # nothing of "my wifi password is …".
    "password": "contraseña contrasena senha passwort kennwort hasło haslo",
    "wifi": "wlan",
    "card": "karta karty karte",
    "alarm": "alarma allarme",
    "address": "dirección direccion morada endereço endereco adresse indirizzo anschrift",
    "phone": "teléfono telefono telefone téléphone telephone telefon móvil movil",
    "email": "correo",
    "doctor": "médico medico médica medica médecin medecin arzt ärztin",
    "dentist": "dentista dentiste zahnarzt",
    "rent": "alquiler renda aluguel aluguer loyer affitto miete",
    "meeting": "reunión reunion reunião reuniao réunion riunione besprechung",
    "flight": "vuelo voo volo flug",
    "trip": "viaje viagem voyage viaggio reise",
    "wife": "esposa mujer mulher femme moglie frau",
    "husband": "esposo marido mari ehemann",
    "sister": "hermana soeur sœur sorella schwester",
    "brother": "hermano irmão irmao frère frere fratello bruder",
    "mother": "madre mutter",
    "father": "padre père vater",
    "dose": "dosis dosi",
    "allergy": "alergia allergie",
    "work": "trabajo trabalho travail lavoro arbeit",
    "car": "coche carro voiture macchina auto",
    # An adversary: "Wie heißt meine Katze?", "¿Cuál es el número del fontanero?", "Onde
    # mora a minha irmã?" found nothing of the English facts.
    "cat": "katze gato gata gatto chatte",
    "dog": "hund perro cão cao cachorro chien",
    "allergic": "allergisch alérgico alergico alérgica alergica allergique allergico",
    "plumber": "klempner installateur fontanero canalizador encanador plombier idraulico",
    "electrician": "elektriker electricista eletricista électricien electricien elettricista",
    "number": "nummer número numero numéro",
    "colour": "farbe color cor couleur colore",
    "called": "heißt heisst chama appelle chiama",
    "live": "wohnt wohne vive vivo mora moro habite habito abita abito",
    "son": "sohn hijo filho fils figlio",
    "daughter": "tochter hija filha fille figlia",
    "job": "beruf empleo emprego boulot",
}
# Left out: words that are English words or names too ("porte", "mere", "vol", "handy",
# "llama", "cane", "Irma", "Mae"): an English question would have asked for what it never
# meant.
_PHRASES = lazy_compile(r"(?i)\bfa(?:z|zem|ço|co)\s+anos\b|\bhace\s+años\b")
""""quando faz anos o tiago?": Portuguese says a birthday with "faz anos"."""


@cache
def english_of(analyze: Callable[[str], list[str]]) -> dict[str, str]:
    """Each word of `_IN_ENGLISH` said in another language, analysed → its English term.

    `agent.secret_changes` reads a lock named in another language by it too.
    """
    english: dict[str, str] = {}
    for word, elsewhere in _IN_ENGLISH.items():
        (term,) = analyze(word)[:1] or [word]
        for said in elsewhere.split():
            for found in analyze(said):
                if found != term:
                    english.setdefault(found, term)
    return english


def phrases_in_english(text: str) -> str:
    """`text` with the phrases of `_PHRASES` in English words."""
    return _PHRASES.sub(" birthday ", text)


def in_english(terms: list[str], analyze: Callable[[str], list[str]]) -> list[str]:
    """The English terms of `terms` said in another language, not among them already.

    `analyze` is `memory.text.analyze`, which reads a question with this.
    """
    english = english_of(analyze)
    found = [english[term] for term in terms if term in english]
    return [term for term in dict.fromkeys(found) if term not in terms]


def in_one_language(
    doc_counts: dict[str, int], analyze: Callable[[str], list[str]]
) -> dict[str, int]:
    """`doc_counts` with one of each word and its English, whichever the store holds.

    The English one where only it is held; else the word as asked.
    """
    english = english_of(analyze)
    dropped = set()
    for term, count in doc_counts.items():
        meant = english.get(term)
        if meant is None or meant not in doc_counts:
            continue
        dropped.add(term if count == 0 and doc_counts[meant] > 0 else meant)
    return {term: count for term, count in doc_counts.items() if term not in dropped}
