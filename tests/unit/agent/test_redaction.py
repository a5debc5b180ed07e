"""Redaction: every real-format secret goes, every ordinary text stays exactly as it was."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.asked_secrets import holds_a_secret
from agent.redact import looks_secret, redact
from agent.secret_formats import luhn_valid
from tests.helpers.entries import written_entry
from tests.helpers.hostile import HOSTILE_TEXTS
from tests.unit.agent.secret_samples import ORDINARY, SECRETS, SENTENCES, with_luhn


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_each_secret_is_redacted_and_its_surroundings_kept(name: str) -> None:
    text, secret = SECRETS[name]
    cleaned, kinds = redact(f"Note for later: {text} (do not share)")
    assert secret not in cleaned
    assert kinds and "[REDACTED:" in cleaned
    assert cleaned.startswith("Note for later: ") and cleaned.endswith(" (do not share)")


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_untouched(text: str) -> None:
    assert redact(text) == (text, [])


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_the_hostile_corpus_is_untouched(text: str) -> None:
    assert redact(text) == (text, [])


@pytest.mark.parametrize("text", sorted(SENTENCES))
def test_several_secrets_in_one_message(text: str) -> None:
    gone, kept = SENTENCES[text]
    cleaned, _ = redact(text)
    assert not [secret for secret in gone if secret in cleaned]
    assert [words for words in kept if words not in cleaned] == []


def test_the_issue_examples() -> None:
    cleaned, kinds = redact("my password is: hunter2 and DB_PASSWORD=s3cr3t")
    assert cleaned == "my password is: [REDACTED:secret] and DB_PASSWORD=[REDACTED:secret]"
    assert kinds == ["secret"]
    cleaned, _ = redact("password: correct horse battery staple")
    assert cleaned == "password: [REDACTED:secret]"
    cleaned, _ = redact("the password for the wifi is sunflower42, ask Ana")
    assert cleaned == "the password for the wifi is [REDACTED:secret], ask Ana"
    cleaned, kinds = redact("connect to postgres://user:pw@host/db please")
    assert cleaned == "connect to postgres://user:[REDACTED:url-password]@host/db please"


def test_a_redacted_text_is_stable() -> None:
    for text, _ in SECRETS.values():
        once, _ = redact(text)
        assert redact(once)[0] == once


def test_luhn() -> None:
    assert luhn_valid("4111111111111111") and luhn_valid("378282246310005")
    assert not luhn_valid("4111111111111112")
    assert luhn_valid(with_luhn("510000000000000"))


@pytest.mark.parametrize(
    ("value", "secret"),
    [
        ("hunter2", True),
        ("0123456789abcdef0123", True),
        ("482913", True),
        ("Fake/FAKE+fake", True),
        ("patience", False),
        ("don't", False),
        ("v1", False),
        ("a noun", False),
        ("2024-01-01", False),
    ],
)
def test_what_looks_like_a_secret_after_a_weak_label(value: str, secret: bool) -> None:
    assert looks_secret(value) is secret


_PIECES = st.one_of(
    st.sampled_from([*ORDINARY, *HOSTILE_TEXTS, *(t for t, _ in SECRETS.values())]),
    st.text(max_size=12),
)


@settings(max_examples=300)
@given(
    st.sampled_from(sorted(SECRETS)), st.lists(_PIECES, max_size=3), st.lists(_PIECES, max_size=3)
)
def test_a_secret_is_redacted_whatever_surrounds_it(
    name: str, before: list[str], after: list[str]
) -> None:
    text, secret = SECRETS[name]
    cleaned, kinds = redact(" ".join([*before, text, *after]))
    assert secret not in cleaned and kinds


def test_a_card_number_after_an_alarm_time_is_redacted_whole() -> None:
    """Found by the property test above: "0700 5555" was read as the alarm's code, and
    the card number's other groups were kept."""
    cleaned, kinds = redact("changed the alarm to 0700 5555-5555-5555-4444")
    assert cleaned == "changed the alarm to 0700 [REDACTED:card-number]"
    assert kinds == ["card-number"]


def test_a_passphrase_stops_before_a_number_in_groups() -> None:
    """Found by the property test above: the passphrase ran on into a card number after
    other words and took its first group, leaving the rest."""
    text = "my wifi password is sunflower The show opens with 100 dancers 4111 1111 1111 1111"
    cleaned, kinds = redact(text)
    assert "1111" not in cleaned and sorted(kinds) == ["card-number", "secret"]


@settings(max_examples=300)
@given(st.text())
def test_any_text_is_redacted_without_error(text: str) -> None:
    cleaned, kinds = redact(text)
    assert isinstance(cleaned, str)
    assert bool(kinds) == (cleaned != text)


