"""Secrets said loosely, and a secret's label and value sent in two messages.

Found by an adversary: each was stored, written to the chat file and recalled as typed.
"""

from __future__ import annotations

import pytest

from agent.redact import redact
from agent.said_secrets import SaidSecrets
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
        # A second adversary and a second new user.
        ("changed my pin to 1234", "1234"),
        ("I changed my pin from 4821 to 1234", "4821"),
        ("I changed my pin from 4821 to 1234", "1234"),
        ("PIN changed to 1234", "1234"),
        ("set my pin to 5566", "5566"),
        ("pin was 4821 but changed to 1234", "1234"),
        ("pin: 1234 (old one was 4821)", "4821"),
        ("pins: 1234 and 5678", "5678"),
        ("wifi is BlueCat99", "BlueCat99"),
        ("SSID HomeNet key BlueCat99", "BlueCat99"),
        ("Netflix login bob@x.com hunter2", "hunter2"),
        ("ugh bank app locked me out, tried pin 2291 like 3 times", "2291"),
        # A third adversary.
        ("pins are 1234 and 5678", "5678"),
        ("Netflix login bob@x.com hunter2 thanks", "hunter2"),
        ("Netflix login bob@x.com and hunter2", "hunter2"),
        # Kept as typed until a fourth trial: a pair, a plain word set, a value first.
        ("creds for the NAS are admin:Tr0ub4dor", "Tr0ub4dor"),
        ("NAS login: admin:Tr0ub4dor", "Tr0ub4dor"),
        ("root:hunter22", "hunter22"),
        ("SSID HomeNet, key purplemonkey", "purplemonkey"),
        ("ssid: TP-Link_5G key is sunflower", "sunflower"),
        ("WiFi: HomeNet / sunflower77", "sunflower77"),
        ("first pet was Fluffy (security question)", "Fluffy"),
        ("Mine is Fluffy for the security question", "Fluffy"),
        ("I changed the wifi password to bluebird", "bluebird"),
        ("changed wifi pw to bluebird and logged in", "bluebird"),
        ("set the garage code to 1987", "1987"),
        ("Should I change the alarm code to 5678?", "5678"),
        ("We changed the door code, it's 9090 now", "9090"),
        ("the alarm code changed, now 4471", "4471"),
        ("The door code changed. It is 7777 now", "7777"),
        # A fourth adversary: each kept as typed, or the wrong part taken.
        ("alarm code's now 1122", "1122"),
        ("we changed the wifi pw, it's now swallowtail", "swallowtail"),
        ("Netflix pw changed -> hunter9", "hunter9"),
        ("storage unit code updated to 2718", "2718"),
        ("office door code was changed today to one two three four", "three"),
        ("credentials ana:hunter6", "hunter6"),
        ("the wifi is Home5G and the password's daffodil", "daffodil"),
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
        # A new user: its name was redacted as if the password.
        "1Password is my password manager",
        "Bitwarden2 is our password vault",
        "wifi: home network",
        "Wifi: the cafe has free wifi",
        "Q: what's the capital of France? A: Paris",
        "email me at bob@example.com / call me",
        "We walked along the beach and the sun was warm and the sea was calm and blue today",
        "Meeting at 10:30 - pin 4 is broken",
        "iPhone passcode changes every month",
        # A second adversary: each was redacted in part.
        "security question answered",
        "security answers are case sensitive",
        "the security answer was wrong",
        "it's raining, my password expired",
        "It's fine, my password manager handles it",
        "Password - please change it",
        "Password: see the sticky note",
        "passcode: ask John",
        "maiden name is required on the form",
        "my maiden name is on the passport now",
        "She kept her maiden name after marriage",
        "I got a lapel pin - 1984 edition",
        "I planted seed: tomato basil pepper onion carrot leek bean pea corn kale beet melon",
        "email: bob@x.com 2pm tomorrow",
        "x mailto:ana@example.com 00:12",
        # Near the wordings a fourth trial added.
        "network: 5G/4G",
        "wifi slow / unusable today",
        "login: 9am/5pm",
        "Pi:3.14 is close enough",
        "The login page is https://example.com/login",
        "ssid is hidden, key unknown",
        "What is the answer for the security question",
        "That was a good security question",
        "The answer is Paris, not a security question",
        "changed the zip code to 90210",
        "I changed the dress code to casual",
        "I set my password to expire every 90 days",
        "I changed my password to access email",
        "I changed my password to something longer",
        "reset my password to the default.",
        "we changed the code to 1.2.3 version",
        "the alarm code goes off now 30 seconds after",
        "The door code is on the fridge. It is 10 steps away",
        "pw changed: see email",
        "the code was updated to v2.3",
        "dress code changed to casual",
        "changed the bike lock combo to 9090",
    ],
)
def test_ordinary_text_near_those_wordings_is_kept(text: str) -> None:
    assert redact(text) == (text, [])


def test_a_networks_name_is_kept_when_its_password_follows() -> None:
    clean, _kinds = redact("the wifi is Home5G and the password's daffodil")
    assert clean == "the wifi is Home5G and the password's [REDACTED:secret]"


