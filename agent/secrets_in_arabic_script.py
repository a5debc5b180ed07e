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
    r"(?:رمز[ \t]+(?:کارت|كارت|عابر[ \t]*بانک)\w*|پین(?:[ \t]*کد)?|الرقم[ \t]+السري|"
    r"الرمز[ \t]+السري|رقمي[ \t]+السري|رقم[ \t]+سري)"
    r"[^\d\n.!?\u061f\u060c,]{0,20}?(\d{4,8})(?!\d)"
)
_PASSWORD = lazy_compile(
    r"(?:رمز[ \t]+عبور|کلمه[ \t]+(?:عبور|رمز)|گذرواژه|پسورد|كلمة[ \t]+(?:السر|المرور|سر)|"
    r"كلمه[ \t]+السر|باسورد|الباسورد)\w*"
    r"[ \t]*(?:(?:من|مال[ \t]+من|هي|هو|است|=|:)[ \t]*)?[:=]?[ \t]*"
    r"((?=\S*[\d_@#$%&*!+=])[^\s\u060c,;]{4,})"
)
_NATIONAL_ID = lazy_compile(r"کد[ \t\u200c]*ملی(?:[ \t]*(?:من|م))?[ \t]*[:=]?[ \t]*(\d{10})(?!\d)")
_HINTS = ("رمز", "پین", "سري", "سر ", "السر", "كلمة", "کلمه", "گذرواژه", "پسورد", "باسورد", "ملی")


def arabic_script_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each PIN, password or national ID `text` names in Persian or Arabic."""
    if not any(hint in text for hint in _HINTS):
        return []
    return [
        (kind, found.span(1))
        for kind, rule in (("pin", _PIN), ("secret", _PASSWORD), ("id-number", _NATIONAL_ID))
        for found in rule.finditer(text)
    ]
