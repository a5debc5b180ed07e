"""Passwords in the last column of a pasted export with no heading: "netflix<TAB>ana<TAB>Xk9…".

Found by an adversary: of 2,000 lines of a password manager's export (site, user, password,
separated by tabs), 1,993 passwords were kept as typed; with a heading row they are read as
a table's column (`agent.secret_nouns`). Taken only where at least three lines share the
shape and most of their last fields look like passwords (upper and lower case letters and a
digit, no spaces), and then the whole column: a list of orders ends in amounts, dates or
product codes.
"""

from __future__ import annotations

import re

_ROW = re.compile(
    r"(?m)^[ \t]*(?P<fields>[^\t\n,;]+(?:(?P<sep>[\t,;])[^\t\n,;]*){1,4}?)"
    r"(?P=sep)[ \t]*(?P<last>[^\s,;]{8,64})[ \t]*\r?$"
)
_FEWEST_ROWS = 3
_MOST_SHARE = 0.6
"""Of the rows of the shape, the share whose last field must look like a password."""


def _looks_like_a_password(value: str) -> bool:
    return (
        any(c.islower() for c in value)
        and any(c.isupper() for c in value)
        and any(c.isdigit() for c in value)
        and not value.startswith(("http://", "https://"))
        and "@" not in value
    )


def credential_column_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each password in the last column of such an export."""
    if text.count("\n") < _FEWEST_ROWS - 1:
        return []
    rows = list(_ROW.finditer(text))
    if len(rows) < _FEWEST_ROWS:
        return []
    passwords = [row for row in rows if _looks_like_a_password(row["last"])]
    if len(passwords) < _MOST_SHARE * len(rows):
        return []
    # The column is one of passwords: each of its values is one ("SXRVxfCQGgXk" too).
    return [("secret", row.span("last")) for row in rows]
