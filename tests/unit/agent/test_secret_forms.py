"""A secret found again in its other forms, and innocent text left alone (`agent.secret_forms`)."""

from __future__ import annotations

import re
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.redact import said_again_with_kinds
from agent.said_secrets import SaidSecrets
from agent.secret_forms import forms_pattern, replace_words, value_form
from agent.session_scrub import erasure_of


@pytest.mark.parametrize(
    ("said", "later"),
    [
        # Found by an adversary: each was redacted for the rest of the chat.
        ("my password is Paris", "Comparison of Parisian cafes done"),
        ("the wifi password is tiger", "The Tigers won tonight"),
        ("password: Summer", "Summertime is here"),
        ("password: hunter2", "Hunter2000"),
        ("my pin is 1225", "Lunch was 12.25 euros"),
        ("my pin is 1225", "Christmas is 12-25"),
        ("my pin is 1225", "The bill: 1.225 EUR"),
        ("my pin is 1225", "room 12 25"),
        ("my pin is 4471", "$44.71 total"),
        ("my pin is 0815", "Train at 08.15"),
        ("the alarm code is 1234", "I paid 12.34 for it"),
        ("door code 2024", "v20.24 released"),
        ("door code 2024", "In 20-24 weeks"),
        ("my locker PIN is 918273", "call 555-918-2734 now"),
        # A fourth adversary: a password's letters and digits apart are ordinary words.
        ("my password is Summer2024", "Summer 2024 was the best holiday ever"),
        ("my pin is 1225", "party on 12-25 or 12 25"),
        ("door code 2024", "ages 20 24"),
        ("my pin is 4821", "I have four cats"),
        ("the garage code is 7395", "It cost $73.95, v7.3.9.5.1"),
        ("password: hunter2", "hunter 2 days"),
    ],
)
def test_innocent_text_after_a_secret_is_kept(said: str, later: str) -> None:
    secrets = SaidSecrets()
    assert "REDACTED" in secrets.redact(said)[0]
    assert secrets.redact(later) == (later, [])


@pytest.mark.parametrize(
    ("said", "later"),
    [
        ("my wifi password is ZebraQuartz7719", "so: Zebra-Quartz-7719 ok"),
        ("my wifi password is ZebraQuartz7719", "so: zebra_quartz_7719 ok"),
        ("my wifi password is Zebra-Quartz-7719", "so: ZebraQuartz7719x ok"),
        ("la clave del wifi es Mariposa2020", "so: mariposa-2020 ok"),
        ("my password is abc123", "so: ABC-123 ok"),
        ("my password is Zebra-Quartz-7719", "so: Zebra / Quartz / 7719 ok"),
        # A fourth adversary: beside another number, in other separators.
        ("my locker PIN is 918273", "so: 918273 918273 ok"),
        ("my locker PIN is 918273", "so: 918 - 273 ok"),
        ("my locker PIN is 918273", "so: 918\u2013273 ok"),
        ("my locker PIN is 918273", "so: 918/273 ok"),
        ("my pin is 4471", "so: 4-4-7-1 ok"),
        ("my locker PIN is 918273", "so: pin918273 ok"),
        ("my locker PIN is 918273", "so: 91 82 73 ok"),
        # A later adversary: four digits in pairs, any number in words.
        ("my phone pin is 4821", "so: 48 21 ok"),
        ("my gate code is 5091", "so: 50-91 ok"),
        ("my phone pin is 4821", "so: four eight two one ok"),
        ("my locker PIN is 918273", "so: nine one eight two seven three ok"),
        ("the garage code is 7395", "so: 7.3.9.5 ok"),
    ],
)
def test_a_secret_said_again_in_another_form_is_redacted(said: str, later: str) -> None:
    secrets = SaidSecrets()
    secrets.redact(said)
    cleaned, kinds = secrets.redact(later)
    assert cleaned.startswith("so: [REDACTED:") and cleaned.endswith("] ok") and kinds


def test_an_erased_code_leaves_a_price_alone() -> None:
    """Found by an adversary: erasing the locker code 4471 took "$44.71" out of a chat."""
    erasure = erasure_of(["My gym locker code is 4471"])
    assert erasure is not None
    said = "The gym locker rental was $44.71 this month"
    assert erasure.apply(said) == said and not erasure.found_in(said)
    assert erasure.apply("gym locker 4471 again") == "gym locker [erased] again"


def test_an_erased_message_leaves_a_name_in_parts_alone() -> None:
    """Found by a new user: erasing "namba ya siri ya M-Pesa ni 7391" took "M-Pesa" out of
    every chat ("paid … via [erased] paybill"), and the key of a fact still kept."""
    erasure = erasure_of(["namba ya siri ya M-Pesa ni 7391"])
    assert erasure is not None
    said = "paid KES 100,000 of the school fees today via M-Pesa paybill"
    assert erasure.apply(said) == said
    assert erasure.apply("my M-Pesa number 7391 again") == "my M-Pesa number [erased] again"


