"""Whether a write under a fact's key is about another one of its kind, not a new version.

A model reuses its keys: found by a new user, a landlord, "Flat 3 rent is €1,550 a month"
stored under the key of "Flat 2 rent is €1,700 a month" replaced it, "Ciarán paid February
rent in full" replaced January's payment and a meter reading the one before it. The
records a landlord keeps were each left only as history. Another flat, room or invoice by
its number, another month's payment or reading, another day's event, someone else's fact
or a change to come is another fact: it gets a key of its own (`memory.write_rules`).
"""

from __future__ import annotations

import re
from calendar import month_name
from datetime import date

from memory.attributes import other_attributes
from memory.changes_to_come import a_change_to_come
from memory.date_terms import mentioned_date_terms
from memory.event_days import MOVED_OR_CALLED_OFF, days_named, moves_it, one_time_of
from memory.fact_endings import pays_what_was_unpaid
from memory.fact_values import first_name_before, one_spelling, user_value
from memory.health_values import health_values, medicines_and_allergens
from memory.kinds_apart import another_by_name
from memory.lazy_patterns import lazy_compile
from memory.lists import one_value_of_several
from memory.month_names import MONTHS
from memory.numbers import NUMBER_WORDS
from memory.predicates import claim_of, one_word_for_relation, user_claim
from memory.stated_prices import price_stated, same_priced_thing
from memory.stated_values import debt_owed, other_payees, two_debts
from memory.text import analyze

_NUMBERED = lazy_compile(
    r"(?i)\b(?P<what>flat|apartment|apt|unit|room|bedroom|house|block|floor|level|office|desk|"
    r"locker|server|site|store|shop|branch|building|car|van|truck|table|gate|platform|class|"
    r"grade|plot|bay|stall|suite|studio|cottage|property|invoice|order|ticket|case|job|lot|"
    r"week|season|episode|chapter|phase|stage|space|spot|q|quarter|flight|inv)"
    r"\s*#?\s*(?P<which>\d{1,6}(?:-\d{1,8})?[a-z]?|[a-z]|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|eleven|twelve)\b(?![.,:/-]?\d)"
    r"|\b(?P<code>(?-i:[A-Z]{2,5}))-?(?P<number>\d{3,6})\b"
)
""""Flat 2", "room 4b", "server #3", "unit A": which one of several is meant (not "number
087 …": a phone's digits are its value)."""
_CORRECTED = lazy_compile(
    r"(?i)\b(?:changes|instead|actually|correction|sorry|updated|new|no\s+longer|"
    r"not\s+any\s*more)\b"
)
"""A change said in words no move is (`MOVED_OR_CALLED_OFF` has those)."""


