"""Messages that end a fact with no number in them: a break-up, a leaving, a new holder.

Found by an adversary, each said after the fact and the fact still given as current, with
no word that it had changed: "Sam and I broke up" after "My partner is Sam", "Ana and I
split up in November" after "My girlfriend is Ana", "Sarah left the company last week, Tom
is my manager now" after "Sarah is my manager". A change of value is read elsewhere by its
number (`memory.last_word.changes_its_value`); these have none.
"""

from __future__ import annotations

import re

from memory.lazy_patterns import lazy_compile

_NAME = (
    r"(?!(?:It|This|That|He|She|They|There|Here|What|Who|Which|Mine)\b)"
    r"(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][\w'\u2019-]*"
)
"""A name, with its title if said; not a pronoun opening a sentence ("That's my new coach's
car" names no new coach)."""
_PARTNERS = (
    r"partner|girlfriend|boyfriend|wife|husband|spouse|fianc[eé]e?|gf|bf|other\s+half|"
    r"significant\s+other"
)
_ROLES = (
    r"manager|boss|supervisor|line\s+manager|team\s+lead|lead|contact|doctor|gp|dentist|"
    r"landlord|landlady|accountant|teacher|coach|therapist|trainer|tutor|mentor|assistant"
)
_CLAUSE_ENDS = (
    r"(?=\s*(?:$|[.,;:!?)]|\b(?:last|this|yesterday|today|recently|in|on|after|for|and|but|so|"
    r"because|a\s+(?:week|month|year)|weeks?|months?|years?|ago)\b))"
)
"""What may follow an ending said as one: "we split up last month"; not "we split up the
bill", "left the team meeting early", "retired from tennis"."""
_BROKE_UP = lazy_compile(
    rf"\b(?:(?P<who>{_NAME})\s+(?:and|&)\s+(?i:i)|(?i:i|me)\s+(?:and|&)\s+(?P<who2>{_NAME})|(?i:we))\s+"
    r"(?i:(?:have\s+|had\s+|just\s+|finally\s+)*(?:broke|broken|split)\s+up|"
    r"(?:got\s+|are\s+(?:now\s+)?|have\s+)?divorced|(?:are|have|'re)\s+separated|"
    r"are\s+no\s+longer\s+together|aren't\s+together\s+anymore|are\s+done|called\s+it\s+off)"
    + _CLAUSE_ENDS
    + rf"|\b(?i:broke\s+up|split\s+up)\s+(?i:with)\s+(?P<who3>{_NAME}){_CLAUSE_ENDS}"
    + rf"|\b(?P<who4>{_NAME})\s+(?i:dumped\s+me|broke\s+up\s+with\s+me|left\s+me|"
    r"moved\s+out)\b"
)
"""A relationship ended, and with whom if said ("we broke up": the partner's)."""
_PARTNER_FACT = lazy_compile(
    rf"(?i:\bmy\s+(?:{_PARTNERS})\b)|(?i:\b(?:dating|married\s+to|engaged\s+to)\b)"
)
_LEFT = lazy_compile(
    rf"\b(?P<who>{_NAME})\s+(?i:(?:has\s+|just\s+|finally\s+)*(?:(?:retired|resigned|quit)|"
    r"(?:left|quit)\s+(?:the\s+|her\s+|his\s+|their\s+|our\s+)?(?:company|firm|team|practice|"
    r"job|agency|business|organi[sz]ation|org|school|clinic|surgery)|"
    r"was\s+(?:fired|let\s+go|laid\s+off)|got\s+(?:fired|laid\s+off)))" + _CLAUSE_ENDS
)
"""Someone gone from their place: "Sarah left the company last week", "Linda retired";
not "Sarah left early today", "Sarah left the team meeting early", "retired from tennis"."""
_NO_LONGER_HOLDS = lazy_compile(
    rf"\b(?P<who>{_NAME})\s+(?i:is\s+no\s+longer|isn't|is\s+not)\s+(?i:my)\s+"
    rf"(?P<role>(?i:{_ROLES}))(?:\s+(?i:anymore|any\s+more))?\b"
)
_NEW_HOLDER = lazy_compile(
    rf"\b(?P<who>{_NAME})\s+(?i:is|'s)\s+(?i:now\s+)?(?i:my)\s+(?i:new\s+)?(?P<role>(?i:{_ROLES}))"
    r"(?P<now>\s+(?i:now|from\s+now\s+on|these\s+days))?"
    rf"|\b(?i:my)\s+(?i:new\s+)(?P<role2>(?i:{_ROLES}))\s+(?i:is)\s+(?P<who2>{_NAME})"
    rf"|\b(?i:my)\s+(?P<role3>(?i:{_ROLES}))\s+(?i:is\s+now|now\s+is)\s+(?P<who3>{_NAME})"
    rf"|\b(?i:my)\s+(?P<role4>(?i:{_ROLES}))\s+(?i:is)\s+(?P<who4>{_NAME})\s+(?i:now)\b"
)
"""Someone new in a place: "Tom is my manager now", "my new boss is Kevin", "my manager
is Tom now"."""
_HOLDER_FACT = lazy_compile(
    rf"\b(?P<who>{_NAME})\s+(?i:is|was)\s+(?i:my)\s+(?P<role>(?i:{_ROLES}))\b"
    rf"|\b(?i:my)\s+(?P<role2>(?i:{_ROLES}))\s+(?i:is|was)\s+(?P<who2>{_NAME})"
)


