"""Numbers worded like a secret code that are none: what `agent.code_wordings` lets stand.

An HTTP status, an error or booking code, a locker's number, an alarm's time to wake, India's
postal PIN; and a bike lock's code, kept because it is what the user asks back.
"""

from __future__ import annotations

import re

from memory.date_terms import said_just_before
from memory.lazy_patterns import lazy_compile

NOT_SECRET_CODES = (
    r"zip|postal|post|area|country|dial(?:ling)?|error|status|exit|promo|discount|coupon|"
    r"sku|product|item|part|model|serial|article|"
    r"voucher|gift|referral|tracking|product|colou?r|dress|source|qr|bar|cheat|morse|tax|"
    r"sort|swift|routing|airport|flight|course|class|room"
)
HTTP_STATUS = lazy_compile(
    r"(?i)[ \t:-]*(?:not[ \t]+found|server[ \t]+error|internal|bad[ \t]+(?:request|gateway)|"
    r"forbidden|unauthori[sz]ed|ok\b|created|accepted|no[ \t]+content|moved|redirect|found\b|"
    r"not[ \t]+modified|gateway|service[ \t]+unavailable|unavailable|timeout|too[ \t]+many|"
    r"conflict|gone\b|teapot)"
)
"""An HTTP status's words after its number: a list of those codes is no secret."""


_CODE_WORD = lazy_compile(r"(?i)(?:(?<![\w-])([\w-]+)[ \t]+)?(?<![\w-])([\w-]*?)codes?\b")
NO_SECRETS_CODE = lazy_compile(
    rf"(?i)(?:{NOT_SECRET_CODES}|booking|icd|reference|ref|confirmation|order|reservation|"
    r"fault|diagnostic|obd|dtc|invoice|customer|batch)-?"
)
"""What a code said of is no secret: "the error code: 4321", "postcode for the office: 4050",
"booking code: 884422", "ICD code: 4019" (an adversary saw each redacted)."""


def of_no_secret(text: str, match: re.Match[str]) -> bool:
    """Whether the last code named before `match`'s value is one of `NO_SECRETS_CODE`."""
    words = list(_CODE_WORD.finditer(text, max(0, match.start(1) - 60), match.start(1)))
    if not words:
        return False
    before, joined = words[-1].group(1, 2)
    said = joined or before or ""
    return bool(said) and NO_SECRETS_CODE.fullmatch(said) is not None


_A_BIKES_PLACE = lazy_compile(
    r"bikes?[ \t]+(?:shed|store|storage|room|cage|rack|park|locker|garage)"
)


def a_bike_lock(text: str, at: int) -> bool:
    """Whether the code is a bike lock's (kept: it is what the user asks back)."""
    near = text[max(0, at - 24) : at + 24].lower()
    # Not a bike shed's, a bike store's or a bike room's: "pin 12 34 for the bike shed" (a
    # second adversary saw it kept and shown, unasked).
    wider = text[max(0, at - 40) : at + 48].lower()
    return "bike" in near and ("bike lock" in wider or _A_BIKES_PLACE.search(wider) is None)


_A_YEAR = lazy_compile(r"(?:19|20)\d\d")


def a_year(digits: str) -> bool:
    """Four digits that read as a year of this century or the last, which no code is taken for."""
    return _A_YEAR.fullmatch(digits) is not None


CLOCK = lazy_compile(r"(?:[01][0-9]|2[0-3])[0-5][0-9]")
"""A time of day written as four digits ("0630", "1530")."""


def a_lockers_number(found: re.Match[str]) -> bool:
    """Whether "locker" names a locker by its number, not a code: "my gym locker is 318".

    An adversary saw it redacted, and "what's my gym locker?" answered with nothing.
    """
    said = found.group().lower()
    return "locker" in said and not any(
        word in said for word in ("code", "pin", "combination", "combo", "lock ")
    )


def alarm_time(found: re.Match[str], disarmed: bool) -> bool:
    """Whether "alarm" names a time to wake, not a code: "alarm: 0420" (an HHMM time)."""
    said = found.group().lower()
    return (
        "alarm" in said
        and not disarmed  # an alarm disarmed with a number: its code
        and not any(word in said for word in ("code", "pin", "combination", "combo"))
        and CLOCK.fullmatch(found.group(1)) is not None
    )


_AN_ADDRESS_BEFORE = lazy_compile(
    r"(?i)\b(?:ship(?:ping)?\s+to|deliver(?:y)?\s+to|address|road|rd|street|st|nagar|colony|"
    r"sector|layout|lane|marg|cross|main|block|phase|district|dist|taluk|post|po)\b"
    r"[^\n]{0,80}(?:,\s*|\s+)$"
    # A place named, then its PIN: "our office is in Koramangala, PIN - 560034" (an
    # adversary saw it redacted).
    r"|\b(?:in|at|near)\s+(?-i:[A-Z])[a-z]{3,}(?:\s+(?-i:[A-Z])[a-z]+)?\s*,\s*$"
    # A locality and its city: "Koramangala, Bengaluru PIN 560034" (a third adversary).
    r"|(?<![\w-])(?-i:[A-Z])[a-z]{3,},[ \t]*(?-i:[A-Z])[a-z]{3,}[ \t]*[,-]?[ \t]*$"
)


