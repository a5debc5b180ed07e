"""Secrets that identify themselves by their format: vendor tokens, private keys, card numbers.

The rule families follow what gitleaks and detect-secrets look for. Each rule names a few
`hints` (lower-case substrings one of which every match contains) so that the common message,
which holds none of them, costs one substring test per rule instead of a regex scan.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from memory.lazy_patterns import lazy_compile

Validator = Callable[[re.Match[str]], bool]


@dataclass(frozen=True)
class FormatRule:
    """One format: what it is called, when to look, and what it looks like."""

    kind: str
    hints: tuple[str, ...]
    """Lower-case substrings; the pattern only runs when the text holds one (empty: always)."""
    pattern: re.Pattern[str]
    """The whole match is replaced, or only its group `s` when the pattern has one."""
    valid: Validator | None = None
    """A second look at a match (a checksum, the words around it); False keeps it as it is."""
    bounded: bool = False
    """The match must start a word. Checked here rather than with a leading `\\b` in the
    pattern, which would stop the regex engine from skipping ahead to its literal prefix."""
    window: int = 0
    """Look only this far after each hint (the words that must precede the secret)."""


def _mixed(match: re.Match[str]) -> bool:
    """Real keys mix letters and digits; `sk-learn-is-a-library` does not."""
    body = match.group(0)
    return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)


_DOUBLED = str.maketrans("0123456789", "0246813579")
"""Each digit doubled, with the digits of the result added (the Luhn step)."""


def luhn_valid(digits: str) -> bool:
    """Whether a string of digits passes the Luhn checksum that card numbers carry."""
    backwards = digits[::-1]
    checked = backwards[0::2] + backwards[1::2].translate(_DOUBLED)
    return sum(map(int, checked)) % 10 == 0


_CARD_PREFIX = lazy_compile(
    r"4|5[1-5]|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)|3[47]|3(?:0[0-5]|[68])"
    r"|6(?:011|5|4[4-9]|2)|35(?:2[89]|[3-8])|5018|5020|5038|6304|67"
)
"""Issuer prefixes (Visa, Mastercard, Amex, Diners, Discover, JCB, UnionPay, Maestro)."""


def _card(match: re.Match[str]) -> bool:
    digits = "".join(c for c in match.group(0) if c.isdigit())
    return _CARD_PREFIX.match(digits) is not None and luhn_valid(digits)


_AWS_CONTEXT = ("aws", "akia", "asia", "secret", "amazon")
_MARKER = lazy_compile(r"\[redacted:[a-z-]+\]")


def _aws_secret(match: re.Match[str]) -> bool:
    """A 40-character secret access key: mixed case, and an AWS word or key id just before."""
    value = match.group(0)
    if not (any(c.isupper() for c in value) and any(c.islower() for c in value)):
        return False
    if not any(c.isdigit() or c in "/+" for c in value):
        return False
    if value.count("/") + value.count("+") > 4:
        return False  # a URL path, not 40 random base64 characters
    before = match.string[max(0, match.start() - 120) : match.start()].lower()
    # A marker this redaction left is no context, except the key id's own.
    before = _MARKER.sub(lambda m: "aws" if "aws" in m.group(0) else " ", before)
    return any(word in before for word in _AWS_CONTEXT)


def _rule(
    kind: str,
    hints: str,
    pattern: str,
    valid: Validator | None = None,
    flags: int = 0,
    *,
    bounded: bool = True,
    window: int = 0,
) -> FormatRule:
    return FormatRule(
        kind, tuple(hints.split()), lazy_compile(pattern, flags), valid, bounded, window
    )


_TOKEN_END = r"(?![A-Za-z0-9_-])"

FORMAT_RULES: tuple[FormatRule, ...] = (
    # Private keys first: their bodies would otherwise be eaten piecemeal by the rules below.
    _rule(
        "private-key",
        "private",
        r"-----BEGIN[ A-Z0-9]{0,60}PRIVATE KEY(?: BLOCK)?-----.*?"
        r"(?:-----END[ A-Z0-9]{0,60}PRIVATE KEY(?: BLOCK)?-----|\Z)",
        flags=re.DOTALL,
        bounded=False,
    ),
    _rule(
        "private-key",
        "putty-user-key-file",
        r"PuTTY-User-Key-File-\d+:.*?(?:Private-MAC:[ \t]*[0-9a-fA-F]+|\Z)",
        flags=re.DOTALL,
    ),
    _rule("private-key", "age-secret-key-1", r"AGE-SECRET-KEY-1[0-9A-Z]{58}"),
    # Credentials inside URLs: scheme://user:PASSWORD@host (databases, brokers, git remotes).
    _rule(
        "url-password",
        "://",
        # Up to the last "@" before the host: a password may hold one ("ab@Xk92": a new
        # user saw all of it after the first "@" kept).
        r"://[^\s/@:\"'<>]*:(?P<s>[^\s/\"'<>]+)@(?=[^\s/@\"'<>]*(?:[/\s\"'<>?#]|$))",
        bounded=False,
    ),
    _rule(
        "webhook",
        "hooks.slack.com",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9+/_-]{20,})",
        bounded=False,
    ),
    _rule(
        "webhook",
        "discord",
        r"discord(?:app)?\.com/api/webhooks/(?P<s>\d+/[A-Za-z0-9_-]{20,})",
        bounded=False,
    ),
    _rule(
        "jwt",
        "eyj",
        # Header and claims are both JSON ("eyJ…"): the signature may be short, or none.
        r"eyJ[A-Za-z0-9_-]{8,}\.(?:eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*"
        r"|[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})",
    ),
    _rule(
        "bearer-token",
        "bearer",
        r"(?:Bearer|bearer|BEARER)[ \t]+(?P<s>[A-Za-z0-9._~+/=-]{16,})",
    ),
    _rule(
        "basic-auth",
        "authorization",
        r"(?:Authorization|authorization|AUTHORIZATION)[\"']?[ \t]*[:=][ \t]*[\"']?"
        r"(?:Basic|basic|BASIC)[ \t]+(?P<s>[A-Za-z0-9+/]{8,}={0,2})",
    ),
    _rule(
        "basic-auth",
        "curl",
        r"curl\b[^\n]*?[ \t](?:-u|--user)[ =][\"']?[^\s:\"']+:(?P<s>[^\s\"']+)",
    ),
    # OpenAI, Anthropic, Stripe and friends: sk-, sk_live_, rk_test_, sk-proj-, sk-ant-api03-.
    _rule(
        "api-key",
        "sk- sk_ rk- rk_ pk- pk_",
        r"(?:sk|rk|pk)[-_](?:live[-_]|test[-_]|prod[-_]|proj[-_]|svcacct[-_]|admin[-_]"
        r"|ant[-_])?[A-Za-z0-9_-]{16,}",
        _mixed,
    ),
    _rule("stripe-key", "whsec_", r"whsec_[A-Za-z0-9]{24,}"),
    _rule(
        "github-token",
        "ghp_ gho_ ghu_ ghs_ ghr_ github_pat_",
        r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}",
    ),
    _rule(
        "gitlab-token",
        "glpat- gldt- glptt- glrt- glcbt- glsoat- glffct- glft- glimt- glagent- gloas- gr1348941",
        r"gl(?:pat|dt|ptt|rt|cbt|soat|ffct|ft|imt|agent|oas)-[A-Za-z0-9_.-]{20,}"
        r"|GR1348941[A-Za-z0-9_-]{20,}",
    ),
    _rule("slack-token", "xox xapp-", r"xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,}"),
    _rule(
        "aws-access-key",
        "a3t akia asia abia acca",
        r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
    ),
    _rule(
        "aws-secret-key",
        "aws akia asia secret amazon",
        r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])",
        _aws_secret,
        bounded=False,
        window=120,
    ),
    _rule(
        "gcp-key",
        "aiza gocspx- ya29.",
        r"AIza[0-9A-Za-z_-]{30,}|GOCSPX-[A-Za-z0-9_-]{20,}|ya29\.[0-9A-Za-z_-]{20,}",
    ),
    _rule(
        "azure-secret",
        "q~",
        r"(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}" + _TOKEN_END,
        bounded=False,
    ),
    _rule("twilio-key", "sk", r"SK[0-9a-fA-F]{32}\b"),
    _rule("sendgrid-key", "sg.", r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"),
    _rule("npm-token", "npm_", r"npm_[A-Za-z0-9]{36}" + _TOKEN_END),
    _rule("pypi-token", "pypi-", r"pypi-AgE[A-Za-z0-9_-]{50,}"),
    _rule("huggingface-token", "hf_ api_org_", r"(?:hf|api_org)_[A-Za-z0-9]{30,}"),
    _rule(
        "api-key",
        "dapi do_v1 dop_v1 doo_v1 dor_v1 shpat_ shpca_ shppa_ shpss_ hvs. hvb. dp.pt. lin_api_ "
        "pmak- pul- glc_ glsa_ dckr_pat_ r8_ gsk_ xai- pplx- atatt3 sntrys_ sntryu_ rubygems_ "
        "ntn_ sha256~ sq0atp- sq0csp- pscale_ ops_eyj",
        r"(?:dapi[a-f0-9]{32}|do[opr]_v1_[a-f0-9]{64}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"
        r"|hv[sb]\.[A-Za-z0-9_-]{90,}|dp\.pt\.[A-Za-z0-9]{43}|lin_api_[A-Za-z0-9]{40}"
        r"|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|pul-[a-f0-9]{40}|glc_[A-Za-z0-9+/]{32,}={0,3}"
        r"|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|dckr_pat_[A-Za-z0-9_-]{20,}|r8_[A-Za-z0-9]{37}"
        r"|gsk_[A-Za-z0-9]{48,}|xai-[A-Za-z0-9]{60,}|pplx-[A-Za-z0-9]{40,}"
        r"|ATATT3[A-Za-z0-9_=-]{100,}|sntry[su]_[A-Za-z0-9+/=_]{40,}|rubygems_[a-f0-9]{48}"
        r"|ntn_[0-9]{11}[A-Za-z0-9]{35}|sha256~[A-Za-z0-9_-]{43}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}"
        r"|pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}|ops_eyJ[A-Za-z0-9+/]{100,}={0,3})",
    ),
    _rule(
        "telegram-token",
        ":aa",
        r"(?<![\w:])\d{8,10}:AA[A-Za-z0-9_-]{33}" + _TOKEN_END,
        bounded=False,
    ),
)
"""Applied in order, before the labelled secrets."""


def _iban(match: re.Match[str]) -> bool:
    """An IBAN's check digits hold (ISO 13616: mod 97 of the rearranged number is 1)."""
    compact = match.group().replace(" ", "").replace("-", "").upper()
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