def _numbered(text: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for match in _NUMBERED.finditer(text):
        if match["code"]:  # a flight's number, "TP1234"; "INV-1042" is invoice 1042
            code = _CODES_OF.get(match["code"].casefold(), match["code"])
            found.setdefault(code, set()).add(match["number"])
            continue
        which, what = match["which"].casefold(), match["what"].casefold()
        found.setdefault(_CODES_OF.get(what, what), set()).add(NUMBER_WORDS.get(which, which))
    return found


_CODES_OF = {"inv": "invoice", "ord": "order", "tkt": "ticket", "apt": "apartment"}


def _another_medicine_or_allergy(new: str, old: str) -> bool:
    """Both name medicines or allergens, and not one in common.

    Found by an adversary: under one key, "I take 10mg of ramipril" replaced "I take 5mg of
    warfarin daily", "I'm also allergic to amoxicillin" "I'm allergic to penicillin", and
    "Mein Mann ist allergisch gegen Erdnüsse" "Ich bin allergisch gegen Penicillin".
    """
    ours, theirs = medicines_and_allergens(new), medicines_and_allergens(old)
    return bool(ours and theirs) and ours.isdisjoint(theirs)


def _priced_apart(new: str, old: str) -> bool:
    """Both the price of a thing, each of another, or two meters' readings.

    "Garage rent is 80" and "Flat 2 rent is …", the gas meter's reading and the
    electricity meter's: an adversary saw each replace the other.
    """
    ours, theirs = price_stated(new), price_stated(old)
    if ours is not None and theirs is not None:
        return ours[0] != theirs[0] and not same_priced_thing(ours[0], theirs[0])
    meters = {found[1].casefold()[:4] for found in _METER.finditer(new)}
    their_meters = {found[1].casefold()[:4] for found in _METER.finditer(old)}
    return bool(meters and their_meters and meters.isdisjoint(their_meters))


_METER = lazy_compile(r"(?i)\b(gas|electric(?:ity)?|power|water|heat(?:ing)?|oil|solar)\s+meter\b")


def _another_numbered(new: str, old: str) -> bool:
    """Both name one of the same kind by its number, and not one number in common."""
    ours, theirs = _numbered(new), _numbered(old)
    return any(what in theirs and not ours[what] & theirs[what] for what in ours)


def of_someone_else(new: str, old: str) -> bool:
    """Both about someone, and not the same one.

    "Maya is allergic to penicillin" under the key of "Tom has a nut allergy",
    "Electrician's number …" under the plumber's, "I owe Tom 20" under "I owe Priya 42"
    (an adversary saw each replace the other). Not a new value naming someone ("My GP is
    Dr Chen" after "… Dr Silva"), which is one attribute given anew.
    """
    owed_new, owed_old = debt_owed(new), debt_owed(old)
    if owed_new and owed_old and owed_new != owed_old:
        return True
    if one_health_topic(new, old):
        return False
    new, old = _IN_BRACKETS.sub(" ", new), _IN_BRACKETS.sub(" ", old)
    ours, theirs = user_value(new), user_value(old)
    if ours is not None and theirs is not None and ours[0] == theirs[0]:
        return False
    whose_new, whose_old = _whose(new), _whose(old)
    if whose_new and whose_old:
        return _two_people(whose_new, whose_old, new, old)
    if _of_their_relation(new, whose_old) or _of_their_relation(old, whose_new):
        return True
    claim_new, claim_old = claim_of(new), claim_of(old)
    if claim_new is not None and claim_old is not None and claim_new[1] == claim_old[1]:
        return claim_new[0] != claim_old[0]  # "Jonas works at Globex", "Marta works at …"
    if not (health_values(new) and health_values(old)):
        return False
    # A health fact of someone named: "Maya is allergic …" is not "Tom has a nut allergy".
    named_new, named_old = _FIRST_NAME.match(new), _FIRST_NAME.match(old)
    if named_new and (_the_medicine(named_new[1], new) or named_new[1].casefold() in _MY):
        return False  # "Ramipril ist jetzt 10 mg" opens with its medicine (a new user)
    return bool(named_new and named_old and named_new[1] != named_old[1])


_MY = frozenset("meine mein mi mis ma mon mes mia mio minha meu ich yo je io eu".split())
"""The user, opening a sentence in German, Spanish, French, Italian or Portuguese."""


def _the_medicine(word: str, text: str) -> bool:
    return any(analyze(word)[:1] == [t.split()[-1]] for t in health_values(text))


_POSSESSOR = lazy_compile(
    r"\b(?:((?:O['\u2019])?[A-Za-z][\w-]*)['\u2019]s|(?i:(my|our|mi|mis|mein(?:e[mnr]?)?|"
    r"mon|mio|mia|miei|meu|minha|o\s+meu|a\s+minha)))\s+(?=\w)"
)


_LABEL = lazy_compile(r"(?i)^(?P<label>.{1,80}?)\s*(?:\bis\b|\bare\b|:|=)")
_FOR_WHOM_OR_WHERE = lazy_compile(
    r"(?i)\b(?:for|at|in)\s+(?:the\s+|my\s+|our\s+)?(?P<what>[\w'\u2019-]+)"
)


def _for_another(new: str, old: str) -> bool:
    """Whether both say, before their value, for whom or where they hold, each another.

    Found by a new user: "The wifi password at mams is Kerrygold22", under the key of "The
    wifi password for breda is Shamrock!2019", replaced it, and Breda's was recalled as
    the other house's.
    """
    ours, theirs = _qualifiers(new), _qualifiers(old)
    return bool(ours and theirs and ours.isdisjoint(theirs))


def _qualifiers(text: str) -> frozenset[str]:
    label = _LABEL.match(text)
    if label is None:
        return frozenset()
    return frozenset(
        found["what"].casefold().removesuffix("'s").removesuffix("\u2019s")
        for found in _FOR_WHOM_OR_WHERE.finditer(label["label"])
    )


def one_health_topic(new: str, old: str) -> bool:
    """Whether both give a value of one health topic, whose it is read in it.

    "mi madre" and "Mum" are one mother ("mum's dose of warfarin": a later adversary saw
    each read as someone else's, and the old dose kept). Said whose: a topic of no one's
    is the user's only as far as nothing else says ("My husband stopped taking omeprazole").
    """
    return any("'s " in topic for topic in set(health_values(new)) & set(health_values(old)))


def said_of_other_people(new: str, old: str) -> bool:
    """Whether both say whose they are, each someone else, and neither names the other.

    "My dentist 22/1" is not "Rory's dentist 22/1" (a new user saw it replaced); "Alex's
    birthday is March 16" may be "My partner Alex's birthday is on March 14".
    """
    if another_of_them(new, old):
        return True
    if one_health_topic(new, old):
        return False
    ours, theirs = _whose(new), _whose(old)
    return bool(ours and theirs) and _two_people(ours, theirs, new, old)


_ANOTHER_OF_THEM = lazy_compile(r"(?i)\b(?:my|our)\s+other\s+[a-z]")


def another_of_them(new: str, old: str) -> bool:
    """Whether one says "my other …" and the other not.

    "my other brother lives in Munich" is not "my brother lives in Berlin" (an adversary
    saw it replaced).
    """
    return bool(_ANOTHER_OF_THEM.search(new)) != bool(_ANOTHER_OF_THEM.search(old))


def _two_people(ours: str, theirs: str, new: str, old: str) -> bool:
    """Whether whose each is (`_whose`) are two people: neither text names the other's.

    "My son Leo is allergic to eggs" and "Leo is not allergic …" are Leo's both.
    """
    if ours == theirs:
        return False
    if ours.startswith(f"{theirs}'s ") or theirs.startswith(f"{ours}'s "):
        return True  # "Tom's wife's email" is not Tom's, though it names him
    return (ours == _ME or ours not in _words(old)) and (theirs == _ME or theirs not in _words(new))


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.casefold()))


