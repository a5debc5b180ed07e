"""Secrets said in wordings the other readers miss: the value before its name, a CSV table.

Found by adversaries, each stored and written to the chat's file as typed: "4821 — bank
card pin", "6614 - debit card PIN", "4821 — alarm code" (the value first, its name after a
dash); a CSV whose heading names the column ("service,pin", then "bank card,5093"); Hindi
("मेरा पिन 4821 है", "मेरा पासवर्ड Tembo2024 है"); Swahili "Nenosiri langu ni Tembo2024!"
and "nambari ya siri 4821"; Portuguese "senha do banco 4821", French "mot de passe wifi
Chat1234"; "my phone unlock pattern is 7395", "2FA code 482913", "to disarm press 4821".
"""

from __future__ import annotations

from agent.code_wordings import OPENS
from agent.credential_columns import fields_of
from memory.lazy_patterns import lazy_compile

_VALUE_THEN_NAME = lazy_compile(
    r"(?im)(?:^|(?<=[\s(]))(\d{4,8})[ \t]*[\u2013\u2014=-][ \t]*(?:(?:my|the|our)[ \t]+)?"
    r"(?:[\w'-]+[ \t]+){0,3}?(?P<name>pin|passcode|password|(?:"
    + OPENS
    + r")[ \t]+code)(?:[ \t]+(?:number|no\.?))?(?=[ \t]*(?:$|[.,;!?)]|\(|for\b))"
)
"""The value, a dash, then what it is, ending the clause: "meeting 1430 - debit card team"
names no secret, nor does "2024 - bank card pin changed"; a code only of what opens ("1234 -
project code" is none)."""
_NAMED_IN_OTHER_LANGUAGES = lazy_compile(
    r"(?i)(?:"
    # Hindi: PIN, password, code, then the value; "है" (is) after it. Written in Latin
    # letters too, "mera pin 7788 hai" (an adversary), after whose ("mera", "hamara").
    r"(?:पिन(?:[ \t]*(?:कोड|नंबर))?|पासवर्ड)(?:[ \t]+है)?|"
    # German: a card's PIN, "Geheimzahl der EC-Karte 6614" (an adversary).
    r"\bgeheimzahl(?:[ \t]+(?:der|meiner|für[ \t]+die|von[ \t]+der)[ \t]+[\w-]+)?"
    r"(?:[ \t]+(?:ist|lautet))?|"
    r"\b(?:mera|meri|mere|hamara|hamari|apna)[ \t]+(?:[^\W\d_]+[ \t]+){0,2}?"
    r"(?:pin|password|passcode|code)(?=[ \t]+[^\s,;]*\d[^\s,;]*[ \t]+(?:hai|hain|hey|he|h|tha)\b)|"
    # Swahili: password, secret number, each with whose ("langu") and "ni" (is).
    r"\bnenosiri(?:[ \t]+(?:langu|letu|lako|lake|la|ya)(?:[ \t]+[^\W\d_]+)?)?(?:[ \t]+ni)?|"
    r"\bnambari[ \t]+ya[ \t]+siri(?:[ \t]+(?:ya|la)[ \t]+[^\W\d_]+)?(?:[ \t]+ni)?|"
    # Portuguese and French: of what it is before the value.
    r"\bsenha(?:[ \t]+(?:do|da|de|dos|das)[ \t]+[^\W\d_][\w-]*)?(?:[ \t]+(?:é|e))?|"
    # What of, in letters, a word of its own: "mot de passe Tr0ub4dor" kept "Tr0ub" (an
    # adversary), read as the word naming what the password is of.
    r"\bmot[ \t]+de[ \t]+passe(?:[ \t]+(?:du|de[ \t]+la|des|de)?[ \t]*[^\W\d_]+(?:-[^\W\d_]+)*"
    r"(?=[ \t:=]))?"
    r"(?:[ \t]+est)?|"
    # Vietnamese: a PIN or a password, of what and whose, then "là" (is): "Mã PIN của tôi là
    # 6060", "mật khẩu wifi là matkhau2024" (an adversary: kept as typed).
    r"(?:\bmã[ \t]+pin|\bmã[ \t]+số[ \t]+bí[ \t]+mật|\bmật[ \t]+khẩu)"
    r"(?:[ \t]+[^\W\d_]+){0,4}?[ \t]+là|"
    # A phone's unlock pattern, a second factor's code.
    r"\bunlock[ \t]+(?:pattern|code|pin)(?:[ \t]+(?:is|was))?|"
    r"\b(?:2fa|mfa|two[ \t-]factor)[ \t]+code(?:[ \t]+(?:is|was))?"
    r")[ \t]*[:=]?[ \t]*((?=[^\s,;]*\d)[^\s,;\"'`]{3,40}?)(?=[.!?]?(?:\s|$)|[,;])"
)
"""A value with a digit in it: "senha do banco nova" holds none."""
_DISARMED_BY_PRESSING = lazy_compile(
    r"(?i)\bdisarm\w*[ \t]+(?:[\w'-]+[ \t]+){0,3}?(?:press|enter|type|punch[ \t]+in|key[ \t]+in)"
    r"[ \t]+(\d{4,8})(?!\d)"
)
_AT_THE_CASH_MACHINE = lazy_compile(
    r"(?i)\b(?:tried|typed|entered|put[ \t]+in|punched[ \t]+in|keyed[ \t]+in|used)[ \t]+"
    r"(\d{4,6})(?!\d)[ \t]+(?:at|on|in)[ \t]+(?:the[ \t]+|an[ \t]+|a[ \t]+)?(?:atm|cash[ \t]*"
    r"(?:machine|point|dispenser)|card[ \t]+(?:machine|reader)|hole[ \t]+in[ \t]+the[ \t]+wall|"
    r"till|checkout|self[ -]?checkout)\b"
)
"""A PIN tried where a card asks for one: "tried 2291 at the atm and it didnt work, then
4471 worked" (a new user: both kept, and shown to the model; the code beside it goes with it,
`agent.codes_beside`)."""
_A_CALLS_PIN = lazy_compile(
    r"(?i)\b(?:meeting|conference|zoom|teams|webex|dial[ \t-]?in|bridge|voicemail|call)"
    r"[ \t]+(?:pin|passcode|password|access[ \t]+code)(?:[ \t]+(?:is|was))?[ \t]*[:=#]?"
    r"[ \t]*(\d{4,10})(?!\d)"
)
"""A call's PIN or passcode, whatever follows: "meeting pin 4433 on zoom", "teams dial-in pin
778812#" (kept as typed, where "zoom meeting pin 4433" was redacted)."""
_SEPARATED = lazy_compile(r"[,;\t]")
_SECRET_COLUMN = lazy_compile(
    # A manager's own names too: "login_password", "login_totp" (Bitwarden: an adversary).
    r"(?i)^[ \t]*\"?(?:login[ \t_-]+)?"
    r"(?:(?P<pin>pins?|pin[ \t]+codes?)|(?P<code>codes?|combinations?)|"
    # In other languages too: "Mot de passe", "Passwort" (a third adversary saw them kept).
    r"passwords?|passcodes?|passphrases?|pass|passwd|pwd|pw|mot[ \t]+de[ \t]+passe|passwort|"
    r"kennwort|contrase[ñn]a|senha|has[łl]o|wachtwoord|salasana|l[öo]senord|adgangskode|"
    r"passord|(?:2fa|mfa|otp|totp)"
    r"(?:[ \t_-]+(?:backup|recovery))?(?:[ \t_-]+codes?)?|(?:backup|recovery)[ \t_-]+codes?)\"?"
    r"[ \t]*$"
)
_A_LOCK = lazy_compile(rf"(?i)\b(?:{OPENS}|wi-?fi)\b")
_POSTAL_HEADING = lazy_compile(r"(?i)pin[ \t]?code|pincode|postal[ \t]+pin")
_CELL_VALUE = lazy_compile(r"[ \t]*\"?((?=[^\s\"]*\d)(?:[^\s\"]|\"\"){4,40})\"?[ \t]*")


