"""Secrets new users and an adversary saw kept as typed, and their near misses kept."""

from __future__ import annotations

import pytest

from agent.redact import redact
from agent.said_secrets import SaidSecrets


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # A PIN then any word: 100,000 characters of "pin 4321 " cut after a "p" were kept.
        ("pin 4321 thanks", "4321"),
        pytest.param(("pin 4321 " * 11_112)[:100_000], "4321", id="pin-4321-x11112"),
        ("PIN della carta 4821", "4821"),
        ("el pin de la tarjeta 4821", "4821"),
        ("Candado del trastero, combinación 3842", "3842"),
        ("Tresor im Büro: 2-14-33", "14-33"),
        ("Vorhängeschloss Keller 0815", "0815"),
        ("padlock basement 0815", "0815"),
        ("Meu CPF é 123.456.789-09", "456"),
        # A Dutch password after its label alone (a new user, a teacher in Utrecht).
        ("DigiD inlog: gebruikersnaam sannedv84, wachtwoord Tulp#Gracht88", "Gracht88"),
        ("De wifi van school: netwerk OBS-Zonnewijzer, wachtwoord Groep5Zon!2027", "Zon!2027"),
        # A US Medicare number (a new user, a retired farmer).
        ("my medicare number is 1EG4-TE5-MK73 and bank pin is 4471", "TE5"),
        ("remember medicare number 1EG4TE5MK73", "TE5"),
        # A URL's password holding "@" (a new user, an engineer: all after it kept).
        ("REDIS_URL=redis://default:ab@Xk92mZqL7vB@host:6379", "Xk92mZqL7vB"),
        ("postgres://app:s3cr@t!pw@db.internal:5432/app", "t!pw"),
        # A second adversary.
        ("padlock 0815 thanks", "0815"),
        ("candado 3842", "3842"),
        ("PIN meiner Karte 4821", "4821"),
        ("pincode van mijn pas is 4821", "4821"),
    ],
)
def test_each_wording_loses_its_secret(text: str, secret: str) -> None:
    assert secret not in redact(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        "pin 2024 as the year to remember",
        "pin 12 of the chip",
        "padlock size 40mm",
        "Tresor 2019 gekauft",
        "bought a padlock for 1299",
        "Tresor im Keller, 3 Fächer",
        "see https://example.com/a@b and mail bob@example.com",
        "wachtwoord vergeten",
        "candado de 30 euros",
    ],
)
def test_what_holds_no_secret_is_kept(text: str) -> None:
    assert redact(text)[0] == text


def test_a_url_keeps_its_host_after_the_password() -> None:
    clean = redact("redis://default:ab@Xk92mZqL7vB@redis.internal:6379/0")[0]
    assert clean == "redis://default:[REDACTED:url-password]@redis.internal:6379/0"


def test_someone_elses_licence_in_the_next_message_is_redacted() -> None:
    """Found by an adversary: "and my wife's is MORGA753116SM9IK" was kept, and shown to
    the model for every question about a licence or the wife."""
    secrets = SaidSecrets()
    secrets.redact("my driving licence number is MORGA753116SM9IJ")
    assert secrets.redact("and my wife's is MORGA753116SM9IK")[0] == (
        "and my wife's is [REDACTED:id-number]"
    )
