"""National identity and tax numbers, after the name of what they are.

Found in a trial: an Irish PPS number ("my PPS number is 1234567T") was stored and shown
as typed, where a US social security number was redacted. Each number is taken only in
its own shape, after its own name, so "PAN 2 of the report" or "DNI office on Monday"
hold none.
"""

from __future__ import annotations

import re

from memory.lazy_patterns import lazy_compile

_BETWEEN = (
    r"(?:[ \t]+(?:number|no\.?|num|nr\.?|n[ºo°]\.?|#|card|code))?"
    r"(?:[ \t]*[:=#-]+[ \t]*|[ \t]+(?:is|was|es|ist|lautet|est|è|era|to|jest)?[ \t]*)"
)
"""Between the name and the number: "PPS number: ", "DNI es ", "PPSN ", "Steuer-ID ist ",
"Steueridentifikationsnummer lautet " (an adversary: kept as typed)."""


_PPS = r"\d{7}[ \t]?[A-W][A-IW]?"
"""Ireland: seven digits, a check letter, maybe a second letter."""
_DNI_OR_NIE = (
    r"\d{8}[ \t-]?[A-Z]|\d{8}-?[a-z]|\d{2}\.\d{3}\.\d{3}[ \t-]?[A-Za-z]"
    r"|[XYZ][ \t-]?\d{7}[ \t-]?[A-Z]|[xyz]-?\d{7}-?[a-z]"
)
"""Spain: DNI and NIF (eight digits and a letter), NIE (X, Y or Z, seven digits, a letter).
Its letter may be typed in lower case against the digits: "mi dni 12345678z" (a new user,
a nurse typing as on her phone)."""
_PAN = r"[A-Z]{5}\d{4}[A-Z]"
"""India's PAN: five letters, four digits, a letter."""
_CODICE_FISCALE = r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]"
"""Italy: sixteen letters and digits in their own order."""
_CURP = r"[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z0-9]\d|[a-z]{4}\d{6}[hmx][a-z]{5}[a-z0-9]\d"
"""Mexico: the CURP, eighteen letters and digits in their own order (in lower case too: "mi
curp: gode561231hdfrrn09", an adversary saw it kept)."""
_RFC = r"[A-ZÑ&]{3,4}-?\d{6}-?[A-Z0-9]{3}|[a-zñ&]{3,4}-?\d{6}-?[a-z0-9]{3}"
"""Mexico: the RFC (tax number), a person's or a company's, with its three-character key,
maybe in three parts ("GODE-561231-GR8", an adversary saw it kept)."""
_CLAVE_DE_ELECTOR = r"[A-Z]{6}\d{8}[HM]\d{3}"
"""Mexico: the voter card's elector key."""
_ANOTHER_OF = tuple(
    lazy_compile(rf"(?<![\w-])(?:{shape})(?![\w-])")
    for shape in (_PPS, _DNI_OR_NIE, _PAN, _CODICE_FISCALE, _CURP, _RFC)
)
"""The shapes with letters: in a message that names one, another of that shape is one too
("mi DNI es 12345678Z y el de mi mujer 87654321X", "PPS 1234567TA and my wife's is
2345678UA": an adversary saw the second kept). Not a shape of digits alone: a phone number
beside a BSN is no BSN."""


_DRIVING_LICENCE = (
    r"driv(?:ing|er['\u2019]?s?)[ \t]+licen[cs]e|licen[cs]e(?=[ \t]+(?:number|no\b|nr\b|#))|"
    r"(?-i:DL)|f[üu]e?hrerschein(?:nummer)?|permis(?:[ \t]+de[ \t]+conduire)?|"
    r"(?:carn[ée]t?|permiso|licencia)[ \t]+de[ \t]+conducir|"
    r"carta[ \t]+de[ \t]+condu[çc][ãa]o|patente(?:[ \t]+di[ \t]+guida)?|praw[oa][ \t]+jazdy|"
    r"rijbewijs"
)
"""A driving licence's names: "my driving licence number is MORGA753116SM9IJ", "Führerschein
B072RRE2I55", "numéro de permis 123456789012" (an adversary: each kept as typed)."""


