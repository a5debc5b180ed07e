"""Secrets in their real formats, built from obviously fake characters, and ordinary text.

No sample is a real credential: every body is made of FAKE/fake/deadbeef/0-9 repeated, and the
card numbers are the issuers' published test numbers or Luhn-completed runs of zeros.
"""

from __future__ import annotations

import base64
from itertools import cycle, islice

from agent.secret_formats import luhn_valid


def _take(alphabet: str, n: int) -> str:
    return "".join(islice(cycle(alphabet), n))


def alnum(n: int) -> str:
    """Mixed-case letters and digits, e.g. FaKe0Fake1FAKE2…"""
    return _take("FaKe0Fake1FAKE2fake3FaKe4Fake5FAKE6fake7FaKe8Fake9", n)


def hexa(n: int) -> str:
    """Lower-case hex: deadbeef0000…"""
    return _take("deadbeef0000", n)


def upper(n: int) -> str:
    """Upper-case letters and digits: FAKE0FAKE1…"""
    return _take("FAKE0FAKE1FAKE2FAKE3", n)


def letters(n: int) -> str:
    """Letters only: FakeFAKEfake…"""
    return _take("FakeFAKEfake", n)


def b64(n: int) -> str:
    """Base64 alphabet with / and +: Fake/FAKE+fake0123…"""
    return _take("Fake/FAKE+fake0123", n)


def with_luhn(prefix: str) -> str:
    """`prefix` plus the check digit that makes it Luhn-valid."""
    return next(prefix + d for d in "0123456789" if luhn_valid(prefix + d))


def _pem(label: str) -> tuple[str, str]:
    body = "\n".join(_take("FAKEKEYBODYfakekeybody0123456789", 64) for _ in range(3))
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----", body.splitlines()[1]


_PEMS = {
    f"pem {label.lower()}": _pem(label)
    for label in (
        "PRIVATE KEY",
        "RSA PRIVATE KEY",
        "EC PRIVATE KEY",
        "DSA PRIVATE KEY",
        "ENCRYPTED PRIVATE KEY",
        "OPENSSH PRIVATE KEY",
        "PGP PRIVATE KEY BLOCK",
    )
}
_AWS_SECRET = b64(40)
_AZURE_KEY = b64(86) + "=="
_BASIC = base64.b64encode(b"fakeuser:fakepass99").decode()

