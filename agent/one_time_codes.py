"""One-time codes as a bank's or a service's message gives them, pasted whole.

Found in a trial: a student pasted her bank's text by mistake ("Your OTP for HDFC Bank txn
of Rs 12,000 is 483920. Do not share it with anyone.") and it was kept as typed, then shown
to the model beside her UPI ID for an unrelated question. Such a message puts words between
the code's name and the code ("… for HDFC Bank txn of Rs 12,000 is …"), or the code first
("483920 is your OTP for login", "G-482913 is your Google verification code"), which the
wordings of a secret said by its owner do not read. Here a code of four to eight digits in
the same sentence as a one-time code's name, within a short reach of it, is one; an amount,
a time, a date, a year, a phone number or an account's last digits is not.
"""

from __future__ import annotations

import re

from agent.not_secret_codes import a_year
from memory.lazy_patterns import lazy_compile

_NAMES = lazy_compile(
    r"(?i)(?<![\w-])(?:t?otp|one[ \t-]time[ \t-](?:pass(?:word|code)?|code|pin)|"
    r"(?:verification|verify|security|login|log-?in|sign[ \t-]?in|confirmation|"
    r"authentication|auth|authori[sz]ation|access|activation|2fa|mfa|sms|one-?time)"
    r"[ \t]+(?:code|pin)|passcode|netcode|mb[ \t]?way[ \t]+(?:code|pin)|"
    # Vietnamese, with its marks or without: "Mã OTP của Quý khách là 483920", "Ma xac thuc
    # cua ban la 551234" (a new user, a nurse in Sydney: each kept as pasted).
    r"m[aã][ \t]+(?:x[aá]c[ \t]+(?:th[uự]c|nh[aậ]n)|b[aả]o[ \t]+m[aậ]t|k[ií]ch[ \t]+ho[aạ]t)|"
    r"c[oó]digo[ \t]+(?:de[ \t]+)?(?:verificaci[oó]n|seguridad|confirmaci[oó]n|acceso|"
    r"activaci[oó]n|verifica[çc][ãa]o|seguran[çc]a|confirma[çc][ãa]o|acesso|otp)|"
    r"(?:best[äa]tigungs|sicherheits|verifizierungs|anmelde|freischalt|einmal)code|"
    r"(?:sms|m|push)tan|"
    r"code[ \t]+(?:de[ \t]+)?(?:v[ée]rification|s[ée]curit[ée]|confirmation|connexion|"
    r"validation|usage[ \t]+unique)|"
    r"codice[ \t]+(?:di[ \t]+)?(?:verifica|sicurezza|conferma|accesso)|"
    r"verificatiecode|beveiligingscode|inlogcode|"
    r"do[gğ]rulama[ \t]+kod(?:u|unuz)?|onay[ \t]+kod(?:u|unuz)?|tek[ \t]+kullan[iı]ml[iı]k[ \t]+"
    r"[sş]ifre(?:niz)?|kode[ \t]+(?:verifikasi|otp|keamanan)|"
    r"(?:كود|رمز|كلمة[ \t]+المرور)[ \t]+(?:التحقق|التفعيل|التأكيد|الدخول|لمرة[ \t]+واحدة))(?![\w-])"
)
_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_CODE = lazy_compile(
    r"(?<![\w$€£₹¥%+#@])(?<!\d[.,:/ \t-])(?:[A-Z]{1,2}-)?(\d{4,8}|\d{3}[ -]\d{3}|"
    rf"(?i:{_DIGIT_WORD}(?:[ \t,-]+{_DIGIT_WORD}){{3,7}}))"
    r"(?![\w%€£₹$]|[.,:/-]\d|[ \t-]\d)"
)
_REACH = 80
"""Characters between a name and its code: "Your OTP for HDFC Bank txn of Rs 12,000 is"."""
_LINKS = r"is|was|are|=|:|-|–|lautet|ist|es|é|est|è|for|of|as|هو|هي|là|la"
_NAME_THEN_CODE = lazy_compile(rf"(?i)(?:^|(?:\b|[ \t])(?:{_LINKS}))[ \t]*:?[ \t]*$")
"""What comes just before the code, after its name: "OTP 4455", "OTP: 4455", "… is 4455"."""
_CODE_THEN_NAME = lazy_compile(rf"(?i)^[ \t]*(?:{_LINKS})(?:\b|[ \t])")
"""What comes just after the code, before its name: "483920 is your OTP"."""
_ANOTHER_CLAUSE = lazy_compile(r"(?i)\b(?:and|but|while|then|y|pero|und|aber|et|mais)\b|,(?!\d)|;")
"""Between: "the verification code took 2 days and my flat is 1204" links no code."""
_SENTENCE_END = lazy_compile(r"[.!?](?:\s|$)|\n")
_ASIDE_THEN_LINK = lazy_compile(r"(?i),[ \t]*(?:is|was|are|:)[ \t]*:?[ \t]*$")
"""An aside between commas, then the code: "Your HDFC Bank OTP, valid for 5 mins, is 482910"
(an adversary: kept). Only when the last comma is followed by the link word alone."""
_MONEY_BEFORE = lazy_compile(
    r"(?i)(?:rs\.?|inr|usd|eur|gbp|mxn|ngn|kes|zar|aud|cad|n|r|rp|₦)[ \t]*$"
)
_AFTER_IS_NOT_A_CODE = lazy_compile(
    r"(?i)[ \t]*(?:minutes?|mins?|hours?|hrs?|seconds?|secs?|days?|rupees|pesos|naira|"
    r"dollars|euros?|pounds|am|pm|hrs)\b"
)
_IS_YOUR_CODE = lazy_compile(
    r"(?i)(?<![\w-])((?:[A-Z]{1,2}-)?\d{4,8})[ \t]+(?:is[ \t]+your|es[ \t]+tu|é[ \t]+o[ \t]+seu|"
    r"est[ \t]+votre|ist[ \t]+(?:ihr|dein))[ \t]+(?:[\w.-]+[ \t]+){0,3}?(?:code|c[oó]digo|pin)\b"
)
"""Any service's code, the code first: "449182 is your Instagram code"."""
_ENTER_TO_VERIFY = lazy_compile(
    r"(?i)\b(?:enter|use|type|input)[ \t]+(?:(?:the|this)[ \t]+)?(?:code[ \t]+)?"
    r"((?:[A-Z]{1,2}-)?\d{4,8})[ \t]+(?:(?:to|for)[ \t]+"
    r"(?:verify|confirm|log[ \t]*in|sign[ \t]*in|complete|authenticate|authori[sz]e|activate|"
    r"reset|validate)\b|as[ \t]+(?:your|the)[ \t]+(?:[\w-]+[ \t]+){0,2}?"
    r"(?:code|pin|otp|passcode|password)\b)"
)
"""A code by what it does: "Enter 552901 to verify your account" (a second adversary), "use
7731 as your code", "Use code 918273 to sign in to your Microsoft account" (a third)."""
_CJK_CODE = lazy_compile(
    r"(?:验证码|驗證碼|校验码|校驗碼|动态码|動態碼|认证码|認證碼|確認コード|認証コード|認証番号|"
    r"ワンタイムパスワード|인증[ \t]?번호|인증[ \t]?코드|보안[ \t]?코드)[^\d\n。！？]{0,12}?"
    r"(\d{4,8})(?!\d)"
)
"""A code named in Chinese, Japanese or Korean, no space before it:
"您的验证码是482910，5分钟内有效" (an adversary: kept when no code text came before it)."""