IBAN_RULE = _rule(
    "iban",
    "",
    # Two letters, two check digits, then the account in groups of four or in one run.
    # Written in capitals or not, in groups split by spaces or dashes (a second adversary).
    # In lower case, by groups of four: a word after it is not taken for more of it.
    r"(?<![\w-])(?:[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]){11,30}"
    r"|[a-z]{2}\d{2}(?:[ -]?[a-z0-9]{4}){2,7}(?:[ -]?\d{1,4})?)(?![\w-])",
    _iban,
    bounded=False,
)
"""A bank account number (found by an adversary: "IBAN DE89 3704 …" was kept as typed);
only one whose check digits hold, so a product code of that shape stays."""

CARD_RULE = _rule(
    "card-number",
    "",
    # The digit comes first so that the engine can skip to digits; the look-behind after it
    # checks the character before the number.
    # Written as one run of 13-19 digits, or in the groups cards print: 4-4-4-4(-1..3),
    # or 4-6-5 and 4-6-4 (Amex, Diners), with one kind of separator.
    r"\d(?<![\w.,-]\d)(?:\d{12,18}|\d{3}([ ._-])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?"
    r"|\d{3}([ -])\d{6}\2\d{4,5})(?![\w-]|[.,]\d)",
    _card,
    bounded=False,
)
"""Applied last: a label rule may already have taken the number (`pin: 4111…`)."""