@pytest.mark.parametrize(
    "text",
    ["aB" * 40 + "key", "xY" * 30 + "Password=1", "Qq1" * 25 + "Token"],
    ids=["camel-key", "camel-password", "camel-token"],
)
def test_alternating_case_does_not_blow_up_the_label_pattern(text: str) -> None:
    # These took seconds to ages (backtracking doubles with each letter pair). In a child
    # process, so a regression fails here instead of hanging the suite.
    script = f"from agent.redact import redact; print(redact({text!r})[1])"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() in ("[]", "['secret']")


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Mein Passwort ist Geheim123", "Geheim123"),
        ("Mein Kennwort: x9Y!pq", "x9Y!pq"),
        ("mot de passe : soleil2024", "soleil2024"),
        ("mi contraseña es perro1234", "perro1234"),
        ("minha senha é gato5678", "gato5678"),
        ("mijn wachtwoord is hond4321", "hond4321"),
        ("мой пароль: кот12345", "кот12345"),
        # Found by the second adversary: connecting words, verbs and dashes of their own,
        # and labels with an ending attached.
        ("Mein Passwort lautet Sommer2024", "Sommer2024"),
        ("Das Passwort für das WLAN ist hallo123", "hallo123"),
        ("le mot de passe du wifi est soleil42", "soleil42"),
        ("Mon mot de passe, c'est soleil42", "soleil42"),
        ("la contraseña del wifi es gato123", "gato123"),
        ("a senha do wifi é gato123", "gato123"),
        ("Moje hasło to kot123", "kot123"),
        ("Hasło do wifi: kot123", "kot123"),
        ("Мой пароль — кот123", "кот123"),
        ("Пароль от почты: qwerty123", "qwerty123"),
        ("salasanani on kissa123", "kissa123"),
        ("lösenordet är katt123", "katt123"),
        ("adgangskoden er hund123", "hund123"),
        ("Das WLAN-Passwort lautet hallo123", "hallo123"),
        # Found by a new user: Spanish "clave" (key) said of a password.
        ("la clave del wifi es Mariposa2020 (para la abuela)", "Mariposa2020"),
        ("mi clave es Gato1234", "Gato1234"),
    ],
)
def test_a_password_label_in_another_language_is_redacted(text: str, secret: str) -> None:
    """Found by an adversary: each was stored as said, and /remember made its key of it,
    shown in every list and "did you mean"."""
    from agent.commands import key_for

    redacted, kinds = redact(text)
    assert secret not in redacted and kinds == ["secret"]
    assert secret.lower() not in key_for(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ich habe das Passwort vergessen",
        "La clave del éxito es la paciencia",
        "la clave del wifi es muy larga",
        "Das Wort ist gut",
        "The passport is in the drawer",
        # Found by the second adversary: "on" read as Finnish "is" took English words, and
        # descriptions in the other languages were taken for passwords.
        "I reset my password on GitHub yesterday",
        "My password on Netflix got hacked",
        "Use the passphrase on Slack",
        "Mein Passwort ist zu kurz",
        "Mein Passwort ist abgelaufen",
        "Das Passwort ist leider falsch",
        "Le mot de passe est trop court",
        "Le mot de passe est le même",
        "La contraseña es incorrecta",
        "La contraseña es la misma que antes",
        "Mijn wachtwoord is verlopen",
        # Codes that open nothing, in other languages.
        "el código postal es 28001",
        "Der Postcode ist 12345",
        "der Fehlercode ist 404",
        "Le code promo est SUMMER20",
        "el código de barras es 5601234",
        "the wifi is now working",
        "the zip code's 10115",
        "the code's 200 lines long",
        "the door is still 200 years old",
        "I tried 2 on the keypad menu",
        "what is the wifi password?",
        "This is the password for the router",
        "Tom is the password keeper",
        "wifi password too, please",
        "wifi password here and there",
        "wifi password reset and now it works",
        "turn left 3 times then right 2",
        "the keypad takes 4 AA batteries",
        "the gate has been 200 years there",
        "el código postal sigue siendo 28001",
        "the wifi, it's down again since 2019",
        "the wifi's been slow, its now fixed after 5 calls",
    ],
)
def test_words_near_a_password_label_are_not_taken_for_one(text: str) -> None:
    assert redact(text) == (text, [])


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # Found by the fifth adversary: each was saved, listed and made a session title as said.
        ("I changed my bank password to Blue42horse yesterday", "Blue42horse"),
        ("set the password to hunter2", "hunter2"),
        ("the password I use everywhere is hunter2", "hunter2"),
        ("I use hunter2 as my password", "hunter2"),
        ("My password's hunter2", "hunter2"),
        ("my password, hunter2, is weak", "hunter2"),
        ("my pass word is hunter2", "hunter2"),
        ("mypassword is hunter2", "hunter2"),
        ("my p@ssword is hunter2", "hunter2"),
        ("my ｐａｓｓｗｏｒｄ is hunter2", "hunter2"),
        ("password hunter2", "hunter2"),
        ("password→hunter2", "hunter2"),
        ("my gmail pw: qwerty", "qwerty"),
        ("pw hunter2!", "hunter2"),
        ("the login for the bank is user ana pass Tr0ub4dor&3", "Tr0ub4dor&3"),
        ("login: ana / hunter2", "hunter2"),
        # Found by an adversary: a code or a password said with a word between, or after
        # what it does; each was kept as typed and shown to the model.
        ("door code is still 4321", "4321"),
        ("door code remains 6544", "6544"),
        ("the door code is currently 6545", "6545"),
        ("the door code stays 6546", "6546"),
        ("the alarm code is also 6549", "6549"),
        ("my pin is currently 1357", "1357"),
        ("my bank pin is also 2468", "2468"),
        ("the password remains BlueSky77", "BlueSky77"),
        ("the safe code is probably 1122", "1122"),
        ("the padlock code should be 7788", "7788"),
        ("the code's 2580 btw", "2580"),
        ("tried 5555 on the keypad and it worked", "5555"),
        ("passcode for phone 246810", "246810"),
        ("use 7734 to get in the building", "7734"),
        ("it's 4590, the door code I mean", "4590"),
        ("key safe: zero four one one", "zero four one one"),
        ("la combinación del candado es 5-5-1-2", "5-5-1-2"),
        ("A palavra-passe do email é Sol2024#", "Sol2024"),
        # A second adversary: "still" in other languages.
        ("Türcode ist immer noch 4330", "4330"),
        ("der PIN ist weiterhin 5335", "5335"),
        ("le code de la porte est toujours 4331", "4331"),
        ("il codice del cancello è ancora 4332", "4332"),
        ("o código da porta continua 4333", "4333"),
        ("el código de la puerta sigue siendo 5334", "5334"),
        ("la contraseña sigue siendo gato123", "gato123"),
        # A second adversary: other verbs, and what it opens after.
        ("the keypad takes 4325", "4325"),
        ("it's 4329 for the gate", "4329"),
        ("neighbor gave me the code, 8080", "8080"),
        ("the lockbox has been 5678 since June", "5678"),
        ("wifi password sunflower and the router is in the hall", "sunflower"),
        ("safe combo is left 32 right 14 left 8", "left 32 right 14"),
        # A second adversary: the value first, a plain word.
        ("bluefish is the wifi password for the Graz flat", "bluefish"),
        # Found by a new user, a photographer: a changed code or wifi said as it is now.
        ("storage unit code changed again, 9034 now", "9034"),
        ("changed the studio wifi, its now Kelpie-Shutter-77", "Kelpie-Shutter-77"),
        ("wifi is now Kelpie77!", "Kelpie77"),
        ("studio wifi - its Kelpie-Shutter-77", "Kelpie-Shutter-77"),
        # A password with spaces ending its line or sentence (it left "word 99").
        ("netflix login: anna@x.com / Pass word 99", "word 99"),
        ("netflix login: anna@x.com / Pass word 99. Thanks", "word 99"),
        ("password:\nhunter2", "hunter2"),
        ("bank login:\npassword:\nTr0ub4dor&3", "Tr0ub4dor&3"),
        ("my door passcode is 1234 5678", "5678"),
        ("My cvv is 123 and the card expires 12/27", "123"),
        ("credit card 4111 1111 1111 1111 exp 12/27 cvv 123", "cvv 123"),
        ("ssn 123-45-6789", "6789"),
        # Found by the sixth adversary.
        ("My password has been changed to Rex2019", "Rex2019"),
        ("My new password is now Rex2019", "Rex2019"),
        ("my new password will be hunter2", "hunter2"),
        ("hunter2 is my password", "hunter2"),
        ("passwords: hunter2, swordfish", "hunter2"),
        ("Password:\n\nhunter2", "hunter2"),
        ("Password | Rex2019", "Rex2019"),
        ("<password>hunter2</password>", "hunter2"),
        ("mysql -u root -phunter2", "hunter2"),
        ("apikey abc123def456ghi789jkl", "abc123def456ghi789jkl"),
        ("pässword: hunter2", "hunter2"),
        ("Pa55word: hunter2", "hunter2"),
        ("pass-word: hunter2", "hunter2"),
        ("passwort hunter2", "hunter2"),
        ("the wifi key is purplemonkey", "purplemonkey"),
        ("My PIN's 4821", "4821"),
        ("PIN #: 4821", "4821"),
        ("card pin 4821", "4821"),
        ("my social is 123-45-6789", "6789"),
        ("SSN: 123 - 45 - 6789", "6789"),
        ("My ssn = 123.45.6789", "6789"),
        ("call me re 123-45-6789", "6789"),
        ("I updated the password; it is now Rex2019", "Rex2019"),
        ("Changed my wifi password, the new one is Blue42horse", "Blue42horse"),
        # Found by the seventh adversary.
        ("the door code is 4821", "4821"),
        ("Our alarm code: 1 2 3 4", "1 2 3 4"),
        ("the safe combination is 12-34-56", "12-34-56"),
        ("garage code was 0000", "0000"),
        ("my PIN 1234", "1234"),
        ("PIN is 987654", "987654"),
        ("btw the door code for our building is 4471, Jamie keeps forgetting it", "4471"),
        ("the combination to the safe is 12-34-56", "12-34-56"),
        # Found by the ninth adversary and new user.
        ("my gmail password there is Qwerty!234", "Qwerty!234"),
        ("the wifi password, which is Zebra77!, stopped working", "Zebra77"),
        ("my pin changed to 6612", "6612"),
        ("my locker combination is 12-34-56", "12-34-56"),
        ("my password? it's Blue42horse", "Blue42horse"),
        ("My password? It is hunter2!", "hunter2"),
        ("my password is the name of my dog, Rex2019", "Rex2019"),
        ("My password is the birth year of my son: 2019Max", "2019Max"),
        # Found by the tenth new user: what the code is for, said in more words.
        ("The door code for the new flat is 4821 and the wifi password is Alva#25", "4821"),
        ("the door code at mum's house is 1234", "1234"),
        ("The alarm code at work is 8080", "8080"),
        ("The gate code at the back of the building is now 5566", "5566"),
        ("The code for the door of the new flat is 4821", "4821"),
        ("The PIN for my new card is 1234", "1234"),
        ("My PIN for the bank card is 5512", "5512"),
        # Found by the tenth adversary.
        ("my bank pin, which is 7391, is new", "7391"),
        ("vault code is 445566 and the door is fine", "445566"),
        ("phone unlock is 2580", "2580"),
        ("my phone unlock code is 2580", "2580"),
        ("my Password\u200b is zerowidth123", "zerowidth123"),
        ("IBAN DE89 3704 0044 0532 0130 00", "3704 0044"),
        ("My IBAN is PT50 0002 0123 1234 5678 9015 4", "1234 5678"),
        ("wire it to GB82WEST12345698765432 please", "GB82WEST"),
        # Found by the tenth round's second adversary.
        ("card 4111.1111.1111.1111 expires soon", "4111.1111"),
        ("card 4111_1111_1111_1111", "4111_1111"),
        ("iban de89 3704 0044 0532 0130 00", "3704 0044"),
        ("IBAN DE89-3704-0044-0532-0130-00", "3704-0044"),
        ("door code -> 4821", "4821"),
        ("door-code: 4821", "4821"),
        ("doorcode 4821", "4821"),
        ("door code:\n4821", "4821"),
        # Found by the eleventh round's adversary.
        ("my PIN number's 3345 for the bank card", "3345"),
        ("gate code #4471*", "4471"),
        ("the garage opener combo is 9-1-7-3", "9-1-7-3"),
        ("the wifi key at grandma's is Sunflower2024!", "Sunflower2024"),
        ("the lockbox code is 2580", "2580"),
        ("my wifi is Sunflower2024!", "Sunflower2024"),
        ("The key box combo is 4455", "4455"),
        # Found by the eleventh round's second adversary.
        ("Keypad: *4471# and the lockbox: 5521", "4471"),
        ("Keypad: *4471# and the lockbox: 5521", "5521"),
        ("gate code: *4471", "4471"),
        ("gate: 4471", "4471"),
        ("Front door: 8812#", "8812"),
        ("The door code changed to 8812", "8812"),
        ("Use 8812 for the front door", "8812"),
        ("Access code 4471", "4471"),
        ("The intercom code is 4471", "4471"),
        ("Buzz 4471 at the gate", "4471"),
        ("The lock box code changed to 2580", "2580"),
        ("lock box 2580", "2580"),
        ("Code to the key safe: 2580", "2580"),
        ("key lockbox at the back: 2580", "2580"),
        ("The alarm is 4471, disarm on entry", "4471"),
        ("pin is 44-71", "44-71"),
        ("Sim pin 1234, puk 12345678", "12345678"),
        ("the guest wifi is guestpass2024", "guestpass2024"),
        ("the wifi's Hunter2Blue", "Hunter2Blue"),
        ("WLAN-Schlüssel: sonnenblume77", "sonnenblume77"),
        ("El código de la puerta es 4471", "4471"),
        ("Le code de la porte est 4471", "4471"),
        # Found by the twelfth round's adversary.
        ("The door code is 4471. Again: 4471!", "4471"),
        ("my password is hunter2x, I said hunter2x", "hunter2x"),
        ("codes: door 8264, gate 9912", "8264"),
        ("codes: door 8264, gate 9912", "9912"),
        ("Garage remote code 8812#", "8812"),
        ("the gate opens with 4471", "4471"),
        ("token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc123", "eyJzdWIiOiIxMjM0In0"),
        # Found by the twelfth round's second adversary.
        ("codes: door 8264, gate 9912, shed 1234", "1234"),
        ("codes: door 8264, gate 9912, garage 7731, shed 1234, attic 5555", "5555"),
        ("pin 4471 for the new card", "4471"),
        ("my password is Hunter2x and my old one was hunter2x", "hunter2x"),
        ("remember the storage unit code is 5823", "5823"),
        ("the mailbox code is 5823", "5823"),
        ("it opens with the code 4471", "4471"),
        ("the lock opens with 4 4 7 1", "4 4 7 1"),
        # Found by the property test in CI: a PIN's code rule took a card's first group.
        ("my PIN code is 4-8-2-1 4111 1111 1111 1111 000", "1111 1111 1111"),
        # Found by the thirteenth round's adversary.
        ("codes: 1111, 2222, 3333", "1111"),
        ("codes: 1111, 2222 and 3333", "2222"),
        ("backup codes: 4821-1122, 9981-2231, 7712-0099", "9981-2231"),
        ("my 2FA backup codes are 48211122 99812231 77120099", "77120099"),
        ("Codes - door 8264, gate 9912, shed 1234", "8264"),
        ("codes: front door 8264; back door 9912", "9912"),
        ("mailbox: 5823", "5823"),
        ("the code for the mailbox is 5823", "5823"),
        ("5823 is the mailbox code", "5823"),
        ("PIN for the new card: 4471", "4471"),
        # A later adversary: a PIN in groups was stored as said.
        ("My SIM PIN is 918-273.", "273"),
        ("my pin is 12-34-56", "34"),
        ("PIN: 918 273", "273"),
        ("my PIN is 91 82 73", "73"),
        ("my pin is 1234 5678", "5678"),
        ("the PIN for my new card is 12 34 56", "56"),
        # A fourth adversary.
        ("my pin is 12 34 56 78 90", "90"),
        ("pin no. 4321", "4321"),
        ("pin nr 4321", "4321"),
        ("PIN \u2013 4321", "4321"),
        ("pin is now 4321", "4321"),
        ("Pin-Nummer: 4321", "4321"),
        ("opens with code 4471", "4471"),
        ("unlock with 4471", "4471"),
        ("garage remote: 8812#", "8812"),
        ("key for the wifi: Sunny-Day-2024", "Sunny-Day-2024"),
        ("my password was hunter2 and now it's hunter3", "hunter3"),
        ("My bank PIN is four four seven one", "four four seven one"),
        # Found by the thirteenth round's second adversary and new user.
        ("the backup codes are ABCD-1234, EFGH-5678", "EFGH-5678"),
        ("recovery codes: a1b2c3d4 e5f6g7h8", "a1b2c3d4"),
        ("研究室のドアの暗証番号は 8642 です", "8642"),
        ("パスワードは Sakura!2026 です", "Sakura!2026"),
        # Found by an adversary: each stored and written to the chat's file as typed.
        ("4821 — bank card pin", "4821"),
        ("6614 - debit card PIN", "6614"),
        ("4821 — alarm code", "4821"),
        ("service,pin\nbank card,5093", "5093"),
        ("service,code\nalarm,4821\ngate,1357", "1357"),
        ("मेरा पिन 4821 है", "4821"),
        ("मेरा पासवर्ड Tembo2024 है", "Tembo2024"),
        ("Nenosiri langu ni Tembo2024", "Tembo2024"),
        ("nambari ya siri 4821", "4821"),
        ("senha do banco 4821", "4821"),
        ("mot de passe wifi Chat1234", "Chat1234"),
        ("my phone unlock pattern is 7395", "7395"),
        ("2FA code 482913", "482913"),
        ("to disarm press 4821", "4821"),
        # Found by a new user writing in Korean: each kept as typed, one shown to the model.
        ("우리은행 앱 PIN은 482913이야, 자꾸 까먹어", "482913"),
        ("PIN이 771234", "771234"),
        ("PINは4821です", "4821"),
        ("PIN 번호는 4821", "4821"),
        ("카드 비번 4829", "4829"),
        ("폰 잠금 비번은 0412", "0412"),
        ("와이파이 비번은 Zebra1234", "Zebra1234"),
        ("핀번호 4821", "4821"),
        ("카드 비밀번호 4자리 1234", "1234"),
        # A second adversary: each kept as typed, the first shown to the model.
        ("PIN이 4821이었는데 4822로 바꿨어", "4822"),
        ("카드 PIN 코드 4821", "4821"),
        ("은행 인증번호 482913", "482913"),
        ("OTP는 482913", "482913"),
        ("4821 = bank pin", "4821"),
        ("site,user,pass\ngmail,bob,Tiger99", "Tiger99"),
        ("site,user,pwd\ngmail,bob,Tiger99", "Tiger99"),
        ("PIN 번호 4821", "4821"),
        ("PIN을 4821로 바꿨어", "4821"),
        ("핀은 4821", "4821"),
        ("카드 비밀번호 네 자리 4821", "4821"),
        ("The wifi password used to be abc12345 and now it's xyz98765", "abc12345"),
        ("Qw3rtZx9v2 is the new one", "Qw3rtZx9v2"),
        ("what's my pin? oh right, 4471", "4471"),
        ("the pin? 4471", "4471"),
        ("unlock it with 4471", "4471"),
        ("to unlock use 4471", "4471"),
        # Found while fixing a key safe code changed in chat: kept as typed.
        ("my password is now sunflower", "sunflower"),
        ("my wifi password is now: bluebird", "bluebird"),
        ("reset my bank password today, new one is Xk29!!pq", "Xk29!!pq"),
        ("wifi password sunflower", "sunflower"),
        ("the guest wifi pw bluebird", "bluebird"),
        ("SSID: Home5G Key: sunflower", "sunflower"),
        ("login is ana / hunter4", "hunter4"),
        ("router admin / admin123", "admin123"),
        ("security question first pet: Rex", "Rex"),
        ("unlock code 4471", "4471"),
        ("Her PIN is 1234 and mine is 5678", "5678"),
        ("my PIN is 4471. My wife's is 9911.", "9911"),
        ("The combination is 3719", "3719"),
        ("the security code on the back is 123", "123"),
        # A PUK's digits in groups, as printed on the SIM card's holder.
        ("My PIN is 4471 and my puk is 1234 5678", "5678"),
        ("puk 1234-5678", "1234-5678"),
        ("puk2: 12 34 56 78", "12 34 56 78"),
        ("the puk is now 87654321", "87654321"),
        ("puk 1234 5678 9 tries left", "5678"),
        # Found by a later adversary: each kept as said.
        ("the key code for the office is 4821", "4821"),
        ("the code for the office is 4821", "4821"),
        ("security answer: Fluffy", "Fluffy"),
        (
            "my seed phrase is apple banana cherry dog echo fox golf hotel india juliet kilo lima",
            "kilo lima",
        ),
        ("recovery phrase: abandon ability able about above absent absorb abstract", "abstract"),
        # A second adversary of the round.
        ("the code to get in is 5521", "5521"),
        ("the code to get into the flat is 5530", "5530"),
        ("building entry 3390#", "3390"),
        ("answer to security question: Rover", "Rover"),
        ("security question answer is Rover", "Rover"),
        ("my mother's maiden name is Smithson", "Smithson"),
        # A third adversary.
        ('the door code is "4821"', "4821"),
        ("the code is \u201c4821\u201d", "4821"),
        ("my memorable word is sunflower", "sunflower"),
    ],
)
def test_a_password_in_an_everyday_wording_is_redacted(text: str, secret: str) -> None:
    redacted, kinds = redact(text)
    assert secret not in redacted and kinds