SECRETS: dict[str, tuple[str, str]] = {
    # name: (text as someone would type or paste it, the part that must disappear)
    **_PEMS,
    "gcp service account json": (
        '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n'
        + alnum(64)
        + '\\n-----END PRIVATE KEY-----\\n"}',
        alnum(64),
    ),
    "putty key": (
        "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\n"
        + alnum(44)
        + "\nPrivate-MAC: "
        + hexa(64),
        alnum(44),
    ),
    "age key": ("AGE-SECRET-KEY-1" + upper(58), "AGE-SECRET-KEY-1" + upper(58)),
    "aws access key id": ("AKIAFAKEFAKEFAKEFAKE", "AKIAFAKEFAKEFAKEFAKE"),
    "aws secret next to its key id": (
        f"key id AKIAFAKEFAKEFAKEFAKE secret {_AWS_SECRET}",
        _AWS_SECRET,
    ),
    "aws secret in credentials file": (f"aws_secret_access_key = {_AWS_SECRET}", _AWS_SECRET),
    "aws secret env": (f"AWS_SECRET_ACCESS_KEY={_AWS_SECRET}", _AWS_SECRET),
    "gcp api key": ("AIza" + alnum(35), "AIza" + alnum(35)),
    "gcp oauth secret": ("GOCSPX-" + alnum(28), "GOCSPX-" + alnum(28)),
    "gcp access token": ("ya29." + alnum(60), "ya29." + alnum(60)),
    "azure connection string": (
        "DefaultEndpointsProtocol=https;AccountName=fakeacct;AccountKey="
        + _AZURE_KEY
        + ";EndpointSuffix=core.windows.net",
        _AZURE_KEY,
    ),
    "azure ad client secret": ("Fak8Q~" + alnum(34), "Fak8Q~" + alnum(34)),
    "azure sas signature": ("?sv=2022-11-02&sig=" + alnum(44) + "%3D", alnum(44)),
    "github classic token": ("ghp_" + alnum(36), "ghp_" + alnum(36)),
    "github oauth token": ("gho_" + alnum(36), "gho_" + alnum(36)),
    "github fine-grained token": (
        "github_pat_" + alnum(22) + "_" + alnum(59),
        "github_pat_" + alnum(22),
    ),
    "github token env": ("GITHUB_TOKEN=FakeGithubTokenValue", "FakeGithubTokenValue"),
    "gitlab personal token": ("glpat-" + alnum(20), "glpat-" + alnum(20)),
    "gitlab runner token": ("glrt-" + alnum(20), "glrt-" + alnum(20)),
    "gitlab runner registration": ("GR1348941" + alnum(20), "GR1348941" + alnum(20)),
    "slack bot token": (
        "xoxb-0000000000-0000000000-" + alnum(24),
        "xoxb-0000000000-0000000000-" + alnum(24),
    ),
    "slack app token": ("xapp-1-A0FAKE00-0000000000-" + hexa(64), hexa(64)),
    "slack webhook": (
        "https://hooks.slack.com/services/T00FAKE00/B00FAKE00/" + alnum(24),
        alnum(24),
    ),
    "discord webhook": (
        "https://discord.com/api/webhooks/000000000000000000/" + alnum(68),
        alnum(68),
    ),
    "stripe live key": ("sk_live_" + alnum(24), "sk_live_" + alnum(24)),
    "stripe restricted key": ("rk_test_" + alnum(24), "rk_test_" + alnum(24)),
    "stripe webhook secret": ("whsec_" + alnum(32), "whsec_" + alnum(32)),
    "twilio api key": ("SK" + hexa(32), "SK" + hexa(32)),
    "sendgrid key": ("SG." + alnum(22) + "." + alnum(43), alnum(43)),
    "npm token": ("npm_" + alnum(36), "npm_" + alnum(36)),
    "npmrc auth token": ("//registry.npmjs.org/:_authToken=" + alnum(36), alnum(36)),
    "pypi token": ("pypi-AgEIcHlwaS5vcmc" + alnum(60), alnum(60)),
    "hugging face token": ("hf_" + letters(34), "hf_" + letters(34)),
    "hugging face org token": ("api_org_" + letters(34), "api_org_" + letters(34)),
    "openai project key": ("sk-proj-" + alnum(48), "sk-proj-" + alnum(48)),
    "openai legacy key": (
        "sk-" + alnum(20) + "T3BlbkFJ" + alnum(20),
        "sk-" + alnum(20) + "T3BlbkFJ" + alnum(20),
    ),
    "anthropic key": ("sk-ant-api03-" + alnum(93) + "AA", alnum(93)),
    "databricks token": ("dapi" + hexa(32), "dapi" + hexa(32)),
    "digitalocean token": ("dop_v1_" + hexa(64), hexa(64)),
    "shopify token": ("shpat_" + hexa(32), hexa(32)),
    "vault token": ("hvs." + alnum(95), alnum(95)),
    "postman key": ("PMAK-" + hexa(24) + "-" + hexa(34), hexa(34)),
    "docker hub token": ("dckr_pat_" + alnum(27), alnum(27)),
    "telegram bot token": ("123456789:AA" + alnum(33), alnum(33)),
    "jwt": (
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0." + alnum(43),
        "eyJzdWIiOiJmYWtlIn0." + alnum(43),
    ),
    "bearer header": ("Authorization: Bearer " + alnum(40), alnum(40)),
    "basic auth header": ("Authorization: Basic " + _BASIC, _BASIC),
    "curl user": ("curl -u admin:FakePass99 https://api.example.com/v1", "FakePass99"),
    "postgres url": ("postgres://user:pw@host/db", ":pw@"),
    "https url with password": ("https://alice:FakePass123@example.com/repo.git", "FakePass123"),
    "redis url": ("redis://:FakeRedisPw9@cache:6379/0", "FakeRedisPw9"),
    "mongodb srv url": ("mongodb+srv://app:Fake%40Pw9@cluster0.example.net/db", "Fake%40Pw9"),
    "ado connection string": (
        "Server=db.example;Database=app;User Id=sa;Password=FakePassw0rd!;",
        "FakePassw0rd!",
    ),
    "jdbc url": ("jdbc:mysql://db.example:3306/app?user=app&password=FakePw123", "FakePw123"),
    "db password env": ("DB_PASSWORD=s3cr3t", "s3cr3t"),
    "export api key": ("export OPENAI_API_KEY=FakeKeyValue", "FakeKeyValue"),
    "quoted env secret": ("SECRET_KEY='fake-django-secret-value'", "fake-django-secret-value"),
    "yaml password": ("password: FakeYamlPw", "FakeYamlPw"),
    "json password": ('{"password": "hunter2"}', "hunter2"),
    "json client secret": ('{"client_secret": "' + alnum(32) + '"}', alnum(32)),
    "unquoted client secret": ("client_secret = " + alnum(32), alnum(32)),
    "session token label": ("session token: " + b64(40), b64(40)),
    "password is colon": ("my password is: hunter2", "hunter2"),
    "password for the wifi": ("the password for the wifi is sunflower42", "sunflower42"),
    "password for an account": ("the password for my bank account is FakeBank9", "FakeBank9"),
    "passphrase with colon": (
        "password: correct horse battery staple",
        "correct horse battery staple",
    ),
    "passphrase in a sentence": (
        "my passphrase is correct horse battery staple",
        "horse battery staple",
    ),
    "password with symbols": ("my password is Tr0ub4dor&3", "Tr0ub4dor&3"),
    "plain word password": ("my wifi password is sunflower", "sunflower"),
    "quoted password": ("the password is 'open sesame'", "open sesame"),
    "pwd assignment": ("pwd=FakePw", "FakePw"),
    "api key sentence": ("my api key is " + alnum(32), alnum(32)),
    "token sentence": ("the token is " + alnum(24), alnum(24)),
    "secret colon": ("secret: " + alnum(20), alnum(20)),
    "pin": ("my pin is 4821", "4821"),
    # Found by an adversary: stored as said while "my PIN is 4321" was hidden.
    "pin spaced": ("my PIN is 4 8 2 1", "4 8 2 1"),
    "pin hyphenated": ("my PIN code is 4-8-2-1", "4-8-2-1"),
    "pin without is": ("my bank card pin number 4821", "4821"),
    "pin in Spanish": ("mi PIN es 4821", "4821"),
    "pin in German": ("Mein PIN ist 48215", "48215"),
    "visa test card": ("4111 1111 1111 1111", "1111 1111 1111"),
    # Found by Hypothesis in CI: read with the next group as a 19-digit number, it failed
    # the checksum and stayed.
    "card before a short number": ("4111 1111 1111 1111 000", "1111 1111 1111"),
    "mastercard test card": ("5555-5555-5555-4444", "5555-5555-4444"),
    "amex test card": ("378282246310005", "378282246310005"),
    "luhn-completed visa": (with_luhn("400000000000000"), with_luhn("400000000000000")),
}
"""Each must be redacted, with the words around it kept."""

