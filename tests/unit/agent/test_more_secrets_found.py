"""Secrets an adversary saw kept as typed, and a card's last digits redacted as a secret."""

from __future__ import annotations

import pytest

from agent.redact import redact
from agent.said_secrets import SaidSecrets


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("| site | user | pass |\n| gmail | bob | Tr0ub4dor&3 |", "Tr0ub4dor&3"),
        ("password:\n  prod: Qw3rtyProd\n  dev: Qw3rtyDev", "Qw3rtyProd"),
        ("password:\n  prod: Qw3rtyProd\n  dev: Qw3rtyDev", "Qw3rtyDev"),
        ("My password? It's the same as always: Maple2019", "Maple2019"),
        ("मेरा पासवर्ड है gulab3391neel", "gulab3391neel"),
        ("Geheimzahl der EC-Karte 6614", "6614"),
        ("the pin code number is 998877", "998877"),
        ("meeting pin 4433 on zoom", "4433"),
        ("teams dial-in pin 778812# then the meeting id", "778812"),
        # A later adversary: each kept as typed.
        ("Mã PIN của tôi là 6060", "6060"),
        ("mật khẩu wifi là matkhau2024", "matkhau2024"),
        ("hasło Kot!2024", "Kot!2024"),
        ("login do banku: jan99 i hasło Kot!2024", "2024"),
        ("pin 2291 btw, for the garage", "2291"),
        ("my pin is \u20664821\u2069", "4821"),
        # A second adversary: "is" then a colon, in Italian and Portuguese.
        ("Il PIN del bancomat è: 4829 grazie", "4829"),
        ("Meu PIN é: 4455", "4455"),
    ],
)
def test_each_wording_loses_its_secret(text: str, secret: str) -> None:
    assert secret not in redact(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        "my password expires on: 12/03/2027",
        "config:\n  host: db.local\n  port: 5432",
        "my password policy: at least 12 chars",
        "the card ending 4242 was declined",
        "last four digits are 4242",
        "conference call at 1530 on teams",
        "the meeting is on 14/3, call 0871234567",
        "hasło do wifi",
        "mã pin là gì?",
        "la riunione è: lunedì alle 10",
    ],
)
def test_what_holds_no_secret_is_kept(text: str) -> None:
    assert redact(text)[0] == text


def test_a_cards_last_digits_are_no_pin() -> None:
    """The PIN was taken to be 4242 ("the card ending 4242"), and the PIN sent next kept."""
    assert redact("the pin for the card ending 4242 is 8813")[0] == (
        "the pin for the card ending 4242 is [REDACTED:pin]"
    )
    secrets = SaidSecrets()
    label = "here's the pin for the card ending 4242:"
    assert secrets.redact(label) == (label, [])
    secrets.redact("Go on.", by_user=False)
    assert secrets.redact("8813") == ("[REDACTED:pin]", ["pin"])


def test_a_password_said_to_come_in_the_next_message_is_awaited() -> None:
    secrets = SaidSecrets()
    secrets.redact("My Netflix login is bob@x.com and the pw is in the next msg")
    secrets.redact("Okay.", by_user=False)
    assert secrets.redact("Blue-Heron-71") == ("[REDACTED:secret]", ["secret"])


def test_a_dni_written_with_dots_is_redacted() -> None:
    assert "345" not in redact("DNI: 12.345.678-Z")[0]


def test_a_tests_pass_column_is_no_password() -> None:
    """A short adversary: "| test | pass | fail |" had its results redacted."""
    table = "| test | pass | fail |\n|---|---|---|\n| logout | FAIL12 | b102 |"
    assert redact(table)[0] == table


@pytest.mark.parametrize(
    "chat",
    [
        ["my medicare number is 2123 45670 1", "and my wife's is 2123 45671 1"],
        ["my NHS number is 943 476 5919", "ok", "and my husband's is 943 476 5870"],
    ],
)
def test_someone_elses_id_number_in_the_next_message_is_redacted(chat: list[str]) -> None:
    """Found by an adversary: the wife's Medicare number, sent after the user's, was kept,
    and recalled in other chats; a number of another kind is still kept."""
    secrets = SaidSecrets()
    said = [secrets.redact(text)[0] for text in chat]
    assert said[-1].endswith("is [REDACTED:id-number]")
    secrets = SaidSecrets()
    secrets.redact(chat[0])
    assert secrets.redact("call me on 087 123 4567")[0] == "call me on 087 123 4567"