@pytest.mark.parametrize(
    "text",
    [
        "I need to reset my password to access email",
        "I forgot my password to the bank",
        "Set the password to something long",
        "The password I chose is weak",
        "my password, however, is long",
        "PW is my initials",
        "pass the salt please",
        "I passed the exam in 2019",
        "The passcode is 4 digits long",
        "Use it as my password manager",
        # Found by the sixth adversary: each lost words.
        "I hope I pass tomorrow's exam",
        "Can you pass Ronaldo's autobiography?",
        "Will I pass Friday's driving test?",
        "The key is Ronaldo's speed",
        "Type pwd to see the current directory: /home/ana",
        "My password:\nI forgot it again",
        "pw: I have no idea what my pw is",
        "My password is Seventeen characters long",
        'Never use "password" as your password',
        "The password is case-sensitive.",
        "I changed my password, it is safer now",
        "The password expired. It is Monday.",
        # Found by the seventh adversary: a number of that shape that names something else.
        "my order number 123-45-6789 has not arrived",
        "Invoice #: 123-45-6789",
        "call me at 123-45-6789 ext 12",
        "pin 3 of the chip is ground",
        "the door code is on the fridge",
        "The door code for 3 people is not enough",
        "I changed the door code for the flat 3 times",
        "I pin for the team 2024 goals",
        "I unlock my phone 2580 times a day",
        # Found by the tenth round's second adversary: each lost a number or words.
        "The door code for the office changed in 2019",
        "version 4111.1111.1111.1112",  # a card's shape, not its check digit
        "ab12-cd34-ef56-gh78 is the licence key format",
        "The gate code for the event was printed on 2025-06-01 tickets",
        "My password is from 2019",
        "My password is older than 2 years",
        "The password is due for renewal in March",
        "Order AB12 3456 7890 1234 5 shipped",  # an IBAN's shape, not its check digits
        "ISO 8601 dates like 2024-03-15",
        "Pinned 1234 messages",
        "pwd: /home/ana/projects",
        "the code to the door is on the fridge",
        "the password there is required",
        "my password for work is long",
        "my password is the name of my dog, which is easy to guess",
        "My password? It is long enough, I think.",
        "my wifi is slow again",
        "the wifi at the office is down today",
        "the password at work is required",
        "alarm: 0420",  # a time to wake as often as a code
        "my PIN number's on the card",
        "Bike lock combination 0420",  # asked back later: kept
        "The garage is 600 meters long",
        "The door is 200 cm wide",
        "The vault is 300 years old",
        "Gate: 4 hours delay",
        "Pin 5 on the Arduino",
        "Zip code 94110",
        "Room 4471",
        "Use 2 eggs for the cake",
        "my wifi is Netgear",
        "zip codes: 10115, 10117",
        "promo codes are SAVE10 and 2024",
        "area codes - 030, 040",
        "The mailbox is 30 meters away",
        "2019 is the year I married",
        "the password was easy and now it is better",
        "SKU codes: 10001, 10002",
        "unlock with 2024 update",
        "codes: the 2FA app and the backup sheet",
        "パスワードは秘密です",
        "the pin? I forgot it",
        "The year 2019 is the new one",
        "The combination of colours is nice",
        "unlock the door at 9",
        "security is important",
        "recovery is slow",
        "I backup my files",
        "seed the lawn in spring",
        "my backup words are in the safe",
        "the code for the house is on the fridge",
        "Our house is 200 years old",
        "I need the code to get in",
        "the answer to the question is 42",
        "my mother is called Ana",
        "building entry 3 hours",
        'he said "4821 people came"',
        "I said 'hi' at 4821 Main St",
        "my password is now changed",
        "my password is still the same",
        "My password is now 16 characters long",
        "the password is still secret",
        "wifi password reset",
        "wifi password please",
        "network key help",
        "the SSID is Home5G, keyboard: us",
        "account 12345 / sort code 20-00-00",
        "admin / root access for Tom",
        "route A/B testing",
        "Codice del prodotto 7788",
        "el código postal es 46001",
        "la puerta mide 2100 mm",
        "tengo una cita a las cinco",
        "the zip code, it is 10115",
        "I wrote the code, it's 300 lines",
        "la clave es importante",
        "the dress code - it is 1920s style",
        "garage 120 sqm",
        "Tor 2024 ist das Jahr",
        "the port 8080 is open",
        "Bike lock combination is 3-7-1-9",
        "My locker number is 417",  # an adversary's key became "…_redacted_…"
        "the door number is 221",
        "Tor: 2024 Endspiel in Berlin",
        "Il codice del corso è 2024 per iscriversi",
        "code du produit 12345",
        "promo code is SAVE20",
        "the error code is E404",
        "my postcode is D02X285",
        "Flight code is EI123",
        "le digicode est cassé",
        "the dress code changed from formal to casual",
        "meeting 1430 - debit card team",
        "2024 - bank card pin changed",
        "2024 - project code",
        "0404 - error code",
        "id,code\n1,404\n2,500",
        "item,price\nbread,2.50\nmilk,1200",
        "senha do wifi nova",
        "2FA code expired",
        # A second adversary saw each year redacted as a PIN, and a postal code.
        "PIN은 2026년에 바꿔야 해",
        "비번은 2026년에 바꿨어",
        "PINは2026年に変更",
        "date,pin code,city\n2024-01-02,560001,Bangalore",
        "핀 꽂아",
        "비번이 뭐였지?",  # "what was the password?"
        "내일 비번이야, 12월 18일 오후 3시 치과",  # 비번 also says a day off duty
        "PIN이 뭐야?",
        "우리은행 PIN 바꿔야 해",
    ],
)
def test_the_same_wordings_about_passwords_are_kept(text: str) -> None:
    assert redact(text) == (text, [])