_MBI_LETTER = "[AC-HJKMNP-RT-Ya-hjkmnp-rt-y]"
_MBI_EITHER = "[AC-HJKMNP-RT-Ya-hjkmnp-rt-y0-9]"
_MBI = (
    rf"[1-9]{_MBI_LETTER}{_MBI_EITHER}\d[ \t-]?{_MBI_LETTER}{_MBI_EITHER}\d[ \t-]?"
    rf"{_MBI_LETTER}{{2}}\d{{2}}"
)
"""A US Medicare Beneficiary Identifier: no S, L, O, I, B or Z, to be told from digits."""


def _after(names: str, shape: str) -> re.Pattern[str]:
    return lazy_compile(
        # Whose between, in a word or four: "the NHS number of my son is …", "die Steuer-ID
        # meiner Frau ist …", "het BSN van mijn vrouw is …" (an adversary: each kept).
        # Or what it is, in brackets: "Mon NAS (numéro d'assurance sociale) est …" (a new
        # user, a translator: kept as typed); "my passport's K4567890" (a third adversary).
        rf"(?i)\b(?:{names})(?:['\u2019]s)?(?:[ \t]*\([^()\n]{{1,40}}\))?"
        rf"(?:[ \t]+[\w'\u2019-]+){{0,4}}?{_BETWEEN}"
        rf"(?:(?:my|mine|the|it's|its|now)[ \t]+)?(?-i:({shape}))(?![\w-])"
        # Or the number first: "K1234567 is my passport number" (a third adversary).
        rf"|(?<![\w-])(?-i:({shape}))[ \t]+(?:is|was|are|es|ist|est|é|=|[\u2013\u2014-])[ \t]+"
        rf"(?:(?:my|his|her|our|their|the|mi|su|mein|meine|mon|ma|meu|minha)[ \t]+)?"
        rf"(?:[\w'\u2019-]+[ \t]+){{0,2}}?(?:{names})\b"
    )


