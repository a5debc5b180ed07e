"""A secret told of as given by someone: "the code they texted me was 482910".

Found by two adversaries, each kept as typed: "bank just texted 482910 whats that for",
"the door code they gave me was 4821", "the wifi password they gave us was tulip77". The
secret's name, who gave it, how, then the value: a code of four to eight digits, or a
password with a digit or a sign in it ("the password they gave me was wrong" tells of no
password).
"""

from __future__ import annotations

from memory.lazy_patterns import lazy_compile

_WHO = (
    r"(?:(?:that|which)[ \t]+)?(?:they|he|she|it|someone|(?:the|my|our|his|her)[ \t]+[\w-]+"
    r"|[\w-]+)"
)
_FOR_WHAT = r"(?:[ \t]+for[ \t]+(?:the[ \t]+)?[\w-]+)?"
"""What it is for, before or after who gave it: "the code for the parking they gave me"."""
_LINK = r"(?:is|was|:|ended[ \t]+up[ \t]+being|turned[ \t]+out[ \t]+to[ \t]+be|is[ \t]+now)"
_GAVE = (
    r"(?:just[ \t]+)?(?:gave|texted|sent|sms(?:ed|'d)|messaged|emailed|told|handed|whatsapped|"
    r"wrote|set|posted|mailed|shared|forwarded)(?:[ \t]+(?:me|us|to[ \t]+me|to[ \t]+us))?"
)
_CODE_GIVEN = lazy_compile(
    r"(?i)(?<!area[ \t])(?<!zip[ \t])(?<!post[ \t])(?<!postal[ \t])(?<!country[ \t])(?<!dial[ \t])"
    r"(?<!promo[ \t])(?<!discount[ \t])(?<!coupon[ \t])(?<!voucher[ \t])(?<!referral[ \t])"
    r"(?<!tracking[ \t])(?<!booking[ \t])"
    rf"\b(?P<name>code|otp|pin|passcode|combo|combination){_FOR_WHAT}[ \t]+{_WHO}[ \t]+{_GAVE}"
    rf"{_FOR_WHAT}[ \t]+{_LINK}[ \t]*"
    r"(?P<value>(?:[A-Z]{1,2}-)?\d{4,8}|\d{1,2}(?:-\d{1,2}){2,3})(?![\w.,/:-]?\d)"
)
_SENT_A_CODE = lazy_compile(
    rf"(?i)\b(?:bank|they)[ \t]+{_GAVE}[ \t]+(?P<value>(?:[A-Z]{{1,2}}-)?\d{{4,8}})"
    r"(?![\w.,/:-]?\d)"
    r"(?![ \t]+(?:times|texts|messages|pounds|dollars|rupees|euros|bucks|quid))"
)
_PASSWORD_GIVEN = lazy_compile(
    rf"(?i)\b(?:password|passwd|pwd|passphrase|wi-?fi[ \t]+key){_FOR_WHAT}[ \t]+{_WHO}[ \t]+{_GAVE}"
    rf"{_FOR_WHAT}[ \t]+{_LINK}[ \t]*"
    r"[\"'`\u201c\u2018]?"
    r"((?=[^\s\"'`]*[\d_@#$%&*!+=])[^\s\"'`\u201d\u2019,;]{3,}?)"
    r"[\"'`\u201d\u2019]?(?=[.!?]?(?:\s|$)|[,;])"
)


def told_secret_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each code or password `text` tells of as given to the user."""
    lowered = text.lower()
    if not any(
        word in lowered
        for word in ("code", "otp", "pin", "pass", "combo", "combina", "pwd", "key", "bank", "they")
    ):
        return []
    spans = [
        (
            "pin" if (found.groupdict().get("name") or "").lower() == "pin" else "code",
            found.span("value"),
        )
        for rule in (_CODE_GIVEN, _SENT_A_CODE)
        for found in rule.finditer(text)
    ]
    spans += [("secret", found.span(1)) for found in _PASSWORD_GIVEN.finditer(text)]
    return spans