def test_secrets_of_several_kinds_in_one_message_are_each_redacted_in_place() -> None:
    """Found by the ninth adversary: one kind replaced first moved the other's place, and
    "badge code is 7731" lost "de i" instead of the code."""
    text = "At Hooli my password there is Tr0ub4dor&3 and the badge code is 7731, ok?"
    assert redact(text)[0] == (
        "At Hooli my password there is [REDACTED:secret] and the badge code is [REDACTED:code], ok?"
    )


def test_a_value_after_a_backslash_is_redacted_whole() -> None:
    """Found by an adversary: "my password is\\hunter22" became "my password
    [REDACTED:secret]]", the word "is" eaten and a bracket left over."""
    assert redact("my password is\\hunter22") == ("my password is[REDACTED:secret]", ["secret"])
    assert redact("pw is\\nfoo99")[0] == "pw is[REDACTED:secret]"


def test_a_year_or_a_time_beside_a_code_is_kept() -> None:
    """The other numbers of a code's sentence go (a second adversary), not its year or time."""
    assert redact("door code 4471 since 2019")[0] == "door code [REDACTED:code] since 2019"
    assert redact("door code 4471, arriving 14/12 at 1530")[0] == (
        "door code [REDACTED:code], arriving 14/12 at 1530"
    )
    assert "087 123 4567" in redact("door code 4471, call 087 123 4567 if stuck")[0]
    # A second adversary: a number on the next line, or a year the code expires or a thing
    # is from, is no code beside it.
    assert redact("my netflix pin: 4387\nlaptop is grey 2020")[0].endswith("laptop is grey 2020")
    assert redact("pin: 4387\n2020 was a good year")[0].endswith("\n2020 was a good year")
    assert redact("my card pin 1234 expires 2027")[0].endswith("expires 2027")
    assert redact("PIN karty to 1234, a rok 2019")[0].endswith("a rok 2019")


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Der Alarmcode wurde auf 8080 geändert", "8080"),
        ("Das WLAN-Passwort wurde auf Blume22 geändert", "Blume22"),
        ("Der neue Code für die Garage ist 7788", "7788"),
        ("Le mot de passe wifi est tulip77", "tulip77"),
        ("O código do portão mudou para 1357", "1357"),
        ("el código es 1357", "1357"),
        ("le code est 1357", "1357"),
        ("o código é 1357", "1357"),
        ("Mein Zugangscode ist 4471", "4471"),
        ("keypad 2580 for the bins", "2580"),
        ("the gate code is now one three five seven", "one three five seven"),
        # A sixth trial.
        ("Passwort geändert zu Katze99", "Katze99"),
        ("Meine Geheimzahl ist 6060", "6060"),
        ("Il codice del cancello è 7788", "7788"),
        ("Garage opener: 4417", "4417"),
        ("the padlock is set to 1 9 8 4", "1 9 8 4"),
        # A translator in Valencia: a PIN, a label with no verb, number words.
        ("Il PIN del bancomat è 9090", "9090"),
        ("Meu PIN é 4455", "4455"),
        ("el PIN del banco es 9911", "9911"),
        ("PIN del banco: 9911", "9911"),
        ("mi pin del banco ha cambiado a 1122", "1122"),
        ("Codice del cancello 7788", "7788"),
        ("Código de la puerta 2580", "2580"),
        ("mi pin es uno dos tres cuatro", "uno dos tres cuatro"),
        ("Mein PIN ist vier vier sieben eins", "vier vier sieben eins"),
        ("he cambiado el pin de bbva, ahora es 5408", "5408"),
        ("changed my bbva app pin, the new one is 6620", "6620"),
        ("tarjeta nueva: clave 8812", "8812"),
        ("el código de la puerta del portal es 1379", "1379"),
        # A seventh adversary.
        ("Tante Ute's house: Türcode 5858, she lives in Kiel", "5858"),
        ("Torcode 3434", "3434"),
        ("Alarmanlage: 7788", "7788"),
        ("le digicode de Lyon est 7A42B", "7A42B"),
        ("Pour la maison de Nice, le digicode est 4B12", "4B12"),
        ("il codice del cancello a Rimini è 2233", "2233"),
        ("o PIN do cartão é 5678", "5678"),
        ("puerta: 2580", "2580"),
        ("code porte 3B77A", "3B77A"),
        ("code d'entrée 2208", "2208"),
        ("Schlüsselbox Code 5151", "5151"),
        # A new user, a pharmacist in Lyon: a digicode with letters, said in English.
        ("remember the digicode for our building is 4B719", "4B719"),
        ("the syndic changed the digicode, new code is 7C402", "7C402"),
        ("code du portail de l'école is 1379 for pickup", "1379"),
        ("the door code is 4B719", "4B719"),
        # A third adversary: both codes of a change.
        ("the shed padlock combo changed from 4321 to 8765", "4321"),
        ("the shed padlock combo changed from 4321 to 8765", "8765"),
        # A new user, an allotment's secretary: words between the lock and its new code.
        ("padlock code on the shed changed today to 9023, the old one got out", "9023"),
        ("changed the shed padlock to 3390 today", "3390"),
        ("I changed the alarm code again to 4471", "4471"),
        ("changed the front door lock yesterday to 55812", "55812"),
        # An adversary on those rules, and a new user, a plumber.
        ("I changed the alarm code from 3344 to 5566", "3344"),
        ("I changed the alarm code from 3344 to 5566", "5566"),
        ("pin for the storage unit 5581", "5581"),
        ("code for the bin store is 55-81", "55-81"),
        ("the wifi at the cabin uses password 77-19-44", "77-19-44"),
        ("key safe at the cottage - code 8080", "8080"),
        # A new user, an electrician: a lock, what it is of, then its code, as a note.
        ("Schluesselsafe Baustelle Nowak Code 4711", "4711"),
        ("Der Schlüsselsafe an der Baustelle Meier hat den Code 9911", "9911"),
        ("remember key safe at the Meier site code 9911", "9911"),
        ("Boat padlock code 4B 719", "4B 719"),
        ('Chalet wifi: network ChaletNet, password "p@ss w0rd 99"', "p@ss w0rd 99"),
        ("Villa PIN four four seven one", "four four seven one"),
        ("Barn door code is 4471, or 4472 if that fails", "4472"),
        ("plumbcenter changed my trade counter pin its 5096 now", "5096"),
        # A second adversary: the other codes of the sentence, and more wordings.
        ("the PIN is 4471 - no wait, 4417", "4417"),
        ("I changed the alarm code from 4471 to 9932, and the shed from 1212 to 3434", "1212"),
        ("I changed the alarm code from 4471 to 9932, and the shed from 1212 to 3434", "3434"),
        ("pin 1111 for the shed and 2222 for the garage", "2222"),
        ("alarm code 2468 (backup 1359)", "1359"),
        ("alarm: 2580 (was 1470)", "1470"),
        ("safe code 4-4-7-1, old one 9-9-1-1", "9-9-1-1"),
        ("the code is 4471 not 4417", "4417"),
        ("padlock combo 0-4-9", "0-4-9"),
        ("locker 212, combo 1-2-3", "1-2-3"),
        ("Ich habe den Alarmcode auf 8888 geändert", "8888"),
        ("Mudei o código do alarme para 5555", "5555"),
        ("pw for the nas: Tr0ub4dor&3", "Tr0ub4dor&3"),
        ("Wi-Fi: network Casa, key sunshine2024", "sunshine2024"),
        ("Code 55-81 for the bin store", "55-81"),
        ("pin 12 34 for the bike shed", "12 34"),
        ("password 'blue horse staple' for the NAS", "blue horse staple"),
        ("8080 opens the cottage key safe", "8080"),
        ("Code is 4B-719 for the boat", "4B-719"),
        ("Casa al mare: codice del cancello 3333, password wifi spiaggia9", "spiaggia9"),
        ("contraseña del wifi mar2024", "mar2024"),
        ("I set the pin to 2 4 6 8 0", "2 4 6 8 0"),
    ],
)
def test_a_code_said_changed_or_in_another_language_is_redacted(text: str, secret: str) -> None:
    """Found by an adversary: each was stored, and written to the chat file, as typed."""
    redacted, kinds = redact(text)
    assert secret not in redacted and kinds


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("**password:** hunter22", "**password:** [REDACTED:secret]"),
        ("- **wifi password**: Blume22", "- **wifi password**: [REDACTED:secret]"),
        ("__pin__: 4821", "__pin__: [REDACTED:pin]"),
        ("**Door code:** 4471", "**Door code:** [REDACTED:code]"),
        (
            "You said: *la contraseña del correo es perro123*",
            "You said: *la contraseña del correo es [REDACTED:secret]*",
        ),
        ("my password is hunter2*", "my password is [REDACTED:secret]"),
    ],
)
def test_markdown_emphasis_neither_hides_a_label_nor_goes_with_the_secret(
    text: str, redacted: str
) -> None:
    """Found by a new user, a translator: a reply's "**Password:** hunter22" was kept
    whole, and a reopened chat showed "You said: *la contraseña del correo es
    [REDACTED:secret]" with its closing mark taken as the password's."""
    assert redact(text)[0] == redacted