_PERSIAN_CODE = lazy_compile(
    r"(?<!\w)(?:کد[ \t]+(?:تایید|تأیید|ورود|فعال[\u200c ]?سازی|امنیتی|یکبار[\u200c ]?مصرف)|"
    r"رمز[ \t]+(?:یکبار[\u200c ]?مصرف|پویا|دوم|عبور[ \t]+یکبار[\u200c ]?مصرف))"
    r"[^\d\n.!?\u061f\u060c,]{0,24}?(\d{4,8})(?!\d)"
)
"""A code named in Persian, any words before it: "کد تایید بانک ملت: ۴۸۳۹۲۰", "کد تایید شما
483920 است" (a new user: each kept as typed, and shown to the model)."""


def _linked(between: str, name_first: bool) -> bool:
    """Whether the words between a name and a number make the number that code."""
    if len(between) > _REACH or _SENTENCE_END.search(between):
        return False
    clause = _ANOTHER_CLAUSE.search(between)
    if clause is not None:
        # Commas alone, the last before the link: an aside, not another clause.
        return (
            name_first
            and _ASIDE_THEN_LINK.search(between) is not None
            and all(found[0] == "," for found in _ANOTHER_CLAUSE.finditer(between))
        )
    if name_first:
        return _NAME_THEN_CODE.search(between) is not None
    return _CODE_THEN_NAME.match(between) is not None


def _is_a_code(text: str, found: re.Match[str]) -> bool:
    digits = found[1]
    if a_year(digits):
        return False
    if _MONEY_BEFORE.search(text, max(0, found.start() - 6), found.start()):
        return False
    return not _AFTER_IS_NOT_A_CODE.match(text, found.end())


def one_time_code_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """("code", span) of each one-time code `text` gives in a sentence naming one."""
    spans: list[tuple[str, tuple[int, int]]] = [
        ("code", found.span(1))
        for rule in (_IS_YOUR_CODE, _ENTER_TO_VERIFY, _CJK_CODE, _PERSIAN_CODE)
        for found in rule.finditer(text)
    ]
    names = [found.span() for found in _NAMES.finditer(text)]
    if not names:
        return spans
    for found in _CODE.finditer(text):
        start, end = found.span(1)
        near = any(
            (name_end <= found.start() and _linked(text[name_end : found.start()], True))
            or (end <= name_start and _linked(text[end:name_start], False))
            for name_start, name_end in names
        )
        if near and _is_a_code(text, found):
            spans.append(("code", found.span()))
    return spans