_ID_NUMBERS = (
    _after(r"pps|ppsn|personal[ \t]+public[ \t]+service", _PPS),
    _after(r"dni|nif|nie|documento[ \t]+nacional[ \t]+de[ \t]+identidad", _DNI_OR_NIE),
    # The Netherlands: burgerservicenummer, nine digits, maybe grouped.
    _after(r"bsn|burgerservicenummer", r"\d{9}|\d{3}[ .]\d{3}[ .]\d{3}|\d{4}[ .]\d{2}[ .]\d{3}"),
    # Germany: the tax identification number, eleven digits, maybe grouped.
    _after(
        # As the tax office writes it: "Ihre steuerliche Identifikationsnummer (Steuer-ID)
        # lautet: 12 345 678 901" (a new user pasted the letter: kept as typed).
        r"steuer-?id|steueridentifikationsnummer|steuer-?identifikationsnummer|"
        r"identifikationsnummer|tax[ \t]+id(?:entification)?",
        r"\d{11}|\d{2}[ \t]\d{3}[ \t]\d{3}[ \t]\d{3}",
    ),
    # India: Aadhaar (twelve digits in fours).
    _after(r"aadhaar|aadhar|adhaar|uidai", r"\d{4}[ \t-]?\d{4}[ \t-]?\d{4}"),
    _after(r"pan|permanent[ \t]+account", _PAN),
    # Australia: a Medicare card's ten digits (4-5-1), maybe its place on the card after
    # them; Centrelink's customer reference number (a new user, a nurse in Melbourne: her
    # Medicare number was kept as typed beside a redacted PIN).
    _after(r"medicare", r"[2-6]\d{3}[ \t]?\d{5}[ \t]?\d(?:[ \t]*[/-][ \t]*\d)?"),
    # The US: a Medicare Beneficiary Identifier, eleven letters and digits in a fixed order,
    # maybe 4-3-4 ("1EG4-TE5-MK73": a new user, a retired farmer, saw it kept as typed).
    _after(r"medicare|mbi", _MBI),
    # Brazil: the CPF, eleven digits (3.3.3-2): "Meu CPF é 123.456.789-09" (an adversary).
    _after(r"cpf", r"\d{3}\.?\d{3}\.?\d{3}[-/.]?\d{2}"),
    _after(r"crn|customer[ \t]+reference", r"\d{3}[ \t]?\d{3}[ \t]?\d{3}[ \t]?[A-Z]"),
    # The UK: an NHS number, ten digits (3-3-4).
    _after(r"nhs(?:[ \t]+numbers)?:?[ \t]+(?:me|mine)", r"\d{3}[ \t-]?\d{3}[ \t-]?\d{4}"),
    _after(r"nhs", r"\d{3}[ \t-]?\d{3}[ \t-]?\d{4}"),
    _after(r"codice[ \t]+fiscale|cf", _CODICE_FISCALE),
    # Canada: the social insurance number in French (NAS), and Québec's health card (RAMQ:
    # four letters, eight digits) or another province's (a new user, a translator in
    # Montréal: each kept as typed).
    _after(
        r"nas(?![ \t]+(?:drive|server|box|storage|device|share|volume|disk))|"
        r"num[ée]ro[ \t]+d['\u2019]assurance[ \t]+sociale|assurance[ \t]+sociale",
        r"\d{3}[ \t-]?\d{3}[ \t-]?\d{3}",
    ),
    _after(
        r"ramq|carte[ \t]+soleil|carte[ \t]+d['\u2019]assurance[ \t]+maladie|"
        r"assurance[ \t]+maladie|"
        r"health[ \t]+(?:card|insurance)|ohip|msp|care[ \t]+card",
        r"[A-Z]{4}[ \t]?\d{4}[ \t]?\d{4}|\d{4}[ \t-]?\d{3}[ \t-]?\d{3}(?:[ \t-]?[A-Z]{2})?",
    ),
    # Nigeria: the Bank Verification Number, eleven digits ("my BVN na 22123456789": a
    # third adversary, where the NIN beside it was redacted).
    _after(r"bvn|bank[ \t]+verification[ \t]+number", r"\d{11}"),
    # Mexico: "Mi RFC es LUGM800315AB3 y mi CURP es LUGM800315MJCRRC09" (a new user, a
    # baker in Guadalajara: both kept as typed).
    _after(r"curp|clave[ \t]+[úu]nica(?:[ \t]+de[ \t]+registro[ \t]+de[ \t]+poblaci[óo]n)?", _CURP),
    _after(r"rfc|registro[ \t]+federal(?:[ \t]+de[ \t]+contribuyentes)?", _RFC),
    _after(r"clave[ \t]+de[ \t]+elector|(?-i:INE)", _CLAVE_DE_ELECTOR),
    # The UAE: the Emirates ID, fifteen digits from 784 (an adversary: kept as typed).
    _after(r"emirates[ \t]+id|eid", r"784[ \t-]?\d{4}[ \t-]?\d{7}[ \t-]?\d"),
    # Egypt: the national number, fourteen digits, in Arabic-Indic digits too ("رقمي القومي
    # 28203150101234", "my national ID number is …": a new user, a pharmacist in Cairo).
    _after(
        r"national[ \t]+id(?:entity)?(?:[ \t]+card)?|national[ \t]+number|"
        r"(?:الرقم|رقمي|رقم)[ \t]+(?:القومي|قومي)|رقم[ \t]+(?:البطاقة|بطاقتي)",
        r"[23\u0662\u0663]\d{13}",
    ),
    # Poland: PESEL (eleven digits), NIP (ten digits, grouped 3-3-2-2 or 3-2-2-3).
    _after(r"pesel", r"\d{11}"),
    _after(r"nip", r"\d{3}-?\d{3}-?\d{2}-?\d{2}|\d{3}-\d{2}-\d{2}-\d{3}"),
    # Germany: the tax number of a tax office (Steuernummer), written with slashes.
    _after(r"steuernummer|steuer-?nr\.?|st\.?-?nr\.?", r"\d{2,3}/\d{3,4}/\d{4,5}|\d{5}/\d{5}"),
    # A passport: letters and digits, at least six, at least one digit; a Russian one's
    # series and number ("Номер паспорта 4509 123456": an adversary saw each kept).
    _after(
        r"passport|passeport|reisepass(?:nummer)?|passnummer|pasaporte|passaporte|passaporto|"
        r"paszport",
        r"(?=[A-Z]*\d)[A-Z0-9]{6,9}",
    ),
    # A driving licence: letters and digits, maybe in groups joined by hyphens ("D123-4567",
    # "MORGA753116SM9IJ"). Not a number plate ("license plate ABC 1234").
    # Or with slashes: "prawo jazdy nr 01234/12/1234" (a later adversary: kept).
    _after(_DRIVING_LICENCE, r"(?=[A-Z/-]*\d)[A-Z0-9](?:[-/]?[A-Z0-9]){5,19}"),
    _after(r"паспорт[а-я]*", r"\d{2}[ \t]?\d{2}[ \t]?(?:№[ \t]?)?\d{6}"),
    # Poland: an identity card (dowód osobisty), three letters and six digits (an
    # adversary: "numer dowodu ABC123456" kept).
    _after(r"dow[oó]d(?:u|zik)?(?:[ \t]+osobist\w*)?|numer[ \t]+dowodu", r"[A-Za-z]{3}[ \t]?\d{6}"),
    # France: the social security number (NIR), thirteen digits and a two-digit key.
    _after(
        r"s[ée]cu(?:rit[ée][ \t]+sociale)?|nir|num[ée]ro[ \t]+de[ \t]+s[ée]curit[ée][ \t]+sociale",
        r"[12][ \t]?\d{2}[ \t]?\d{2}[ \t]?(?:\d{2}|2[AB])[ \t]?\d{3}[ \t]?\d{3}(?:[ \t]?\d{2})?",
    ),
)
_HINTS = (
    "pps", "personal public", "dni", "nif", "nie", "documento", "bsn", "burgerservice",
    "steuer", "tax", "aadha", "adhaar", "uidai", "pan", "permanent", "fiscale", "cf",
    "sécu", "secu", "nir", "sociale", "medicare", "crn", "customer ref", "nhs", "nas",
    "ramq", "soleil", "maladie", "health", "ohip", "msp", "care card", "pesel", "nip",
    "bvn", "verification", "curp", "rfc", "clave", "registro federal", "ine",
    "emirates", "eid", "st-nr", "st.-nr", "stnr", "pass", "paszport", "паспорт",
    "pasaport", "licen", "dl",
    "hrerschein", "dow", "permis", "conduc", "patente", "jazdy", "rijbewijs", "mbi", "cpf",
    "national", "قومي", "البطاقة", "بطاقتي",
)  # fmt: skip


