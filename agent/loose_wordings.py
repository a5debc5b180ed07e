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

from memory.lazy_patterns import lazy_compile

_PIN_DIGITS = r"(\d(?:[ \t.,-]?\d){3,7})(?![\d.,-]?\d)"
_SAID_AS = r"(?:\.{2,}|\u2026|[-\u2013\u2014]|\u2192|->|=>|:|=|\bis\b|\bwas\b)"
_OPENING = r"[\"'\u201c\u2018(#]"
_PIN_LABELLED = lazy_compile(
    r"(?i)\b(?:(?P<pin>pin)|pass[ \t]*code)\b"
    r"(?:[ \t]+(?:for|of|on)[ \t]+(?:my|the|our|her|his)[ \t]+[\w'\u2019 \t-]{1,30}?)?"
    rf"[ \t]*(?P<said>{_SAID_AS}[ \t]*(?:{_OPENING}[ \t]*)?|{_OPENING}[ \t]*)?{_PIN_DIGITS}"
)
"""A PIN or a passcode's digits after its label, however joined: "pin (4821)", "PIN - 4821",
"my pin... 4821", "pin → 4821", "PIN for my bank card is 4 8 2 1", "pin is 4,821"."""
_BARE_PIN = lazy_compile(r"(?i)\bpin\b[ \t]+(\d(?:[ \t.,-]?\d){3,7})(?![\d.,-]?\d)")
"""A bare "pin 1800" is a verb more often (`agent.code_wordings` reads the clear ones):
taken only beside "passcode"."""
_A_THING_PINNED = lazy_compile(
    r"(?i)\b(?:lapel|enamel|badge|hat|safety|bowling|push|hair|drawing|tie|collar|cotter|"
    r"firing|grenade|rolling|map)[ \t]+pins?\b"
)
"""A pin that is a thing: "I got a lapel pin - 1984 edition" (a second adversary)."""
_PINS_CHANGED_OR_LISTED = lazy_compile(
    r"(?i)\b(?:changed|set|reset|updated)[ \t]+(?:my[ \t]+|the[ \t]+|her[ \t]+|his[ \t]+)?"
    r"(?:[\w-]+[ \t]+)?pin[ \t]+(?:from[ \t]+(\d{4,8})[ \t]+)?to[ \t]+(\d{4,8})\b"
    r"|\bpin[ \t]+(?:was[ \t]+|has[ \t]+been[ \t]+|got[ \t]+)?(?:changed|set|reset|updated)"
    r"[ \t]+to[ \t]+(\d{4,8})\b"
    r"|\bpin[^.!?\n]{0,30}?\bbut[ \t]+(?:it['\u2019]?s[ \t]+|now[ \t]+)?(?:changed[ \t]+to[ \t]+)?"
    r"(\d{4,8})\b"
    r"|\bold[ \t]+(?:one|pin)[ \t]+(?:was|is)[ \t]+(\d{4,8})\b"
    r"|\bpins?(?:[ \t]*[:=]|[ \t]+(?:are|were|is))?[ \t]*(\d{4,8})[ \t]*(?:,|and|&)[ \t]*"
    r"(\d{4,8})\b"
)
""""changed my pin to 1234", "I changed my pin from 4821 to 1234", "PIN changed to 1234",
"pin was 4821 but changed to 1234", "(old one was 4821)", "pins: 1234 and 5678" (a second
adversary); `agent.password_wordings` reads "my pin has been changed to …"."""
_PIN_FIRST = lazy_compile(
    r"(?i)(?<![\w.-])(\d{4,8})[ \t]+is[ \t]+(?:my|the|our|her|his)[ \t]+"
    r"(?:[\w-]+[ \t]+){0,2}(?:pin|pass[ \t]*code)\b"
)
""""4821 is my pin", "debit card 4821 is the pin"."""
_NUMBER_WORD = (
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand)"
)
_IN_NUMBER_WORDS = lazy_compile(
    rf"(?i)\b(?:pin|pass[ \t]*code|code)\b[^.!?\n]{{0,30}}?(?:{_SAID_AS})[ \t]*"
    rf"({_NUMBER_WORD}(?:[ \t-]+(?:and[ \t]+)?{_NUMBER_WORD})+)\b"
    r"(?![ \t]+(?:lines?|characters?|chars|digits?|words?|pages?|people|times|years?|days?))"
)
""""my pin is forty-eight twenty-one", "The code for the door: seven-seven-three-four"."""
_CODE_AFTER_A_PLACE = lazy_compile(
    r"(?i)\b(?:gate|door|alarm|keypad|building|entry|lock[ \t-]?box|garage|padlock|shed|"
    r"storage(?:[ \t]+unit)?|key[ \t-]?(?:box|safe)|safe|intercom|studio|office)[ \t]+"
    r"(?:pass)?(?:code|pin|combo|combination)\b"
    r"[^.?!\n\d]{0,40}?[,:][ \t]*(\d{3,8})\b"
)
""""the gate code at Anna's block, 5512 I think"; "storage unit code changed again, 9034
now" (a new user, a photographer: kept as typed, and shown to the model)."""
_WIFI = lazy_compile(
    # Changed, then what it is now: "changed the studio wifi, its now Kelpie-Shutter-77" (a
    # new user, a photographer: kept as typed, and made the chat's title).
    r"(?i)\bwi-?fi\b(?:[ \t]+(?:password|pw|pass|key|code))?[ \t]*(?:[,;:\u2013\u2014-][ \t]*)?"
    r"(?:and[ \t]+)?(?:it['\u2019]?s|it[ \t]+is|now[ \t]+it['\u2019]?s|is)[ \t]+now[ \t]+"
    r"(?P<now>[^\s,;]+)"
    r"|\bwi-?fi\b(?:[ \t]+(?:password|pw|pass|key|code))?[ \t]*[,;:\u2013\u2014-][ \t]*"
    r"(?:it['\u2019]?s|it[ \t]+is)[ \t]+(?P<its>[^\s,;]+)"
    r"|\bwi-?fi\b[ \t]*(?:[:=]|\bis\b|\bkey\b)[ \t]*(?P<value>[^\s,;]+)"
    r"|\b(?:ssid|wi-?fi|network)\b[^\n.]{0,30}?\bkey[ \t]*[:=]?[ \t]*(?P<key>[^\s,;]+)"
)
_A_PASSWORD_LATER = lazy_compile(r"(?i)\b(?:password|passwd|pwd|pw|pass|key)\b")
_SECURITY_ANSWER = lazy_compile(
    r"(?i)(?:\bsecurity[ \t]+question\b[^\n]{0,80}?\banswer\b|\b(?:secret|security)[ \t]+"
    r"answer\b|\(security[ \t]+question\))"
    r"(?:[ \t]*(?P<said>:|=|-|\bis\b)[ \t]*|[ \t]+(?=(?-i:[A-Z])))"
    r"(?P<value>[^\s.,;!?]+(?:[ \t]+[^\s.,;!?]+){0,3})"
)
""""security question: first pet? answer: Fluffy", "secret answer Fluffy", "my first pet's
name (security question) is Fluffy"."""
_SECURITY_QA = lazy_compile(
    r"(?i)\bQ:[^\n]{0,60}?\b(?:pet|maiden|school|street|born|childhood|teacher|city)\b"
    r"[^\n]{0,40}?\bA:[ \t]*(?P<value>[^\s.,;!?]+(?:[ \t]+[^\s.,;!?]+){0,3})"
)
""""Q: first pet A: Fluffy", not every question and answer written so."""
_MAIDEN_NAME = lazy_compile(
    r"(?i)\bmaiden[ \t]+name\b[ \t]*(?:(?:is|was)\b|[:=?-])?[ \t]*"
    r"(?P<value>(?-i:[A-Z])[\w'\u2019-]+)"
)
""""mother maiden name Kowalski", "maiden name: Kowalski", "my mother's maiden name?
Kowalski": the answer to a bank's oldest question."""
_PHRASE = r"(?P<value>(?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8})\b"
_WALLET_WORDS = lazy_compile(
    r"(?i)\b(?:(?:seed|recovery|backup|wallet)[ \t]+(?:phrase|words|seed)|mnemonic|"
    r"(?:12|24|twelve|twenty[ \t-]four)[ \t-]+words?)[ \t]*(?:(?:is|are)\b|[:=-])?[ \t]*"
    + r"(?-i:"
    + _PHRASE
    + ")"
)
""""seed words …", "backup phrase …", "wallet words: …", "my 12 words are …": twelve to
twenty-four words in a row, lower case, as a wallet writes them; not "seed:" alone ("I
planted seed: tomato basil …": a second adversary)."""
_PASSWORD_DASH = lazy_compile(
    r"(?i)\b(?:password|passcode|passphrase|passwd|pw|pwd)[ \t]+(?:[-\u2013\u2014]|--)[ \t]+"
    r"(?P<value>[^\s,;]+)"
)
"""A password after a dash or two: "wifi password - MuleXQ9", "vpn -- passphrase -- …" (an
adversary saw the passphrase and the two dashes kept)."""
A_CONTRACTION = lazy_compile(r"(?i)[a-z]+['\u2019](?:s|re|m|ll|ve|d|t)[.,!?]*")
""""what's", "it's", "don't": words, not a password after "password -" (a second adversary:
"forget about the password - what's the gate combo?" made "what's" a secret, and every
later "what's" of the chat was redacted)."""
_NO_ANSWER = frozenset(
    "was were is are be been required needed wrong right correct incorrect weird case "
    "sensitive expired changed forgotten lost same different easy hard long short the a an "
    "my your on in at of for to and or but not please see ask check keep".split()
)
"""What follows "security answer" that is no answer: "the security answer was wrong"."""
_PASSWORD_AFTER = lazy_compile(
    r"(?i)\bit['\u2019]?s[ \t]+(?P<value>[^\s,;]+),?[ \t]+(?:my|the|our)[ \t]+(?:[\w-]+[ \t]+)?"
    r"password\b"
)
""""it's hunter2, my password"."""
_EMAIL = r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
"""An address, from where it begins: from every letter of a word of 300,000 the search ran
to the word's end, and a turn took minutes (an adversary)."""
_LOGIN_PAIR = lazy_compile(
    rf"{_EMAIL}[ \t]*[/|][ \t]*(?P<value>[^\s,;|]+)|"
    rf"\b(?:log-?in|account)[ \t]*(?:is[ \t]+)?{_EMAIL}[ \t]+(?:and[ \t]+)?"
    r"(?P<after>[^\s,;/|]+)|"
    rf"(?<!mailto)[:=][ \t]*{_EMAIL}[ \t]+(?P<alone>[^\s,;/|]+)(?=[ \t]*(?:$|[,.;]))"
)
""""bob@example.com / hunter2", "netflix: bob@example.com hunter2"."""
_USER_SLASH_PASSWORD = lazy_compile(
    r"(?i)(?<![/\w])(?:log-?in|user(?:name)?|admin(?:[ \t]+login)?|router|account)\b"
    r"(?:[ \t]*[:=][ \t]*|[ \t]+(?:is[ \t]+)?)(?P<user>[^\s/|,;]+)[ \t]*[/|][ \t]*"
    r"(?P<value>[^\s,;]+)"
)
""""login is ana / hunter4", "router admin / admin123": a name, then its password (an
adversary saw both kept as typed)."""
_QUESTION_ANSWERED = lazy_compile(
    r"(?i)\bsecurity[ \t]+question\b[ \t]*[:-]?[ \t]*(?:[\w'\u2019-]+[ \t]+){0,5}?"
    r"(?:pet|maiden|school|street|born|childhood|teacher|city|car|friend|name)\b[^\n:?]{0,30}"
    r"[:?][ \t]*(?P<value>[^\s.,;!?]+(?:[ \t]+[^\s.,;!?]+){0,3})"
)
""""security question first pet: Rex" (an adversary: kept as typed)."""
_NATIONAL_NUMBER = lazy_compile(
    r"(?i)\b(?:tax[ \t]+file[ \t]+(?:number|no\.?)|tfn|social[ \t]+insurance[ \t]+number|"
    r"(?-i:SIN)|sin[ \t]+(?:number|no\.?|is|#)|شماره[ \t]+(?:سین|بیمه[ \t]+اجتماعی)|"
    r"national[ \t]+insurance(?:[ \t]+(?:number|no\.?))?|(?-i:NI|NINO)(?:[ \t]+"
    r"(?:number|no\.?))?)\b\D{0,12}?"
    r"(\d{3}[ \t-]?\d{3}[ \t-]?\d{2,3}|[A-Z]{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?[A-D])\b"
)
"""An Australian tax file number, a Canadian social insurance number, a British National
Insurance number (a social security number is read in `agent.password_wordings`)."""
_HINT_OF_A_PASSWORD = lazy_compile(
    r"(?i)\b(?:password|passwd|pw|pwd|passcode)[ \t]+(?:hint|reminder|clue)\b"
)
_TOKEN = lazy_compile(r"(?<!\S)([^\s,;]{6,})(?!\S)")
_HINTS = (
    "pin", "pass", "code", "wi", "secur", "secret", "maiden", "q:", "seed", "recovery",
    "backup", "wallet", "mnemonic", "words", "pw", "@", "tax", "tfn", "sin", "insurance", "ssid",
    "login", "log-in", "user", "admin", "router", "account", "ni ", "ni:", "nino", "سین",
    "بیمه",
)  # fmt: skip