@pytest.mark.parametrize(
    ("label", "value", "kind"),
    [
        ("my bank card pin is", "4821", "pin"),
        ("and the alarm code, in case you need it:", "7734", "code"),
        ("my password is", "hunter2", "secret"),
        ("my wifi password is", "sunflower", "secret"),
        # An adversary: each value was kept as typed.
        ("pin for the garage door", "four seven two nine", "pin"),
        ("new wifi password below", "Kestrel-88-Moon", "secret"),
        ("the password for the wifi", "sunflower", "secret"),
        # A fourth trial: each value was kept as typed.
        ("here's the safe combination", "12-34-56", "code"),
        ("my security answer", "Rex", "secret"),
        # An adversary: a label ending in another language was awaited by none.
        ("Il PIN della carta è", "5599", "code"),
        ("Meine PIN lautet", "7766", "code"),
        ("Mój PIN do karty to", "1234", "code"),
    ],
)
def test_a_value_sent_after_its_label_is_that_secret(label: str, value: str, kind: str) -> None:
    secrets = SaidSecrets()
    assert secrets.redact(label) == (label, [])
    # The model's reply between, however short, is no value (a second adversary).
    assert secrets.redact("Sure.", by_user=False) == ("Sure.", [])
    assert secrets.redact(value) == (f"[REDACTED:{kind}]", [kind])
    # The same text again (the chat file after the save) is redacted alike.
    assert secrets.redact(value) == (f"[REDACTED:{kind}]", [kind])


@pytest.mark.parametrize(
    ("label", "reply"),
    [
        ("my wifi is", "down"),
        ("do you know where my key is", "found"),
        ("what was the pin", "2023"),
        ("my password is", "expired"),
        ("my password is", "dunno"),
        ("I forgot my pin", "2024"),
        ("tickets for the concert", "42 each"),
        ("I want to", "2024"),
        ("the meeting is at", "1530"),
    ],
)
def test_what_follows_a_label_is_read_as_said_in_one_message(label: str, reply: str) -> None:
    """Found by a third adversary: each reply was redacted, though "my wifi is down" said in
    one message is no secret, and a question awaits no value."""
    secrets = SaidSecrets()
    secrets.redact(label)
    secrets.redact("Hmm.", by_user=False)
    assert secrets.redact(reply) == (reply, [])


def test_a_value_sent_with_a_word_after_it_loses_only_the_value() -> None:
    secrets = SaidSecrets()
    secrets.redact("my pin is")
    assert secrets.redact("4821 thanks") == ("[REDACTED:pin] thanks", ["pin"])
    pointed = SaidSecrets()
    pointed.redact("my card pin:")
    assert pointed.redact("it's 7340") == ("it's [REDACTED:pin]", ["pin"])


def test_a_value_sent_first_in_a_sentence_loses_only_the_value() -> None:
    """Found by an adversary: "my bank card pin is", then "4821 but don't tell anyone",
    kept the PIN (more words than a value and a word or two)."""
    secrets = SaidSecrets()
    secrets.redact("my bank card pin is")
    said = secrets.redact("4821 but don't tell anyone")
    assert said == ("[REDACTED:pin] but don't tell anyone", ["pin"])
    year = SaidSecrets()
    year.redact("my pin is")
    assert year.redact("2024 was a strange year for all of us")[1] == []


def test_a_label_waits_a_little_and_only_for_a_value() -> None:
    secrets = SaidSecrets()
    secrets.redact("my bank card pin is")
    assert secrets.redact("thanks") == ("thanks", [])  # a word, not a PIN
    secrets.redact("my bank card pin is")
    # Small talk waits with it ("ok", "thanks"); two messages of their own do not.
    for text in ("ok", "what's the weather like?", "tell me a joke"):
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


def test_a_digit_that_is_no_number_has_its_forms_too() -> None:
    """Found by hypothesis: a secret holding "²" (a digit to `isdigit`) raised in
    `int("²")` when its forms were made."""
    from agent.secret_forms import value_form

    assert value_form("00:\u00b2") is not None


def test_a_word_after_password_dash_is_no_secret_nor_redacted_later() -> None:
    """Found by a second adversary: "forget about the password - what's the gate combo?"
    took "what's" for the password, and every later "what's" of the chat was redacted."""
    secrets = SaidSecrets()
    asked = "forget about the password - what's the gate combo?"
    assert secrets.redact(asked) == (asked, [])
    assert secrets.redact("what's my sister called?") == ("what's my sister called?", [])
    assert secrets.redact("wifi password - Kx9Lm2!")[0] == "wifi password - [REDACTED:secret]"


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("my new card PIN is\n6543", "my new card PIN is\n[REDACTED:pin]"),
        ("Mein Passwort lautet\nGeheim123", "Mein Passwort lautet\n[REDACTED:secret]"),
        ("Password:\nhunter22\nthanks", "Password:\n[REDACTED:secret]\nthanks"),
        # What is no secret said in one line is none on two.
        ("the total is\n45", "the total is\n45"),
        ("my wifi is\ndown", "my wifi is\ndown"),
        ("my pin is\nthanks", "my pin is\nthanks"),
    ],
)
def test_a_value_on_the_line_below_its_label_is_that_secret(text: str, redacted: str) -> None:
    """Found by an adversary: a label, a new line (Ctrl+J) and the value were kept as
    typed, in the chat and on import, where two messages were redacted."""
    assert redact(text)[0] == redacted