_THEIRS = lazy_compile(r"(?P<who>[a-z][\w-]*)['\u2019]s\s")


def _whose(text: str) -> str:
    """Whose the text says it is: a name's ("marta"), a relation's ("wife"), the user's.

    Found by an adversary, each replacing the other under one key: "My husband is allergic
    to shellfish" and "I'm allergic to penicillin", "My son …" and "My daughter …", "My
    wife's number" and "My number", "tom is allergic to nuts" and "maya is …".
    """
    # Who someone is, said between brackets, is not whose: "Françoise (Julien's mum) has a
    # new phone number" marked Julien's number changed (a new user, a pharmacist).
    text = one_spelling(_IN_BRACKETS.sub(" ", text))
    found = _POSSESSOR.search(text)
    if found is not None:
        if found[1]:
            # By the whole name: "Noreen Kelly's" is not "Paddy Kelly's" (a new user, a dog
            # groomer, saw one client's number replace the other's).
            first = first_name_before(text, found.start())
            owner = f"{first} {found[1]}".casefold() if first else found[1].casefold()
            # A chain of possessives is the last one's: "Noreen Kelly's son's phone number"
            # is the son's, "Tom's wife's email" the wife's (an adversary saw each replace
            # the named one's own).
            chained = _THEIRS.match(text, found.end())
            if chained is None:
                # A relation said without its own "'s": "Tom's wife has a new email" is the
                # wife's news (a new user saw it mark Tom's own email changed).
                chained = _RELATION.match(text, found.end())
            if chained is None:
                return owner
            return f"{owner}'s {one_word_for_relation(chained['who'].casefold())}"
        relation = _RELATION.match(text, found.end())
        return one_word_for_relation(relation["who"].casefold()) if relation else _ME
    if _OPENS_AS_ME.match(text) or _DONE_TO_ME.search(text):
        return _ME
    for_whom = _FOR_SOMEONE.search(text) or _WITH_SOMEONE.search(text)
    if for_whom is not None:
        # "Dentist for Tom on 14/1", "Meeting with Anna on 10/12" (adversaries).
        return for_whom["who"].casefold()
    named = _NAME_FIRST.match(text)
    if named is not None:
        return named["who"].casefold()  # "Tom has football on Saturday 12/12"
    named = _NAMED_IN_HEALTH.match(text)
    if named is not None and named["name"].casefold() not in _NOT_A_PERSON:
        return named["name"].casefold()
    return ""


