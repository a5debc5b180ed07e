"""Facts that hold one value at a time: a new value replaces the old in other words.

Where someone lives, whom they work for, their email or address: "I moved to Lisbon"
replaces "I live in Porto" though the two share no word, which the shared-words test of
`memory.write_policy` cannot see. These rules only ever add a replacement the shared-words
test missed, so each errs towards keeping two facts: a question, a denial, another
person ("they", "she"), a description ("a small flat"), a time ("at night") or a word
saying a value is one more ("also", "second") keeps both.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Protocol, TypeVar

from memory.claims_elsewhere import move_said_in_english, said_in_english
from memory.diets import diet_changed
from memory.fact_endings import pays_what_was_unpaid
from memory.fact_subjects import (
    PREDICATE,
    change_terms,
    names_in,
    negated,
    of_the_user_and_of_another,
    related_apart,
    relation_terms,
    subject_words,
)
from memory.health_values import health_changed, health_values
from memory.lazy_patterns import lazy_compile
from memory.plain_order import I_GOT_A_NEW, SOMEONE_GOT_A_NEW, THEN_ITS_VALUE, as_it_is_now
from memory.predicates import (
    LEAD_IN,
    USER,
    claim_of,
    is_a_street,
    says_more,
    user_claim,
    user_moved_to,
    without_old_value,
    wordings_of,
    words_of,
)
from memory.text import analyze

_ANOTHER_VALUE = lazy_compile(
    r"(?i)\b(?:also|too|as well|second|another|part[- ]time|side|weekends?|evenings?)\b"
)
"""Words saying a value is one more, not a new one ("I also work at a café")."""
_WHEN_A_DOSE_IS_TAKEN = frozenset({"evening", "evenings", "weekend", "weekends"})


def _one_more(text: str, of_a_dose: bool) -> bool:
    """Whether `text` says its value is one more; of a dose, "every evening" is when.

    Found by a new user, a retired farmer: "I take warfarin 5mg every evening" was replaced
    by no new dose ("nurse says cut the warfarin to 4mg every evening").
    """
    return any(
        not (of_a_dose and found.group().casefold() in _WHEN_A_DOSE_IS_TAKEN)
        for found in _ANOTHER_VALUE.finditer(text)
    )


def _maybe_claim(text: str) -> bool:
    # A question states nothing; a denial says what is not so (both found replacing).
    return "?" not in text and not negated(text)


_COPULAS = frozenset({"is", "are", ":", "="})
"""Present only: "My favourite colour was blue as a child" and "My email was …" tell of
before (an adversary saw the past replace the present)."""
_PERSON_ROLES = (
    "partner husband wife spouse boyfriend girlfriend fiance fiancee boss manager landlord landlady"
)
"""Someone who holds one name at a time ("Alex is my partner now" replaces "… is Sam")."""
_PEOPLE_ATTRIBUTES = (
    "doctor dentist therapist physician pharmacist gp pediatrician paediatrician vet "
    "veterinarian dermatologist psychiatrist psychologist optometrist allergist midwife "
    "cardiologist gynecologist "
    # "my accountant is now Declan Ryan" after "My accountant is Siobhán Murphy" (a new user,
    # a freelancer: both stayed in effect).
    "accountant bookkeeper solicitor lawyer attorney notary tutor nanny babysitter cleaner "
    "hairdresser barber mechanic physio physiotherapist osteopath chiropractor counsellor "
    "counselor "
    # "the oven technician is now Máire …" after "The oven technician is Declan Furey …" (a
    # new user, a baker: both stayed in effect).
    "technician engineer electrician plumber gardener childminder " + _PERSON_ROLES
)
"""The attributes that are someone: their name may be followed by where they work."""
_ATTRIBUTE_WORDS = (
    "email address employer phone birthday password passcode pin username website contact "
    "occupation profession nationality favourite name deadline " + _PEOPLE_ATTRIBUTES
)
"""Nouns naming something that holds one value: "my email is …" has one answer at a time."""
_HELD_NEW = (
    r"(?:mobile\s+|cell\s+|tele)?phone(?:\s+number)?|mobile(?:\s+number)?|cell(?:\s+number)?|"
    r"number|e-?mail(?:\s+address)?|address|doctor|dentist|gp|vet|pediatrician|landlord|landlady"
)
"""What holds one value and is said to be new with "have a new …": a new car is one more."""
_SAME_ATTRIBUTE = (
    (lazy_compile(r"(?i)\be-?mail(?:\s+address)?\b"), "email"),
    # "my landlady is Rosa Almeida" after "My landlord is Tom Reid" (a new user: both stayed).
    (lazy_compile(r"(?i)\blandlady\b"), "landlord"),
    # "My number", "Acme's new number": a phone's.
    (
        # From a word's start: a chain "a-a-a-…" began one at each letter (82 s to store
        # 100,000 characters).
        lazy_compile(r"(?i)\b(?P<whose>my|our|new|(?<![\w-])[\w-]+['\u2019]s)\s+number\b"),
        r"\g<whose> phone number",
    ),
    # "the Murphys number" is a family's (a new user, a baker: "Murphys got a new number
    # …" left it in effect).
    (
        lazy_compile(r"(?i)\bthe\s+(?P<family>(?-i:[A-Z][a-z]+s))\s+(?P<new>new\s+)?number\b"),
        r"\g<family>'s \g<new>phone number",
    ),
    (lazy_compile(r"(?i)\b(?:(?:mobile|cell|tele)?phone|mobile|cell)(?:\s+number)?\b"), "phone"),
    # "I switched to a new GP, Dr. Costa" names the doctor "My family doctor is …" named
    # (found by a new user: both stayed in effect).
    (
        lazy_compile(
            r"(?i)^\s*(?:i\s+(?:have\s+|'ve\s+)?)?(?:switched|changed|moved)\s+(?:to\s+)?"
            r"(?:a\s+)?new\s+(?P<who>doctors?|dentists?|therapists?|gps?|physicians?)"
            r"\s*[,:\u2014\u2013-]\s*"
        ),
        r"My new \g<who> is ",
    ),
    # "I have a new phone number: …", "got a new number, …", "Acme has a new email - …" give
    # the value "My/Acme's new … is …" gives (found by a new user: the old one stayed).
    # The wordings are `memory.plain_order`'s, for what holds one value only.
    (
        lazy_compile(I_GOT_A_NEW + rf"(?P<what>{_HELD_NEW}){THEN_ITS_VALUE}(?=\S)"),
        r"My new \g<what> is ",
    ),
    (
        lazy_compile(SOMEONE_GOT_A_NEW + rf"(?P<what>(?i:{_HELD_NEW})){THEN_ITS_VALUE}(?=\S)"),
        r"\g<whose>'s new \g<what> is ",
    ),
    (
        lazy_compile(
            r"(?i)\b(?:(?:family|primary(?:\s+care)?|regular|usual|general)\s+"
            r"(?:doctor|physician|practitioner)|gp)\b"
        ),
        "doctor",
    ),
    (lazy_compile(r"(?i)\bfavorite\b"), "favourite"),
    (lazy_compile(r"(?i)\bcolor\b"), "colour"),
    # "My partner is called Robin" gives the name "My partner's name is Jordan" gives (found
    # by a new user: both stayed in effect).
    (
        lazy_compile(
            r"(?i)^(?P<who>(?:my|the user's|\w+'s)(?:\s+\w+){1,2}?)\s+is\s+(?:called|named)\b"
        ),
        r"\g<who>'s name is",
    ),
    # "My email changed to …" gives the email as "My email is …" does (an adversary saw both
    # stay in effect), and "The Schmidt deadline moved to Tuesday" the deadline (a new user).
    (
        lazy_compile(
            r"(?i)\s+(?:has\s+been\s+|has\s+|was\s+|got\s+|is\s+)?(?:changed|switched|moved|"
            r"pushed(?:\s+back)?|postponed|shifted|rescheduled|brought\s+forward)\s+to\s+"
        ),
        " is ",
    ),
    # "The Schmidt job is due Friday" gives the job's deadline.
    (lazy_compile(r"(?i)\s+(?:is|are)\s+(?:now\s+)?due\s+(?:on\s+|by\s+)?(?=\S)"), " deadline is "),
    (lazy_compile(r"(?i)\bdue\s+date\b"), "deadline"),
)
"""Ways of naming one attribute ("e-mail address", "mobile number"), written one way."""
_SPELLINGS = (("favourite", "favorite"), ("colour", "color"))
"""The other spelling of each word `_SAME_ATTRIBUTE` writes one way, as an index may hold it."""
_THE_USERS = frozenset({"my", "our", "user"})
"""Whose an attribute is when it is the user's: "my email", "the user's email", "Email:"."""
_NOT_A_VALUE = frozenset(
    "due late broken expired changed different wrong correct right safe secret same long "
    "short hard easy in on at for being still written stored saved kept private unknown "
    "new old".split()
)
"""A first word saying something about the attribute, not giving its value ("My password
is safe", "My rent is due on Friday")."""


