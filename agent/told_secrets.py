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
_SENT = (
    r"(?:just[ \t]+)?(?:gave|texted|sent|sms(?:ed|'d)|messaged|emailed|told|handed|"
    r"whatsapped|wrote|set|posted|mailed|shared|forwarded)(?:[ \t]+(?:over|across|through))?"
    r"(?:[ \t]+(?:me|us|to[ \t]+me|to[ \t]+us))?"
)
_GAVE = (
    _SENT
    # Given to the user, in the user's words: "the door code I was given is 4821", "the gate
    # code we were given", "the door code I got is 4821" (an adversary: each kept).
    + r"|(?:was|were|got|have[ \t]+been|had[ \t]+been|'ve[ \t]+been)[ \t]+(?:given|sent|"
    r"texted|emailed|issued|assigned|told)|got|received"
)
"""Given, after the secret's name and who: "the code they gave me", "the code I got"."""
_CODE_GIVEN = lazy_compile(
    r"(?i)(?<!area[ \t])(?<!zip[ \t])(?<!post[ \t])(?<!postal[ \t])(?<!country[ \t])(?<!dial[ \t])"
    r"(?<!promo[ \t])(?<!discount[ \t])(?<!coupon[ \t])(?<!voucher[ \t])(?<!referral[ \t])"
    r"(?<!tracking[ \t])(?<!booking[ \t])"
    rf"\b(?P<name>code|otp|pin|passcode|combo|combination){_FOR_WHAT}[ \t]+{_WHO}[ \t]+(?:{_GAVE})"
    rf"{_FOR_WHAT}[ \t]+{_LINK}[ \t]*"
    r"(?P<value>(?:[A-Z]{1,2}-)?\d{4,8}|\d{1,2}(?:-\d{1,2}){2,3})(?![\w.,/:-]?\d)"
)
_GAVE_THE_CODE = lazy_compile(
    rf"(?i)\b(?:{_SENT})[ \t]+the[ \t]+(?:(?!promo|discount|coupon|voucher|referral|tracking|"
    r"booking|area|zip|post)[\w-]+[ \t]+)?(?P<name>code|pin|passcode|combo|combination)"
    r"[ \t]*(?:is[ \t]+|:[ \t]*)?(?P<value>\d{4,8})(?![\w.,/:-]?\d)"
)
"""The giving first: "the host gave me the code 4821", "they gave me the code 4821 for the
door" (an adversary: kept, where "the code the host gave me was 4821" went)."""
_CODE_FROM = lazy_compile(
    r"(?i)(?<!area[ \t])(?<!zip[ \t])(?<!post[ \t])(?<!promo[ \t])(?<!discount[ \t])"
    r"(?<!coupon[ \t])(?<!voucher[ \t])(?<!referral[ \t])(?<!tracking[ \t])(?<!booking[ \t])"
    r"\b(?P<name>code|pin|passcode|combo|combination)[ \t]+from[ \t]+"
    r"(?:the[ \t]+|my[ \t]+|our[ \t]+)?"
    r"(?:host|landlord|landlady|agent|airbnb|owner|concierge|reception|office|building|manager|"
    r"neighbou?r|super|caretaker|property[ \t]+manager|letting[ \t]+agent)[ \t]+"
    rf"{_LINK}[ \t]*(?P<value>\d{{4,8}})(?![\w.,/:-]?\d)"
)
"""Who gave it named after "from": "door code from the host was 4821" (an adversary)."""
_SENT_A_CODE = lazy_compile(
    # Sent, not got: "they got 2000 likes" tells of no code.
    rf"(?i)\b(?:bank|they)[ \t]+{_SENT}[ \t]+(?P<value>(?:[A-Z]{{1,2}}-)?\d{{4,8}})"
    r"(?![\w.,/:-]?\d)"
    r"(?![ \t]+(?:times|texts|messages|pounds|dollars|rupees|euros|bucks|quid))"
)
_PASSWORD_GIVEN = lazy_compile(
    r"(?i)\b(?:password|passwd|pwd|passphrase|wi-?fi[ \t]+key)"
    rf"{_FOR_WHAT}[ \t]+{_WHO}[ \t]+(?:{_GAVE})"
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
        for rule in (_CODE_GIVEN, _SENT_A_CODE, _CODE_FROM, _GAVE_THE_CODE)
        for found in rule.finditer(text)
    ]
    spans += [("secret", found.span(1)) for found in _PASSWORD_GIVEN.finditer(text)]
    return spans