_ME = "my"
_DONE_TO_ME = lazy_compile(
    r"(?i)\b(?:has|had|have|put|puts|took|takes|started|starts|moved|switched|changed|got|gets)"
    r"\s+me\s+(?:back\s+)?(?:on|onto|off|up|down|to)\b|\bprescribed\s+me\b"
)
"""What a doctor did to the user's treatment is the user's: "Dr Fitzgerald has me back on
the 5mg ramipril" (a new user, a retired nurse: read as the doctor's own news)."""
_RELATION = lazy_compile(
    r"(?i)(?:(?:older|younger|little|big|eldest|youngest|oldest)\s+)?(?P<who>partner|wife|husband|"
    r"spouse|girlfriend|boyfriend|fianc[eé]e?|mother|mom|mum|father|dad|brother|sister|son|"
    r"daughter|kid|child|baby|grandmother|grandma|granny|nan|grandfather|grandpa|aunt|uncle|"
    r"cousin|niece|nephew|stepson|stepdaughter|flatmate|roommate|"
    # In Spanish, German, French, Italian, Portuguese: "Ahora mi hermano toma 40 mg de
    # omeprazol" marked the user's own dose changed since (an adversary).
    r"herman[oa]|madre|padre|hij[oa]|marido|espos[oa]|mujer|novi[oa]|abuel[oa]|t[ií][oa]|"
    r"prim[oa]|bruder|schwester|mutter|vater|sohn|tochter|mann|frau|oma|opa|fr[eè]re|s[oœ]eur|"
    r"m[eè]re|p[eè]re|fils|fille|fratello|sorella|figli[oa]|moglie|nonn[oa]|irm[aã]o?|m[aã]e|"
    r"pai|filh[oa]|av[oóô])s?\b"
)
_FOR_SOMEONE = lazy_compile(
    r"\bfor\s+(?:(?i:my|our)\s+)?(?P<who>(?!(?:The|This|That|Monday|Tuesday|Wednesday|Thursday|"
    r"Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|"
    r"October|November|December)\b)[A-Z][a-z]+|(?i:son|daughter|husband|wife|partner|mum|mom|"
    r"dad|mother|father|brother|sister|kids?|baby))\b"
)
_NOT_WHOM = (
    r"(?!(?:the|a|an|my|our|this|that|it|lunch|dinner|breakfast|work|school|me|you|us|them|"
    r"him|her|everyone|free|fun|sure|now|today|tomorrow|tonight|cash|card)\b)"
)
_WITH_SOMEONE = lazy_compile(
    r"(?i)\b(?:with|for)\s+" + _NOT_WHOM + r"(?P<who>[a-z][a-z'-]+)(?=\s+(?:on|at|\d|next|this|"
    r"tomorrow|today|tonight|mon|tue|wed|thu|fri|sat|sun))"
)
""""Call with anna at 10am on 10/12", "Haircut for tom 14/1": someone named lower case,
then when."""
_NAME_FIRST = lazy_compile(
    r"^\W*(?P<who>(?!(?:The|This|That|My|Our|I|It|We|You|Dentist|Doctor|Meeting|Lunch|"
    r"Dinner|Call)\b)[A-Z][a-z\u00e0-\u00ff]+(?:\s+(?:O['\u2019])?[A-Z][\w'\u2019-]+)?)\s+"
    r"(?:has|had|is|was|needs|plays|goes|takes|starts|gets)\b"
)
_ONE_WORD_FIRST = lazy_compile(
    r"^\W*(?P<who>[A-Za-z][\w-]*)\s+(?:has|had|is|was|moved|lives|got)\b"
)


def _of_their_relation(text: str, whose: str) -> bool:
    """Whether `text` is about someone, and `whose` that one's relation.

    "tom moved to 9 Rua Nova, Porto" is not of "tom's wife Sara lives at 5 Rua do Ouro" (an
    adversary saw it marked since changed).
    """
    found = _ONE_WORD_FIRST.match(text)
    return found is not None and whose.startswith(found["who"].casefold() + "'s ")