SENTENCES: dict[str, tuple[list[str], list[str]]] = {
    "my password is: hunter2 and DB_PASSWORD=s3cr3t": (
        ["hunter2", "s3cr3t"],
        ["my password is: ", " and DB_PASSWORD="],
    ),
    "the password for the wifi is sunflower42, ask Ana for the guest one": (
        ["sunflower42"],
        ["the password for the wifi is ", ", ask Ana for the guest one"],
    ),
    "password: correct horse battery staple. Remember it": (
        ["correct", "horse", "battery", "staple"],
        ["password: ", ". Remember it"],
    ),
    "my password is hunter2 for gmail, the other one is different": (
        ["hunter2"],
        ["my password is ", " for gmail, the other one is different"],
    ),
    "note to self: GITHUB_TOKEN=FakeToken and the key id AKIAFAKEFAKEFAKEFAKE": (
        ["FakeToken", "AKIAFAKEFAKEFAKEFAKE"],
        ["note to self: GITHUB_TOKEN=", " and the key id "],
    ),
}
"""Several secrets in one message: (what must go, what must stay)."""

ORDINARY = [
    # An adversary: what a garage or a shed costs is no code of it.
    "rent for the garage is 150 now",
    "the price for the shed is 450",
    "parking for the garage is 150 now",
    # A second adversary: a year after a PIN's line or its expiry is no code; nor "pin to".
    "I need to pin to 2024 goals",
    "PIN to 2024 goals",
    # Numbers beside a lock's name that are no code (the twelfth round: lists of codes).
    "Flight: gate 14 at 9:30. The door 4 is closed",
    "The door code is the one Ana knows, the flat number is 44712",
    "my zip code is 10115, the error code is 4040 and the promo code is 1234",
    "The show opens with 100 dancers",
    # A change of a lock that is no code (an allotment's secretary's round).
    "changed the alarm to 0700",
    "updated my locker to 114",
    "changed the door to oak",
    # Numbers, comparisons and quotes that are no secret (an adversary's round).
    "my gym locker is 318",
    "my locker is 318 and my room is 214",
    "which password is stronger for the office account?",
    'the password "reset" link is broken',
    "zip code for the shop is 10115",
    "the zip code, it is 10115",
    "I pin for the team 2024 goals",
    "The door code for the office changed in 2019",
    "I like the combo of 2 colours",
    "code 200 for the win",
    "the code 404 for the page",
    "the wifi network is slow, key issue is the router",
    # About passwords in general.
    "I forgot my password again, so I reset it.",
    "A good password is long and random.",
    "Your password is too short.",
    "The password is case-sensitive.",
    "The password is correct, thanks!",
    "Passwords should be at least 12 characters long.",
    "password reset emails are annoying",
    "What is the password policy at work?",
    "The password for the admin account is required.",
    "Use a password manager like KeePassXC or Bitwarden.",
    "my pin is fine",
    "pin the 2024-01-05 meeting to the top",
    "the pin is 123456789 characters long, or so they say",
    "I pinned 4321 messages",
    "pin 1800 in the calendar",
    "pin 2024 as the year to remember",
    # Tokens, secrets and keys in other senses.
    "In linguistics, a token is an instance of a type.",
    "Each token is a word or a piece of a word.",
    "Token: the smallest unit the tokenizer produces.",
    "The tokenizer splits text into tokens.",
    "token ring networks",
    "The secret to good bread is time.",
    "It's no secret that I love tea.",
    "Keep it secret: don't tell anyone about the party.",
    "The key is to stay calm.",
    "The key to success is practice.",
    "The primary key is user_id.",
    "I skipped the sk-8 park",
    "sk-learn-is-a-great-library name joke",
    # Numbers that are not cards.
    "Order 4111 1111 1111 1112 was shipped.",
    "Call me at +1 415 555 0100 tomorrow.",
    "Invoice 2024-00017, total 1234.56 EUR.",
    "ISBN 978-3-16-148410-0",
    "The population is 8045311447.",
    "The timestamp was 1700000000000 ms.",
    "Tracking number 1Z999AA10123456784 is on its way.",
    "IBAN-like 1234 5678 9012 3456 is not Luhn-valid.",
    # Identifiers and hashes.
    "request 123e4567-e89b-12d3-a456-426614174000 failed",
    "Fixed in commit 3f2a9c0b7d1e4f5a6b7c8d9e0f1a2b3c4d5e6f7a, see 3f2a9c0.",
    "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEfake\n"
    "-----END PUBLIC KEY-----",
    "The auth scheme is OAuth, not basic auth.",
    "AWS guide: https://example.com/Docs/Guide/Users/Keys/Rotate2/Now/AbcDef/x today",
    # URLs without credentials.
    "https://example.com:8443/path?q=1&page=2",
    "see https://docs.python.org/3/library/re.html for details",
    "git@github.com:org/repo.git",
    "http://localhost:8080/",
    "https://user@example.com/docs",
    "mailto:ana@example.com",
    "postgres://localhost:5432/app",
    # Code without secrets.
    "def check_password(password: str) -> bool:",
    'api_key = os.environ["OPENAI_API_KEY"]',
    "password = getpass.getpass()",
    "token = tokens[0]",
    "if token is None: return",
    "if password is not None:",
    'cache_key = f"{user_id}:{page}"',
    "for key, value in settings.items():",
    "sorted(rows, key=lambda row: row[0])",
    "id = models.AutoField(primary_key=True)",
    "connect(host=h, user=u, password=pw)",
    "SECRET_KEY = env('DJANGO_SECRET_KEY')",
    "password: ${DB_PASSWORD}",
    "max_tokens=4096 and MAX_TOKENS=4096",
    "tokenizer = AutoTokenizer.from_pretrained(name)",
    "headers = {'Authorization': f'Bearer {token}'}",
    "ssh-keygen -t ed25519 -C ana@example.com",
    "password: str = Field(min_length=12)",
]
"""Must come back exactly as they went in."""
