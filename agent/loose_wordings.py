"""Secrets said loosely: the ways the other wordings do not read, found by an adversary.

Each was stored, written to the chat file and recalled to the model as typed: 'PIN "4821"
for the Westpac card', "The PIN for my bank card is 4 8 2 1", "4821 is my pin", "my pin
is forty-eight twenty-one", "iPhone passcode 482193", "wifi: BlueCat99", "security
question: first pet? answer: Fluffy", "mothers maiden name is Kowalski", "my 12 words are
…", "Password - hunter2", "gate code at Anna's block, 5512", "it's hunter2, my password",
"my Netflix login is bob@example.com / hunter2", "tax file number 123 456 782", and a
password hint holding the password's own characters.
"""

from __future__ import annotations

import re

_PIN_DIGITS = r"(\d(?:[ \t.,-]?\d){3,7})(?![\d.,-]?\d)"
_SAID_AS = r"(?:\.{2,}|\u2026|[-\u2013\u2014]|\u2192|->|=>|:|=|\bis\b|\bwas\b)"
_OPENING = r"[\"'\u201c\u2018(#]"
_PIN_LABELLED = re.compile(
    r"(?i)\b(?:(?P<pin>pin)|pass[ \t]*code)\b"
    r"(?:[ \t]+(?:for|of|on)[ \t]+(?:my|the|our|her|his)[ \t]+[\w'\u2019 \t-]{1,30}?)?"
    rf"[ \t]*(?P<said>{_SAID_AS}[ \t]*(?:{_OPENING}[ \t]*)?|{_OPENING}[ \t]*)?{_PIN_DIGITS}"
)
"""A PIN or a passcode's digits after its label, however joined: "pin (4821)", "PIN - 4821",
"my pin... 4821", "pin → 4821", "PIN for my bank card is 4 8 2 1", "pin is 4,821"."""
_BARE_PIN = re.compile(r"(?i)\bpin\b[ \t]+(\d(?:[ \t.,-]?\d){3,7})(?![\d.,-]?\d)")
"""A bare "pin 1800" is a verb more often (`agent.code_wordings` reads the clear ones)."""
_PIN_FIRST = re.compile(
    r"(?i)(?<![\w.-])(\d{4,8})[ \t]+is[ \t]+(?:my|the|our|her|his)[ \t]+"
    r"(?:[\w-]+[ \t]+){0,2}(?:pin|pass[ \t]*code)\b"
)
""""4821 is my pin", "debit card 4821 is the pin"."""
_NUMBER_WORD = (
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand)"
)
_IN_NUMBER_WORDS = re.compile(
    rf"(?i)\b(?:pin|pass[ \t]*code|code)\b[^.!?\n]{{0,30}}?(?:{_SAID_AS})[ \t]*"
    rf"({_NUMBER_WORD}(?:[ \t-]+(?:and[ \t]+)?{_NUMBER_WORD})+)\b"
    r"(?![ \t]+(?:lines?|characters?|chars|digits?|words?|pages?|people|times|years?|days?))"
)
""""my pin is forty-eight twenty-one", "The code for the door: seven-seven-three-four"."""
_CODE_AFTER_A_PLACE = re.compile(
    r"(?i)\b(?:gate|door|alarm|keypad|building|entry|lock[ \t-]?box|garage)[ \t]+code\b"
    r"[^.?!\n\d]{0,40}?[,:][ \t]*(\d{3,8})\b"
)
""""the gate code at Anna's block, 5512 I think"."""
_WIFI = re.compile(r"(?i)\bwi-?fi\b[ \t]*[:=][ \t]*(?P<value>[^\s,;]+)")
_SECURITY_ANSWER = re.compile(
    r"(?i)(?:\bsecurity[ \t]+question\b[^\n]{0,80}?\banswer|\b(?:secret|security)[ \t]+answer|"
    r"\(security[ \t]+question\))[ \t]*(?::|=|-|\bis\b)?[ \t]*(?P<value>[^\s.,;!?]+"
    r"(?:[ \t]+[^\s.,;!?]+){0,3})"
)
""""security question: first pet? answer: Fluffy", "secret answer Fluffy", "my first pet's
name (security question) is Fluffy"."""
_SECURITY_QA = re.compile(
    r"(?i)\bQ:[^\n]{0,60}?\b(?:pet|maiden|school|street|born|childhood|teacher|city)\b"
    r"[^\n]{0,40}?\bA:[ \t]*(?P<value>[^\s.,;!?]+(?:[ \t]+[^\s.,;!?]+){0,3})"
)
""""Q: first pet A: Fluffy", not every question and answer written so."""
_MAIDEN_NAME = re.compile(
    r"(?i)\bmaiden[ \t]+name\b[ \t]*(?:(?:is|was)\b|[:=?-])?[ \t]*(?P<value>[A-Za-z][\w'\u2019-]+)"
)
""""mother maiden name Kowalski", "maiden name: Kowalski", "my mother's maiden name?
Kowalski": the answer to a bank's oldest question."""
_PHRASE = r"(?P<value>(?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8})\b"
_WALLET_WORDS = re.compile(
    r"(?i)\b(?:(?:seed|recovery|backup|wallet|mnemonic)(?:[ \t]+(?:phrase|words|seed))?|"
    r"(?:12|24|twelve|twenty[ \t-]four)[ \t-]+words?)[ \t]*(?:(?:is|are)\b|[:=-])?[ \t]*"
    + r"(?-i:"
    + _PHRASE
    + ")"
)
""""seed: …", "backup phrase …", "wallet words: …", "my 12 words are …": twelve to
twenty-four words in a row, lower case, as a wallet writes them."""
_PASSWORD_DASH = re.compile(
    r"(?i)\b(?:password|passcode|passwd|pw|pwd)[ \t]+[-\u2013\u2014][ \t]+(?P<value>[^\s,;]+)"
)
_PASSWORD_AFTER = re.compile(
    r"(?i)\bit['\u2019]?s[ \t]+(?P<value>[^\s,;]+),?[ \t]+(?:my|the|our)[ \t]+(?:[\w-]+[ \t]+)?"
    r"password\b"
)
""""it's hunter2, my password"."""
_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_LOGIN_PAIR = re.compile(
    rf"{_EMAIL}[ \t]*[/|][ \t]*(?P<value>[^\s,;]+)|"
    rf"[:=][ \t]*{_EMAIL}[ \t]+(?P<after>[^\s,;]+)(?=[ \t]*(?:$|[,.;]))"
)
""""bob@example.com / hunter2", "netflix: bob@example.com hunter2"."""
_NATIONAL_NUMBER = re.compile(
    r"(?i)\b(?:tax[ \t]+file[ \t]+(?:number|no\.?)|tfn|social[ \t]+insurance[ \t]+number|"
    r"(?-i:SIN)|national[ \t]+insurance[ \t]+number)\b\D{0,12}?"
    r"(\d{3}[ \t-]?\d{3}[ \t-]?\d{2,3}|[A-Z]{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?[A-D])\b"
)
"""An Australian tax file number, a Canadian social insurance number, a British National
Insurance number (a social security number is read in `agent.password_wordings`)."""
_HINT_OF_A_PASSWORD = re.compile(
    r"(?i)\b(?:password|passwd|pw|pwd|passcode)[ \t]+(?:hint|reminder|clue)\b"
)
_TOKEN = re.compile(r"(?<!\S)([^\s,;]{6,})(?!\S)")
_HINTS = (
    "pin", "pass", "code", "wi", "secur", "secret", "maiden", "q:", "seed", "recovery",
    "backup", "wallet", "mnemonic", "words", "pw", "@", "tax", "tfn", "sin", "insurance",
)  # fmt: skip


