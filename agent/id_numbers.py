"""National identity and tax numbers, after the name of what they are.

Found in a trial: an Irish PPS number ("my PPS number is 1234567T") was stored and shown
as typed, where a US social security number was redacted. Each number is taken only in
its own shape, after its own name, so "PAN 2 of the report" or "DNI office on Monday"
hold none.
"""

from __future__ import annotations

import re

_BETWEEN = (
    r"(?:[ \t]+(?:number|no\.?|num|nr\.?|n[ºo°]\.?|#|card|code))?"
    r"(?:[ \t]*[:=#-]+[ \t]*|[ \t]+(?:is|was|es|ist|lautet|est|è|era)?[ \t]*)"
)
"""Between the name and the number: "PPS number: ", "DNI es ", "PPSN ", "Steuer-ID ist ",
"Steueridentifikationsnummer lautet " (an adversary: kept as typed)."""


_PPS = r"\d{7}[ \t]?[A-W][A-IW]?"
"""Ireland: seven digits, a check letter, maybe a second letter."""
_DNI_OR_NIE = r"\d{8}[ \t-]?[A-Z]|\d{2}\.\d{3}\.\d{3}[ \t-]?[A-Z]|[XYZ][ \t-]?\d{7}[ \t-]?[A-Z]"
"""Spain: DNI and NIF (eight digits and a letter), NIE (X, Y or Z, seven digits, a letter)."""
_PAN = r"[A-Z]{5}\d{4}[A-Z]"
"""India's PAN: five letters, four digits, a letter."""
_CODICE_FISCALE = r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]"
"""Italy: sixteen letters and digits in their own order."""
_ANOTHER_OF = tuple(
    re.compile(rf"(?<![\w-])(?:{shape})(?![\w-])")
    for shape in (_PPS, _DNI_OR_NIE, _PAN, _CODICE_FISCALE)
)
"""The shapes with letters: in a message that names one, another of that shape is one too
("mi DNI es 12345678Z y el de mi mujer 87654321X", "PPS 1234567TA and my wife's is
2345678UA": an adversary saw the second kept). Not a shape of digits alone: a phone number
beside a BSN is no BSN."""


def _after(names: str, shape: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?i)\b(?:{names})(?:[ \t]+(?:\w+[ \t]+){{0,2}}?)?{_BETWEEN}"
        rf"(?:(?:my|mine|the|it's|its|now)[ \t]+)?(?-i:({shape}))(?![\w-])"
    )


_ID_NUMBERS = (
    _after(r"pps|ppsn|personal[ \t]+public[ \t]+service", _PPS),
    _after(r"dni|nif|nie|documento[ \t]+nacional[ \t]+de[ \t]+identidad", _DNI_OR_NIE),
    # The Netherlands: burgerservicenummer, nine digits, maybe grouped.
    _after(r"bsn|burgerservicenummer", r"\d{9}|\d{3}[ .]\d{3}[ .]\d{3}|\d{4}[ .]\d{2}[ .]\d{3}"),
    # Germany: the tax identification number, eleven digits, maybe grouped.
    _after(
        r"steuer-?id|steueridentifikationsnummer|steuer-?identifikationsnummer|"
        r"tax[ \t]+id(?:entification)?",
        r"\d{11}|\d{2}[ \t]\d{3}[ \t]\d{3}[ \t]\d{3}",
    ),
    # India: Aadhaar (twelve digits in fours).
    _after(r"aadhaar|aadhar|adhaar|uidai", r"\d{4}[ \t-]?\d{4}[ \t-]?\d{4}"),
    _after(r"pan|permanent[ \t]+account", _PAN),
    _after(r"codice[ \t]+fiscale|cf", _CODICE_FISCALE),
    # France: the social security number (NIR), thirteen digits and a two-digit key.
    _after(
        r"s[ée]cu(?:rit[ée][ \t]+sociale)?|nir|num[ée]ro[ \t]+de[ \t]+s[ée]curit[ée][ \t]+sociale",
        r"[12][ \t]?\d{2}[ \t]?\d{2}[ \t]?(?:\d{2}|2[AB])[ \t]?\d{3}[ \t]?\d{3}(?:[ \t]?\d{2})?",
    ),
)
_HINTS = (
    "pps", "personal public", "dni", "nif", "nie", "documento", "bsn", "burgerservice",
    "steuer", "tax", "aadha", "adhaar", "uidai", "pan", "permanent", "fiscale", "cf",
    "sécu", "secu", "nir", "sociale",
)  # fmt: skip


def id_number_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each national identity or tax number `text` gives after its name."""
    lowered = text.lower()
    if not any(hint in lowered for hint in _HINTS):
        return []
    spans = [found.span(1) for rule in _ID_NUMBERS for found in rule.finditer(text)]
    for shape in _ANOTHER_OF:
        alike = [found.span() for found in shape.finditer(text)]
        if any(span in spans for span in alike):
            spans += [span for span in alike if span not in spans]
    return [("id-number", span) for span in spans]
