"""Secrets said with no word between their name and their value, in more languages.

Found by an adversary, each kept as typed, in the chat's file and shown to the model for
unrelated questions when made a fact: Turkish, which says "my password 4821" with no verb
("şifrem 4821", "ev wifi şifresi Kartal1234", "parola: Kartal1234"), Swahili "nywila yangu
ni Simba2024", German "Geheimzahl 4821" and "Kartenpin: 4821", Russian "мой пин 4821" and "PIN-код
карты — 4821";
a PIN said of what it opens ("PIN do karty 4821", "PIN de la tarjeta 4821", "PIN do cartão
4821", "PIN kodum 4821"); a table whose heading names its codes ("| item | code |", then
"| alarm | 4821 |"); a list of PINs under its heading ("PINs", then "bank card 4821").
"""

from __future__ import annotations

import re

from agent.code_wordings import OPENS
from agent.credential_columns import credential_column_spans
from agent.not_secret_codes import a_year
from memory.lazy_patterns import lazy_compile

_NOUN_THEN_VALUE = lazy_compile(
    r"(?i)(?<![\w-])(?:[şs]ifre(?:m|miz|si|sini|niz)?|parola(?:m|s[ıi])?|"
    r"nywila(?:[ \t]+(?:yangu|yako|yake|yetu))?(?:[ \t]+ni)?|geheimzahl|kartenpin|"
    r"(?:мой[ \t]+)?(?:(?:пин|pin)[ \t-]*код|пин|пароль)(?:[ \t]+(?:от[ \t]+)?[а-яё]+)?)"
    r"[ \t]*(?:[:=\u2013\u2014-]|это)?[ \t]*(?!(?:19|20)\d\d[ \t]+г)"
    r"((?=[^\s,;]*\d)[^\s,;\"'`]{3,40})(?=[.!?]?(?:\s|$)|[,;])"
)
"""A value with a digit in it: "şifremi unuttum" ("I forgot my password") holds none."""
_PIN_OF_A_THING = lazy_compile(
    r"(?i)(?:\b(?-i:PIN|Pin)|(?:my|the|your|card|bank|atm|sim)[ \t]+pin)[ \t]+"
    r"(?:kod(?:u|um|umuz)?|(?:do|de|da|del|dla|du|des|der|na|for|of)"
    r"(?:[ \t]+(?:la|el|le|my|the|mi|mój|moja|meu|minha|mein|meiner))?"
    r"(?:[ \t]+[^\W\d_][\w-]*){1,3}?|(?-i:[a-ząćęłńóśźż]+[ \t]+)?(?=(?:to|jest)\b))"
    r"[ \t]*(?:[:=]|\b(?:is|was|to|jest)\b)?[ \t]*(\d{4,8})(?![\d.,-]?\d)"
    r"(?=[ \t]*(?:$|[.,;!?)]))"
)
"""A PIN, said as a noun, then what it opens: "I pin for the team 2024 goals" is a verb.
In Polish and English at once (a new user, a baker in Kraków: "PIN do karty firmowej PKO is
7731" was kept), and Polish "to" for "is" ("PIN karty to 1234", "mój PIN to 9921")."""
_POLISH_IS = lazy_compile(
    r"(?i)(?<![\w-])(?:(?P<whose>m[oó]j|moje|twoje|tw[oó]j)[ \t]+)?"
    r"(?:(?P<pin>pin)|(?P<code>kod)|has[łl]o)"
    r"(?P<between>(?:[ \t]+(?:do|od|dla|na|z)?[ \t]*[^\W\d_][\w-]*){0,3}?)[ \t]+"
    r"(?P<verb>to|jest)[ \t]+"
    r"(?P<value>(?(pin)\d{4,8}(?![\d.,-]?\d)|(?(code)\d{4,8}(?![\d.,-]?\d)|"
    r"(?=[^\s,;]*\d)[^\s,;\"'`]{4,40})))(?![\w-])"
)
"""Polish "to" or "jest" for "is", whatever follows: "mój PIN to 9921 i tyle", "pin do karty
to 1234", "kod do drzwi to 4471", "hasło do maila to Kot2024!" (a second adversary: each
kept as typed when more followed)."""


def _polish(found: re.Match[str]) -> bool:
    """Whether "pin to 2024" is Polish for "the PIN is".

    Not "I need to pin to 2024 goals", nor "PIN to 2024 goals" (a year); a word of what it
    opens between, or "mój", says so.
    """
    if not found["pin"] or found["verb"].casefold() != "to":
        return True
    if found["between"] or found["whose"]:
        return True
    return found["pin"] == "PIN" and not a_year(found["value"])


