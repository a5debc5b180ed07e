"""PINs, passwords and ID numbers said in Persian or Arabic, after their names.

Found by an adversary, each kept as typed and shown to the model: "رمز کارتم ۱۳۸۵ است" (my
card's PIN is 1385), "الرقم السري لبطاقتي ٤٤٢١" (my card's PIN), "كلمة السر هي ٩٨٧٦٥٤" (the
password is …), "رمز عبور: گل‌سرخ۱۲۳" (password: …), "کد ملی من ۰۰۱۲۳۴۵۶۷۸ است" (Iran's
national ID). The text is read with its digits as 0-9 (`agent.password_wordings.width_folded`).
A password needs a digit or a sign: "كلمة السر صعبة" (the password is hard) gives none.
"""

from __future__ import annotations

from memory.lazy_patterns import lazy_compile

_PIN = lazy_compile(
    r"(?:رمز[ \t]+(?:کارت|كارت|عابر[ \t]*بانک)\w*|پین(?:[ \t]*کد)?|الرقم[ \t]+السر[يى]|"
    r"الرمز[ \t]+السر[يى]|رقمي[ \t]+السر[يى]|رقم[ \t]+سر[يى])"
    r"[^\d\n.!?\u061f\u060c,]{0,20}?(\d{4,8})(?!\d)"
    # "رمزم ۴۸۲۱ هست" (my PIN is …), "رمز ۴۸۲۱" (PIN …): the word and the number, nothing
    # between (a second adversary: each kept). Egyptians write ى for ي ("الرقم السرى").
    r"|(?<!\w)رمز(?:م|ش|مون)?[ \t]*[:=]?[ \t]*(\d{4,8})(?!\d)"
)
_PASSWORD = lazy_compile(
    r"(?:رمز[ \t]+عبور|کلمه[ \t]+(?:عبور|رمز)|گذرواژه|پسورد|كلمة[ \t]+(?:السر|المرور|سر)|"
    r"كلمه[ \t]+السر|باسورد|الباسورد|باسوورد|الباسوورد|"
    r"رمز[ \t]+(?:وای[ \t]*فای|وایفای|اینترنت|مودم|wi-?fi|ورود))\w*"
    # What it is for, before the password: "باسوورد الواي فاي Sara1990" (the wifi's).
    r"(?:[ \t]+(?:ال)?(?:واي[ \t]*فاي|وای[ \t]*فای|wi-?fi|النت|الانترنت|اینترنت|مودم|راوتر))?"
    r"[ \t]*(?:(?:من|مال[ \t]+من|هي|هو|است|=|:)[ \t]*)?[:=]?[ \t]*"
    r"((?=\S*[\d_@#$%&*!+=])[^\s\u060c,;]{4,})"
)
_NATIONAL_ID = lazy_compile(
    r"(?:(?:شماره[ \t]+)?کارت|کد|شماره)[ \t\u200c]*ملی(?:[ \t]*(?:من|م))?[ \t]*[:=]?[ \t]*"
    r"(\d{10})(?!\d)"
    # Jordan's, Syria's, Libya's national number, and the word Persians say for the ID
    # ("شماره ملی": an adversary saw each kept).
    r"|الرقم[ \t]+الوطني[ \t]*[:=]?[ \t]*(?:هو[ \t]+)?(\d{8,14})(?!\d)"
)
_BANK_ACCOUNT = lazy_compile(
    r"(?:بانک|بنك|البنك|مصرف)[ \t]+[^\d\s]{2,12}(?:[ \t]+[^\d\s]{2,12})?[ \t]*[:=]?[ \t]*"
    r"(?:(?:حساب|شماره[ \t]+حساب|رقم[ \t]+الحساب|حسابي)[ \t]*[:=]?[ \t]*)?"
    r"(?!09\d{9}(?!\d)|01\d{9}(?!\d))(\d{10,16})(?!\d)"
    # Not a sum: "موجودی بانک ملت 2375421350 ریال" (a balance; an adversary saw it redacted).
    r"(?![ \t]*(?:ریال|تومان|ريال|جنيه|درهم|دينار|دینار|دلار|دولار|یورو|يورو|ليرة|لیر))"
)
"""An account beside its bank's name: "بانک ملت ۱۲۳۴۵۶۷۸۹۰", "بنك مصر ١٢٣٤٥٦٧٨٩٠١٢" (an
adversary: kept, where "Barclays 83920174" went). Not a mobile (Iran's 09…, Egypt's 01…)."""
_ACCOUNT_NAMED = lazy_compile(
    r"(?:شماره[ \t]+حساب|رقم[ \t]+(?:ال)?حساب|حسابي|حسابم)(?:[ \t]*(?:من|م|ی[ \t]+من))?"
    r"[ \t]*[:=]?[ \t]*(?:هو[ \t]+|است[ \t]+)?(\d{8,20})(?!\d)"
)
"""An account said by its word: "شماره حساب من 1234567890", "رقم الحساب …" (an adversary)."""
_CARD = lazy_compile(r"(?:کارت|كارت|بطاقة|البطاقة)[^\d\n]{0,15}?((?:\d{4}[ \t-]?){3}\d{4})(?!\d)")
"""A card's sixteen digits after its name: "کارت ملت ۶۱۰۴ ۳۳۷۸ ۱۲۳۴ ۵۶۷۸"."""
_BANKS_CODE = lazy_compile(
    r"(?:کد|رمز|كود)[ \t]*[:=]?[ \t]*(\d{4,8})(?!\d)(?=[^\n]{0,30}?(?:به[ \t]+کسی|ندهید|نگویید|"
    r"لا[ \t]+تشارك|لا[ \t]+تعطي))"
)
"""A bank's code with its warning: "بانک ملت: کد ۵۵۲۹۰۱ را به کسی ندهید" (do not give it to
anyone: an adversary saw it kept)."""
_PHONE_SAID = lazy_compile(r"تلفن|تماس|موبایل|همراه|هاتف|تليفون|موبايل|الخط")
_HINTS = (
    "رمز",
    "پین",
    "سري",
    "سر ",
    "السر",
    "كلمة",
    "کلمه",
    "گذرواژه",
    "پسورد",
    "باسورد",
    "باسوورد",
    "ملی",
    "الوطني",
    "بانک",
    "بنك",
    "مصرف",
    "کارت",
    "كارت",
    "بطاقة",
    "کد",
    "كود",
    "حساب",
)


def arabic_script_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each PIN, password or national ID `text` names in Persian or Arabic."""
    if not any(hint in text for hint in _HINTS):
        return []
    rules = [
        ("pin", _PIN),
        ("secret", _PASSWORD),
        ("id-number", _NATIONAL_ID),
        ("code", _BANKS_CODE),
        ("card-number", _CARD),
        ("bank-account", _ACCOUNT_NAMED),
    ]
    if not _PHONE_SAID.search(text):
        rules.append(("bank-account", _BANK_ACCOUNT))
    return [
        (kind, found.span(group))
        for kind, rule in rules
        for found in rule.finditer(text)
        for group in range(1, (found.re.groups or 0) + 1)
        if found[group] is not None
    ]