_LOOKS_LIKE_A_VALUE = lazy_compile(r"[0-9@]|(?<!^)\b[A-Z]|^\s*[A-Z]")
"""A value holds a digit, an "@" or a name: "My phone is dead", "My birthday is next week"
and "My employer is great" say something of the attribute (found by an adversary)."""
_DESCRIBED_BY = lazy_compile(r"\w+'d|[a-z]{3,}(?:ed|ing)")
"""A participle opening the value describes the attribute: "My employer is HQ'd in Berlin",
"… is based in Lisbon" (an adversary), "Doctor is raising my lisinopril …" (a later one:
it replaced "My doctor is Dr Silva"); "Red Hat" is a value."""
_A_KIND_OF_PHONE = lazy_compile(r"(?i)\s*\((?:phone|mobile|cell|cellphone|personal|private|new)\)")
"""A parenthesis naming the phone the attribute already names ("… 2223333 (mobile)"), not
whose or which one it is (found by a new user: "My mobile is …" left it in effect)."""
_A_REMARK = lazy_compile(
    r"(?i)\((?:[^()]*\b(?:old|previous|former|is|was|are|were|has|had|no[ \t]+longer)\b"
    r"|[^()\s]+(?:\s+[^()\s]+){3,})[^()]*\)"
)
"""A parenthesis saying something, not whose or which the value is: a sentence, or four
words or more ("(dentist)", "(Tom's)", "(work)" name whose)."""
_ARTICLE = lazy_compile(r"(?i)\s*(?:a|an|the)\s")
_POSSESSIVE = lazy_compile(r"\b\w[\w'\u2019-]*?['\u2019]s\b")
_FIRST_NAME_BEFORE = lazy_compile(r"(?<![\w'\u2019-])((?-i:[A-Z])[a-z\u00e0-\u00ff]+)\.?\s+$")
_NOT_A_FIRST_NAME = frozenset("got new the my our and so also btw ps old their his her its".split())
"""Not a first name; a title is one ("Mr Walsh" is not "Mrs Walsh": an adversary saw one's
phone number replace the other's)."""