def test_an_amount_or_a_year_beside_a_code_keeps_its_number() -> None:
    """Found by a second adversary: each was saved as "[REDACTED:code]"."""
    assert redact("the door code is 1111 and the rent is 1200") == (
        "the door code is [REDACTED:code] and the rent is 1200",
        ["code"],
    )
    assert redact("the door code is 1119 and Anna's birthday is 1985")[0].endswith("is 1985")
    assert "2222" not in redact("pin 1111 for the shed and 2222 for the garage")[0]
    assert redact("Wedding 14 Aug 2027, gate code 5521")[0] == (
        "Wedding 14 Aug 2027, gate code [REDACTED:code]"
    )


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("access code 55#21", "access code [REDACTED:code]"),
        ("gate access code is 55#21", "gate access code is [REDACTED:code]"),
        ("door code: 12#34", "door code: [REDACTED:code]"),
        ("the code is *1234#", "the code is [REDACTED:code]"),
        # The keypad's keys at a code's ends, or spaced (a second adversary).
        ("gate code: *4455#", "gate code: [REDACTED:code]"),
        ("alarm code 12#34#", "alarm code [REDACTED:code]"),
        ("access code 5 5 # 2 1", "access code [REDACTED:code]"),
        ("pass = qwerty123!", "pass = [REDACTED:secret]"),
        ("wifi pw is Kelpie77!", "wifi pw is [REDACTED:secret]"),
        ("my password is Summer2024!! don't tell", "my password is [REDACTED:secret] don't tell"),
        ("password: hunter2.", "password: [REDACTED:secret]."),
        # Kept: a flat's number, and a PIN's "!" (digits alone: the sentence's).
        ("apartment 4#12 is ours", "apartment 4#12 is ours"),
        ("the pin is 1234!", "the pin is [REDACTED:pin]!"),
    ],
)
def test_no_character_of_a_code_or_a_password_is_left_beside_its_marker(
    text: str, redacted: str
) -> None:
    """Found by an adversary: a keypad's "#" between digits left "access code 55#21" as typed,
    and a password's closing "!" was shown to the model ("[REDACTED:secret]!")."""
    assert redact(text)[0] == redacted


