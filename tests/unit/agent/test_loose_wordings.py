"""Secrets said loosely, and a secret's label and value sent in two messages.

Found by an adversary: each was stored, written to the chat file and recalled as typed.
"""

from __future__ import annotations

import pytest

from agent.redact import SaidSecrets, redact
from tests.unit.agent.conftest import Harness

PHRASE = "witch collapse practice feed shame open despair creek road again ice least"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('PIN "4821" for the Westpac card', "4821"),
        ("The PIN for my bank card is 4 8 2 1", "4 8 2 1"),
        ("4821 is my pin", "4821"),
        ("debit card 4821 is the pin", "4821"),
        ("my pin is forty-eight twenty-one", "forty-eight twenty-one"),
        ("my pin is four thousand eight hundred twenty one", "eight hundred"),
        ("The code for the door: seven-seven-three-four", "seven-seven"),
        ("my pin... 4821", "4821"),
        ("PIN - 4821", "4821"),
        ("pin (4821)", "4821"),
        ("pin \u2192 4821", "4821"),
        ("my pin is #4821", "4821"),
        ("pin is 4,821", "4,821"),
        ("iPhone passcode 482193", "482193"),
        ("wifi: BlueCat99", "BlueCat99"),
        ("security question: first pet? answer: Fluffy", "Fluffy"),
        ("secret answer Fluffy", "Fluffy"),
        ("Q: first pet A: Fluffy", "Fluffy"),
        ("my first pet's name (security question) is Fluffy", "Fluffy"),
        ("mother maiden name Kowalski", "Kowalski"),
        ("mothers maiden name is Kowalski", "Kowalski"),
        ("maiden name: Kowalski", "Kowalski"),
        ("my mother's maiden name? Kowalski", "Kowalski"),
        (f"my 12 words are {PHRASE}", "despair"),
        (f"seed: {PHRASE}", "despair"),
        (f"seed words {PHRASE}", "despair"),
        (f"backup phrase {PHRASE}", "despair"),
        (f"wallet words: {PHRASE}", "despair"),
        ("Password - hunter2", "hunter2"),
        ("it's hunter2, my password", "hunter2"),
        ("my Netflix login is bob@example.com / hunter2", "hunter2"),
        ("netflix: bob@example.com hunter2", "hunter2"),
        ("hmm what's the gate code at Anna's block, 5512 I think", "5512"),
        ("and the alarm code, in case you need it: 7734", "7734"),
        ("tax file number 123 456 782", "456"),
        ("master pw hint: bday of first dog + Tr0nt0!!", "Tr0nt0"),
    ],
)
def test_a_secret_said_loosely_is_redacted(text: str, secret: str) -> None:
    clean, kinds = redact(text)
    assert secret not in clean and kinds, clean


@pytest.mark.parametrize(
    "text",
    [
        "I pin 1800 as the year on the map",
        "The code is 200 lines long",
        "My password manager is 1Password",
        "wifi: home network",
        "Wifi: the cafe has free wifi",
        "Q: what's the capital of France? A: Paris",
        "email me at bob@example.com / call me",
        "We walked along the beach and the sun was warm and the sea was calm and blue today",
        "Meeting at 10:30 - pin 4 is broken",
        "iPhone passcode changes every month",
    ],
)
def test_ordinary_text_near_those_wordings_is_kept(text: str) -> None:
    assert redact(text) == (text, [])


@pytest.mark.parametrize(
    ("label", "value", "kind"),
    [
        ("my bank card pin is", "4821", "pin"),
        ("and the alarm code, in case you need it:", "7734", "code"),
        ("my password is", "hunter2", "secret"),
    ],
)
def test_a_value_sent_after_its_label_is_that_secret(label: str, value: str, kind: str) -> None:
    secrets = SaidSecrets()
    assert secrets.redact(label) == (label, [])
    assert secrets.redact("Sure, what is it?") == ("Sure, what is it?", [])  # the reply
    assert secrets.redact(value) == (f"[REDACTED:{kind}]", [kind])
    # The same text again (the chat file after the save) is redacted alike.
    assert secrets.redact(value) == (f"[REDACTED:{kind}]", [kind])


def test_a_label_waits_a_little_and_only_for_a_value() -> None:
    secrets = SaidSecrets()
    secrets.redact("my bank card pin is")
    assert secrets.redact("thanks") == ("thanks", [])  # a word, not a PIN
    secrets.redact("my bank card pin is")
    for text in ("ok", "Noted.", "what's the weather like?"):
        secrets.redact(text)
    assert secrets.redact("4821") == ("4821", [])  # too late to be its value
    plain = SaidSecrets()
    plain.redact("what's my pin?")
    assert plain.redact("2024") == ("2024", [])


async def test_a_pin_sent_after_its_label_is_neither_saved_nor_written(harness: Harness) -> None:
    harness.model.add("Sure, what is it?")
    harness.model.add("Got it.")
    await harness.turn("my bank card pin is")
    await harness.turn("4821")
    saved = [entry.content for entry in await harness.memory.list(limit=50)]
    written = [m.content for m in harness.sessions.load(harness.session.id).messages]
    assert "[REDACTED:pin]" in saved and "[REDACTED:pin]" in written
    assert not [text for text in saved + written if "4821" in text]