_GATES = "_~:.-/"


def _gate(hint: str) -> str:
    """The punctuation a hint holds, if any ("" is in every string)."""
    return next((c for c in _GATES if c in hint), "")


_HINT_GATES = {hint: _gate(hint) for rule in FORMAT_RULES for hint in rule.hints}


def hinted(rule: FormatRule, lowered: str, gates: str) -> bool:
    """Whether `lowered` holds one of the rule's hints; `gates` are the punctuation it holds.

    Most hints hold an underscore, a dash or a colon that ordinary prose often lacks: one test
    for that character spares the test for each hint behind it.
    """
    return any(_HINT_GATES[hint] in gates and hint in lowered for hint in rule.hints)


def gates_in(lowered: str) -> str:
    """The gate characters `lowered` holds (see `hinted`)."""
    return "".join(c for c in _GATES if c in lowered)


def _ranges(rule: FormatRule, lowered: str) -> list[tuple[int, int]]:
    """The stretches after each hint where a windowed rule looks, merged where they touch."""
    ranges: list[tuple[int, int]] = []
    for hint in rule.hints:
        at = lowered.find(hint)
        while at != -1:
            ranges.append((at, at + len(hint) + rule.window))
            at = lowered.find(hint, at + 1)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _matches(rule: FormatRule, text: str, start: int, end: int) -> Iterator[re.Match[str]]:
    """Matches of `rule` in text[start:end] that pass its checks, without overlaps.

    A rejected match does not hide the next one: the search resumes one character after
    where it began (`4096 4111 1111 1111 1111` is not a card, its last four groups are).
    """
    position = start
    while (match := rule.pattern.search(text, position, end)) is not None:
        position = match.start() + 1
        if rule.window:
            # A window may cut a longer run short: only a match of the whole text counts.
            whole = rule.pattern.match(text, match.start())
            if whole is None or whole.end() != match.end():
                continue
        at = match.start()
        if rule.bounded and at and (text[at - 1].isalnum() or text[at - 1] == "_"):
            continue
        if rule.valid is not None and not rule.valid(match):
            match = _shorter(rule, text, match)
            if match is None:
                continue
        yield match
        position = max(match.end(), position)