def id_number_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each national identity or tax number `text` gives after its name."""
    lowered = text.lower()
    if not any(hint in lowered for hint in _HINTS):
        return []
    spans = [
        found.span(1 if found[1] else 2) for rule in _ID_NUMBERS for found in rule.finditer(text)
    ]
    for shape in _ANOTHER_OF:
        alike = [found.span() for found in shape.finditer(text)]
        if any(span in spans for span in alike):
            spans += [span for span in alike if span not in spans]
    return [("id-number", span) for span in spans]


_ANOTHERS = (
    r"(?:(?:my|his|her|our|their|the)[ \t]+)?[\w-]+(?:['\u2019]s|s['\u2019])"
    r"(?:[ \t]+(?:one|ones|number|numbers|no\.?))?"
    r"|(?:my|his|her|our|their)[ \t]+[\w-]+"
    r"|(?:die|der|das)[ \t]+(?:meiner|meines|meinem|seiner|seines|ihrer|ihres)[ \t]+[\w-]+"
    r"|(?:(?:die|dat|het)[ \t]+)?van[ \t]+(?:(?:mijn|zijn|haar|onze)[ \t]+)?[\w-]+"
    r"|(?:el|la|lo)[ \t]+de[ \t]+(?:mi|su|tu)[ \t]+[\w-]+"
    # In Italian: "quello di mia moglie è …" (an adversary saw it kept).
    r"|(?:quello|quella)[ \t]+(?:di|del|della|dello)[ \t]+(?:(?:mia|mio|sua|suo)[ \t]+)?[\w-]+"
    r"|(?:celui|celle)[ \t]+(?:de[ \t]+|d['\u2019])(?:(?:ma|mon|sa|son|notre|leur)[ \t]+)?[\w-]+"
    # Someone named before a colon: "BSN: 123456782, partner: 111222333".
    r"|[\w-]+(?=[ \t]*:)"
    # Whose alone, or one of the family named alone: "and hers is …", "me …, wife …".
    r"|hers|his|theirs|(?:le|la)[ \t]+sien(?:ne)?"
    r"|(?:for[ \t]+)?(?:(?:my|his|her|our|their)[ \t]+)?(?:me|wife|husband|"
    r"partner|son|daughter|mum|mom|dad|mother|father|brother|sister|kid|child|baby)"
    # Whose typed without its apostrophe: "and mannys is …" (a new user, a carer).
    r"|[a-z][\w-]*?s(?=[ \t]+(?:is|are)\b)"
)
_NATIONAL_INSURANCE = r"[A-Z]{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?[A-D]"
"""A British National Insurance number: "and mannys is AB 98 76 54 D" after the user's was
kept as typed (a new user, a carer)."""
_LETTER_AND_DIGITS = r"(?=[A-Z]*\d)[A-Z][A-Z0-9]{5,18}"
"""A passport's or a driving licence's number: a capital, then capitals and digits
("K1234567", "MORGA753116SM9IK": an adversary saw the wife's licence kept)."""
_ANOTHER_AFTER = lazy_compile(
    r"(?i)[ \t]*(?:[,;.][ \t]*|[ \t]+)(?:(?:and|und|en|y|e|et|i|oraz|&)[ \t]+)?"
    rf"(?:(?:{_ANOTHERS})[ \t]*(?:(?:is|are|was|ist|lautet|es|è|est|c['\u2019]est|to|jest)"
    # Or a comma: "el de mi marido, 87654321X" (an adversary saw it kept).
    r"[ \t]+|[:,][ \t]*)?)?"
    rf"(\d[\d \t.-]{{6,18}}\d[A-Z]?|{_NATIONAL_INSURANCE}|(?-i:{_LETTER_AND_DIGITS}|"
    rf"{_CODICE_FISCALE}))"
    r"(?![\w.-]?\d)"
)
_WITH_A_WORD = lazy_compile(
    r"(?i)[ \t]*[,;.]?[ \t]*(?:and|und|en|y|e|et|i|oraz|&)\b|[ \t]*[,;.][ \t]*\D"
)
"""Joined to the number before by "and" (in its languages), or by a comma and someone's."""
ID_NUMBER_KINDS = frozenset({"ssn", "id-number"})
"""The kinds an identity or tax number is redacted as: "id-number" here, "ssn" by
`agent.loose_wordings`."""
_WITH_LETTERS = lazy_compile(rf"{_NATIONAL_INSURANCE}|{_LETTER_AND_DIGITS}|{_CODICE_FISCALE}")
"""An NI number, or a passport's letter and digits ("K1234567", then "and my wife's is
K7654321": an adversary saw the second kept): another of its shape may follow it."""
_DIGITS = lazy_compile(r"[\d \t.-]+[A-Z]?")
_ANOTHER_KIND = lazy_compile(
    r"(?i)\b(?:phone|mobile|cell|tel|landline|fax|whatsapp|account|iban|card|order|ref|"
    r"reference|booking|policy|member|membership|licen[cs]e|passport|handy|telefon)\w*"
)
"""Someone's number of another kind: "and my phone 087 123 4567" after an NHS number."""


def _shape(value: str) -> str:
    """Its digits and letters, each as 9 or A: "123 456 789A" and "987654321B" are alike."""
    return re.sub(r"\d", "9", re.sub(r"[A-Za-z]", "A", re.sub(r"[ \t.-]", "", value)))


def numbers_of_others(
    text: str, spans: list[tuple[str, tuple[int, int]]]
) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of a second number right after an ID number, of its shape.

    "my ssn is 123456789 and my wife's is 987654321", "Steuer-ID 12345678901, die meiner
    Frau 98765432109", "BSN 123456782 en 987654321", "TFN 123 456 782 and my wife 876 543
    210", "… en van mijn vrouw …", "partner: …", "the kids' are … and …" (adversaries: each
    second one kept). Said with "and" or someone's, of the same shape: "my BSN is
    123456782, call me on 612345678" names no one's.
    """
    found = []
    for kind, (start, end) in spans:
        shape = _shape(text[start:end])
        of_digits = shape.count("9") >= 8 and _DIGITS.fullmatch(text, start, end) is not None
        if kind not in ID_NUMBER_KINDS or not (
            of_digits or _WITH_LETTERS.fullmatch(text, start, end)
        ):
            continue
        while (after := _ANOTHER_AFTER.match(text, end)) is not None:
            if _WITH_A_WORD.match(text, end) is None or _ANOTHER_KIND.search(
                text, end, after.start(1)
            ):
                break
            if _shape(after[1]) != shape:
                break
            found.append((kind, after.span(1)))
            end = after.end(1)
    return found