def test_small_talk_between_a_label_and_its_value_waits_with_it() -> None:
    """Found by an adversary: "my phone pin is", "ok", "thanks", then "9043" kept the PIN."""
    secrets = SaidSecrets()
    said = [secrets.redact(text)[0] for text in ["my phone pin is", "ok", "thanks", "9043"]]
    assert said == ["my phone pin is", "ok", "thanks", "[REDACTED:pin]"]


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("url,username,password\nhttps://a.com,dana,Sup3r Secret", "Sup3r Secret"),
        (
            "name,url,username,password\nGmail,https://mail.google.com,dana,correct horse battery",
            "correct horse battery",
        ),
        ("site;user;password;note\na.com;dana;pw with space;my main mail", "pw with space"),
        ("Mon routeur: mot de passe Tr0ub4dor", "Tr0ub"),
        # A third adversary: a heading in another language.
        ("Site;Identifiant;Mot de passe;Notes\nGmail;moi@x.fr;ouvre toi sesame;perso", "sesame"),
        ("Konto,Benutzer,Passwort\nGMX,max,Sonne123", "Sonne123"),
        ("Mon NAS Synology: admin, mot de passe Kq81zzPw", "Kq8"),
    ],
)
def test_a_password_holding_spaces_or_said_in_french_is_redacted_whole(
    text: str, secret: str
) -> None:
    """Found by a second adversary: a password column's values holding spaces were kept,
    and "mot de passe Tr0ub4dor" kept "Tr0ub" (read as what the password was of)."""
    assert secret not in redact(text)[0]


@pytest.mark.parametrize(
    "chat",
    [
        ["my passport number is", "X1234567"],
        ["my SIN is", "046 454 286"],
        ["mon NAS c'est", "046 454 286"],
        ["my passport number is K1234567", "and my wife's is K7654321"],
        ["Mon NAS est 046 454 286", "et celui de ma femme c'est 130 692 544"],
        ["Mon NAS est 046 454 286", "et le sien c'est 130 692 544"],
        ["my passport number is K1234567", "ok", "and my son's: P5556667"],
        # A later adversary: in Italian and Spanish, and two after the user's.
        ["my codice fiscale è RSSMRA85T10A562S", "quello di mia moglie è BNCLRA88A41F205X"],
        ["Mi DNI es 12345678Z", "el de mi marido, 87654321X"],
        ["my passport number is K7654321", "and the kids' ones are K1111111 and K2222222"],
    ],
)
def test_an_id_number_sent_in_the_next_message_is_redacted(chat: list[str]) -> None:
    """Found by a second adversary: each last message's number was kept as typed."""
    secrets = SaidSecrets()
    said = [secrets.redact(text)[0] for text in chat]
    assert "[REDACTED:" in said[-1]
    assert not any(c.isdigit() for c in said[-1].replace("[REDACTED:id-number]", ""))


@pytest.mark.parametrize(
    ("export", "secrets"),
    [
        (
            "name,url,username,password\n"
            "Gmail,https://mail.google.com,dana@example.com,Hunter2!xyz\n"
            'Bank,https://bank.ie,dana77,"p@ss, word9"',
            ["Hunter2!xyz", "p@ss, word9"],
        ),
        (
            '"url","username","password"\n'
            '"https://x.com","bob","Sunny Day 42"\n'
            '"https://y.com","bob2","pa ss,w0rd"',
            ["Sunny Day 42", "pa ss,w0rd"],
        ),
    ],
)
def test_a_quoted_password_holding_spaces_is_redacted(export: str, secrets: list[str]) -> None:
    """Found by an adversary: each quoted password holding a space was kept as typed."""
    redacted = redact(export)[0]
    assert not any(secret in redacted for secret in secrets)
    assert "https://x.com" in redacted or "https://bank.ie" in redacted
    assert redact('"site","password"\n"a.com","n/a"')[0] == '"site","password"\n"a.com","n/a"'