_NOT_SO = lazy_compile(
    r"(?i)\b(?:if|would|might|could|maybe|unless|in\s+case|what\s+if|suppose|imagine)\b|\?"
    r"|\b(?:back\s+together|got\s+back|(?:and|but)\s+in\s+with\s+(?:me|us)|for\s+the\s+summer|"
    r"for\s+now|temporarily|for\s+a\s+(?:while|bit|few))\b"
)
"""A message that supposes, asks, or takes the ending back: "If Sarah left the company, Tom
would be my manager", "Sarah left the company for good? No, she's on leave", "Sam and I broke
up in 2019 but got back together", "Sam moved out of his flat and in with me" (an adversary
saw each mark the fact)."""


def ends_the_fact(message: str, fact: str) -> bool:
    """Whether `message`, said after `fact`, ends it: a break-up, a leaving, a new holder."""
    if _NOT_SO.search(message):
        return False
    return (
        _ends_a_relationship(message, fact)
        or _ends_a_holding(message, fact)
        or _ends_a_job(message, fact)
        or _another_holder(message, fact)
        or _left_where_the_fact_has_them(message, fact)
    )


_LEFT_A_PLACE = lazy_compile(
    rf"\b(?P<who>{_NAME})\s+(?i:(?:has\s+|just\s+|finally\s+)*(?:left|quit))\s+(?i:the\s+)?"
    # A place of up to three words: "Sven left the choir committee" (an adversary: it left
    # "Sven is on the choir committee" unmarked).
    r"(?P<where>[\w&'\u2019-]{3,}(?:\s+[\w&'\u2019-]{3,}){0,2}?)" + _CLAUSE_ENDS
)


def _left_where_the_fact_has_them(message: str, fact: str) -> bool:
    """Whether `message` says someone left the place a fact names them at.

    "Tomasz has left bluebell, the new carer on tuesdays is Precious" after "The carers
    from bluebell are Joy … and Tomasz on tuesdays and thursdays" (a new user, a carer, saw
    the fact given as current).
    """
    return any(
        _named(found["who"], fact) and _named(found["where"], fact)
        for found in _LEFT_A_PLACE.finditer(message)
    )


_I_LEFT = lazy_compile(
    r"(?i)\b(?:i|i['\u2019]ve|i\s+have)\s+(?:just\s+|finally\s+)?(?:no\s+longer\s+work\s+(?:at|for)|"
    r"(?:quit|left)(?:\s+my\s+job\s+(?:at|with))?|resigned\s+from|(?:got|was)\s+(?:laid\s+off|"
    r"fired|let\s+go)\s+(?:from|by))\s+(?:the\s+)?(?P<where>[\w&'\u2019-]+)"
    r"(?:\s+(?:industries|inc|ltd|gmbh|group|corp))?" + _CLAUSE_ENDS
)
"""The user gone from where they worked: "I no longer work at Hooli", "I quit my job at
Vandelay", "I got laid off from Soylent yesterday", "I left Initech" (an adversary saw each
leave the job fact unmarked)."""
_WORKS_AT = lazy_compile(
    r"(?i)\b(?:i\s+work|i['\u2019]m\s+working|i\s+am\s+working|i['\u2019]m\s+employed|employed)\s+"
    r"(?:at|for|with)\s+(?:the\s+)?(?P<where>[\w&'\u2019-]+)|\bmy\s+(?:employer|company)\s+is\s+"
    r"(?:the\s+)?(?P<where2>[\w&'\u2019-]+)"
)
_SWITCHED = lazy_compile(
    rf"(?i:\b(?:changed|switched|moved)\s+(?:my\s+)?(?P<role>{_ROLES})s?\b)[^.!?]*?"
    rf"\b(?i:it['\u2019]s|is|now|go\s+to|see|with)\s+(?:now\s+)?(?P<who>{_NAME})"
)
"""A new one in a place said by the change: "I changed GP, it's Dr Bell now", "I switched
dentists, I go to Dr Park now" (an adversary saw the old one kept, unmarked)."""