@pytest.mark.parametrize(
    "text",
    [
        "postcode for the office: 4050",
        "postal code: 10115",
        "the error code: 4321",
        "ICD code: 4019",
        "discount code: 7788",
        "booking code: 884422",
        "booking code for the Lisbon hotel: 884422, check-in 15:00",
        # A third adversary saw the phone number redacted as a code of a list.
        "door code: ask the landlord on 0176 8888888",
        "PIN code 560001 for the Bangalore office",
        "PIN code 110001 is Delhi",
        # An adversary: the place named before the digits.
        "pin code for the area is 560034 (Bangalore)",
        "the pin code of our locality: 110001",
        # A second adversary: by the place's name, or the area's.
        "Our area pin code is 560034, Koramangala",
        "PIN code of Koramangala: 560034",
        "what's the pin code for Indiranagar? it's 560038",
        "area pin code 110001 delhi",
        "the door sensor shows error code 4011",
        "the office is on floor 3, zip code 10115",
        # A later adversary: the place before its PIN, and an area's PIN after an ATM's.
        "our office is in Koramangala, PIN - 560034",
        "мой пароль изменён 2024 году",
        "what's the wifi password? no idea",
        "door code? 3 people know it",
        "the wifi password? it's on the router",
        "what's the error code? it's 404",
        "alarm - 0645",
    ],
)
def test_a_code_that_opens_nothing_is_kept(text: str) -> None:
    """Found by an adversary: each was redacted, and the hotel's booking shown without it."""
    assert redact(text) == (text, [])


def test_an_areas_pin_beside_a_cards_keeps_its_number() -> None:
    """Found by an adversary: the area's postcode went with the ATM PIN before it."""
    redacted, _ = redact("ATM pin: 2291, and the area PIN is 400050")
    assert redacted == "ATM pin: [REDACTED:pin], and the area PIN is 400050"


def test_a_code_that_opens_nothing_beside_one_that_does_keeps_its_number() -> None:
    redacted, _ = redact("error code 4321 on the dishwasher, the alarm code is 9876")
    assert redacted == "error code 4321 on the dishwasher, the alarm code is [REDACTED:code]"
    assert redact("door code for the Lisbon flat: 4471")[0] == (
        "door code for the Lisbon flat: [REDACTED:code]"
    )


def test_a_label_said_again_names_what_its_value_is_of() -> None:
    """Found by a new user, an engineer: a saved reply "prod_db_password: Prod DB password is
    S3cr3t!" read "[REDACTED:secret]: [REDACTED:secret] password is [REDACTED:secret]"."""
    for text in (
        "prod_db_password: Prod DB password is S3cr3t!",
        "- **prod_db_password**: Prod DB password is S3cr3t! (user app on db:5432)",
    ):
        redacted, _ = redact(text)
        assert redacted == text.replace("S3cr3t!", "[REDACTED:secret]")
    assert redact("password: correct horse battery staple")[0] == "password: [REDACTED:secret]"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("the wifi at mum's is BlueCat55", "BlueCat55"),
        ("mum's wifi BlueCat56", "BlueCat56"),
        ("disarm the alarm with 1919", "1919"),
        ("the new pin I set is 9911", "9911"),
        ("i'm using 1234 as my pin now", "1234"),
        ("the pin for my card, it's 4-8-2-1", "4-8-2-1"),
        ("contraseña gato124", "gato124"),
        ("Lisbon flat: wifi BlueFish22, door 1357, landlord Rui", "BlueFish22"),
        ("Lisbon flat: wifi BlueFish22, door 1357, landlord Rui", "1357"),
        # A second adversary: whose wifi, in other words and languages; an alarm's code.
        ("wifi at dad's place: RedDog77", "RedDog77"),
        ("the wifi at my sister's place is GreenCat11", "GreenCat11"),
        ("Wifi for the cabin = PineTree42", "PineTree42"),
        ("das WLAN bei Mama ist BlauKatze5", "BlauKatze5"),
        ("o wifi da casa da mãe é GatoAzul7", "GatoAzul7"),
        ("el wifi de casa de mamá es GatoAzul8", "GatoAzul8"),
        ("disarm code 1920", "1920"),
        ("to turn off the alarm type 1923", "1923"),
        ("to disarm the alarm, punch in 2020", "2020"),
        ("PIN 4 8 2 3", "4 8 2 3"),
        ("pin:\n1234", "1234"),
        # A third adversary: a code asked for then given, after a dash, as a list's item.
        ("the code for the front door? it's 4590", "4590"),
        ("house alarm - 7412", "7412"),
        ("PIN code 560001 for the office door", "560001"),
        # A second adversary: a code or a password asked for, then given bare.
        ("door code? 4590", "4590"),
        ("front door code?? 4590", "4590"),
        ("the pin for the safe? 9080", "9080"),
        ("the wifi password? Sunflower99", "Sunflower99"),
        ("Enns flat: door code 1357, wifi pw? Daisy22", "Daisy22"),
        # The network alone asked for, then its key (the note of an earlier stop).
        ("wifi? Daisy22", "Daisy22"),
        # A later adversary: what it opens asked for, a note in square brackets, a
        # password with "&", quoted with spaces, after a colon, backup codes without one.
        ("the alarm? 7412", "7412"),
        ("door code [back] 6677", "6677"),
        ("netflix password = Tr0ub4dor&3", "&3"),
        ('wifi: "Daisy 22 Sun"', "22 Sun"),
        ("the wifi password contains my dog's name and year: Rex2019", "Rex2019"),
        ("backup codes 1234-5678 8765-4321", "8765-4321"),
        ("the guest wifi? it's Hunter2Blue", "Hunter2Blue"),
        ("the door code (updated last week) is 4590", "4590"),
        ("door code (front) 4590", "4590"),
        ("changed the shed padlock, it's 5555 now", "5555"),
        ("buzzer 12, code 3344", "3344"),
        ("Porto flat: gate code 2222, wifi password PortoNet", "PortoNet"),
        ("Beach house: gate code 3333, wifi password Sunflower", "Sunflower"),
        # A later adversary: an arrow, "!!", "==", "?:", brackets of every kind, a hint
        # then the password, "it's" before it, "&" after an unspaced "=", letters alone.
        ("the alarm -> 7414", "7414"),
        ("alarm!! 7416", "7416"),
        ("wifi -> Daisy24", "Daisy24"),
        ("the wifi?: Daisy26", "Daisy26"),
        ("gate code {side} 4455", "4455"),
        ("door code <back> 6679", "6679"),
        ("netflix password == Tr0ub4dor&4", "Tr0ub4dor"),
        ("netflix pw=Tr0ub4dor&5", "&5"),
        ("the wifi password is my dog's name plus the year he was born, Rex2018", "Rex2018"),
        ("hint for the wifi password: it's my dog's name and year - Rex2017", "Rex2017"),
        ("password: it's hunter2", "hunter2"),
        ("password: it's sunflower", "sunflower"),
        ("backup codes are abcd-efgh ijkl-mnop", "ijkl-mnop"),
        # A new user in Nairobi, in Swahili ("ni" is "is", "ya" "of", "yangu" "my"): each
        # kept as typed, the chat's title, and shown to the model.
        ("PIN yangu ya mpesa ni 7391", "7391"),
        ("namba ya siri ya M-Pesa ni 7391", "7391"),
        ("pin ya ATM ni 5521", "5521"),
        ("password ya wifi ni Nyumbani2024", "Nyumbani2024"),
        ("alarm code ya nyumba ni 2580", "2580"),
        ("neno la siri ni simba123", "simba123"),
        # A new user in Lagos, in Nigerian Pidgin ("na" and "be" are "is"): each kept as
        # typed, in the chat's file and in memory.
        ("my hospital portal password na Chiamaka2015! make i no forget am", "Chiamaka2015"),
        ("the password be Chiamaka2015!", "Chiamaka2015"),
        ("my atm pin na 4821", "4821"),
        ("my bank pin na 4821 abeg", "4821"),
        ("the door code na 5521 o", "5521"),
        # An adversary: a keypad's code said as what to press (each kept as typed).
        ("gate: press star then 7391 then hash", "7391"),
        ("for the gate press * 7391 #", "7391"),
        ("my BVN na 22123456789", "22123456789"),
        # A new user in Berlin pasted the tax office's letter: kept as typed.
        ("Ihre steuerliche Identifikationsnummer (Steuer-ID) lautet: 12 345 678 901.", "678 901"),
        # A later adversary: the lock's name in brackets or a table, a list on lines of its
        # own, "p/w", a password asked of, codes in other languages, 2FA backup codes.
        ("the {alarm} is 7417", "7417"),
        ("<alarm> 7418", "7418"),
        ("[alarm code] 7429", "7429"),
        ("(alarm code) 7430", "7430"),
        ("| alarm | 4411 |", "4411"),
        ("the alarm code (4430)", "4430"),
        ("codes:\n- alarm 1234\n- gate 5678\n- wifi Sunflower9", "Sunflower9"),
        ("codes:\n- alarm 1234\n- gate 5678", "5678"),
        ("wifi password == sunflower99", "sunflower99"),
        ("p/w: Kestrel#77", "Kestrel#77"),
        ("is hunter2 a good password for netflix?", "hunter2"),
        ("2FA backup: 11112222", "11112222"),
        ("larmkod 1234", "1234"),
        ("pinkode 4414", "4414"),
        ("hälytyskoodi 4415", "4415"),
        ("ドアのコード 4417", "4417"),
        ("код домофона 4418", "4418"),
        ("Alarmanlage 4420", "4420"),
        ("kod do alarmu 5566", "5566"),
        ("alarm kodu 9988", "9988"),
        ("p/w hunter2", "hunter2"),
        # A fourth adversary: Turkish, Swahili, German and Russian names of a secret with
        # no word before its value; a PIN said of what it opens; tables and lists of codes.
        ("şifrem 4821", "4821"),
        ("ev wifi şifresi Kartal1234", "Kartal1234"),
        ("parola: Kartal1234", "Kartal1234"),
        ("nywila yangu ni Simba2024", "Simba2024"),
        ("Geheimzahl 4821", "4821"),
        ("Kartenpin: 4821", "4821"),
        ("мой пин 4821", "4821"),
        # An adversary: the Latin "PIN" with the Russian "код", and its card named between.
        ("мой PIN-код 4821", "4821"),
        ("PIN-код карты — 4821", "4821"),
        ("PIN do karty Revolut 4821", "4821"),
        # A new user, a baker in Kraków: Polish and English in one sentence, Polish "to".
        ("PIN do karty firmowej PKO is 7731, I always forget it", "7731"),
        ("PIN do karty firmowej is 4409", "4409"),
        ("PIN karty to 1234", "1234"),
        ("mój PIN to 9921", "9921"),
        # A later adversary: a PIN closing a line with another after it.
        ("netflix pin 4387\nlaptop is the grey one", "4387"),
        ("la password della mail è Gatto99miao", "Gatto99miao"),
        # A second adversary: Polish "to" with more after it, a Windows line's end.
        ("mój PIN to 9921 i tyle", "9921"),
        ("PIN karty to 1234\nmam 3 koty i 2 psy", "1234"),
        ("pin do karty to 1234", "1234"),
        ("kod do drzwi to 4471", "4471"),
        ("hasło do maila to Kot2024!", "Kot2024!"),
        ("netflix pin 4387\r\nlaptop is grey", "4387"),
        ("la password per il conto è Gatto99miao", "Gatto99miao"),
        ("kids tablet pin 7391\nscreen time 2h", "7391"),
        ("PIN de la tarjeta 4821", "4821"),
        ("PIN do cartão 4821", "4821"),
        ("PIN kodum 4821", "4821"),
        ("my card PIN is 560001", "560001"),
        # A second adversary: lists on one line, a one-time code with no verb, Russian.
        ("my pins: bank 7391, gym 2210", "2210"),
        ("pins - bank 7391 / gym 2210", "7391"),
        ("my passwords: gmail Hunter22, bank Tiger99", "Tiger99"),
        ("staging otp 481920", "481920"),
        ("OTP for staging 481920", "481920"),
        ("пароль от почты Zebra!77", "Zebra!77"),
        ("| item | code |\n|---|---|\n| alarm | 4821 |\n| front door | 7711 |", "7711"),
        ("| site | password |\n| netflix | Hunter22x |", "Hunter22x"),
        ("PINs\nbank card 4821\nphone 1234", "1234"),
        ("my pins:\n- visa 4821\n- bank 5521", "5521"),
        # A new user, an engineer: a one-time code.
        ("the staging OTP is 481920", "481920"),
        ("The OTP for staging login was 481920 but it expired", "481920"),
        ("otp: 993311", "993311"),
        # A later adversary and a new user, a retired nurse: one-time and backup codes in a
        # table, a list or on lines of their own; a passphrase after dashes; a combination
        # in words; romanised Hindi; PINs tried at a cash machine; a key safe's place.
        ("| service | 2FA backup code |\n|---|---|\n| github | 493027 |", "493027"),
        ("| account | OTP |\n| --- | --- |\n| aws | 118822 |", "118822"),
        ("service,otp\ngithub,493027", "493027"),
        ("2FA recovery codes\n8f3k-29dk\n1kd9-3jf8", "1kd9-3jf8"),
        ("backup codes\n493027\n771204", "771204"),
        ("vpn -- passphrase -- correct-horse-battery-XQ", "correct-horse-battery-XQ"),
        ("vpn passphrase - DonkeyXQ9", "DonkeyXQ9"),
        ("the safe combo is four eight two two", "four eight two two"),
        ("the key safe at the cottage is four seven one one", "four seven one one"),
        ("mera pin 7788 hai", "7788"),
        ("mera pin 7788 hain", "7788"),
        ("| site | backup codes |\n|---|---|\n| dropbox | 1234 5678 |", "1234 5678"),
        ("| service | backup code |\n|---|---|\n| github | abcd-efgh-ijkl |", "abcd-efgh-ijkl"),
        ("service,otp_backup\ngithub,48291123", "48291123"),
        ("tried 2291 at the atm and it didnt work, then 4471 worked", "4471"),
        ("tried 2291 at the atm and it didnt work, then 4471 worked", "2291"),
    ],
)
def test_a_secret_in_a_looser_wording_is_redacted(text: str, secret: str) -> None:
    """Found by an adversary: each was kept as typed, and shown to the model unasked."""
    redacted, kinds = redact(text)
    assert secret not in redacted and kinds
    assert "landlord Rui" in redacted or "Rui" not in text


