"""A fact said value first, read in the usual order: "Dr. Ng is my new doctor".

Found by an adversary: "Dr. Ng is my new doctor", "Lisbon is where I live now",
"Microsoft is my employer now" and "Alex is my partner now" each left the old doctor, home,
employer or partner in effect: opening with a name, each read as that person's fact. The
write rules compare such a text in the order "my doctor is Dr. Ng" (`in_plain_order`);
the text stored is as it was said.
"""

from __future__ import annotations

from memory.claims_elsewhere import said_in_english
from memory.contacts_elsewhere import in_english
from memory.lazy_patterns import lazy_compile

_VALUE_FIRST = lazy_compile(
    r"(?i)^\s*(?P<value>[^,;:.!?]{1,60}?(?:\.[^,;:.!?]{1,40}?)?)\s+(?:is|are)\s+"
    r"(?P<whose>my|our|(?-i:[A-Z][a-z]+)['\u2019]s)\s+(?P<new>(?:new|current|only|main)\s+)?"
    r"(?P<what>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)"
    r"(?P<now>\s+(?:now|these\s+days|from\s+now\s+on|anymore))?\s*"
    r"(?P<rest>(?:[,;(]|\s[-–—]\s).*)?[.!]?\s*$"
)
"""'<value> is my [new] <what> [now]', with what may follow a comma ("…, Patel retired");
also said of someone named ("Dr. Kim is Leo's new pediatrician": an adversary)."""
_WHERE_I = lazy_compile(
    r"(?i)^\s*(?P<place>[^,;:.!?]{1,60}?)\s+is\s+where\s+"
    r"(?P<who>i|we|(?:my|our)\s+[a-z][\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)\s+"
    r"(?P<verb>lives?|works?|stud(?:y|ies)|stays?)(?P<now>\s+now|\s+these\s+days)?\s*"
    r"(?P<rest>(?:[,;(]|\s[-–—]\s).*)?[.!]?\s*$"
)
"""'<place> is where I live [now]', or my sister, or my boss Alex."""
_NOT_A_VALUE = lazy_compile(r"(?i)^(?:it|this|that|there|here|he|she|they|what|who|which)\b")
"""'This is my doctor', 'It is my birthday': nothing named first."""


_WENT_TO = lazy_compile(
    r"(?i)\s+(?:has\s+|have\s+)?(?:(?:went|gone|goes|go|jumped|shot|crept|came|come)\s+"
    r"(?:up|down)|rose|risen|fell|fallen|dropped|increased|decreased|climbed|jumped|"
    r"doubled|halved)\s+to\s+(?=\S*\d)"
)
"""A value said to have risen or fallen to another: "Flour went up to $41 a sack" is "Flour
is now $41 a sack" (an adversary: the old price stayed in effect)."""


I_GOT_A_NEW = (
    r"(?i)^\s*(?:(?:btw|fyi|also|oh|so|ps)\b[\s,:.-]*)?"
    r"(?:(?:i|we)(?:\s+have|['\u2019]ve)?\s+(?:got\s+)?|got\s+|have\s+)?a\s+new\s+"
)
"""The user saying they got something new: "btw I have a new …", "got a new …"."""
SOMEONE_GOT_A_NEW = (
    r"^\s*(?!(?i:she|he|it|they|this|that|who|everyone|everybody|nobody|someone|i|we)\b)"
    r"(?P<whose>(?:[Tt]he|[Mm]y|[Oo]ur)\s+[a-z][\w'-]*|[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?"
    r"|[a-z][\w'-]*(?:\s+(?!(?:the|has|have|got|just|now|also|finally)\b)[a-z][\w'-]*)?)"
    r"(?:\s+the\s+[a-z][\w-]*)?"
    r"\s+(?:has\s+(?:got\s+)?|have\s+(?:got\s+)?|got\s+)a\s+new\s+"
)
"""Someone else saying so: "Acme has a new …", "The plumber got a new …", "breda has a new
…", "Dave the plumber has a new …" (a new user: typed lower case, or named with a role),
"murphys have a new …" (a family: a new user, a baker), "tom murphy has a new …" (an
adversary: a name in full, in lower case, updated nothing)."""
THEN_ITS_VALUE = r"(?:\s*[,:\u2014\u2013-]\s*|\s+(?=[+(]?\d))"
"""What stands between the new thing and its value: "a new number, 555 …", "a new number
086 …" (digits need nothing between)."""
_NAME_THE_ROLE = lazy_compile(
    r"^(?P<name>\s*[A-Za-z][\w-]*)\s+the\s+[a-z][\w-]*?(?:['\u2019]s)?\s+"
    r"(?=(?:new\s+)?(?:(?:mobile|cell|phone|home|work)\s+)?(?:number|phone|mobile|e-?mail|address)\b)"
)
"""'Breda the childminder number is …' is Breda's number, as "Bredas new number" says."""
_GOT_A_NEW = lazy_compile(
    I_GOT_A_NEW + r"(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
    r"(?:\s+for\s+(?P<whose>(?:the|my|our)\s+[a-z][\w'-]*|(?-i:[A-Z])[\w'-]*"
    r"(?:\s+(?-i:[A-Z])[\w'-]*)?))?" + THEN_ITS_VALUE + r"(?P<value>\S.*)$"
)
"""'got a new number, …', 'Got a new number for the plumber: …': said of whose it is."""
_HAS_A_NEW = lazy_compile(
    SOMEONE_GOT_A_NEW
    + r"(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
    + THEN_ITS_VALUE
    + r"(?P<value>\S.*)$"
)