_ONE_TIME_CODE = lazy_compile(
    r"(?i)\bt?otp\b(?:[ \t]+(?:for|of|to)[ \t]+[^\W\d_][\w-]*(?:[ \t]+[^\W\d_][\w-]*)?)?"
    r"[ \t]*[:=]?[ \t]*(\d{4,8})(?![\d.,-]?\d)"
    r"(?![ \t]*(?:s\b|sec|second|min|minute|digit|char|time|attempt|tr(?:y|ies)))"
)
"""A one-time code with no verb: "staging otp 481920", "OTP for staging 481920"."""
_INLINE_LIST = lazy_compile(
    r"(?im)\b(?:my[ \t]+)?(?P<what>pins|pin[ \t]+codes|passwords|passcodes)"
    r"[ \t]*[:\u2013\u2014-][ \t]*(?P<items>[^\n]+)"
)
"""Secrets listed on one line after their heading: "my pins: bank 7391, gym 2210"."""
_INLINE_ITEM = lazy_compile(
    r"(?:^|[,;/]|\band\b)[ \t]*[^\W\d_][\w'-]*(?:[ \t]+[^\W\d_][\w'-]*){0,2}?"
    r"[ \t]*[:=]?[ \t]+(?P<value>[^\s,;/]+)"
)
_TABLE_ROW = lazy_compile(r"^[ \t]*\|(.+)\|[ \t]*$", re.MULTILINE)
_SECRET_HEADING = lazy_compile(
    r"(?i)^[ \t]*(?:(?P<code>codes?|kod(?:lar|y)?)|pins?|pin[ \t]+codes?|passwords?|passcodes?|"
    r"(?P<short>pass|passwd|pwd|pw)|"
    r"combinations?|combos?|secrets?|passwörter|şifreler|passphrases?|(?:door|gate|alarm|access|"
    r"lock|safe|locker|keypad)[ \t]+codes?|(?:2fa|mfa|otp|totp)(?:[ \t_-]+(?:backup|recovery))?"
    r"(?:[ \t_-]+codes?)?|(?:backup|recovery)[ \t_-]+codes?)[ \t]*$"
)
"""A column of secrets; one of "codes" only in a table of locks ("| error | code |" holds
error codes). Of one-time and backup codes too ("| service | 2FA backup code |", "| OTP |":
an adversary saw them kept)."""
_A_LOCK = lazy_compile(rf"(?i)\b(?:{OPENS}|wi-?fi)\b")
_LOGIN_HEADING = lazy_compile(
    r"(?i)^[ \t]*(?:user(?:[ \t_-]?name)?|login|site|website|service|account|e-?mail|app|"
    r"host|server|system|url)[ \t]*$"
)
"""A column a password's is beside: "| site | user | pass |" (an adversary); a test's "pass"
column ("| test | pass | fail |") holds results (a later one saw them redacted)."""
_CELL_VALUE = lazy_compile(
    r"[ \t]*((?=[^\s|]*\d)(?=(?:[^\s|]*\d){4}|[^\s|]*[^\W\d_])[^\s|]{4,40})[ \t]*"
)
"""A cell's value: four digits, or letters and a digit ("| timeout | 504 |" is no code)."""
_BACKUP_CELL = lazy_compile(
    r"[ \t]*((?=[^|\n]*\d|[A-Za-z0-9]+-)[A-Za-z0-9]{3,10}(?:[- ][A-Za-z0-9]{3,10}){0,4})[ \t]*"
)
"""A backup code's cell: groups of letters or digits ("1234 5678", "abcd-efgh-ijkl": an
adversary saw both kept)."""
_BACKUP_HEADING = lazy_compile(r"(?i)backup|recovery")
_LIST_HEADING = lazy_compile(
    r"(?im)^[ \t]*(?:my[ \t]+)?(?:pins|pin[ \t]+codes|codes|passwords|passcodes)[ \t]*:?[ \t]*$"
)
_LISTED = lazy_compile(
    r"(?m)^[ \t]*(?P<mark>[-*\u2022]|\d+[.)])?[ \t]*[^\W\d_][\w'-]*(?:[ \t][\w'-]+){0,2}?"
    r"[ \t]*[:=-]?[ \t]+(\d{4,8})[ \t]*$"
)
"""A line of a list: a bullet or not, as its first line, a name of three words at most."""


