"""Which secrets a message asks for, and which of a fact's secrets the model is shown.

Split from `agent.injection`. A fact's secret goes to the model only for a message asking
for one, and then only the one asked for: found by an adversary, "what's the wifi password
for the Graz flat?" showed the Graz flat's door code beside its wifi password, and the
Linz flat's door code and wifi password too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from agent.bank_accounts import BANK_ACCOUNT_KIND
from agent.code_wordings import bike_code_spans
from agent.id_numbers import ID_NUMBER_KINDS
from agent.redact import redact, redacted_with_values
from agent.secret_formats import replace_spans
from memory.entry import MemoryCategory, MemoryEntry
from memory.lazy_patterns import lazy_compile
from memory.text import REDACTED_MARKER, analyze

_WHAT_TO_TYPE = (
    r"(?:what|which)(?:\s+(?:code|number|digits|combination))?\s+(?:do|should|must|can)\s+"
    r"(?:i|we|you)\s+"
    r"(?:type|enter|press|punch\s+in|key\s+in|put\s+in|dial)\b"
)
"""What the keypad takes: "what do I type at the front door keypad?" (an adversary was shown
the code redacted)."""
_ID_NUMBER_NAMES = (
    r"ssn|social\s+(?:security|insurance)|pps|ppsn|dni|bsn|burgerservicenummer|nhs\s+(?:number|no)|"
    r"tfn|tax\s+(?:file|id)|national\s+insurance|steuer-?id|steuernummer|"
    r"steueridentifikationsnummer|aadhaa?r|medicare\s+(?:number|no|card)|codice\s+fiscale|"
    r"num[ée]ro\s+(?:de\s+s[ée]curit[ée]|d['\u2019]assurance)|s[ée]cu|ramq|carte\s+soleil|"
    r"health\s+card|ohip|pesel|passport|passeport|reisepass(?:nummer)?|passnummer|pasaporte|"
    r"passaporte|passaporto|paszport|driv(?:ing|er['\u2019]?s?)\s+licen[cs]e|f[üu]hrerschein(?:nummer)?|"
    r"permis\s+de\s+conduire|(?:carn[ée]t?|permiso|licencia)\s+de\s+conducir|"
    # Short names that are words too, in capitals only: "what's my SIN?", "mon NAS?".
    r"(?-i:PAN|NIP|SIN|NAS|CRN|NIE|NIF|NIR|NI|NINO)"
)
"""An identity or tax number's names (`agent.id_numbers`): "what's my PPS number?" asks
for it (a new user, a translator, was shown "mon NAS est [REDACTED:id-number]" when she
asked for it)."""
_ASKS_FOR_A_SECRET = lazy_compile(
    r"(?i)\b(?:pass(?:word|code|wd)?s?(?![\w-])"
    r"(?!\s+(?:managers?|apps?|vaults?|rules?|policy|generator))|"
    # A code that opens nothing: "what's the dress code?", "… the area code" (an adversary).
    r"pws?|pwd|pins?|(?<!dress\s)(?<!area\s)(?<!zip\s)(?<!post\s)(?<!postal\s)(?<!error\s)"
    r"(?<!promo\s)(?<!country\s)(?<!dial\s)(?<!bar\s)(?<!qr\s)(?<!source\s)codes?|"
    + _WHAT_TO_TYPE
    + r"|how\s+(?:do|can|should)\s+(?:i|we)\s+(?:open|unlock)\b|"
    r"log\s?-?ins?|logon|sign\s?-?in|creds|credentials|combo|combination|"
    # A token or an API key: "what's my github token?" (a new user was shown it redacted).
    r"tokens?|(?:api|access|auth|secret|private|ssh|licen[cs]e|product)[\s_-]*keys?|"
    # A service's key: "what's my stripe key?", "give me the sk_live key" (a new user, an
    # engineer, was shown it redacted where "the stripe api key" showed it).
    r"(?:stripe|aws|openai|anthropic|github|gitlab|slack|twilio|sendgrid|mailgun|firebase|"
    r"azure|heroku|vercel|npm|pypi|docker|sk_live|sk_test|rk_live|pk_live|signing|webhook|"
    r"encryption|gpg|pgp|deploy)[\s_-]*(?:(?:live|test|secret|api|prod|production)[\s_-]*)?keys?|"
    r"get\s+in(?:to)?|secret|answer|cvv|iban|bank\s+details|" + _ID_NUMBER_NAMES + r"|"
    r"account\s+(?:number|no|details)|card\s+(?:number|no|details)|"
    # A card's or an account's number in other languages: "¿cuál es el número de mi
    # tarjeta?" (a new user, a baker in Guadalajara, was shown it redacted).
    r"n[úu]mero\s+de\s+(?:(?:mi|la|tu)\s+)?(?:tarjeta|cuenta)|clabe|"
    r"num[ée]ro\s+de\s+(?:(?:ma|la)\s+)?carte|karten-?nummer|kontonummer|"
    r"n[úu]mero\s+d[oa]\s+(?:(?:meu|minha)\s+)?(?:cart[ãa]o|conta)|"
    r"passwort|kennwort|contrase[ñn]a|clave|mot\s+de\s+passe|senha|c[oó]digo|codice|"
    # "wie ist der Türcode in Graz?", "qual è il codice del portone?" (an adversary).
    r"(?:t[üu]e?r|tor|alarm|zugangs|haus|garagen|schl[üu]e?ssel|wlan)(?:code|passwort)|"
    # In Korean, Hindi, Japanese and Chinese: "와이파이 비밀번호 알려줘" (an adversary was shown
    # it redacted, and asked in English, the other flat's).
    r"비밀번호|비번|패스워드|핀\s*번호|인증\s*번호|암호|पासवर्ड|पिन|パスワード|暗証番号|密码)"
)
"""Words a message asks for a secret with ("what's the wifi password", "how do I get in").
Not a thing a secret opens ("Is my alarm set up?", "What card do I use?", "which bank am I
with?" showed the model the code or the PIN: an adversary); such a fact is shown with its
secret redacted."""
_ASKS_THE_KEYPAD = lazy_compile(
    r"(?i)(?:\b(?:what|wat)(?:['\u2019]?s|\s+is|\s+was)?\s+(?:the\s+|my\s+|our\s+)?"
    r"(?:[\w'\u2019-]+\s+){0,2}?"
    r"|\b(?:tell|give|remind|send|share|need|forgot|forgotten|remember)\b[^?.!]*?)\bkeypad\b"
    # Asked for itself, not how it looks: "what colour is the studio keypad?", "what's the
    # studio keypad like?" (a second adversary was shown the code).
    r"(?=\s*(?:again|pls|please|plz|code|number|digits|combo|for\b[^?.!]*)?\W*$)"
    r"|^\W*(?:the\s+|my\s+|our\s+)?(?:[\w'\u2019-]+\s+){0,2}keypad\W*$"
    r"|\bkeypad\s+(?:numbers?|digits)\b"
)
"""The keypad named for its code: "what's the studio keypad?", "keypad?"; not "is the studio
keypad by the door?" (a second adversary was shown the code it opens with)."""


def _secret_named(piece: str) -> re.Match[str] | None:
    """The first word of `piece` asking for a secret (`_ASKS_FOR_A_SECRET`, the keypad)."""
    found = [m for m in (_ASKS_FOR_A_SECRET.search(piece), _ASKS_THE_KEYPAD.search(piece)) if m]
    return min(found, key=lambda m: m.start(), default=None)


_ASKING = lazy_compile(
    r"(?i)^\W*(?:(?:hey|hi|ok|okay|so|and|also|please|pls|oh|right|but|then)\W+){0,3}"
    r"(?:what|whats|what's|wats|wat|where|"
    r"how|which|when|who|tell|give|remind|need|send|show|read|can|could|do|does|is|are|any|"
    # Written with it: "draft an invoice email with my bank details" (a new user, a
    # freelancer, saw the IBAN left out).
    r"got|find|get|lookup|look\s+up|draft|write|compose|prepare|fill|put|include|add|"
    # Asking in Spanish, French, Portuguese, Italian, German.
    r"cu[aá]l(?:es)?|qu[eé]|d[ií]me|d[aá]me|me\s+das|quel(?:le)?s?|c['\u2019]est\s+quoi|"
    r"donne|qual|quale|dimmi|welche[rs]?|gib)\b"
    r"|.*\b(?:forgot|forgotten|can['\u2019]?t\s+remember|cannot\s+remember|lost)\b"
    # Asked for by name: "not the alarm one, the door code please" (an adversary was shown
    # no code at all).
    r"|.*\b(?:please|pls|plz)\b(?!\s+(?:remember|note|keep|save|store|write|add|update))"
    # Asked at the end, as these languages ask: tell me, what is it.
    r"|.*(?:알려\s*줘|알려\s*주세요|알려\s*줄래|뭐야|뭐였지|뭐지|뭐더라|뭐였더라|가르쳐|"
    r"क्या\s+(?:है|था)|बताओ|बताइए|बता\s+दो|教えて|何ですか|は\?|是什么|是多少|告诉我)"
)
_FEW_WORDS = 4


_DECLINED = lazy_compile(
    r"(?i)\b(?:never\s*mind|forget(?:\s+about)?|skip|ignore|leave\s+out|no\s+need\s+for|"
    r"(?:i\s+)?(?:don['\u2019]?t|do\s+not|doesn['\u2019]?t)\s+(?:tell|show|give|need|want|care|"
    r"send|read)|not\s+(?:asking\s+(?:for|about)|the)|without)\b"
)
"""A secret named to be left out: "never mind the password, is the beach house near the
sea?", "don't tell me any codes", "I don't need the alarm code" (an adversary saw each show
the model every secret of the fact)."""


_NOT_ITS_VALUE = lazy_compile(
    r"(?i)^\W*(?:(?:should|shall|must|do|can|could)\s+(?:i|we)\s+(?:change|reset|update|rotate|"
    r"replace|share|give\s+out|write\s+down)\b|who\s+(?:else\s+)?(?:knows|has|had)\b|"
    r"how\s+often\s+should\b|is\s+it\s+(?:safe|ok|okay|wise|smart)\s+to\b|"
    r"when\s+did\s+(?:i|we)\s+(?:last\s+)?(?:change|reset|set|update)\b|"
    # To change it, its age: "remind me to change my netflix password tomorrow", "how old is
    # the netflix password?" (an adversary was shown it).
    r"(?:please\s+)?remind\s+me\s+to\s+(?:change|reset|update|rotate|renew|replace)\b|"
    r"how\s+(?:do|can|should)\s+(?:i|we)\s+(?:change|reset|update|rotate)\b|"
    r"did\s+(?:i|we)\s+(?:give|tell|share|send|show)\b|"
    r"(?:did|has|have)\s+(?:the|my|our)\s+(?:[\w'\u2019-]+\s+){0,3}?(?:change|changed)\b|"
    r"what\s+makes\s+(?:a|an)\s+(?:good|strong|secure)\b|"
    r"how\s+old\s+is\b|"
    # Whom it went to: "who did I give the alarm code to?" (an adversary was shown it).
    r"(?:who|whom)\s+(?:did|have|had)\s+(?:i|we)\s+(?:give|given|gave|tell|told|share|shared|"
    r"send|sent|show|shown)\b|to\s+whom\b"
    # To change it, in Korean, Hindi or Hinglish: "비밀번호 바꿔야 할까?", "와이파이 비밀번호
    # 바꿔줘", "वाईफाई पासवर्ड बदलो", "wifi password badal do" (a later adversary was shown it).
    r"|.*(?:바꿔|바꾸|바꿀|변경|बदल|\bbadal|\bbadlo))"
)
"""A question about a secret, not for it: "should I change the front door code?", "who
knows the front door code besides me?" (an adversary saw the code shown to the model)."""


def _declined(piece: str) -> bool:
    """Whether `piece` names its secret only to leave it out, or asks of it, not for it."""
    named = _secret_named(piece)
    if named is None:
        return False
    return _DECLINED.search(piece, 0, named.start()) is not None or bool(
        _NOT_ITS_VALUE.match(piece)
    )


_DONE_TO_IT = lazy_compile(
    r"(?i)\b(?:revoke|rotate|regenerate|reset|renew|delete|disable|deactivate|create|generate|"
    r"invalidate|change|update)\s+(?:my\s+|the\s+|our\s+|this\s+|that\s+|a\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:tokens?|keys?|passwords?|passcodes?|pins?|credentials|creds)\b"
    r"|\b(?:tokens?|keys?|passwords?|pins?)\s+(?:expired?|leaked|compromised|stolen)\b"
)
_ABOUT_AN_ID = lazy_compile(
    r"(?i)\b(?:expir\w*|renew\w*|office|valid|wa[żz]n\w*|v[aá]lid\w*|g[üu]ltig|photos?|apply|"
    r"application|replac\w*|lost|stolen|appointment|form|expira\w*|rdv|bureau|caduc\w*|"
    r"renuev\w*|renov\w*|vence\w*|vencimiento|cita|oficina|perd\w*|robad\w*|"
    r"abl[äa]uf\w*|l[äa]uft|verl[äa]ng\w*|beantrag\w*)\b"
)
"""What is done with an ID rather than asked of it: "how do I renew my passport?", "czy PESEL
jest ważny?", "quand expire ma carte RAMQ?" (an adversary: each showed the number);
"¿cuándo caduca mi pasaporte?", "como renuevo el pasaporte de Pablo?" (a new user, a nurse
in Madrid, was shown hers)."""
_ITS_NUMBER = lazy_compile(r"(?i)\b(?:number|no\.|nr\.?|num[ée]ro|n[uú]mero|numer|nummer)(?!\w)")
_ASKED_FOR_ITSELF = lazy_compile(
    r"(?i)\b(?:what(?:['\u2019]?s|\s+is|\s+was|\s+are)|tell\s+me|give\s+me|send\s+me|"
    r"show\s+me|remind\s+me|need\s+the|paste)\b"
)
"""Something done to a secret, asked about ("how do I revoke my github token?", "reset
the wifi password?"), not its value; unless the value is asked for too."""


def asks_for_a_secret(text: str) -> bool:
    """Whether `text` asks for what a secret holds (a password, a code, a card's number).

    Asked or requested, or named alone ("wifi password"); not said: "The key safe code was
    changed by the agency, it's 5820 now" showed the model the old code (a new user). Nor
    named to be left out (`_DECLINED`), unless another part asks for one.
    """
    if (named := _secret_named(text)) is None:
        return False
    if (
        _ASKS_AN_ID_NUMBER.fullmatch(named.group())
        and _ABOUT_AN_ID.search(text)
        and not _ITS_NUMBER.search(text)
    ):
        return False  # "when does my passport expire?" asks not for its number (an adversary)
    if _DONE_TO_IT.search(text) and not _ASKED_FOR_ITSELF.search(text):
        return False  # "how do I revoke my github token?" asks not for the token (an adversary)
    if not any(part.asks for part in _asked_parts(text)):
        return False
    if "?" in text or _ASKING.match(text) is not None:
        return True
    # Named alone, but with a value of its own, it gives one: "gh token ghp_9Z8…" showed
    # the model the old token kept (an adversary).
    return len(text.split()) <= _FEW_WORDS and not _gives_a_secret(text)


def _gives_a_secret(text: str) -> bool:
    return REDACTED_MARKER.search(text) is not None or _redacts(text)


_ASKED_WITH = frozenset(
    analyze(
        "password passwords passcode pin pins code codes pw pwd passwd combination combo login "
        "logins credentials creds secret answer number key get in into enter open unlock "
        "need forgot forgotten remember tell give send show please pls again now current iban "
        "token tokens api access auth "
        # Asking in other languages: "wie lautet meine IBAN?" (a new user).
        "lautet heißt heisst gib zeig nenn dime dame diz"
    )
)
_NETWORK = frozenset(analyze("wifi wi-fi wlan ssid network router internet broadband"))


_HYPHEN_IN_A_NAME = lazy_compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


_SHORT_NAMES = {"gh": "github", "gl": "gitlab"}
"""A service's short name: "what is my gh token" asks for the github one (an adversary was
shown it redacted)."""


def _terms(text: str) -> frozenset[str]:
    """The words of `text`, a name in parts also joined: "M-Pesa" is "mpesa" too.

    A new user asking "what's my mpesa pin?" was shown "My M-Pesa PIN is [REDACTED:pin]".
    """
    joined = _HYPHEN_IN_A_NAME.sub("", text)
    words = frozenset(analyze(text))
    words |= {_SHORT_NAMES[word] for word in words if word in _SHORT_NAMES}
    return words if joined == text else words | frozenset(analyze(joined))


def asked_of_what(asked: str) -> frozenset[str]:
    """What a message asking for a secret asks the secret of ("alarm" of "alarm code?")."""
    terms = _terms(asked) - _ASKED_WITH
    return terms | _NETWORK if terms & _NETWORK else terms


def holds_a_secret(entry: MemoryEntry) -> bool:
    """Whether a memory holds a secret: a fact, or a bike lock's code anywhere.

    A saved message is stored redacted, but for a bike lock's code (asked back later, it
    is what the user wants: `agent.code_wordings`).
    """
    if bike_code_spans(entry.content):
        return True
    return entry.category != MemoryCategory.CONVERSATION.value and _redacts(entry.content)


@lru_cache(maxsize=2048)
def _redacts(text: str) -> bool:
    return bool(redact(text)[1])


def redacted_for_the_model(text: str) -> str:
    """`text` with every secret redacted, a bike lock's code too."""
    bikes = bike_code_spans(text)
    if bikes:
        text = replace_spans(text, bikes, "[REDACTED:code]")
    return redact(text)[0]


_CLAUSE_BREAK = lazy_compile(r"[,;:.!?\n]\s|\s(?:and|und|y|et|e)\s|\s[-\u2013\u2014]\s")


_SENTENCES = lazy_compile(r"(?<=[?.!])\s+(?=\S)")
_ASKED_PARTS = lazy_compile(
    r"(?i)\s*(?:[,;&+]|\s[-\u2013\u2014]\s|\b(?:and|also|plus|y|und|et|e)\b)\s*"
)
_GETTING_IN_WORDS = r"get\s+in(?:to)?|let\s+(?:me|us)\s+in|enter|unlock|open"
_ASKS_A_CODE = lazy_compile(
    rf"(?i)\b(?:codes?|pins?|combination|combo|keypad|{_GETTING_IN_WORDS}|{_WHAT_TO_TYPE}|"
    r"c[oó]digo|codice|geheimzahl|digicode|"
    r"(?:t[üu]e?r|tor|alarm|zugangs|haus|garagen|schl[üu]e?ssel)code)\b"
)
_ASKS_A_PASSWORD = lazy_compile(
    r"(?i)\b(?:pass(?:word|wd)?s?|pws?|pwd|log\s?-?ins?|credentials|creds|passwort|kennwort|"
    r"contrase[ñn]a|clave|senha|mot\s+de\s+passe|(?:wi-?fi|network)\s+key)\b"
)
_GETTING_IN = lazy_compile(rf"(?i)\b(?:{_GETTING_IN_WORDS})\b")
"""Asking how to get in: for a code that opens, not any secret of the place."""
_CODE_KINDS = frozenset({"code", "pin", "card-code"})
_PASSWORD_KINDS = frozenset({"secret"})
_ASKS_AN_ACCOUNT = lazy_compile(
    r"(?i)\b(?:iban|bank\s+(?:details|account)|account\s+(?:number|no|details)|nuban|"
    r"(?:n[úu]mero\s+de\s+)?cuenta|clabe|kontonummer|konto|n[úu]mero\s+da\s+conta|"
    r"rekeningnummer)\b"
)
_ASKS_AN_ID_NUMBER = lazy_compile(rf"(?i)\b(?:{_ID_NUMBER_NAMES})\b")
_A_NIP = lazy_compile(r"(?i)\bnip\b")
_SOMEONE_ELSES = lazy_compile(
    r"(?i)\b(?!(?:what|it|that|who|where|there|here|he|she|let|how|when|why)['\u2019]s\b)"
    r"[\w-]+['\u2019]s\b|\b(?:wife|husband|partner|son|daughter|mum|mom|dad|mother|father|"
    r"brother|sister|kid|child|femme|mari|fils|fille|mère|père|frère|sœur|soeur|żona|żony|"
    r"mąż|męża|syn|syna|córka|córki|mujer|marido|hijo|hija|frau|mann|sohn|tochter|"
    r"vrouw|zoon|dochter)\b"
)
"""Said of someone else: "My wife's NAS is …", "le NAS de ma femme", "PESEL syna"."""
_ID_NUMBER_NAMES_ALIKE = tuple(
    tuple(frozenset(analyze(name)) for name in names.split(","))
    for names in (
        "ssn,social security",
        "sin,nas,social insurance,assurance sociale",
        "ramq,carte soleil,health card,assurance maladie,ohip",
        "pps,ppsn,personal public service",
        "tfn,tax file",
        "passport,passeport,reisepass,reisepassnummer,passnummer,pasaporte,passaporte,"
        "passaporto,paszport",
        "driving licence,driving license,driver license,drivers license,führerschein,"
        "führerscheinnummer,"
        # Without "de": a French or Spanish sentence's terms leave it out.
        "permis conduire,carnet conducir,permiso conducir,licencia conducir",
        "steuer-id,steueridentifikationsnummer",
        "nhs",
        "dni,nie,nif",
        "bsn,burgerservicenummer",
        "pesel",
        "nip",
        "aadhaar,aadhar",
        "medicare",
        "crn",
        "codice fiscale",
        "steuernummer",
        "national insurance,ni,nino",
    )
)
"""Each identity number's names, in other words or languages: "what's my social security
number?" asks for the fact "My SSN is …", and no PPS number."""


def _id_numbers_named(terms: frozenset[str]) -> tuple[frozenset[str], ...]:
    """The names (as terms) of each identity number `terms` name, with their other names."""
    return tuple(
        name
        for names in _ID_NUMBER_NAMES_ALIKE
        if any(name <= terms for name in names)
        for name in names
    )


def id_names_asked(asked: str) -> list[str]:
    """The other names (as terms) of each identity number `asked` asks for, to search by.

    "what's my passport number?" found nothing of "Mi número de pasaporte es …" or
    "Meine Reisepassnummer ist …" (a second adversary): the question's words are English.
    """
    if not asks_for_a_secret(asked):
        return []
    named = {" ".join(sorted(name)) for part in _asked_parts(asked) for name in part.ids}
    return sorted(named - {" ".join(sorted(_terms(asked)))})


_NAMED_KINDS = frozenset(
    {"iban", BANK_ACCOUNT_KIND, "card-number", "card-code", "pin", *ID_NUMBER_KINDS}
)
_ASKS_A_CARD = lazy_compile(
    r"(?i)\bcard(?:['\u2019]s)?\s+(?:number|no|details)\b"
    # In other languages: "¿cuál es el número de mi tarjeta?" (a new user, a baker in
    # Guadalajara, was shown it redacted), "numéro de ma carte", "Kartennummer".
    r"|\bn[úu]mero\s+de\s+(?:(?:mi|la|tu)\s+)?tarjeta\b|\bn[úu]mero\s+do\s+(?:meu\s+)?cart[ãa]o\b"
    r"|\bnum[ée]ro\s+de\s+(?:(?:ma|la)\s+)?carte\b|\bkarten-?nummer\b|\bkaartnummer\b"
    r"|\bnumero\s+(?:della\s+(?:mia\s+)?)?carta\b"
)
"""An IBAN or a card's number asked for by its name: "what's my IBAN?", "wie lautet meine
IBAN?" (a new user, a freelancer, was shown it redacted, as a secret asked for by nobody)."""


@dataclass(frozen=True)
class _Part:
    """One thing a message asks for: what of ("the Graz flat"), and which kind of secret."""

    of: frozenset[str]
    kinds: frozenset[str]
    asks: bool = True
    """False for a part asking for no secret ("is the beach house near the sea?")."""
    said: str = ""
    left_out: frozenset[str] = frozenset()
    """What a part after it names to be left out: "not the alarm one"."""
    ids: tuple[frozenset[str], ...] = ()
    """The names of the identity numbers it asks for, each as terms (`_id_numbers_named`)."""


@lru_cache(maxsize=256)
def _asked_parts(asked: str) -> tuple[_Part, ...]:
    """What each part of a message asks for, or the whole message's one thing.

    "the Graz wifi password and the Vienna door code" asks two things (an adversary was
    shown all four secrets of both flats). Read once a turn: whether a secret is asked
    (`asks_for_a_secret`) and which (`most_of_what_was_asked`) both ask it.
    """
    parts = []
    for piece in [asked, *_ASKED_PARTS.split(_SENTENCES.sub(", ", asked))]:
        codes, passwords = _ASKS_A_CODE.search(piece), _ASKS_A_PASSWORD.search(piece)
        kinds = (_CODE_KINDS if codes else frozenset()) | (
            _PASSWORD_KINDS if passwords else frozenset()
        )
        account, card = _ASKS_AN_ACCOUNT.search(piece), _ASKS_A_CARD.search(piece)
        if account or card:
            # Its name asks for it alone: "IBAN code?", "wie lautet mein IBAN-Code?" asked for
            # no door code (a second adversary was shown every one); a card's own code or
            # PIN, said with it, is the card's.
            kinds = frozenset({"iban", BANK_ACCOUNT_KIND} if account else ()) | frozenset(
                {"card-number", "card-code", "pin"} if card else ()
            )
            if card and not codes:
                kinds -= {"card-code", "pin"}
        elif _ASKS_AN_ID_NUMBER.search(piece):
            kinds = ID_NUMBER_KINDS  # "what's my PPS number?" asks for no door code
            if _A_NIP.search(piece):
                kinds |= _CODE_KINDS  # a Polish tax number, or a PIN in Québec French
        elif codes and passwords:
            kinds = frozenset()  # both asked in one breath: either
        asks = _secret_named(piece) is not None and not _declined(piece)
        of = asked_of_what(piece)
        ids = _id_numbers_named(of) if kinds & ID_NUMBER_KINDS else ()
        parts.append(_Part(of, kinds, asks, piece, ids=ids))
    whole, pieces = parts[0], [p for p in parts[1:] if p.of or p.kinds]
    return tuple(_refined(pieces)) if len(pieces) > 1 else (whole,)


_A_FEW_WORDS_NAMING = lazy_compile(
    r"(?i)(?:not\s+|but\s+not\s+|except\s+|only\s+|just\s+)?(?:the\s+|my\s+|our\s+)?"
    r"[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?(?:\s+one)?"
)
"""What narrows a question, or leaves a thing out of it: "the door", "not the alarm one";
not a question of its own ("is the Graz flat big?" named the Graz flat's wifi password for
"what's the studio wifi password": a second adversary)."""


_ITS = lazy_compile(r"(?i)\b(?:its|their)\b")


def _refined(pieces: list[_Part]) -> list[_Part]:
    """The parts, each with what the parts after it narrow it to, or leave out of it.

    "what's the code for Graz? not the alarm one, the door" asks Graz's door code (an
    adversary was shown the alarm code alone).
    """
    refined: list[_Part] = []
    for piece in pieces:
        if piece.asks and not piece.of and refined and refined[-1].of and not refined[-1].asks:
            # "where's the studio keypad and what's the code?" asks the studio keypad's code,
            # not every code (a second adversary was shown the gym locker's too).
            piece = replace(piece, of=refined[-1].of)
        if piece.asks and not piece.of and refined and _ITS.search(piece.said):
            # "what's my bank card number and its code?" asks the card's code, not the gate's
            # (a second adversary was shown every code).
            piece = replace(piece, of=refined[-1].of)
        if (
            refined
            and refined[-1].asks
            and not piece.asks
            and not piece.kinds
            and piece.of
            and _A_FEW_WORDS_NAMING.fullmatch(piece.said.strip(" ?.!"))
        ):
            before = refined[-1]
            if _DECLINED.search(piece.said):
                refined[-1] = replace(before, left_out=before.left_out | piece.of)
            else:
                refined[-1] = replace(before, of=before.of | piece.of)
            continue
        refined.append(piece)
    return refined


def most_of_what_was_asked(entries: Iterable[MemoryEntry], asked: str) -> dict[str, str]:
    """Each fact whose secret was asked for (by id) → its text as the model is shown it.

    For each part of the message (`_asked_parts`): the facts naming most of what it asks
    of ("the Graz flat", not only "flat"), or every one holding a secret when it names
    nothing ("what's the code?"); in each, the secrets of the kind asked for ("how do I
    get into the Vienna flat?" asks for a code, not the wifi password: an adversary was
    shown the password and not the code) said of what was asked; the others redacted.
    """
    holding = [entry for entry in entries if holds_a_secret(entry)]
    # Each fact's secrets read once, not once for each part and again to show it.
    spans = {entry.id: _secret_spans(entry.content) for entry in holding}
    kept: dict[str, set[int]] = {}
    for part in _asked_parts(asked):
        if not part.asks:
            # "is the beach house near the sea? and what's the gate code there?" asks one
            # secret, in its second part: an adversary was shown all three of the house's.
            continue
        named = bool(part.kinds) and part.kinds <= _NAMED_KINDS
        candidates = holding
        if named:
            # An IBAN is asked for by its name whatever else is said ("include my bank
            # details and VAT number"): the facts holding one, the most named first.
            candidates = [e for e in holding if any(k in part.kinds for k, *_ in spans[e.id])]
        if part.kinds & ID_NUMBER_KINDS:
            # "what's my PESEL?" asks for no PPS number: the facts naming one it names.
            candidates = [e for e in holding if any(name <= _terms(e.content) for name in part.ids)]
            # "c'est quoi mon NAS?", "passport number?" ask for no one else's (an adversary
            # was shown the wife's beside it); nor when none is one's own: "what's my
            # passport number?" with only the wife's kept showed hers (a third adversary).
            # And someone else's asks for no one's own: "what's my wife's SIN?" showed the
            # user's (a later adversary).
            others = _SOMEONE_ELSES.search(part.said) is not None
            candidates = [e for e in candidates if bool(_SOMEONE_ELSES.search(e.content)) == others]
        overlap = {e.id: len(part.of & _terms(e.content)) for e in candidates}
        most = max(overlap.values(), default=0)
        if part.of and most == 0 and not named:
            continue
        for entry in candidates:
            if overlap[entry.id] == most:
                # A saved message holds only a bike lock's code: asked for by its words
                # alone ("what's the Vienna door code?" showed it beside: an adversary).
                said = entry.category == MemoryCategory.CONVERSATION.value
                asked_of = _asked_of(entry.content, spans[entry.id], part, named_only=said)
                kept.setdefault(entry.id, set()).update(asked_of)
    return {
        entry.id: _showing(entry.content, spans[entry.id], kept[entry.id])
        for entry in holding
        if entry.id in kept
    }


def shown_to_the_model(entries: list[MemoryEntry], asked: str) -> list[MemoryEntry]:
    """Each of `entries` as the model may see it: a secret only where `asked` asks for it.

    The secrets of a fact holding one left out, the rest of it kept ("I live in Porto and
    the door code is 1379" told the model nothing of the home when left out whole: an
    adversary); asked for, only the one asked (`most_of_what_was_asked`). A key holding
    part of a secret is shown without it. The recall block and every tool result read so.
    """
    asked_for = most_of_what_was_asked(entries, asked) if asks_for_a_secret(asked) else {}
    shown: list[MemoryEntry] = []
    for entry in entries:
        if holds_a_secret(entry):
            text = asked_for.get(entry.id) or redacted_for_the_model(entry.content)
            key = key_without_secrets(entry.key, entry.content, text)
            entry = entry.model_copy(update={"content": text, "key": key})
        shown.append(entry)
    return shown


def _asked_of(
    text: str, spans: list[tuple[str, int, int]], part: _Part, *, named_only: bool = False
) -> set[int]:
    """Which of `text`'s secrets (`spans`, by their order in it) `part` asks for.

    Those of the kind asked for said of what it names; when none is named, each of the
    kind asked for (the fact as a whole was what was asked of), but with `named_only`.
    """
    chosen = [at for at, (kind, _, _) in enumerate(spans) if kind in part.kinds]
    if part.kinds and not chosen and part.kinds <= _NAMED_KINDS:
        return set()  # "what's my IBAN?" asks for no door code
    if part.kinds and not chosen and _GETTING_IN.search(part.said):
        # "how do i get in to the studio" asks for no wifi password: a new user, a
        # photographer, was shown the studio's beside its keypad code.
        return set()
    chosen = chosen or list(range(len(spans)))
    named = [
        at for at in chosen if part.of & _terms(_clause_around(text, spans[at][1], spans[at][2]))
    ]
    if part.left_out:
        named = [at for at in named if not _named_to_leave_out(text, spans[at], part)]
        chosen = [at for at in chosen if not _named_to_leave_out(text, spans[at], part)]
    return set(named) if named_only else set(named or chosen)


def _named_to_leave_out(text: str, span: tuple[str, int, int], part: _Part) -> bool:
    return bool(part.left_out & _terms(_clause_around(text, span[1], span[2])))


def _secret_spans(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of each secret in `text`, in the text's order."""
    _clean, _kinds, values = redacted_with_values(text)
    values += [("code", text[start:end]) for start, end in bike_code_spans(text)]
    spans: list[tuple[str, int, int]] = []
    for kind, value in values:  # in the order each rule found them, not the text's
        start = text.find(value)
        while start >= 0 and any(
            start < end and begin < start + len(value) for _, begin, end in spans
        ):
            start = text.find(value, start + 1)
        if start >= 0:
            spans.append((kind, start, start + len(value)))
    return sorted(spans, key=lambda span: span[1])


def _showing(text: str, spans: list[tuple[str, int, int]], kept: set[int]) -> str:
    """`text` with its secrets (`spans`) but those `kept` redacted."""
    shown, at = [], 0
    for index, (kind, start, end) in enumerate(spans):
        shown += [text[at:start], text[start:end] if index in kept else f"[REDACTED:{kind}]"]
        at = end
    return "".join([*shown, text[at:]])


def _clause_around(text: str, start: int, end: int) -> str:
    """The words of the clause a secret stands in, itself left out."""
    before = text[:start]
    breaks = list(_CLAUSE_BREAK.finditer(before))
    opening = breaks[-1].end() if breaks else 0
    after = _CLAUSE_BREAK.search(text, end)
    closing = after.start() if after else len(text)
    return f"{before[opening:]} {text[end:closing]}"


_KEY_PARTS = lazy_compile(r"[^\W_]{3,}")


def key_without_secrets(key: str, content: str, shown: str) -> str:
    """`key` less the parts of it that are secrets `shown` leaves out of `content`.

    A key made before keys were made without secrets holds part of one ("villa_pin_4471",
    "bike_lock_combination_is_3179"): shown beside the redacted fact, it told the model.
    """
    # The hash a made key ends with is no part of a secret: "…_is_56f0b0" was shown as
    # "…_is_redactedf0b0" beside an NI number holding 56 (an adversary), a key changing
    # between turns.
    if (made := _MADE_KEY_END.search(key)) is not None:
        return key_without_secrets(key[: made.start()], content, shown) + made.group()
    told, kept = content.casefold(), shown.casefold()

    def part(found: re.Match[str]) -> str:
        word = found.group().casefold()
        return "redacted" if word in told and word not in kept else found.group()

    key = _KEY_PARTS.sub(part, key)
    # Digits of a secret cut apart or in part: "graz-door-43-21" of 4321, "alarm_code_98" of
    # 9876 (a second adversary).
    still_shown = set(_DIGITS.findall(shown))
    hidden = {run for run in _DIGITS.findall(content) if run not in still_shown}
    hidden_digits = {"".join(_DIGITS.findall(span)) for span in _digit_spans(content, hidden)}
    if not hidden_digits:
        return key
    return _DIGITS.sub(lambda found: _hidden_run(found.group(), hidden_digits), key)


_DIGITS = lazy_compile(r"\d{2,}")
_MADE_KEY_END = lazy_compile(r"_[0-9a-f]{6}$")


def _digit_spans(content: str, hidden: set[str]) -> list[str]:
    """The secrets' digits: each hidden run with the runs it is written beside ("12-34")."""
    return [
        m.group()
        for m in re.finditer(r"\d[\d \t.-]*\d", content)
        if set(_DIGITS.findall(m.group())) & hidden
    ]


def _hidden_run(run: str, hidden_digits: set[str]) -> str:
    return "redacted" if any(run in whole for whole in hidden_digits) else run