def first_name_before(text: str, end: int) -> str | None:
    """The first name (or title) right before a surname at `end`, or None.

    "Noreen" of "Noreen Kelly's", "Mary" of "Mary O'Brien's", "Mrs" of "Mrs Walsh's".
    """
    found = _FIRST_NAME_BEFORE.search(text, 0, end)
    if found is None or found[1].casefold() in _NOT_A_FIRST_NAME:
        return None
    return found[1]


@cache
def attribute_terms() -> frozenset[str]:
    """The analysed nouns naming something that holds one value ("email", "deadline")."""
    return frozenset(analyze(_ATTRIBUTE_WORDS))


_A_NAME = lazy_compile(
    r"\s*(?:now\s+)?(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+)?(?P<first>[A-Z][\w'\u2019-]+)"
    r"(?:\s+[A-Z][\w'\u2019-]+){0,2}(?:\s+(?:now|these\s+days|again))?[\s.!]*"
)
_NOT_A_NAME = frozenset(
    "american australian british canadian chinese dutch english french german greek indian "
    "irish italian japanese korean mexican polish portuguese russian scottish spanish swedish "
    "swiss turkish welsh brazilian danish norwegian finnish austrian belgian ok okay fine great "
    "away back here there home sick vegan vegetarian pregnant angry busy tired happy sad ill "
    "late early upset pleased retired unemployed gone".split()
)


@cache
def people_attribute_terms() -> frozenset[str]:
    """The analysed attributes that are someone ("plumber", "dentist", "accountant")."""
    return frozenset(analyze(_PEOPLE_ATTRIBUTES))


@cache
def _person_roles() -> frozenset[str]:
    return frozenset(analyze(_PERSON_ROLES))