def _ends_a_job(message: str, fact: str) -> bool:
    held = _WORKS_AT.search(fact)
    if held is None:
        return False
    where = (held["where"] or held["where2"]).casefold()
    return any(found["where"].casefold() == where for found in _I_LEFT.finditer(message))


def _another_holder(message: str, fact: str) -> bool:
    held = _HOLDER_FACT.search(fact)
    if held is None:
        return False
    holder, role = held["who"] or held["who2"], _role(held["role"] or held["role2"])
    return any(
        _role(found["role"]) == role and not _same_person(found["who"], holder)
        for found in _SWITCHED.finditer(message)
    )


def _ends_a_relationship(message: str, fact: str) -> bool:
    if _PARTNER_FACT.search(fact) is None:
        return False
    for found in _BROKE_UP.finditer(message):
        who = next((found[g] for g in ("who", "who2", "who3", "who4") if found[g]), None)
        if who is None or _named(who, fact):
            return True
    return False


def _ends_a_holding(message: str, fact: str) -> bool:
    held = _HOLDER_FACT.search(fact)
    if held is None:
        return False
    holder = held["who"] or held["who2"]
    role = _role(held["role"] or held["role2"])
    if any(_same_person(found["who"], holder) for found in _LEFT.finditer(message)):
        return True
    if any(
        _same_person(found["who"], holder) and _role(found["role"]) == role
        for found in _NO_LONGER_HOLDS.finditer(message)
    ):
        return True
    for found in _NEW_HOLDER.finditer(message):
        who = found["who"] or found["who2"] or found["who3"] or found["who4"]
        said_role = _role(found["role"] or found["role2"] or found["role3"] or found["role4"])
        # Without "now" or "new" a second one may be beside the first ("Tom is my manager
        # too"): only a change said as one replaces.
        changed = (
            found["now"]
            or found["role2"]
            or found["role3"]
            or found["role4"]
            or " new " in found[0].lower()
        )
        if changed and said_role == role and not _same_person(who, holder):
            return True
    return False


def _same_person(one: str, other: str) -> bool:
    """One name said with or without a title: "Kim" is "Mr. Kim", "Dr Lee" is "Dr. Lee"."""
    return (
        one.replace(".", "").split()[-1].casefold() == other.replace(".", "").split()[-1].casefold()
    )


def _named(who: str, fact: str) -> bool:
    return re.search(rf"\b{re.escape(who)}\b", fact, re.IGNORECASE) is not None


def _role(said: str) -> str:
    return " ".join(said.casefold().split())


_BACK_TOGETHER = lazy_compile(
    rf"\b(?:(?P<who>{_NAME})\s+(?:and|&)\s+(?i:i)|(?i:i|me)\s+(?:and|&)\s+(?P<who2>{_NAME})|(?i:we))\s+"
    r"(?i:(?:have\s+|just\s+|finally\s+)*(?:got|are|'re|are\s+now|got\s+engaged\s+and\s+are)"
    r"\s+back\s+together|made\s+up|reconciled|are\s+giving\s+it\s+another\s+(?:go|try|shot))"
    rf"|\b(?i:back\s+together\s+with)\s+(?P<who3>{_NAME})"
)
_BACK_IN_PLACE = lazy_compile(
    rf"\b(?P<who>{_NAME})\s+(?i:(?:(?:has\s+|just\s+)*(?:came|come|is|'s)\s+back|(?:has\s+)?"
    r"returned|(?:has\s+)?rejoined)(?:\s+(?:(?:to|at|in)\s+)?(?:the\s+|our\s+|her\s+|his\s+|their\s+)?"
    r"(?:company|firm|team|office|work|job|practice|clinic|school|surgery)\b|\s+as\s+my\b|"
    r"\s*(?:[.!,;]|$))|(?:is|'s)\s+my\s+[\w\s]{2,30}?\s+again\b)"
)
"""Someone back in their place: "Sarah came back to the company, she's my manager again"."""


