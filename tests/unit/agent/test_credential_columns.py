"""A password manager's export pasted with no heading: its password column is redacted."""

from __future__ import annotations

import random
import string

import pytest

from agent.redact import redact


def _password(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(12))


@pytest.mark.parametrize("separator", ["\t", ","])
def test_every_password_of_the_column_is_redacted(separator: str) -> None:
    """Found by an adversary: 1,993 of 2,000 such passwords were kept as typed."""
    rng = random.Random(7)
    rows = [(f"site{n}", f"user{n}@mail.example", _password(rng)) for n in range(60)]
    text = "\n".join(separator.join(row) for row in rows)
    redacted, kinds = redact(text)
    assert kinds == ["secret"]
    assert not any(password in redacted for _, _, password in rows)
    assert all(f"user{n}@mail.example" in redacted for n in range(60))


@pytest.mark.parametrize(
    ("text", "passwords"),
    [
        # A second adversary: lower-case ones, short ones, a notes column after, "|".
        (
            "Google,jan.kowalski,hunter22\nNetflix,jan.k,correcthorse\nBank,jk1990,letmein99",
            ["hunter22", "correcthorse", "letmein99"],
        ),
        (
            "gmail.com\tjan@x.pl\tKot2024!\nnetflix.com\tjan@x.pl\tFilm99#\nbank.pl\tjan123\tZaq1@wsx",
            ["Kot2024!", "Film99#", "Zaq1@wsx"],
        ),
        (
            "gmail,jan,Kot2024!x,notes here\nnetflix,jan,Film99#x,\nbank,jan,Zaq1@wsxx,",
            ["Kot2024!x", "Film99#x", "Zaq1@wsxx"],
        ),
        (
            "gmail | jan | Kot2024!x\nnetflix | jan | Film99#x\nbank | jan | Zaq1@wsxx",
            ["Kot2024!x", "Film99#x", "Zaq1@wsxx"],
        ),
        # A later adversary: a row or two beside an e-mail or a web address, and a quoted
        # password holding a comma.
        (
            "Gmail\tjan@x.pl\tHaslo!2024\thttps://gmail.com\nBank\tjan99\tSuperTajne#7\thttps://bank.pl",
            ["Haslo!2024", "SuperTajne#7"],
        ),
        ("Gmail,jan@x.pl,Haslo!2024\nBank,jan99,SuperTajne#7", ["Haslo!2024", "SuperTajne#7"]),
        ("Bank\tjan99\tSuperTajne#7\thttps://bank.pl", ["SuperTajne#7"]),
        (
            'name,url,username,password\nGmail,https://gmail.com,jan@x.pl,"Has,lo!2024"',
            ["Has,lo!2024", "lo!2024"],
        ),
    ],
)
def test_an_export_in_other_shapes_is_redacted(text: str, passwords: list[str]) -> None:
    redacted = redact(text)[0]
    assert not any(password in redacted for password in passwords), redacted


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(f"Cafe Camelot,2026-11-{n % 28 + 1:02d},{10 + n} kg,AB{n}CD" for n in range(50)),
        "\n".join(f"Name{n}\tSurname{n}\tWarsaw" for n in range(20)),
        "\n".join(f"order {n}\t2026-11-01\tSKU-AB{n}X" for n in range(20)),
        # A second adversary: orders, songs, files, user names, each redacted.
        "1001,Anna Nowak,AB-1234x\n1002,Jan Kowalski,CD-5678y\n1003,Ewa Lis,EF-9012z",
        "Never Gonna Give You Up,Rick Astley,dQw4w9WgXcQ\nTake On Me,a-ha,djV11Xbc914\n"
        "Toxic,Britney Spears,LONZ8b5oLdM",
        "2024-03-01\tinvoice\tInvoice2024-03.pdf\n2024-04-01\tinvoice\tInvoice2024-04.pdf\n"
        "2024-05-01\tinvoice\tInvoice2024-05.pdf",
        "Anna,Nowak,AnnaNowak1990\nJan,Kowal,JanKowal1985\nEwa,Lis,EwaLis2000",
        "red,green,blue\ncat,dog,bird\none,two,three",
        "apples,kg,2.50\npears,kg,3.10\nplums,kg,4.00",
        "netflix\tana\tLJDYJw1coGkJ",  # one line is no export
        # Nor a row or two without an e-mail or a web address beside them.
        "London,Paris,Flight2B",
        "see you,tom,Later!\nbye,ana,Soon2!",
    ],
)
def test_other_columns_are_kept(text: str) -> None:
    assert redact(text)[0] == text


def test_a_headings_words_are_kept_and_each_cell_is_redacted_alone() -> None:
    """Found by an adversary: the heading "Title|Username|Password|URL" lost its own words,
    and a row's web address went with its password."""
    text = (
        "Title|Username|Password|URL\nGmail|jan@x.pl|Haslo!2024|https://gmail.com\n"
        "Bank|jan99|SuperTajne#7|https://bank.pl"
    )
    assert redact(text)[0] == (
        "Title|Username|Password|URL\nGmail|jan@x.pl|[REDACTED:secret]|https://gmail.com\n"
        "Bank|jan99|[REDACTED:secret]|https://bank.pl"
    )
    assert redact("password | hunter22")[0] == "password | [REDACTED:secret]"
    assert redact("bob@example.com | hunter22")[0] == "bob@example.com | [REDACTED:secret]"


@pytest.mark.parametrize(
    ("text", "password"),
    [
        (
            "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,"
            "login_password,login_totp\n,,login,Gmail,,,0,https://mail.google.com,jo@gmail.com,"
            '"Hun,ter2!x",',
            "ter2!x",
        ),
        (
            '"Account","Login Name","Password","Web Site","Comments"\n'
            '"Bank","jo","Zx,9q""w","https://bank.com",""',
            "9q",
        ),
        ("name,url,username,password\r\nBank,https://bank.com,jo,CrLfPass9\r\n", "CrLfPass9"),
    ],
)
def test_a_managers_own_export_is_redacted(text: str, password: str) -> None:
    """Found by a second adversary: Bitwarden's "login_password" column, KeePass's doubled
    quote, and a file saved with CRLF each kept their passwords."""
    assert password not in redact(text)[0]


def test_a_headings_other_words_are_kept() -> None:
    text = (
        "Title,Url,Username,Password,OTPAuth,Favorite\n"
        "Gmail,https://mail.google.com,jo@gmail.com,Hunter2!x,otpauth://totp/x,false"
    )
    assert redact(text)[0] == text.replace("Hunter2!x", "[REDACTED:secret]")