_NO_SECRET = lazy_compile(
    r"(?i)\b(?:order|booking|reference|ref|invoice|tracking|error|zip|post(?:al)?|area|"
    r"customer|account[ \t]+number)\b"
)
"""A line of a list of codes that names no secret: "order number 55512345"."""


def secret_noun_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each secret said in these ways."""
    spans = [("secret", found.span(1)) for found in _NOUN_THEN_VALUE.finditer(text)]
    spans += [("pin", found.span(1)) for found in _PIN_OF_A_THING.finditer(text)]
    for found in _POLISH_IS.finditer(text):
        if not _polish(found):
            continue
        kind = "pin" if found["pin"] else "code" if found["code"] else "secret"
        spans.append((kind, found.span("value")))
    spans += [("code", found.span(1)) for found in _ONE_TIME_CODE.finditer(text)]
    for listed in _INLINE_LIST.finditer(text):
        spans += _inline_items(listed)
    if "|" in text:
        spans += _table_codes(text)
    for heading in _LIST_HEADING.finditer(text):
        spans += _listed_after(text, heading.end())
    return spans + credential_column_spans(text)


def _table_codes(text: str) -> list[tuple[str, tuple[int, int]]]:
    """The values under a table's heading that names codes or passwords."""
    spans: list[tuple[str, tuple[int, int]]] = []
    secret_columns: dict[int, str] = {}
    backups: set[int] = set()
    locks: bool | None = None  # read once: a page of tables was read again at each heading
    for row in _TABLE_ROW.finditer(text):
        cells, at = [], row.start(1)
        for cell in row[1].split("|"):
            cells.append((at, cell))
            at += len(cell) + 1
        if all(_SECRET_HEADING.match(c) is None for _, c in cells) and not secret_columns:
            continue
        if any(_SECRET_HEADING.match(c) for _, c in cells):
            headings = [_SECRET_HEADING.match(c) for _, c in cells]
            if locks is None:
                locks = _A_LOCK.search(text, row.end()) is not None
            login = any(_LOGIN_HEADING.match(cell) for _, cell in cells)
            # "pass" of a test's results is no password: only beside a login's column.
            secret_columns = {
                i: _kind(found[0])
                for i, found in enumerate(headings)
                if found and (locks or not found["code"]) and (login or not found["short"])
            }
            backups = {i for i in secret_columns if _BACKUP_HEADING.search(cells[i][1])}
            continue
        for column, kind in secret_columns.items():
            if column >= len(cells):
                continue
            start, cell = cells[column]
            value = (_BACKUP_CELL if column in backups else _CELL_VALUE).fullmatch(cell)
            if value is not None:
                spans.append((kind, (start + value.start(1), start + value.end(1))))
    return spans


def _inline_items(listed: re.Match[str]) -> list[tuple[str, tuple[int, int]]]:
    """Each item's value of a list on one line: digits for PINs, a digit in a password."""
    pins = "pin" in listed["what"].casefold()
    spans: list[tuple[str, tuple[int, int]]] = []
    for item in _INLINE_ITEM.finditer(listed.string, listed.start("items"), listed.end("items")):
        value = item["value"].rstrip(".!?")
        wanted = value.isdigit() and 4 <= len(value) <= 8 if pins else _A_DIGIT.search(value)
        if wanted:
            start = item.start("value")
            spans.append(("pin" if pins else "secret", (start, start + len(value))))
    return spans


_A_DIGIT = lazy_compile(r"\d")


def _kind(heading: str) -> str:
    folded = heading.casefold()
    if "pin" in folded:
        return "pin"
    return "code" if "cod" in folded or "kod" in folded or "comb" in folded else "secret"


def _listed_after(text: str, at: int) -> list[tuple[str, tuple[int, int]]]:
    """Each line's number after a heading of PINs or codes, up to the first line without one."""
    spans: list[tuple[str, tuple[int, int]]] = []
    marked = False
    at = text.find("\n", at)
    while at != -1:
        end = text.find("\n", at + 1)
        line_end = len(text) if end == -1 else end
        found = _LISTED.match(text, at + 1, line_end)
        if found is None or (spans and bool(found["mark"]) != marked):
            break
        if _NO_SECRET.search(text, at + 1, found.start(2)):
            at = end
            continue
        marked = bool(found["mark"])
        spans.append(("pin", found.span(2)))
        at = end
    return spans