def loose_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each secret `text` says in these wordings."""
    lowered = text.lower()
    if not any(hint in lowered for hint in _HINTS):
        return []
    spans: list[tuple[str, tuple[int, int]]] = []
    # "pin" with nothing between it and the digits is a verb as often ("I pin 1800 as …").
    spans += [
        ("pin", found.span(3))
        for found in _PIN_LABELLED.finditer(text)
        if found["said"] or not found["pin"]
    ]
    for rule in (_PIN_FIRST, _IN_NUMBER_WORDS):
        spans += [("pin", found.span(1)) for found in rule.finditer(text)]
    spans += [("pin", f.span(1)) for f in _BARE_PIN.finditer(text) if "passcode" in lowered]
    spans += [("code", found.span(1)) for found in _CODE_AFTER_A_PLACE.finditer(text)]
    spans += [("ssn", found.span(1)) for found in _NATIONAL_NUMBER.finditer(text)]
    for rule in (_SECURITY_ANSWER, _SECURITY_QA, _MAIDEN_NAME, _WALLET_WORDS, _PASSWORD_DASH):
        spans += [("secret", found.span("value")) for found in rule.finditer(text)]
    spans += [("secret", found.span("value")) for found in _PASSWORD_AFTER.finditer(text)]
    for found in _LOGIN_PAIR.finditer(text):
        which = "value" if found["value"] else "after"
        if _mixed(found[which]) >= 2:  # "bob@example.com / call me" gives no password
            spans.append(("secret", found.span(which)))
    spans += [
        ("secret", found.span("value"))
        for found in _WIFI.finditer(text)
        if _mixed(found["value"]) >= 2 and len(found["value"]) >= 6
    ]
    if _HINT_OF_A_PASSWORD.search(text):
        # A hint holding the password's own characters is the password: "master pw hint:
        # bday of first dog + Tr0nt0!!" (a new user).
        spans += [("secret", m.span(1)) for m in _TOKEN.finditer(text) if _password_like(m[1])]
    return spans


_DIGIT_IN_WORD = re.compile(r"[A-Za-z]\d+[A-Za-z]")


def _password_like(token: str) -> bool:
    """Every kind of character, or digits standing for letters ("Tr0nt0"): not "1Password"."""
    kinds = _mixed(token)
    return kinds == 4 or (kinds == 3 and _DIGIT_IN_WORD.search(token) is not None)


def _mixed(value: str) -> int:
    """How many kinds of character `value` mixes: lower, upper, digits, others."""
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value.rstrip(".,;:?)")),
        )
    )