_NAMED_THEN_GIVEN = lazy_compile(
    r"(?i)\b(?:my|the|our)[ \t]+(?:[\w-]+[ \t]+){0,2}?(?:password|passcode|pin|pw)\b"
    r"[^\n:]{0,60}?:[ \t]*(?!\d{1,4}[./-]\d)((?=[^\s,;]*\d)[^\s,;\"'`]{4,40}?)(?=[.!?]?(?:\s|$))"
)
"""Named, then given after a colon later in the line: "My password? It's the same as always:
Maple2019" (an adversary); not a date ("my password expires on: 12/03/2027")."""
_NESTED_HEADING = lazy_compile(
    r"(?im)^(?P<indent>[ \t]*)(?:[\w-]+[ \t_-]+)?(?:passwords?|passwd|pass|pwd|pw|secrets?|"
    r"credentials|creds|pins?|api[ \t_-]?keys?|tokens?)[ \t]*:[ \t]*$"
)
_NESTED_ITEM = lazy_compile(
    r"(?P<indent>[ \t]+)[\w.-]+[ \t]*:[ \t]*(?P<value>[^\s#][^\n]*?)[ \t]*$"
)


def _nested_values(text: str) -> list[tuple[str, tuple[int, int]]]:
    """The values under a heading of passwords, as YAML nests them.

    "password:", then "  prod: Qw3rtyProd" and "  dev: Qw3rtyDev" (an adversary saw both
    kept; the flat "pass: Orange4411" was redacted).
    """
    spans: list[tuple[str, tuple[int, int]]] = []
    for heading in _NESTED_HEADING.finditer(text):
        at = heading.end() + 1
        while at < len(text):
            end = text.find("\n", at)
            end = len(text) if end == -1 else end
            item = _NESTED_ITEM.fullmatch(text, at, end)
            if item is None or len(item["indent"]) <= len(heading["indent"]):
                break
            spans.append(("secret", item.span("value")))
            at = end + 1
    return spans


