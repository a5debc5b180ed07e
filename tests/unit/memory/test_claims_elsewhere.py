"""A move, a job or an allergy said in another language is read as its English wording."""

from __future__ import annotations

import pytest

from memory.claims_elsewhere import said_in_english
from memory.fact_values import new_value


@pytest.mark.parametrize(
    ("said", "english"),
    [
        ("Me he mudado a Sevilla", "I moved to Sevilla"),
        ("Mi sono trasferita a Roma", "I moved to Roma"),
        ("Mudei-me para Lisboa", "I moved to Lisboa"),
        ("J'ai déménagé à Lyon", "I moved to Lyon"),
        ("Ich bin nach Berlin gezogen", "I moved to Berlin"),
        ("Ahora vivo en Sevilla", "I live in Sevilla"),
        ("Ich arbeite jetzt bei Siemens", "I work at Siemens now"),
        ("Je travaille chez Renault", "I work at Renault"),
        ("Je ne suis plus allergique à la pénicilline", "I'm no longer allergic to penicillin"),
        ("Ich bin nicht mehr allergisch gegen Penicillin", "I'm no longer allergic to penicillin"),
        ("Ya no soy alérgica a la penicilina", "I'm no longer allergic to penicillin"),
        ("Je suis allergique aux arachides", "I'm allergic to peanuts"),
        # Nothing of the kind: as said.
        ("Vivo con mi hermana y dos gatos, y trabajo mucho", None),
        ("Ich arbeite gern am Wochenende", None),
        ("Je travaille", None),
        # Plans and starts to come (a second adversary: each replaced the home or the job).
        ("Nos mudamos a Valencia el mes que viene", None),
        ("Nos mudamos a Madrid en marzo", None),
        ("Mudamos para Braga no próximo mês", None),
        ("Trabajo en Telefónica desde el lunes", None),
        ("Nos mudamos a Valencia, el mes que viene", None),
        # Found by a new user: a new job begun, the European Portuguese "mudámo-nos", a
        # place typed in lower case; not a sister's move, a word for home, nor a lower-case
        # word where names have capitals.
        ("Empecé a trabajar en Telefónica", "I started working at Telefónica"),
        ("Ho iniziato a lavorare da Ferrero", "I started working at Ferrero"),
        ("J'ai commencé à travailler chez Renault", "I started working at Renault"),
        ("Comecei a trabalhar na Sonae", "I started working at Sonae"),
        ("Ich habe bei Bosch angefangen", "I started working at Bosch"),
        ("Mudámo-nos para Braga", "I moved to Braga"),
        ("me mudé a sevilla", "I moved to Sevilla"),
        ("ich wohne jetzt in berlin", "I live in Berlin"),
        ("Mi hermana se mudó a Sevilla", None),
        ("Me mudé a casa", None),
        ("me mudé a sevilla con Ana", None),
        ("nos mudamos a valencia el mes que viene", None),
        # The last clause (a second adversary).
        ("Ich bin nicht mehr bei Siemens, ich arbeite jetzt bei Bosch", "I work at Bosch now"),
    ],
)
def test_a_claim_in_another_language_is_read_in_english(said: str, english: str | None) -> None:
    assert said_in_english(said) == (english or said)


def test_a_claim_in_another_language_gives_the_fact_another_value() -> None:
    """Found by an adversary: each left the fact in effect, the English said alike did not."""
    assert new_value("Me he mudado a Sevilla", "I live in Porto")
    assert new_value("Ich arbeite jetzt bei Siemens", "I work at Acme")
    assert new_value(
        "Je ne suis plus allergique à la pénicilline", "Je suis allergique à la pénicilline"
    )
    assert not new_value("Je suis allergique aux arachides", "I'm allergic to penicillin")


def test_a_move_typed_in_lower_case_gives_the_home_another_value() -> None:
    """Found by a new user who types in lower case: "I moved to portobello" beside "I live
    in Leith" left both in effect (the capital "I" made the place a state, as in "fear")."""
    assert new_value("I moved to portobello", "I live in Leith")
    assert new_value("me mudé a sevilla", "I live in Madrid")
    assert not new_value("I live in fear", "I live in Leith")
    assert not new_value("I moved to portobello with Ewan", "Ewan lives in Leith")
    # A second adversary: what one drinks is no home; a street of that name is.
    assert not new_value("moved to oat milk", "I live in Porto")
    assert not new_value("moved to decaf coffee", "I live in Porto")
    assert new_value("I moved to Water Lane", "I live in Porto")