def _names_someone(value: str) -> bool:
    """Whether `value` is a name alone ("Anna", "Mr Weber", "Alex now").

    What a person's role holds: "stuck in Berlin", "Dutch" or "away until Monday" say
    something of the person.
    """
    found = _A_NAME.fullmatch(value)
    first = "" if found is None else found["first"]
    # "ANGRY" is shouted, not a name (a third adversary).
    return bool(first) and not first.isupper() and first.casefold() not in _NOT_A_NAME


def _one_way(text: str) -> str:
    text = LEAD_IN.sub("", text, count=1)  # "Quick update: my email is …"
    for pattern, word in _SAME_ATTRIBUTE:
        text = pattern.sub(word, text)
    return text


_NAME_PREFIX_MARK = lazy_compile(r"\b([ODod])['\u2019](?=[A-Z])")
"""The apostrophe of "O'Brien", "D'Arcy": typed as often without ("OBrien"), and one name
either way (an adversary saw "Sean OBrien's number is now …" update nothing)."""


def one_spelling(text: str) -> str:
    """`text` with "O'Brien" written "OBrien", as it is as often typed (`_NAME_PREFIX_MARK`)."""
    return _NAME_PREFIX_MARK.sub(r"\1", text)


_SAID_BEFORE_A_DENIAL = lazy_compile(
    r"\s*\([^()\n]{0,60}\)(?=\s*[,;]?\s+(?:and\s+|but\s+)?(?:not|no\s+longer)\s)"
)
_AN_EMAIL = lazy_compile(r"\s*[\w.+-]+@[\w-]+\.")