def test_an_erased_password_leaves_the_numbers_beside_it_in_other_chats() -> None:
    """Found by a new user, an engineer: erasing "Prod DB password is S3cr3t! (user app on
    db:5432)" took the port out of every chat about the database, and the durations out of
    a pasted log; each was named as still holding "its text or its code"."""
    erasure = erasure_of(["Prod DB password is S3cr3t! (user app on db:5432)"])
    assert erasure is not None
    for said in ("prod db on 5432 is slow again", "path=/refunds/5432 app user duration_ms=5432"):
        assert erasure.apply(said) == said and not erasure.found_in(said)
    assert "S3cr3t" not in erasure.apply("postgres://app:S3cr3t!@db:5432/prod")
    # Nor from a chat that holds the erased text itself (a second adversary's "open port
    # 8443 on the firewall" lost its port): the text goes whole, the secret everywhere.
    assert erasure.apply("open port 5432 on the firewall", discussed=True).endswith(
        "5432 on the firewall"
    )
    whole = "Prod DB password is S3cr3t! (user app on db:5432)"
    assert "5432" not in erasure.apply(f"/remember {whole}", discussed=True)


def test_an_erased_password_leaves_the_year_in_it_elsewhere() -> None:
    """Found by a new user, a parent: erasing "our wifi password is MapleLeaf!2026" took
    the year out of a pasted email's date in every chat, and named that email as holding
    "a number its text held"."""
    erasure = erasure_of(["our wifi password is MapleLeaf!2026"])
    assert erasure is not None
    said = "Sent: Monday, December 7, 2026 8:02 AM"
    assert erasure.apply(said) == said and not erasure.found_in(said)
    assert erasure.apply(said, discussed=True) == said
    assert "MapleLeaf" not in erasure.apply("the wifi is MapleLeaf!2026 now")
    # A code said whole is still erased where its words stand again.
    door = erasure_of(["my door code is 4821"])
    assert door is not None and door.apply("Your door code is 4821") == "Your door code is [erased]"


def test_a_code_beside_another_number_is_redacted() -> None:
    """Found by a fourth adversary: "I typed 4471 3 times" kept the door code."""
    secrets = SaidSecrets()
    secrets.redact("my door code is 4471")
    assert secrets.redact("I typed 4471 3 times")[0] == "I typed [REDACTED:code] 3 times"


def test_an_erased_passphrase_of_words_goes_from_every_chat() -> None:
    """Found by a fourth adversary: after erasing "my wifi password is correct horse battery
    staple", another chat kept it (and its joined form), and no warning named it."""
    erasure = erasure_of(["my wifi password is correct horse battery staple"])
    assert erasure is not None
    said = "I wrote correct horse battery staple and CorrectHorseBatteryStaple down"
    assert erasure.found_in(said)
    assert erasure.apply(said) == "I wrote [erased] and [erased] down"
    assert erasure.apply("a correct answer") == "a correct answer"


def test_a_pin_that_is_a_year_leaves_the_year_said_as_one() -> None:
    """Found by a fourth adversary: after "my pin is 1990", "I was born in 1990 in Porto"
    was saved as "I was born in [REDACTED:pin] in Porto"."""
    secrets = SaidSecrets()
    secrets.redact("my pin is 1990")
    said = "I was born in 1990 in Porto"
    assert secrets.redact(said) == (said, [])
    assert secrets.redact("the pin 1990 again")[0] == "the pin [REDACTED:pin] again"


_VALUE = st.text(alphabet="aZq4821-_ !", min_size=3, max_size=9)


@settings(max_examples=300, deadline=None)
@given(st.lists(_VALUE, min_size=1, max_size=6), st.text(alphabet="aZq4821-_ !.x", max_size=40))
def test_forms_grouped_by_their_first_letter_find_what_one_pattern_did(
    values: list[str], text: str
) -> None:
    """Grouping the forms by what they begin with (for speed: a pasted list of 3,000
    passwords took 25 s to save) finds and replaces what one alternation of them did."""
    forms = [
        form
        for value in sorted(set(values), key=len, reverse=True)
        if (form := value_form(value)) is not None
    ]
    grouped = forms_pattern(values)
    if not forms:
        assert grouped is None
        return
    assert grouped is not None
    one = re.compile("|".join(f"(?:{form})" for form in forms), re.IGNORECASE)
    assert replace_words(grouped, text, "#") == replace_words(one, text, "#")


def test_a_pasted_list_of_passwords_is_saved_with_each_one_redacted() -> None:
    """Found by an adversary: 3,000 lines of "account N password: …" took 25 s to save
    (`bench/turn_work.py --pastes` measures it); each is redacted, the words kept."""
    page = "\n".join(f"account {n} password: Zq{n}x!Kv{n}" for n in range(1_000))
    redacted, _kinds = SaidSecrets().redact(page)
    assert redacted.count("[REDACTED:") == 1_000 and "Zq" not in redacted
    assert redacted.count("account ") == 1_000


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="aZq4821ß-_ !", min_size=4, max_size=9), min_size=1, max_size=6),
    st.text(alphabet="aZq4821ßS-_ !.x", max_size=40),
)
def test_values_passed_over_by_their_letters_and_digits_would_find_nothing(
    values: list[str], text: str
) -> None:
    """A value whose letters and digits the text lacks is not looked for (a pasted list of
    6,000 passwords took 20 s to save): what is found is what every value's forms found."""
    pairs = [("secret", value) for value in values]
    found = said_again_with_kinds(text, pairs)
    with patch("agent.redact._may_be_said_in", return_value=True):
        assert found == said_again_with_kinds(text, pairs)
