"""A password manager's export pasted with no heading: its password column is redacted."""

from __future__ import annotations

import random
import string

import pytest

from agent.redact import redact


def _password(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(12))


@pytest.mark.parametrize("separator", ["\t", ","])
def test_every_password_of_the_last_column_is_redacted(separator: str) -> None:
    """Found by an adversary: 1,993 of 2,000 such passwords were kept as typed."""
    rng = random.Random(7)
    rows = [(f"site{n}", f"user{n}@mail.example", _password(rng)) for n in range(60)]
    text = "\n".join(separator.join(row) for row in rows)
    redacted, kinds = redact(text)
    assert kinds == ["secret"]
    assert not any(password in redacted for _, _, password in rows)
    assert all(f"user{n}@mail.example" in redacted for n in range(60))


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(f"Cafe Camelot,2026-11-{n % 28 + 1:02d},{10 + n} kg,AB{n}CD" for n in range(50)),
        "\n".join(f"Name{n}\tSurname{n}\tWarsaw" for n in range(20)),
        "\n".join(f"order {n}\t2026-11-01\tSKU-AB{n}X" for n in range(20)),
        "netflix\tana\tLJDYJw1coGkJ",  # one line is no export
    ],
)
def test_other_columns_are_kept(text: str) -> None:
    assert redact(text)[0] == text