_OPENS_AS_ME = lazy_compile(r"(?i)^\W*(?:i|i['\u2019](?:m|ve|d|ll)|im|ive)\b")
_NAMED_IN_HEALTH = lazy_compile(
    r"(?i)^\W*(?P<name>[a-z][\w'-]+)\s+(?:is\s+(?:not\s+|no\s+longer\s+)?allergic|has\s+an?\s+"
    r"[\w-]+\s+allergy|takes\s|(?:still\s+)?owes\s)"
)
_NOT_A_PERSON = frozenset(
    "he she it they this that who everyone everybody someone nobody doctor gp dr nurse "
    "pharmacist consultant dentist vet the my our".split()
)


_IN_BRACKETS = lazy_compile(r"\s*\([^()]{0,80}\)")
_FIRST_NAME = lazy_compile(r"^\W*(?-i:((?!I\b|My\b|The\b|Our\b)[A-Z][a-z]+))\s+(?!['\u2019])")


def _days_said(text: str, said: date) -> set[str]:
    """The days or months `text` names, read as a record's are written short.

    "dentist 3/2" (a bare day and month the index leaves as a fraction may be), "Nov rent
    paid" (a month cut short), "on the 21st" (a day of the month): an adversary saw each
    replace the record before it under one key.
    """
    text = _BARE_DAY.sub(r"on \g<0>", text)
    text = _SHORT_MONTH.sub(lambda found: month_name[MONTHS[found[1].casefold()]], text)
    days = _days_or_months(mentioned_date_terms(text, said))
    return days or {term for term in days_named(text) if term.startswith("said:on the")}


_BARE_DAY = lazy_compile(r"(?<![\w/.-])(?<!\bon\s)[0-3]?\d/[01]?\d(?![\w/.-])")
_SHORT_MONTH = lazy_compile(r"(?i)\b(jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b\.?")


def _days_or_months(terms: list[str]) -> set[str]:
    """The days named, or the months when no day is ("January rent").

    14/1 and 28/1 are other days, though both in January.
    """
    days = {term for term in terms if term.startswith(_DAY_TERMS)}
    return days or set(terms)


_DAY_TERMS = ("dtd", "dtmd")


def _another_days_record(new: str, old: str, said: date, old_said: date) -> bool:
    """Both record something done or to come, each on days the other names not.

    A payment, a reading, an appointment: "Dentist on 28/1 at 10am" under the key of "…
    14/1 at 3pm" is a second one unless it says it moved (found by an adversary, as
    different keys keep them: `memory.event_days`). Not one value of one thing: "The NCT
    is due 20 March" gives the due date anew.
    """
    if MOVED_OR_CALLED_OFF.search(new) or _CORRECTED.search(new):
        return False
    ours_value, theirs_value = user_value(new), user_value(old)
    if ours_value is not None and theirs_value is not None and ours_value[0] == theirs_value[0]:
        return False
    if any(
        what in _numbered(old) and which & _numbered(old)[what]
        for what, which in _numbered(new).items()
    ):
        return False  # "Invoice 1042 due 20/10" gives invoice 1042 its due date anew
    ours, theirs = _days_said(new, said), _days_said(old, old_said)
    if not ours or not theirs or ours & theirs:
        return False
    if one_milestone_dated_anew(new, old):
        return False
    # The rest alike: "Ciarán paid January rent" and "Ciarán paid February rent"; a payment
    # and a reading of another thing share no subject ("paid Marta" is not "paid Ciarán").
    return bool(set(analyze(new)) & set(analyze(old)))


_ONE_OF_A_KIND = lazy_compile(r"(?i)^\W*(?:the|our|my)\s")
_MILESTONE = lazy_compile(
    r"(?i)\b(?:ships?|shipping|launch(?:es|ing)?|goes\s+live|go[- ]live|releases?|released|"
    r"(?:is|are)\s+(?:due|scheduled|planned|set|booked)|due|deadline|kicks?\s+off|lands?|"
    r"starts?|begins?|ends?|finish(?:es)?|wraps?\s+up|closes?|opens?|happens?|takes\s+place|"
    r"will\s+be)\b"
)
_DATE_WORDS = lazy_compile(
    r"(?i)\b(?:on|by|in|the|of|this|next|\d+(?:st|nd|rd|th)?|"
    + "|".join(name.casefold() for name in month_name if name)
    + r"|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|[\d/.:-]+"
)