def _shorter(rule: FormatRule, text: str, match: re.Match[str]) -> re.Match[str] | None:
    """A card number rejected with its optional last group may be valid without it.

    "4111 1111 1111 1111 000" read as one 19-digit number fails the checksum, and the
    card before " 000" was kept as typed (found by Hypothesis in CI).
    """
    if rule.kind != "card-number" or rule.valid is None:
        return None
    cut = max(match.group().rfind(" "), match.group().rfind("-"))
    if cut <= 0:
        return None
    shorter = rule.pattern.match(text, match.start(), match.start() + cut)
    if shorter is None or shorter.end() != match.start() + cut or not rule.valid(shorter):
        return None
    return shorter


def find(rule: FormatRule, text: str, lowered: str) -> list[tuple[int, int]]:
    """The spans of `text` that `rule` redacts, in order; `lowered` is `text.lower()`."""
    if rule.window and len(lowered) == len(text):
        windows = _ranges(rule, lowered)
    else:
        windows = [(0, len(text))]
    partial = "s" in rule.pattern.groupindex
    spans: list[tuple[int, int]] = []
    done = 0
    for start, end in windows:
        for match in _matches(rule, text, max(start, done), end):
            spans.append(match.span("s") if partial else match.span())
            done = match.end()
    return spans


def replace_spans(text: str, spans: list[tuple[int, int]], replacement: str) -> str:
    """`text` with each (start, end) span, in order and not overlapping, replaced."""
    pieces: list[str] = []
    position = 0
    for start, end in spans:
        pieces.append(text[position:start])
        pieces.append(replacement)
        position = end
    pieces.append(text[position:])
    return "".join(pieces)