_OF_A_PLACE = lazy_compile(
    r"(?i)pin[ \t-]*code[ \t]+(?:of|for|in)[ \t]+(?:(?:the|this|that|my|our|your|their)[ \t]+)?"
    r"(?:area|locality|village|city|town|post[ \t]*office|district|region|neighbou?rhood|"
    # A place by its name: "PIN code of Koramangala: 560034" (a second adversary).
    r"(?-i:[A-Z])[a-z]{3,}(?:[ \t]+(?-i:[A-Z])[a-z]+)?(?=[ \t]*(?:[:?,]|is\b|it['\u2019]s\b)))"
)
"""A PIN code said of a place before its digits: "pin code for the area is 560034" (an
adversary saw it redacted)."""


_AN_AREAS = lazy_compile(r"(?i)\b(?:area|postal|locality|village|district)[ \t]+pin\b")


POSTAL_PIN_DIGITS = lazy_compile(r"[1-8]\d{2} ?\d{3}")
"""India's postal code: six digits, the first of them no 0 or 9, maybe three and three."""
_POSTAL_LABEL = lazy_compile(r"(?i)pin[ \t]*code\b")
_OF_A_CARD = lazy_compile(
    r"(?i)\b(?:card|atm|bank|debit|credit|sim|phone|account|upi|login|door|gate|lock|safe|"
    r"alarm|app|password|wallet|locker)\b"
)


def postal_pin(text: str, start: int, digits: str, said: str) -> bool:
    """Whether a PIN said from `start` is India's postal code, not a secret.

    Six digits, said as "pincode" in one word, of a place, or closing an address ("Ship to: 12 MG
    Road, Bengaluru, PIN 560001"): an adversary saw both redacted.
    """
    if "pin" not in said.lower() or POSTAL_PIN_DIGITS.fullmatch(digits) is None:
        return False
    where = said.lower().index("pin")
    if said.lower().startswith("pincode", where) or _OF_A_PLACE.match(said, where):
        return True
    if _POSTAL_LABEL.match(said, where) and not _OF_A_CARD.search(text):
        # "PIN code 560034 Bangalore, 12 MG Road is my new address", "pin code 400 001,
        # Mumbai" (a second adversary saw each redacted, the user's postcode lost); "PIN
        # code 560034", "Our PIN code is 560034" (a third): India's name for a postcode,
        # in six postal digits, with no card, lock or login named.
        return True
    if _AN_AREAS.search(text, max(0, start + where - 20), start + where + 3):
        return True  # "Our area pin code is 560034", "area pin code 110001 delhi"
    return said_just_before(_AN_ADDRESS_BEFORE, text, start + where)


def postal_pin_at(text: str, span: tuple[int, int]) -> bool:
    """Whether the PIN at `span` is India's postal code (`postal_pin`), its label before it."""
    # Only the label's window lowered: the whole text, once for each of 20,000 PINs in a
    # pasted list, took a second of its own.
    start = max(0, span[0] - 40)
    at = text[start : span[0]].lower().rfind("pin")
    label = at + start if at >= 0 else -1
    return label >= 0 and postal_pin(text, label, text[span[0] : span[1]], text[label : span[1]])


_A_CARDS_LAST_DIGITS = lazy_compile(
    r"(?i)(?:\bending(?:[ \t]+(?:in|with))?|\bends[ \t]+(?:in|with)|\blast[ \t]+(?:4|four)"
    r"(?:[ \t]+digits)?(?:[ \t]+(?:of|are|is))?|[x*\u2022]{3,}[ \t-]*)[ \t:]*$"
)


def a_cards_last_digits(text: str, start: int) -> bool:
    """Whether the number at `start` is the last digits a card is known by, no secret.

    "here's the pin for the card ending 4242:" had 4242 redacted as the PIN's code, and the
    PIN said in the next message kept (an adversary).
    """
    return _A_CARDS_LAST_DIGITS.search(text, max(0, start - 40), start) is not None


_A_MEETINGS_NUMBER = lazy_compile(
    r"(?i)\b(?:webex|zoom|teams|meeting|event|webinar|conference|dial[ \t-]?in|call[ \t-]?in|"
    r"join[ \t]+by[ \t]+phone)\b[^\n]{0,60}?\b(?:access[ \t]+code|(?:meeting[ \t]+)?number|no\.?)"
    r"[ \t]*[:#]?[ \t]*(?P<digits>\d{9,11}|\d{3,4}(?:[ \t]\d{3,4}){1,3})(?!\d)"
)
"""A meeting's number, said as its "access code": "Webex access code 2634 123 4567", "Webex
meeting tomorrow 10am, access code 2634 571 8890", "Join by phone +1-415-655-0001, access
code: 26345718890" (adversaries saw each redacted as codes beside the meeting's password)."""


def a_meetings_number_at(text: str, span: tuple[int, int]) -> bool:
    """Whether `span` is within a meeting's number (nine to eleven digits, grouped)."""
    for found in _A_MEETINGS_NUMBER.finditer(text, max(0, span[0] - 60), span[1] + 20):
        digits = sum(c.isdigit() for c in found["digits"])
        start, end = found.span("digits")
        if 9 <= digits <= 11 and start <= span[0] and span[1] <= end:
            return True
    return False