def _attribute_claim(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """(subject, value terms) of "<subject naming an attribute> is <value>", or None."""
    # "… is now Declan Ryan (Ryan Tax, Cork), no longer Siobhán": where they work, then whom
    # it no longer is (a new user).
    text = without_old_value(_SAID_BEFORE_A_DENIAL.sub("", text))
    text = one_spelling(text)
    if not _maybe_claim(text):
        return None
    text = _one_way(text)
    found = PREDICATE.search(text)
    if found is None or found.group(0).casefold() not in _COPULAS:
        return None
    subject = _whose_subject(text, found.start())
    if not subject or not subject & attribute_terms():
        return None
    written = _A_KIND_OF_PHONE.sub("", text[found.end() :])
    if subject & _person_roles() and not _names_someone(written):
        return None  # "My wife is stuck in Berlin" gives no wife (an adversary: it replaced Anna)
    if "(" in written and _A_REMARK.search(written):
        # "0455 902 317 (the old Optus one is cancelled)": the value, then a remark on the
        # old one (a new user: her new number left the old one unmarked).
        written = written.split("(", 1)[0].strip(" ,")
    elif "(" in written:
        named = written.split("(", 1)[0].strip(" ,")
        if not (subject & people_attribute_terms() and named and _names_someone(named)):
            return None  # "Phone: 555-9999 (dentist)": whose, or which, it is (an adversary)
        # "My accountant is Siobhán Murphy (Murphy & Co, Cork)": the person, then where
        # they work (a new user: "my accountant is now Declan Ryan" replaced nothing).
        written = named
    value = words_of(written)
    described = _ARTICLE.match(written) is not None  # "My phone is an iPhone 15"
    # A favourite is a word as often as a name: "My favourite colour is green".
    plain_word = "favourit" in subject and 0 < len(value) <= 3
    # An address's first word is no word of the sentence: "old@example.com" is no "old" (an
    # adversary saw "My new email is new@example.com" leave the old one in effect).
    address = _AN_EMAIL.match(written) is not None
    if (
        not value
        or (value[0] in _NOT_A_VALUE and not address)
        or (_DESCRIBED_BY.fullmatch(value[0]) and not address)
        or described
        or not (plain_word or _LOOKS_LIKE_A_VALUE.search(written))
    ):
        return None
    if says_more(text):
        return None  # "My email is … and my phone is …": replacing it would lose the phone
    if _ADDRESS <= subject:
        # A home address is the address: "My new address is 7 Birch Road" left "My home
        # address is 10 Oak Ave" in effect (found by a new user).
        subject = subject - _HOME
    if _DEADLINE <= subject:
        # "The Schmidt deadline" is the deadline of "the Schmidt job" (a new user).
        subject = subject - _work_words()
    return subject - _THE_USERS, frozenset(analyze(written))


def _whose_subject(text: str, verb_at: int) -> frozenset[str] | None:
    """The subject's words, with whose it is when a possessive says so."""
    whose = list(_POSSESSIVE.finditer(text[:verb_at]))
    if not whose:
        return subject_words(text)
    # Whose it is, and what: "my friend Bob's phone" is Bob's phone, as in "Bob's new
    # phone number is …" (found by a new user: both stayed in effect). A chain of
    # possessives counts whole: "Ana's husband's phone" is not "my husband's".
    start = len(whose) - 1
    while start and not text[whose[start - 1].end() : whose[start].start()].strip():
        start -= 1
    subject = subject_words(text[whose[start].start() :])
    if subject is None:
        return None
    # "My boss's boss" is not "my boss" (an adversary: Linda replaced Mark). Whose, by the
    # whole name: "Paddy Kelly has a new number" replaced Noreen Kelly's (a new user, a
    # dog groomer, keeping her clients' numbers).
    owner = set(analyze(whose[start].group())) - _THE_USERS
    first = first_name_before(text, whose[start].start())
    if first is not None:
        owner |= set(analyze(first))
    return subject | {f"of:{term}" for term in owner}


_ADDRESS = frozenset({"address"})
_HOME = frozenset({"home"})
_DEADLINE = frozenset({"deadlin"})


@cache
def _work_words() -> frozenset[str]:
    """Words naming a piece of work whose deadline it is: "the Schmidt job", "… project"."""
    return frozenset(analyze("job project task assignment gig translation order"))


def user_value(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """(subject, value terms) of an attribute claim, or of the user's home or employer.

    A contact said in another language is read in English (`memory.contacts_elsewhere`).
    """
    claim = _attribute_claim(as_it_is_now(text))
    if claim is not None:
        return claim
    said = user_claim(text)
    if said is None or said[0] != "employer":
        return None
    # "I work at Acme" gives the attribute "My employer is Globex" names (found by a new
    # user: both stayed in effect). A home is not an address: a city and a street differ.
    return attribute_terms() & frozenset(analyze("employer")), frozenset(analyze(said[1]))


def _attribute_changed(new: str, old: str) -> bool:
    """Whether both give one attribute of one subject, with other values.

    Found by a new user: "My email is jo@example.com" then "… jo.new@acme.com" both
    stayed in effect (the values' shared "com" made them look like two things named
    alike), as did two addresses and two employers.
    """
    subjects = _subjects_of_other_values(new, old)
    return subjects is not None and (subjects[0] == subjects[1] or _by_first_name(*subjects))


def _subjects_of_other_values(new: str, old: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The subjects (`one_subject`) of two attribute claims giving other values, or None."""
    ours, theirs = user_value(new), user_value(old)
    if ours is None or theirs is None or related_apart(new, old) or ours[1] == theirs[1]:
        return None
    return one_subject(ours[0]), one_subject(theirs[0])


def first_name_alone(new: str, old: str) -> bool:
    """Whether `new` names by first name alone the person of `old`'s attribute.

    "Noreen has a new number" of "Noreen Kelly's number is …", with another value.

    Such a change is one person's only when one fact in effect is that person's
    (`memory.write_policy`, `agent.said_changes` ask it).
    """
    subjects = _subjects_of_other_values(new, old)
    return subjects is not None and _by_first_name(*subjects)


class _Told(Protocol):
    """What says a fact: a stored entry, or one the write rules weigh."""

    @property
    def content(self) -> str: ...


_Said = TypeVar("_Said", bound=_Told)


def one_by_first_name(content: str, changed: Sequence[_Said]) -> tuple[_Said, ...]:
    """`changed`, less the facts `content` names by first name alone unless it is only one.

    "Noreen has a new number" is Noreen Kelly's when she is the only Noreen with a number;
    not when Noreen Walsh has one too, nor beside a fact said of plain "Noreen's number"
    (that one it replaces).
    """
    by_first = [fact for fact in changed if first_name_alone(content, fact.content)]
    if len(by_first) == 1 and len(changed) == 1:
        return tuple(changed)
    return tuple(fact for fact in changed if fact not in by_first)


def _by_first_name(named: frozenset[str], known: frozenset[str]) -> bool:
    """Whether `named` is `known` with its person named by first name alone.

    A new user (a dog groomer) saw "Noreen has a new number 087 …" update nothing beside
    "Noreen Kelly's number is 087 …": the first name is the only "of:" word of `known`
    (its surname is the possessive itself, `one_subject`), and `named` differs by it.
    """
    firsts = [term[3:] for term in known if term.startswith("of:")]
    if len(firsts) != 1 or any(term.startswith("of:") for term in named):
        return False
    return named - known == {firsts[0]} and len(known - named) == 2


def one_subject(subject: frozenset[str]) -> frozenset[str]:
    """A subject without the mark of whose it is where it names them anyway.

    "Bredas new number" (typed without the apostrophe) is "Breda's number": a new user
    saw both kept in effect. "Ana's husband's phone" still names Ana, "my husband's" not.
    """
    # "My boss's boss" is no boss of mine: an owner that is itself the attribute stays.
    return frozenset(
        t
        for t in subject
        if not (t.startswith("of:") and t[3:] in subject and t[3:] not in attribute_terms())
    )


_TWO_SENTENCES = lazy_compile(r"[.!?]\s+\S")
_TITLE = lazy_compile(r"(?i)\b(?:dr|mr|mrs|ms|prof|st|jr|sr|no|vs|etc)\.")
"""A title or an abbreviation's dot ends no sentence: "(dose raised by Dr. Weber)" in an
edited dose was read as a second sentence, and the dose was never replaced again (found
by a new user)."""


def _two_sentences(text: str) -> bool:
    return _TWO_SENTENCES.search(_TITLE.sub(lambda found: found[0][:-1], text.strip())) is not None


def denied(new: str, old: str) -> bool:
    """Whether `new` says `old` in the same words, denied or no longer so (or the reverse).

    "I am not vegetarian anymore" after "I am vegetarian" (an adversary saw both stay in
    effect): the later one holds. "The user" and "I" are one subject, and words saying
    when ("anymore", "no longer", "now") do not count.
    """
    if negated(new) == negated(old) or user_value(old) is not None:
        return False  # "My password is not hunter2" gives no password (an adversary)
    if of_the_user_and_of_another(new, old):
        return False  # "Mẹ is allergic to …" read as "me is allergic" (an adversary)
    ignored = change_terms() | _THE_USERS
    ours = set(analyze(new)) - ignored
    theirs = set(analyze(old)) - ignored
    if ours == theirs:
        return bool(ours)
    # Someone named, with whose they are said in one only: "Sam is not allergic to
    # shellfish after all" denies "My partner Sam is allergic to shellfish" (a new user
    # saw both stay in effect). Not without a name: "my sister" is not "my brother".
    relations = relation_terms()
    named = names_in(new) & names_in(old)
    if not named or related_apart(new, old):
        return False  # two Sams: "my boss Sam" is not "my partner Sam"
    return bool(ours - relations) and ours - relations == theirs - relations


_A_ROLE = lazy_compile(
    r"(?i)\b(?:my|our)\s+(?:family\s+)?(?:doctor|gp|dentist|pharmacist|physician|psychiatrist|"
    r"p(?:a)?ediatrician|specialist|cardiologist|consultant|therapist)\b"
)


def _a_role_left_out(new: str, old: str) -> bool:
    """Whether `old` also says who someone is to the user, and `new` does not.

    "I take sertraline 50 mg once a day, prescribed by Dr Lefebvre (my family doctor)",
    replaced by a new dose, lost who the family doctor is, and "who is my family doctor?"
    was answered with the child's pediatrician (a new user, a translator): marked instead.
    """
    said = _A_ROLE.search(old)
    return said is not None and said.group().casefold() not in new.casefold()


def home_moved_to(text: str) -> str | None:
    """`user_moved_to`, in English or another language ("On a déménagé au 4521 rue Fabre")."""
    return user_moved_to(text) or user_moved_to(move_said_in_english(text))


def new_value(new: str, old: str) -> bool:
    """Whether `new` gives a one-valued predicate or attribute of `old`'s subject another value.

    Found by adversaries: "I live in Porto" then "I now live in Lisbon" (or "I moved to
    Lisbon"), and "I work at Google" then "I work at Microsoft", both stayed in effect, so
    recall answered with either. "The user" and "I" are one subject here: /remember keeps
    the user's words, a model writes "The user".
    """
    # Either said in another language: "Je suis allergique à la pénicilline" and "Je ne
    # suis plus allergique à la pénicilline" (an adversary).
    new, old = said_in_english(new), said_in_english(old)
    new, old = home_moved_to(new) or new, home_moved_to(old) or old
    of_a_dose = bool(health_values(new)) and bool(health_values(old))
    if _one_more(new, of_a_dose) or _one_more(old, of_a_dose):
        return False
    if _attribute_changed(new, old) or _address_moved(new, old) or _address_moved(old, new):
        return True
    if diet_changed(new, old):
        return True  # "I eat fish now" after "I'm vegetarian" (a new user)
    if pays_what_was_unpaid(new, old):
        # "Northwind paid invoice #101" after "invoice #101 … not paid yet": the debt's
        # fact stayed in effect, and "which invoices are unpaid?" named it (a new user).
        return True
    if health_changed(new, old) and not (
        says_more(old) or _two_sentences(old) or _a_role_left_out(new, old)
    ):
        return True  # "I'm not allergic to penicillin after all", a new dose
    if denied(new, old):
        return True
    if negated(without_old_value(new)) or negated(old):
        return False
    # The same owner: the user, or one person named alike ("Bob moved to Coimbra" after
    # "Bob lives in Braga", found by a new user).
    # Said in another language too: "Ich wohne jetzt in Berlin" after "I live in Porto" (an
    # adversary saw both stay in effect).
    ours = claim_of(new) or claim_of(said_in_english(new))
    theirs = claim_of(old) or claim_of(said_in_english(old))
    return claims_otherwise(ours, theirs)


def claims_otherwise(
    ours: tuple[str, str, str] | None, theirs: tuple[str, str, str] | None
) -> bool:
    """Whether two claims (`memory.predicates.claim_of`) differ in value alone."""
    if ours is None or theirs is None or ours[:2] != theirs[:2]:
        return False
    return set(analyze(ours[2])) != set(analyze(theirs[2]))


def _address_moved(new: str, old: str) -> bool:
    """Whether `new` gives the user's address, and `old` the street the user lives at.

    Found by an adversary: "My new address is 5 Rua Nova, Porto" said in chat left "I live
    at 12 Rua Augusta, Lisbon" in effect. A home said as a city is not an address. Either
    way round: "I live at Via Roma 3, 00184 Roma" left "My address is Kerkstraat 10, 1017 GC
    Amsterdam" in effect (a second adversary).
    """
    ours, theirs = user_value(new), claim_of(old)
    if ours is None or theirs is None or theirs[:2] != (USER, "home") or ours[0] != _ADDRESS:
        return False
    if not is_a_street(theirs[2]):
        # An address in another town: "My new address is 12 Garibaldi Street, Torino" left
        # "I live in Milan" in effect (a third adversary). Not one naming no town, nor one
        # in the same town.
        town = _A_TOWN_LAST.search(new)
        return town is not None and not set(analyze(town[1])) & set(analyze(theirs[2]))
    return ours[1] != frozenset(analyze(theirs[2]))


_A_TOWN_LAST = lazy_compile(
    r",[ \t]*(?:[A-Z]{0,2}-?\d[\w-]*[ \t]+)?"
    r"((?-i:[A-ZÀ-Þ])[^\W\d_]+(?:[ -](?-i:[A-ZÀ-Þ])[^\W\d_]+)*)[ \t]*[.!]?[ \t]*$"
)
"""The town an address ends with, after a comma and maybe its postcode: ", Torino",
", 28901 Getafe"."""


def predicate_terms(text: str) -> list[str]:
    """The analysed words of every wording of the one-valued predicate `text` states.

    A write looks for the facts it may replace among those sharing a word with it, and
    "I moved to Lisbon" shares none with "I live in Porto".
    """
    if words := wordings_of(text) or wordings_of(said_in_english(text)):
        return analyze(words)
    if (home := home_moved_to(text)) and (words := wordings_of(home)):
        # A home given with its address in another language: "vivo en calle Alcala 215"
        # was found by no move, in English or Spanish (a new user, a nurse in Madrid).
        return analyze(words)
    # "My e-mail is …" and "My email is …" share no word as written, nor do "favorite
    # color" and "favourite colour".
    if _attribute_claim(text) is None:
        return []
    one_way = _one_way(text)
    return analyze(f"{one_way} {_other_spellings(one_way)}")


def _other_spellings(one_way: str) -> str:
    return " ".join(other for word, other in _SPELLINGS if word in one_way.casefold())