def undoes_the_end(message: str, fact: str) -> bool:
    """Whether `message`, said after an ending of `fact`, takes the ending back.

    Found by an adversary: after "Sam and I broke up last week", "Sam and I got back
    together!" left "My partner is Sam" marked as changed; so did "Sarah came back to the
    company, she's my manager again" after she had left.
    """
    if re.search(r"(?i)\b(?:if|would|might|maybe|unless|what\s+if)\b|\?", message):
        return False
    if _PARTNER_FACT.search(fact) is not None:
        for found in _BACK_TOGETHER.finditer(message):
            who = found["who"] or found["who2"] or found["who3"]
            if who is None or _named(who, fact):
                return True
    held = _HOLDER_FACT.search(fact)
    if held is None:
        return False
    holder = held["who"] or held["who2"]
    return any(_same_person(found["who"], holder) for found in _BACK_IN_PLACE.finditer(message))


_UNPAID = lazy_compile(
    r"(?i)\b(?:(?:still\s+)?(?:hasn['\u2019]?t|has\s+not|haven['\u2019]?t|have\s+not|didn['\u2019]?t|"
    r"did\s+not|never)\s+(?:yet\s+)?paid|not\s+(?:yet\s+)?paid|unpaid|overdue|outstanding|"
    # In German, Spanish, French, Italian and Portuguese: "Rechnung … ist noch offen" (a new
    # user, an electrician: "Herr Yilmaz hat die Rechnung … bezahlt" marked nothing).
    r"noch\s+offen|(?:noch\s+)?nicht\s+bezahlt|unbezahlt|ausstehend|(?:a[uú]n\s+)?pendiente|"
    r"(?:todav[ií]a\s+)?no\s+(?:ha\s+)?pagad[oa]|impay[ée]e?|(?:pas\s+encore|non)\s+pay[ée]e?|"
    r"non\s+(?:ancora\s+)?pagat[oa]|n[ãa]o\s+(?:foi\s+)?pag[oa])\b"
)
_PAID = lazy_compile(
    r"(?i)\b(?:paid|received|settled|cleared)\b|\bcame\s+in\b|\bin\s+the\s+(?:account|bank)\b"
    r"|\b(?:bezahlt|beglichen|(?:ü|ue)berwiesen|eingegangen|pagad[oa]|pag[óo]|cobrad[oa]|"
    r"pay[ée]e?|r[ée]gl[ée]e?|pagat[oa]|pag[oa]|recebid[oa])\b"
)
_REFERENCE = lazy_compile(
    r"(?<![\w-])#?(?=[\w-]*\d)(?=[\w-]*[A-Za-z#-])[\w#-]*\w|#\d[\d-]*\b"
    r"|(?i:\b(?:invoice|inv|order|bill|factura|rechnung|facture)\.?[ \t]+"
    r"(?:no\.?[ \t]*|number[ \t]+)?)(\d[\d-]*)\b"
)
"""What names one invoice or order: "B-12", "#2027-003", "INV-1042", "#101", "invoice 101"
(a new user, a freelancer: "Northwind paid invoice #101 today" left "invoice #101 … not paid
yet" in effect)."""


def _references(text: str) -> set[str]:
    return {(found[1] or found[0]).casefold().lstrip("#") for found in _REFERENCE.finditer(text)}


def says_paid(text: str) -> bool:
    """Whether `text` says something of a reference was paid ("Yilmaz paid invoice 2027-031")."""
    return (
        _PAID.search(text) is not None
        and not _UNPAID.search(text)
        and not _NOT_SO.search(text)
        and bool(_references(text))
    )


def pays_what_was_unpaid(message: str, earlier: str) -> bool:
    """Whether `message` says paid what `earlier` said was not, by its reference.

    Found by a new user, a contractor: "Bitlab finally paid B-12, 3.000€ in the account"
    left "Bitlab still hasn't paid invoice B-12 (3.000€)" recalled unmarked.
    """
    if not _UNPAID.search(earlier) or _UNPAID.search(message) or _NOT_SO.search(message):
        return False
    if not _PAID.search(message):
        return False
    return bool(_references(message) & _references(earlier))