def one_milestone_dated_anew(new: str, old: str) -> bool:
    """Both say one thing (named with "the", "our", "my") happens on a day, in one wording.

    "The billing migration ships on 21 January" under the key of "… ships on 14 January"
    gives it another day (a new user, an engineer, saw it kept beside as another one, and
    both recalled); "Ciarán paid February rent" is still another month's record.
    """
    if not (_ONE_OF_A_KIND.match(new) and _ONE_OF_A_KIND.match(old)):
        return False
    ours, theirs = _MILESTONE.search(new), _MILESTONE.search(old)
    if ours is None or theirs is None:
        return False
    # Its name whole, numbers and months too: "The Q2 report", "The April rent", "The 2026
    # tax return" are others than "The Q1 report", … (an adversary saw each replaced).
    if analyze(new[: ours.start()]) != analyze(old[: theirs.start()]):
        return False
    return analyze(_DATE_WORDS.sub(" ", new[ours.start() :])) == analyze(
        _DATE_WORDS.sub(" ", old[theirs.start() :])
    )


def _one_dose(new: str, old: str) -> bool:
    """Whether both speak of one dose.

    "Stopped the omeprazole last week" is no one time of "I take omeprazole 20mg every
    morning" (an adversary: the stop was kept beside it).
    """
    return bool(health_values(new).keys() & health_values(old).keys())


def _both_homes(new: str, old: str) -> bool:
    """Whether both say where the user lives: a new home, not one value of several.

    "I live at 5 Elm Road, Leeds" is no one value of "I live at Hauptstraße 5, 10115
    Berlin" (an adversary: the postcode made the old home a record of several values, and
    the move changed nothing).
    """
    ours, theirs = user_claim(new), user_claim(old)
    return ours is not None and theirs is not None and ours[0] == theirs[0] == "home"


def of_another_one(new: str, old: str, said: date, old_said: date) -> bool:
    """Whether `new`, written under `old`'s key, is about another one, not a new version.

    Another of the same kind by its number ("Flat 3 rent …" under "Flat 2 rent …"'s key);
    another day's record or event said with no word of a change ("Ciarán paid February
    rent in full" under January's, "Dentist on 28/1" under "Dentist on 14/1"; "… moved to
    …" still replaces); a debt to one person for another thing ("I owe Priya $15 for
    lunch" under the key of "… $42 for tickets": an adversary saw that debt go); a fact of
    someone else (`of_someone_else`, `said_of_other_people`); one time of an event that
    recurs, moved or called off (`one_time_of`); the same of another place
    or party (`_for_another`); or a change to come beside what holds now
    (`a_change_to_come`); one value of several held (`one_value_of_several`); another
    attribute of one owner ("X's PM is …" under "X pays me …": `other_attributes`).
    """
    if new.strip().casefold() == old.strip().casefold() or pays_what_was_unpaid(new, old):
        # Its payment is the same invoice's new state, however many values the invoice's
        # fact holds (a new user, an electrician: the "noch offen" fact stayed in effect).
        return False
    return (
        a_change_to_come(new) != a_change_to_come(old)
        or two_debts(new, old)
        or of_someone_else(new, old)
        or said_of_other_people(new, old)
        or _for_another(new, old)
        or another_by_name(new, old)
        or _another_numbered(new, old)
        or _priced_apart(new, old)
        or _another_medicine_or_allergy(new, old)
        or other_attributes(new, old)
        or other_payees(new, old)
        or (one_time_of(new, old) and not _one_dose(new, old))
        or _another_days_record(new, old, said, old_said)
        # "Medium dogs now 50" under the key of "Large dogs are 60, medium 45, small 35";
        # not a move of the whole ("Azores trip moved to 3–17 May" under the key of "Azores
        # trip from 12 to 26 April, flight TP1863": a new user saw it kept beside).
        or (one_value_of_several(new, old) and not moves_it(new, old) and not _both_homes(new, old))
    )
