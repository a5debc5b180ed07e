"""A bank's one-time-code text, a bank account's number, Mexican and Emirati ID numbers,
and a keypad code said as it is pressed: redacted, and what is no secret beside them kept.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agent.asked_secrets import asks_for_a_secret, most_of_what_was_asked
from agent.redact import redact
from memory.entry import MemoryEntry
from tests.helpers.entries import written_entry


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        # A new user pasted her bank's text by mistake: kept as typed, shown to the model.
        (
            "Your OTP for HDFC Bank txn of Rs 12,000 is 483920. Do not share it with anyone.",
            "483920",
            "Rs 12,000",
        ),
        ("483920 is your OTP for login. Valid for 10 minutes.", "483920", "10 minutes"),
        ("G-482913 is your Google verification code.", "482913", "Google"),
        ("<#> 449182 is your Instagram code. Don't share it.", "449182", "Instagram"),
        ("Dear customer, 3492 is the OTP for your transaction at AMAZON.", "3492", "AMAZON"),
        ("Your Amazon OTP is 123 456. Expires in 10 min", "123 456", "10 min"),
        ("OTP for txn of INR 5000.00 at Flipkart on 12-03-2027 is 839201", "839201", "5000.00"),
        ("A/c XX1234 debited by Rs 2500. OTP 4455", "4455", "XX1234"),
        ("Tu código de verificación es 558812", "558812", "Tu código"),
        ("Ihr Bestätigungscode lautet 774411", "774411", "lautet"),
        ("Seu código de verificação é 3344", "3344", "Seu"),
        # An adversary: a bank account's number where an IBAN was redacted.
        ("my sort code is 20-32-06 and account number 73019264", "73019264", "20-32-06"),
        ("acct no 0123456789 GTBank", "0123456789", "GTBank"),
        ("my GTB account na 0123456789", "0123456789", "GTB"),
        ("routing 021000021 account 483920175", "483920175", "021000021"),
        ("BSB 062-000 acc 1234 5678", "1234 5678", "062-000"),
        ("Konto 0532013000 BLZ 37040044", "0532013000", "37040044"),
        ("Kwame gave me his account: 0123456789 Access Bank", "0123456789", "Kwame"),
        ("mi número de cuenta es 012345678901234567", "012345678901234567", "cuenta"),
        # A new user, a baker in Guadalajara: her tax and population numbers kept as typed.
        ("Mi RFC es LUGM800315AB3 y mi CURP es LUGM800315MJCRRC09.", "LUGM800315AB3", "Mi RFC"),
        ("Mi RFC es LUGM800315AB3 y mi CURP es LUGM800315MJCRRC09.", "MJCRRC09", "CURP"),
        ("RFC de la panadería: PLU150101AB1", "PLU150101AB1", "panadería"),
        ("Emirates ID 784-1234-1234567-1", "1234567", "Emirates"),
        # An adversary: a keypad's code said as it is pressed, without "press".
        ("to get in, it's star 4821 hash", "4821", "to get in"),
        ("tap star 4821 hash", "4821", "tap"),
        ("press hash 4821 star", "4821", "press"),
        # A second adversary: each kept as typed.
        ("Use 552901 as your verification code for Amazon", "552901", "Amazon"),
        ("Enter 552901 to verify your account", "552901", "verify"),
        ("Kindly use 483920 as One Time Password", "483920", "Kindly"),
        ("Kto. 0532013000", "0532013000", "Kto."),
        ("GODE561231HDFRRN09 es mi curp", "GODE561231HDFRRN09", "curp"),
        ("the key safe is star 1 9 7 3 hash", "1 9 7 3", "key safe"),
        # A later adversary: a bank's word beside it overrides a service's.
        (
            "my mobile banking account number is 12345678, sort code 20-00-00",
            "12345678",
            "20-00-00",
        ),
        ("internet banking account 0123456789 IFSC HDFC0001234", "0123456789", "IFSC"),
        ("Barclays customer account 12345678 sort code 20-00-00", "12345678", "Barclays"),
        ("credit union member account 12345678", "12345678", "credit union"),
        ("pay Vodafone from account 12345678 sort code 20-00-00", "12345678", "Vodafone"),
        ("salary account 0123456789 with Airtel Payments Bank", "0123456789", "Airtel"),
    ],
)
def test_the_secret_goes_and_what_is_beside_it_stays(text: str, secret: str, kept: str) -> None:
    redacted = redact(text)[0]
    assert secret not in redacted
    assert kept in redacted


@pytest.mark.parametrize(
    "text",
    [
        "the verification code took 2 days to arrive and my flat is 1204",
        "my login code page shows error 5003.",
        "account balance 150000",
        "my account was opened in 2019",
        "my account is 3 years old",
        "the RFC 2119 says MUST",
        "Room 1204 is your room",
        # A second adversary: a service's own account, and India's postal PIN code.
        "electricity consumer account 0123456789, bill Rs 2,340 due 15/3",
        "customer account no 0123456789 with Airtel",
        "Airtel account 0123456789",
        "PIN code 560034 Bangalore, 12 MG Road is my new address",
        "pin code 400 001, Mumbai",
        "use 2024 as the year for the report",
        "enter 1234 to continue",
    ],
)
def test_what_holds_no_such_secret_is_kept(text: str) -> None:
    assert redact(text) == (text, [])


@pytest.mark.parametrize(
    "text",
    [
        "the pin for my card is 482913 Thanks",
        "my card PIN code is 482913, I live on MG Road",
        "Pin: 560034",
    ],
)
def test_a_pin_said_of_a_card_or_alone_is_still_redacted(text: str) -> None:
    assert "[REDACTED:pin]" in redact(text)[0]


def _facts(**texts: str) -> list[MemoryEntry]:
    written = datetime(2026, 12, 6, tzinfo=UTC)
    return [written_entry(key, text, "core", written) for key, text in texts.items()]


@pytest.mark.parametrize(
    "asked",
    [
        "what's my account number?",
        "what are my bank account details?",
        "¿cuál es mi número de cuenta?",
    ],
)
def test_an_account_number_asked_for_by_its_name_is_shown_and_no_code(asked: str) -> None:
    account = "My Barclays account number is 73019264, sort code 20-32-06"
    facts = _facts(account=account, door="The office door code is 4590")
    assert asks_for_a_secret(asked)
    assert most_of_what_was_asked(facts, asked) == {"account": account}


@pytest.mark.parametrize(
    "asked",
    ["¿cuál es el número de mi tarjeta del banco?", "quel est le numéro de ma carte?"],
)
def test_a_card_number_asked_for_in_another_language_is_shown(asked: str) -> None:
    """Found by a new user, a baker in Guadalajara: shown it redacted, as asked by nobody."""
    card = "Mi tarjeta del banco (Banorte) es 4111 1111 1111 1111, vence 09/29"
    facts = _facts(card=card, door="El código de la puerta es 4590")
    assert most_of_what_was_asked(facts, asked) == {"card": card}
