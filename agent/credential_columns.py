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

import re
from collections import defaultdict

_SEPARATORS = ("\t", ",", ";", " | ", "|")
_SITE = re.compile(r"(?i)^(?=[\w.-]*[a-z])[\w.-]{2,64}$")
_USER = re.compile(r"(?i)^(?:[\w.+-]+@[\w.-]+\.\w+|[\w.@+-]{2,64})$")
_A_FILE = re.compile(r"(?i)\.(?:pdf|docx?|xlsx?|csv|txt|jpe?g|png|gif|zip|mp[34]|html?)$")
_NOT_A_WORD = re.compile(r"\d|[^\w\s]")
"""A digit or a sign: what half a column of passwords at least holds ("hunter22", "Kot2024!")."""
_FEWEST_ROWS = 3
_MOST_SHARE = 0.6
"""Of the lines of one separator, the share that must read as site, user and password."""


def _password(value: str, site: str, user: str) -> bool:
    if not 4 <= len(value) <= 64 or any(c.isspace() for c in value) or _A_FILE.search(value):
        return False
    folded = value.casefold()
    names = (site.casefold().split(".")[0], user.casefold().split("@")[0])
    if any(len(name) >= 3 and name in folded for name in names):
        return False  # "Anna,Nowak,AnnaNowak1990": a user name, not a password
    # Letters too: "2.50" after "apples,kg" is a price.
    return value.isascii() and any(c.isalpha() for c in value)


def credential_column_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each password in the password column of such an export."""
    if text.count("\n") < _FEWEST_ROWS - 1:
        return []
    by_separator: dict[str, list[tuple[int, list[str]]]] = defaultdict(list)
    offset = 0
    for line in text.split("\n"):
        for separator in _SEPARATORS:
            fields = line.rstrip("\r").split(separator)
            if len(fields) >= 3:
                by_separator[separator].append((offset, fields))
                break
        offset += len(line) + 1
    spans: list[tuple[str, tuple[int, int]]] = []
    for separator, rows in by_separator.items():
        if len(rows) < _FEWEST_ROWS:
            continue
        read = [(start, fields) for start, fields in rows if _reads_as_a_login(fields)]
        if len(read) < _MOST_SHARE * len(rows) or len(read) < _FEWEST_ROWS:
            continue
        marked = sum(1 for _, fields in read if _NOT_A_WORD.search(fields[2].strip()))
        if 2 * marked < len(read):
            continue  # "Warsaw", "blue": words, not passwords
        for start, fields in read:
            before = sum(len(field) + len(separator) for field in fields[:2])
            value = fields[2]
            lead = len(value) - len(value.lstrip())
            spans.append(("secret", (start + before + lead, start + before + len(value.rstrip()))))
    return spans


def _reads_as_a_login(fields: list[str]) -> bool:
    site, user, value = (field.strip() for field in fields[:3])
    return bool(_SITE.match(site) and _USER.match(user) and _password(value, site, user))