def loose_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each secret `text` says in these wordings."""
    lowered = text.lower()
    if not any(hint in lowered for hint in _HINTS):
        return []
    spans: list[tuple[str, tuple[int, int]]] = []
    # "pin" with nothing between it and the digits is a verb as often ("I pin 1800 as …").
    things = [found.span() for found in _A_THING_PINNED.finditer(text)]
    spans += [
        ("pin", found.span(3))
        for found in _PIN_LABELLED.finditer(text)
        if (found["said"] or not found["pin"])
        and not any(start <= found.start() < end + 1 for start, end in things)
    ]
    for found in _PINS_CHANGED_OR_LISTED.finditer(text):
        spans += [("pin", found.span(at)) for at in range(1, 8) if found[at]]
    for rule in (_PIN_FIRST, _IN_NUMBER_WORDS):
        spans += [("pin", found.span(1)) for found in rule.finditer(text)]
    spans += [("pin", f.span(1)) for f in _BARE_PIN.finditer(text) if "passcode" in lowered]
    spans += [("code", found.span(1)) for found in _CODE_AFTER_A_PLACE.finditer(text)]
    spans += [("ssn", found.span(1)) for found in _NATIONAL_NUMBER.finditer(text)]
    for rule in (_SECURITY_QA, _MAIDEN_NAME, _WALLET_WORDS):
        spans += [("secret", found.span("value")) for found in rule.finditer(text)]
    spans += [
        ("secret", found.span("value"))
        for found in _SECURITY_ANSWER.finditer(text)
        if found["value"].split()[0].casefold() not in _NO_ANSWER
    ]
    spans += [
        ("secret", found.span("value"))
        for found in (*_PASSWORD_AFTER.finditer(text), *_PASSWORD_DASH.finditer(text))
        if kinds_mixed(found["value"]) >= 2 and not A_CONTRACTION.fullmatch(found["value"])
    ]
    spans += [
        ("secret", found.span("value"))
        for found in _USER_SLASH_PASSWORD.finditer(text)
        if kinds_mixed(found["value"]) >= 2
        and "@" not in found["user"]
        and not found["user"][0].isdigit()  # "login: 9am/5pm" names no user
    ]
    spans += [
        ("secret", found.span("value"))
        for found in _QUESTION_ANSWERED.finditer(text)
        if found["value"].split()[0].casefold() not in _NO_ANSWER
    ]
    for found in _LOGIN_PAIR.finditer(text):
        which = next(name for name in ("value", "after", "alone") if found[name])
        if kinds_mixed(found[which]) >= 2:  # "bob@example.com / call me" gives no password
            spans.append(("secret", found.span(which)))
    for found in _WIFI.finditer(text):
        which = next(name for name in ("value", "now", "its", "key") if found[name])
        value = found[which]
        # A key holds a digit or a symbol: "my wifi is Netgear" names the router; so does
        # "the wifi is Home5G and the password's daffodil" (an adversary).
        if which == "value" and _A_PASSWORD_LATER.search(text, found.end()):
            continue
        if len(value) >= 6 and any(not c.isalpha() for c in value.rstrip(".,;:!?)")):
            spans.append(("secret", found.span(which)))
    if _HINT_OF_A_PASSWORD.search(text):
        # A hint holding the password's own characters is the password: "master pw hint:
        # bday of first dog + Tr0nt0!!" (a new user).
        spans += [("secret", m.span(1)) for m in _TOKEN.finditer(text) if _password_like(m[1])]
    return spans


_DIGIT_IN_WORD = lazy_compile(r"[A-Za-z]\d+[A-Za-z]")


def _password_like(token: str) -> bool:
    """Every kind of character, or digits standing for letters ("Tr0nt0"): not "1Password"."""
    kinds = kinds_mixed(token)
    return kinds == 4 or (kinds == 3 and _DIGIT_IN_WORD.search(token) is not None)


def kinds_mixed(value: str) -> int:
    """How many kinds of character `value` mixes: lower, upper, digits, others."""
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value.rstrip(".,;:?)")),
        )
    )