_CHANGED_THEIR = lazy_compile(
    r"(?i)^\s*(?P<who>(?!(?:i|we|she|he|they|it)\b)[a-z][\w'-]*)\s+(?:has\s+)?(?:changed|got)\s+"
    r"(?:her|his|their)\s+(?P<what>(?:mobile\s+|phone\s+)?(?:number|phone|mobile|e-?mail))"
    r"\s+(?:to\s+)?[:,-]?\s*(?P<value>\S.*)$"
)
""""Breda changed her number to 086 …" (an adversary: the old number stayed in effect)."""
_NEW_FOR = lazy_compile(
    r"(?i)^\s*new\s+(?P<what>no\.?|nr|number|phone|mobile|e-?mail)\s+for\s+"
    r"(?P<who>[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)\s*[:,-]?\s*(?P<value>[+(]?\d.*)$"
)
""""new no. for breda: 086 …", "new number for Noreen Kelly 087 …" (a name in full updated
nothing: a new user)."""


def as_it_is_now(text: str) -> str:
    """`text` in plain order, a value said to have gone up or down to another said to be it.

    A new thing said got ("got a new number, …", "Got a new number for the dentist: …",
    "Acme has a new number: …") is said to be whose it is: an adversary saw "got a new
    number, …" replace the plumber's number and the user's own.
    """
    text = in_english(text)  # "la gestoría tiene número nuevo: 961 …" (a translator)
    text = said_in_english(text)  # "Me he mudado a Sevilla" (an adversary)
    said = _CHANGED_THEIR.match(text) or _NEW_FOR.match(text)
    if said is not None:
        what = "number" if said["what"].casefold().startswith("n") else said["what"]
        text = f"{_first_up(said['who'])}'s new {what} is {said['value']}"
    got = _GOT_A_NEW.match(text) or _HAS_A_NEW.match(text)
    if got is not None:
        whose = got["whose"]
        owner = "My" if whose is None else f"{whose[:1].upper()}{whose[1:]}'s"
        text = f"{owner} new {got['what']} is {got['value']}"
    text = _NAME_THE_ROLE.sub(lambda found: f"{found['name']}'s ", text, count=1)
    return in_plain_order(_WENT_TO.sub(" is now ", text, count=1))


def in_plain_order(text: str) -> str:
    """`text` said subject first if it was said value first; otherwise `text` itself."""
    found = _VALUE_FIRST.match(text)
    if found is not None and not _NOT_A_VALUE.match(found["value"]):
        now = " now" if found["now"] else ""
        rest = found["rest"] or ""
        whose = _first_up(found["whose"]) + " " + (found["new"] or "")
        return f"{whose}{found['what']} is {found['value']}{now}{rest}"
    found = _WHERE_I.match(text)
    if found is not None and not _NOT_A_VALUE.match(found["place"]):
        now = " now" if found["now"] else ""
        rest = found["rest"] or ""
        at = "at" if found["verb"].casefold().startswith("work") else "in"
        return f"{_first_up(found['who'])} {found['verb']} {at} {found['place']}{now}{rest}"
    return text


def _first_up(words: str) -> str:
    """`words` with its first letter upper-cased, and no other changed ("My boss Alex")."""
    return words[:1].upper() + words[1:]