@pytest.mark.parametrize(
    "text",
    [
        "the wifi at mum's is down",
        "mum's wifi router is old",
        "I opened the door with 2 hands",
        "door 12, floor 3",
        "the pin I use is the same",
        "I was using 2024 as the year",
        "set the alarm with 0630 tomorrow",
        "the wifi at home is Virgin Media",
        "wifi at dad's place: terrible",
        "wifi? not working again",
        "the alarm? 7am tomorrow",
        "password rules: 8 characters",
        "the backup codes are in the drawer",
        "wifi? yes, it's fine now",
        "the wifi at Tom's is 5G",
        "el wifi de casa es lento",
        "turn off the alarm at 0630",
        "the alarm!! 7am again",
        "the door!! 2024 was a long year",
        "the wifi -> router upstairs",
        "if password == user_input:",
        "the OTP arrives in 30 seconds",
        # A fourth adversary: postal PIN codes, a time, a year, no password given, a
        # table of error codes, a list going on to other lines.
        "My office pincode is 560001, Bengaluru",
        "Ship to: 12 MG Road, Bengaluru, PIN 560001",
        "Address: 4 Park St, Kolkata, PIN: 700016",
        "Ship to 12 MG Road, Kolkata PIN 700016",
        "codes: 404 not found, 500 server error",
        "my passwords: I keep them in 1Password",
        "the otp expires in 300 seconds",
        "gate → 1600 closing time",
        "kodu 2023 yılında yazdım",
        "p/w: n/a",
        "password: TBD",
        "şifremi unuttum",
        "I pin for the team 2024 goals",
        "| error | code |\n| timeout | 504 |",
        "| year | code | notes |\n|---|---|---|\n| 2023 | ABC123 | fine |",
        "the otp is valid for 300 seconds",
        "I use TOTP for 2 accounts",
        "password: it's on the fridge",
        "wifi password: it's my dog's name",
        "Mama anakuja Jumamosi",
        "pin ya kwanza ni nzuri",
        "Kodak 1234 camera",
        "the gate (1999) was built",
        "(see page 4430)",
        "password == self.pw",
        "is Bitwarden a good password manager?",
        # A year the code changed in (a third adversary saw it redacted).
        "ドアのコードは2019年に変更",
        "larmkoden byttes 2019",
        "ovikoodi vaihdettiin 2020",
        "zip codes:\n10115\n10117",
        "error codes:\n404\n500",
        "forget about the password - what is the gate combo?",
        "the combination of the two is one of a kind",
        "the key safe at the cottage is one of two",
        "mera naam Raj hai",
        "took out 200 at the atm",
        "| site | backup codes |\n|---|---|\n| dropbox | none yet |",
    ],
)
def test_the_same_wordings_without_a_secret_are_kept(text: str) -> None:
    assert redact(text) == (text, [])