def more_secret_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each secret said in these ways."""
    spans: list[tuple[str, tuple[int, int]]] = []
    for found in _VALUE_THEN_NAME.finditer(text):
        name = found["name"].casefold()
        spans.append(
            ("pin" if name == "pin" else "code" if "code" in name else "secret", found.span(1))
        )
    spans += [("secret", found.span(1)) for found in _NAMED_IN_OTHER_LANGUAGES.finditer(text)]
    spans += [("secret", found.span(1)) for found in _NAMED_THEN_GIVEN.finditer(text)]
    if ":\n" in text:
        spans += _nested_values(text)
    spans += [("code", found.span(1)) for found in _DISARMED_BY_PRESSING.finditer(text)]
    spans += [("pin", found.span(1)) for found in _AT_THE_CASH_MACHINE.finditer(text)]
    spans += [("code", found.span(1)) for found in _A_CALLS_PIN.finditer(text)]
    if "\n" in text and _SEPARATED.search(text):
        spans += _csv_codes(text)
    return spans


def _csv_codes(text: str) -> list[tuple[str, tuple[int, int]]]:
    """The values under a CSV heading that names PINs, codes or passwords, line by line.

    A column of codes only of locks ("error,code" holds error codes), as a table's.
    """
    spans: list[tuple[str, tuple[int, int]]] = []
    columns: dict[int, str] = {}
    separator = ""
    locks: bool | None = None
    at = 0
    for raw in text.split("\n"):
        start, at = at, at + len(raw) + 1
        line = raw.removesuffix("\r")  # a file saved with CRLF (an adversary: kept)
        if columns and not line.strip():
            # A blank line between rows: a CRLF export pasted through a terminal, whose
            # line ends each came as two (an adversary saw its passwords kept).
            continue
        found = _SEPARATED.search(line)
        if found is None or (columns and found[0] != separator):
            columns = {}
            continue
        # A quoted cell's separators are its own: "Has,lo!2024" (an adversary saw it kept).
        fields = fields_of(line, found[0])
        cells = [(start + a, line[a:b]) for a, b in fields]
        quoted = {i for i, (a, _) in enumerate(fields) if a > 0 and line[a - 1] == '"'}
        heading = [_SECRET_COLUMN.match(cell) for _, cell in cells]
        if any(heading):
            separator = found[0]
            if locks is None:  # read once: a page of headings was read again at each one
                locks = _A_LOCK.search(text, at) is not None
            # Not India's postal code, headed "pin code": "date,pin code,city" (an adversary).
            columns = {
                i: "pin" if h["pin"] else "code" if h["code"] else "secret"
                for i, h in enumerate(heading)
                if h
                and (locks or not h["code"])
                and not _POSTAL_HEADING.fullmatch(cells[i][1].strip().strip('"'))
            }
            continue
        for column, kind in columns.items():
            if column >= len(cells):
                continue
            # Quoted, a password may hold spaces: "Sunny Day 42", "p@ss, word9" (an
            # adversary saw each kept).
            # A password's column holds spaces unquoted too: "correct horse battery staple"
            # (an adversary saw it kept).
            spaced = column in quoted or kind == "secret"
            cell = _QUOTED_VALUE if spaced else _CELL_VALUE
            if value := cell.fullmatch(cells[column][1]):
                spans.append(
                    (kind, (cells[column][0] + value.start(1), cells[column][0] + value.end(1)))
                )
    return spans


_QUOTED_VALUE = lazy_compile(
    r"[ \t]*((?=[^\n]*[^\W_])(?!(?i:n/?a|none|tbd|-+)[ \t]*$)[^\n]{4,64}?)[ \t]*"
)
"""A quoted cell's value: four characters or more, spaces and separators its own."""
