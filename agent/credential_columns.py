"""Passwords in a pasted export with no heading: "netflix<TAB>ana@mail<TAB>Xk9…".

Found by an adversary: of 2,000 lines of a password manager's export (site, user, password,
separated by tabs), 1,993 passwords were kept as typed; with a heading row they are read as
a table's column (`agent.secret_nouns`). A line of such an export is a site (a word or a
domain), a user (an e-mail or a name of one word) and, after them, a password (a word of its
own, not a file's name, not made of the site's or the user's name); at least three lines of
one separator, most of them so, make the column of passwords. A list of orders, songs or
files is no export: its first fields hold spaces or numbers, or its last are file names (a
second adversary saw each redacted, and lower-case or short passwords kept).
"""

from __future__ import annotations

from collections import defaultdict

from memory.lazy_patterns import lazy_compile

_SEPARATORS = ("\t", ",", ";", " | ", "|")
_SITE = lazy_compile(r"(?i)^(?=[\w.-]*[a-z])[\w.-]{2,64}$")
_USER = lazy_compile(r"(?i)^(?:[\w.+-]+@[\w.-]+\.\w+|[\w.@+-]{2,64})$")
_A_FILE = lazy_compile(r"(?i)\.(?:pdf|docx?|xlsx?|csv|txt|jpe?g|png|gif|zip|mp[34]|html?)$")
_NOT_A_WORD = lazy_compile(r"\d|[^\w\s]")
"""A digit or a sign: what half a column of passwords at least holds ("hunter22", "Kot2024!")."""
_HEADINGS = frozenset(
    "password passwords passwort kennwort hasło haslo contraseña senha pass pwd pw passcode "
    "pin secret key".split()
)
_FEWEST_ROWS = 3
_MOST_SHARE = 0.6
"""Of the lines of one separator, the share that must read as site, user and password."""


def _password(value: str, site: str, user: str) -> bool:
    if not 4 <= len(value) <= 64 or any(c.isspace() for c in value) or _A_FILE.search(value):
        return False
    folded = value.casefold()
    if folded in _HEADINGS:
        return False  # "Title|Username|Password|URL": a heading's word (an adversary)
    names = (site.casefold().split(".")[0], user.casefold().split("@")[0])
    if any(len(name) >= 3 and name in folded for name in names):
        return False  # "Anna,Nowak,AnnaNowak1990": a user name, not a password
    # Letters too: "2.50" after "apples,kg" is a price.
    return value.isascii() and any(c.isalpha() for c in value)


def fields_of(line: str, separator: str) -> list[tuple[int, int]]:
    r"""The span of each field of `line`, a quoted one's without its quotes.

    "Gmail,https://gmail.com,jan@x.pl,\"Has,lo!2024\"": a comma in a quoted password is
    the password's (an adversary saw it kept).
    """
    if '"' not in line or separator.strip() != separator:
        spans, at = [], 0
        for field in line.split(separator):
            spans.append((at, at + len(field)))
            at += len(field) + len(separator)
        return spans
    spans, at = [], 0
    while at <= len(line):
        if line.startswith('"', at):
            close = at + 1
            while (close := line.find('"', close)) != -1 and line.startswith('""', close):
                close += 2
            if close == -1:
                return []  # a quote never closed: no table of fields
            spans.append((at + 1, close))
            at = close + 1
            if at < len(line) and not line.startswith(separator, at):
                return []
        else:
            cut = line.find(separator, at)
            cut = len(line) if cut == -1 else cut
            spans.append((at, cut))
            at = cut
        at += len(separator)
    return spans


def credential_column_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each password in the password column of such an export."""
    by_separator: dict[str, list[tuple[int, list[str], list[tuple[int, int]]]]] = defaultdict(list)
    offset = 0
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        for separator in _SEPARATORS:
            spans = fields_of(line, separator) if separator in line else []
            if len(spans) >= 3:
                fields = [line[a:b] for a, b in spans]
                by_separator[separator].append((offset, fields, spans))
                break
        offset += len(raw) + 1
    found: list[tuple[str, tuple[int, int]]] = []
    for rows in by_separator.values():
        read = [row for row in rows if _reads_as_a_login(row[1])]
        if not read or len(read) < _MOST_SHARE * len(rows):
            continue
        if len(read) < _FEWEST_ROWS and not _few_rows_read([fields for _, fields, _ in read]):
            continue
        marked = sum(1 for _, fields, _ in read if _NOT_A_WORD.search(fields[2].strip()))
        if 2 * marked < len(read):
            continue  # "Warsaw", "blue": words, not passwords
        for start, fields, spans in read:
            value = fields[2]
            lead = len(value) - len(value.lstrip())
            begin = start + spans[2][0] + lead
            found.append(("secret", (begin, begin + len(value.strip()))))
    return found


_AN_EMAIL = lazy_compile(r"^[\w.+-]+@[\w.-]+\.\w+$")
_A_URL = lazy_compile(r"(?i)^(?:https?://|www\.)\S+$")
_STRONG = lazy_compile(r"^(?=.*\d)(?=.*[^\W\d_])(?=.*(?:[A-Z]|[^\w\s]))")


def _few_rows_read(rows: list[list[str]]) -> bool:
    """Whether an export of one or two rows reads as one for sure.

    Each password of letters, digits and a capital or a sign, an e-mail or a web address
    beside one: "Bank<TAB>jan99<TAB>SuperTajne#7<TAB>https://bank.pl" (an adversary saw a
    row or two kept, where three were redacted).
    """
    return all(_STRONG.match(fields[2].strip()) for fields in rows) and any(
        _AN_EMAIL.match(field.strip()) or _A_URL.match(field.strip())
        for fields in rows
        for at, field in enumerate(fields)
        if at != 2
    )


def _reads_as_a_login(fields: list[str]) -> bool:
    site, user, value = (field.strip() for field in fields[:3])
    return bool(_SITE.match(site) and _USER.match(user) and _password(value, site, user))