def test_a_password_in_a_link_stops_at_the_next_parameter() -> None:
    """Not in a link, an unspaced "pw=" takes its "&" too ("netflix pw=Tr0ub4dor&5")."""
    assert redact("https://x.example/?pw=abc123&user=bob")[0] == (
        "https://x.example/?pw=[REDACTED:secret]&user=bob"
    )


def test_a_bike_lock_said_as_a_list_item_is_its_code() -> None:
    """An adversary: "/remember bike lock 4455" was shown for "what colour is my bike?"."""
    written = datetime(2026, 12, 6, tzinfo=UTC)
    assert holds_a_secret(written_entry("bike", "bike lock 4455", "core", written))


def test_a_date_beside_a_redacted_code_is_kept() -> None:
    """Found by a second adversary: "door code 4590 valid until 2027-01-31" lost its date."""
    assert redact("door code 4590 valid until 2027-01-31")[0] == (
        "door code [REDACTED:code] valid until 2027-01-31"
    )
    assert redact("the door code (updated 2026-11-30) is 4590")[0] == (
        "the door code (updated 2026-11-30) is [REDACTED:code]"
    )


def test_a_line_of_many_codes_is_read_once() -> None:
    """A line of 20,000 PINs ("my pins: bank 7391, bank 7391, …") took minutes: each code
    redacted read its whole sentence again, from the text's start (found reviewing a second
    adversary's lists). Linear now, about five seconds here; bounded far above that."""
    text = "my pins: " + "bank 7391, " * 20_000
    with ThreadPoolExecutor(max_workers=1) as pool:
        redacted, kinds = pool.submit(redact, text).result(timeout=180)
    assert "7391" not in redacted and kinds == ["pin"]


def test_a_page_of_addresses_is_read_once() -> None:
    """Each PIN closing an address looked for the address from the text's start: a page of
    3,000 ("Ship to 12 MG Road, Kolkata PIN 700016 …") took 79 s; 1.5 s now."""
    text = "Ship to 12 MG Road, Kolkata PIN 700016 " * 3_000
    with ThreadPoolExecutor(max_workers=1) as pool:
        redacted, kinds = pool.submit(redact, text).result(timeout=60)
    assert redacted == text and kinds == []


def test_a_word_of_300000_letters_is_read_in_one_pass() -> None:
    """Found by an adversary: "door code 4590 " and a word of 300,000 letters left the app
    at full CPU for minutes, unanswerable, and the message was lost when it was killed. A
    login's address was looked for from every letter of the word to its end; from where
    each word begins it is one pass (a tenth of a second here, minutes before).

    Waited for as a state, with a bound sixty times what it needs on a busy machine: the
    old reading took minutes.
    """
    text = "door code 4590 " + "x" * 300_000
    with ThreadPoolExecutor(max_workers=1) as pool:
        redacted, kinds = pool.submit(redact, text).result(timeout=120)
    assert "4590" not in redacted and redacted.endswith("x" * 300_000) and kinds
    # A later adversary: a chain "a-a-a-…" began a word at each letter (a code's label, a
    # wifi's owner were looked for from each); 300,000 characters hung it again.
    chained = "door code 4590 " + "a-" * 150_000
    with ThreadPoolExecutor(max_workers=1) as pool:
        redacted, kinds = pool.submit(redact, chained).result(timeout=120)
    assert "4590" not in redacted and redacted.endswith("a-" * 150_000) and kinds


def test_a_meeting_id_beside_its_passcode_is_kept() -> None:
    """Found by an adversary: "Zoom meeting ID 853 1234 5678, passcode 482913" lost the ID,
    its groups taken for codes beside the passcode."""
    redacted = redact("Zoom meeting ID 853 1234 5678, passcode 482913")[0]
    assert redacted == "Zoom meeting ID 853 1234 5678, passcode [REDACTED:pin]"
    # A later adversary: Webex calls the meeting's number its "access code".
    webex = redact("Webex access code 2634 123 4567, password Xy7pQ2")[0]
    assert webex == "Webex access code 2634 123 4567, password [REDACTED:secret]"
    assert redact("Webex access code 4821")[0] == "Webex access code [REDACTED:code]"


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        (
            "Webex meeting tomorrow 10am, access code 2634 571 8890, password Xy7pQ",
            "2634 571 8890",
            "Xy7pQ",
        ),
        ("Join by phone +1-415-655-0001, access code: 26345718890", "26345718890", None),
        ("webex password Xy7pQ", None, "Xy7pQ"),
        ("meeting at the gate, access code 4821", None, "4821"),
    ],
)
def test_a_meetings_number_is_kept_and_its_password_is_not(
    text: str, kept: str | None, gone: str | None
) -> None:
    """Found by a later adversary: the meeting's number was redacted as codes, and its
    password of five characters kept."""
    redacted = redact(text)[0]
    assert kept is None or kept in redacted
    assert gone is None or gone not in redacted


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("a senha do servidor do lab mudou, agora é Bz9#abelhas2027", "Bz9#abelhas2027"),
        ("the lab server password changed, now Bz9#abelhas2027", "Bz9#abelhas2027"),
        ("wifi password changed, now hunter22", "hunter22"),
        ("changed my gmail password, new one Bz9#abelhas", "Bz9#abelhas"),
        ("die Wifi-Passwort hat sich geändert, jetzt Bz9#abelhas2027", "Bz9#abelhas2027"),
        ("het wachtwoord is veranderd, nu Bz9#abelhas2027", "Bz9#abelhas2027"),
        ("la contraseña cambió, ahora Bz9#abelhas2027", "Bz9#abelhas2027"),
        ("le mot de passe a changé, maintenant c'est Bz9#abelhas", "Bz9#abelhas"),
        ("password changed - now Xk29!!pq", "Xk29!!pq"),
        # Found by a later adversary: each kept as typed.
        ("ssh root@10.0.0.5 password toor", "toor"),
        ("and the second half is battery-staple", "battery-staple"),
        ("my pin is the year my dad died backwards, 9102", "9102"),
        ("admin_pin: 8812", "8812"),
        ("SIM_PIN=1234", "1234"),
        # A second adversary, this session: each kept as typed.
        ("pwd changed -> now Falcon#42", "Falcon#42"),
        ("passcode updated, now 5521", "5521"),
        ("Password changed!! New one = Orca_551", "Orca_551"),
        ("the 2nd half is K9K9", "K9K9"),
    ],
)
def test_a_password_said_after_its_change_without_is_goes(text: str, secret: str) -> None:
    """Found by a new user, a student: "…mudou, agora é X" and "…changed, now X" were kept
    as typed, in the chat, its file and memory."""
    redacted, kinds = redact(text)
    assert secret not in redacted and len(kinds) == 1
    assert redacted.endswith(f"[REDACTED:{kinds[0]}]")


@pytest.mark.parametrize(
    "text",
    [
        "password changed, now it's in 1Password",
        "password changed, now I need to log in again",
        "reset my password yesterday, and now everything works",
        "het wachtwoord is veranderd",
        "het wachtwoord is gewijzigd, dus log opnieuw in",
        "ssh into the box, password reset needed",
        "the second half is better",
        "the second half was amazing!!",
        "my pin is the same as always, I think",
        "the spin_rate: 1200",
        "password changed, now I can log in",
        "the pin is just a formality",
        "my pin is just 4 digits",
        # Pidgin about a password, not one ("is trouble", "has expired"), and Portuguese
        # "na" ("in the").
        "the password na wahala, e no dey work",
        "the password don expire",
        "a senha na minha conta mudou",
        "press 2 for the reception desk",
        "the door: press hard then pull",
    ],
)
def test_a_change_of_password_without_the_new_one_keeps_its_words(text: str) -> None:
    assert redact(text) == (text, [])


def test_a_quoted_sshpass_password_and_a_pin_said_just_so_go() -> None:
    """A second adversary: "sshpass -p 'Kite42!' ssh user@host", "pin is just 1111 lol"."""
    assert redact("sshpass -p 'Kite42!' ssh user@host")[0] == (
        "sshpass -p '[REDACTED:secret]' ssh user@host"
    )
    assert redact("pin is just 1111 lol")[0] == "pin is just [REDACTED:pin] lol"
    # "jetzt" (now) was taken with the password (the same adversary).
    assert redact("das Passwort ist jetzt Hund#77")[0] == "das Passwort ist jetzt [REDACTED:secret]"
    assert redact("das Passwort ist jetzt zu kurz") == ("das Passwort ist jetzt zu kurz", [])
    # A passphrase after a spaced "=" is all of its words (the same adversary saw two kept).
    assert redact("wifi pw = purple monkey dishwasher")[0] == "wifi pw = [REDACTED:secret]"
    assert redact("db_password = get_password()") == ("db_password = get_password()", [])
