"""An allergy the user has or has not, and the dose of a medicine they take.

Found by a new user: "Turns out I'm not allergic to penicillin after all" and "my
lisinopril dose went up to 20mg" left the older "I'm allergic to penicillin" and "I take
10mg of lisinopril" recalled as they were, unmarked; the dose stayed in effect beside the
new one. Health facts are where a stale value does harm, so each wording here gives a
topic ("allergic to penicillin", "dose of lisinopril") and its value ("yes" / "no", "20mg"),
for the write rules (`memory.fact_values.new_value`) and for the "since changed" note
(`memory.stated_values`). Only the user's own: "I", "I'm", "my".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache, lru_cache

from memory.dose_wordings import (
    AMOUNT,
    DOSES,
    KIN_TYPED_LOWER,
    NAMED_DOSES,
    ONE_KIN,
    USER_IS,
)
from memory.lazy_patterns import lazy_compile
from memory.letters import LOWER, UPPER, in_ascii_digits
from memory.numbers import NUMBER_WORDS
from memory.text import analyze

_ENDS = r"(?=\s+(?:after\s+all|anymore|any\s+more|now|either|at\s+all)\b|\s*[.,;:!?)]|\s*$)"
_ITEM = r"[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}?"
_WHAT = rf"(?P<what>{_ITEM}(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+){_ITEM}){{0,5}})"
_LIST_BREAK = lazy_compile(r"(?i)\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_ALLERGIC = lazy_compile(
    r"(?i)\b" + USER_IS + r"\s+(?:(?:actually|really|still|definitely)\s+)?"
    r"(?P<no>not\s+(?:actually\s+|really\s+)?|no\s+longer\s+|never\s+been\s+)?allergic\s+to\s+"
    + _WHAT
    + _ENDS
)
_ALLERGY = lazy_compile(
    r"(?i)\b(?:i|(?:the\s+)?user)\s+(?P<no>don['\u2019]?t\s+|doesn['\u2019]?t\s+|do\s+not\s+|"
    r"does\s+not\s+|no\s+longer\s+)?ha(?:ve|s)\s+(?:an?\s+)?" + _WHAT + r"\s+allergy" + _ENDS
)
_OUTGROWN = lazy_compile(
    r"(?i)\b(?:i|(?:the\s+)?user)(?:['\u2019]ve|\s+ha(?:ve|s))?\s+(?:finally\s+|now\s+)?"
    r"outgr(?:own|ew)\s+(?:my|the|an?|his|her)\s+" + _WHAT + r"\s+allerg(?:y|ies)"
)
""""I've outgrown the peanut allergy": no longer allergic (found by a new user)."""
_SOMEONE = (
    r"(?:(?P<whose>(?i:my|our)\s+[a-z]+)\s+)?"
    r"(?:\b(?:Mr|Mrs|Ms|Miss|Dr)\.?\s+)?"
    rf"(?P<who>{UPPER}{LOWER}[\w'-]*)(?:\s+{UPPER}{LOWER}[\w'-]*)?"
    r"(?:\s*\([^()]{0,60}\))?"
)
"""Someone named: "Tom", "Tom Murphy", "Mrs Byrne", "Tom Murphy (the Murphys' little lad)",
"my partner Sam" (whose too: "my boss Sam" is someone else)."""
_NAMED_ALLERGIC = lazy_compile(
    r"\b" + _SOMEONE + r"\s+(?i:is|was)\s+(?i:(?:actually|really|still|definitely)\s+)?"
    r"(?P<no>(?i:not\s+(?:actually\s+|really\s+)?|no\s+longer\s+|never\s+been\s+))?"
    r"(?i:allergic\s+to)\s+" + _WHAT + _ENDS
)
_NAMED_ALLERGY = lazy_compile(
    r"\b" + _SOMEONE + r"\s+(?P<no>(?i:doesn['\u2019]?t\s+|does\s+not\s+|no\s+longer\s+))?"
    r"(?i:ha(?:s|ve))\s+(?i:an?\s+)?" + _WHAT + r"\s+(?i:allergy)" + _ENDS
)
"""Someone named's allergy (a child, a customer): "Tom Murphy is not allergic to nuts after
all, it's sesame" left "Tom Murphy (the Murphys' little lad) has a nut allergy" in effect
(a new user, a baker). Each is that one's own topic, never the user's."""
_NOT_NAMED = frozenset("my i the he she they we you it our his her their this that".split())
_NOT_A_DRUG = frozenset(
    "a an the my it them this that these those some one two pills pill tablets tablet "
    "doses dose day days week mornings evenings now currently also still just only daily "
    "about around".split()
)


def _topic(words: str) -> str:
    return " ".join(analyze(words))


def _whose(who: str) -> str:
    return _topic(ONE_KIN.get(who.casefold(), who))


def _medicine(word: str) -> str:
    """A medicine's topic, its Italian or Spanish ending left off: "omeprazolo", "metformina".

    Found by "Non prendo più l'omeprazolo", kept beside "I take 20mg of omeprazole" as
    another medicine's stop.
    """
    if word[-1:].casefold() in ("a", "o") and _DRUG_LIKE.search(word[:-1]):
        word = word[:-1]
    return _topic(word)


def speaks_of_health(text: str) -> bool:
    """Whether the text says the user has or has not an allergy, or takes a dose."""
    return bool(health_values(text))


_A_NUMBER_WORD = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_DOSE_IN_WORDS = lazy_compile(
    rf"(?i)\b({_A_NUMBER_WORD})(?:\s+point\s+({_A_NUMBER_WORD}))?\s?(mg|mcg|ml|units?)\b"
)
"""'I take seven mg of warfarin now' (an adversary: the 5mg stayed in effect); "doctor put
amlodipine up to ten mg", "ramipril two point five mg at night" (a new user, a taxi driver:
neither was a dose, and the new one went at 30 days while the old one stayed)."""


def in_digits(text: str) -> str:
    """`text` with each dose written in words written in digits ("ten mg" → "10mg").

    And a dose in Arabic, its digits and unit as English writes them: "Concor ٥ مجم" is
    "Concor 5 mg" (a new user, a pharmacist in Cairo: his mother's new dose marked nothing).
    """
    if not text.isascii():
        text = _ARABIC_UNIT.sub(
            lambda found: found[1] + _ARABIC_UNITS[found[2]], in_ascii_digits(text)
        )
    if not _MAY_HOLD_A_NUMBER_WORD.search(text):
        return text
    return _DOSE_IN_WORDS.sub(_dose_in_digits, text)


_ARABIC_UNITS = {"مجم": "mg", "ملجم": "mg", "ملغ": "mg", "مغ": "mg", "مل": "ml", "وحدة": "units"}
_ARABIC_UNIT = lazy_compile(r"(\d\s*)(" + "|".join(_ARABIC_UNITS) + r")(?!\w)")


def _dose_in_digits(found: re.Match[str]) -> str:
    if (of := _OF_WHAT.match(found.string, found.end())) and not _DRUG_LIKE.search(of[1]):
        # Of something that is no medicine: "one mg of common sense would help lol" took the
        # place of "Sertraline 50mg daily" (a later adversary).
        return found.group()
    whole = NUMBER_WORDS[found[1].casefold()]
    part = f".{NUMBER_WORDS[found[2].casefold()]}" if found[2] else ""
    return f"{whole}{part}{found[3]}"


_MAY_HOLD_A_NUMBER_WORD = lazy_compile(r"(?i)(?:mg|mcg|ml|units?)\b")
_OF_WHAT = lazy_compile(r"(?i)\s+of\s+([^\W\d_]+)")


@lru_cache(maxsize=1024)
def health_values(text: str) -> dict[str, frozenset[str]]:
    """Topic → value of each allergy the text says someone has or has not, and each dose.

    The user's, or someone named's ("Tom Murphy is not allergic to nuts after all").
    """
    values: dict[str, frozenset[str]] = {}
    text = in_digits(text)
    for rule in (_ALLERGIC, _ALLERGY, _OUTGROWN):
        for found in rule.finditer(text):
            has = frozenset(["no" if rule is _OUTGROWN or found["no"] else "yes"])
            for item in _LIST_BREAK.split(found["what"]):
                if what := _topic(item):
                    values.setdefault(f"allergic to {what}", has)
    _named_allergies(text, values)
    for rule in (*DOSES, *NAMED_DOSES):
        for found in rule.finditer(text):
            dose = _dose(found)
            if dose is not None:
                values.setdefault(*dose)
    for topic in _stopped(text):
        values.setdefault(topic, _STOPPED_VALUE)
    return values


def _stopped(text: str) -> list[str]:
    """The topic ("dad's dose of metformin") of each medicine `text` says was stopped."""
    folded = text.casefold()
    if not any(cue in folded for cue in _STOP_CUES) or _TAKEN_OTHERWISE.search(text):
        return []
    if _NOT_DONE.search(text):
        return []  # "Should I stop the warfarin?" replaced the dose (an adversary)
    topics: list[str] = []
    read: set[int] = set()  # a drug's place, read once: "Dad stopped …" is Dad's
    for found in (m for rule in _STOPPED_WORDINGS for m in rule.finditer(text)):
        drug, who = found["drug"], found["who"]
        if found.start("drug") in read:
            continue
        if drug.casefold() in _NOT_A_DRUG or (who and who.casefold() in _NOT_NAMED):
            continue
        if not (_PRESCRIBED.search(text) or _DRUG_LIKE.search(drug)):
            continue
        read.add(found.start("drug"))
        whose = "" if who is None else f"{_whose(who)}'s "
        topics.append(f"{whose}dose of {_medicine(drug)}")
    return topics


_NOT_DONE = lazy_compile(
    r"(?i)\?|^\W*(?:should|shall|can|could|may|might|would|will|do|does|did|is|are|am|if|"
    r"whether|when|what|how|why)\b|\b(?:should|shall|could|might|would|if|whether|thinking\s+"
    r"(?:of|about)|consider(?:ing)?|wants?\s+to|wanna|plan(?:ning)?\s+to|going\s+to|gonna|"
    r"(?:ok|okay|safe|allowed)\s+to|not\s+to\s+stop|(?:don['\u2019]?t|never)\s+stop|"
    r"ask(?:ed)?\s+(?:the\s+|my\s+)?(?:gp|doctor|dr|pharmacist|nurse)\s+(?:about|if|whether))\b"
)
"""A stop asked about, weighed or advised against, not done: "Should I stop the warfarin?",
"Is it ok to stop the ibuprofen", "Can I stop taking ramipril safely" (an adversary saw
each replace the dose, and the medicine was no longer recalled)."""
_STOPPED = lazy_compile(
    r"(?i)\b(?:stopped|stopping|stop|discontinued|ceased)\s+(?:taking\s+|giving\s+(?:(?-i:[A-Z])\w*\s+)?)?"
    r"(?:(?P<who>(?-i:[A-Z])[\w-]*)['\u2019]s\s+|the\s+|my\s+)?(?P<drug>[a-z][a-z-]{4,})\b"
)
"""A medicine stopped: "GP stopped Dad's amlodipine today", "I stopped taking lisinopril"
(a new user, a carer: the dose stayed in effect, unmarked)."""
_WHO = rf"(?P<who>(?-i:[A-Z])[\w-]*|(?-i:{KIN_TYPED_LOWER}))"
_OFF_IT = lazy_compile(
    r"(?i)\b(?:(?:i['\u2019]?m|i\s+am)|" + _WHO + r"(?:['\u2019]s|\s+is))\s+(?:now\s+)?off\s+"
    r"(?:the\s+|my\s+|his\s+|her\s+)?(?P<drug>[a-z][a-z-]{4,})\b"
)
_TOOK_OFF = lazy_compile(
    r"(?i)\b(?:took|taken|taking|takes)\s+(?:me|" + _WHO + r")\s+off\s+"
    r"(?:the\s+|my\s+|his\s+|her\s+)?(?P<drug>[a-z][a-z-]{4,})\b"
)
_NO_MORE = lazy_compile(
    r"(?i)\bno\s+more\s+(?P<drug>[a-z][a-z-]{4,})\b(?!\s+left\b)(?:\s+for\s+(?:me|" + _WHO + r"))?"
)
_QUIT = lazy_compile(
    r"(?i)\b(?:i\s+|i['\u2019]ve\s+|(?P<who>(?-i:[A-Z])[\w-]*)\s+(?:has\s+)?)?(?:quit|come\s+off|"
    r"came\s+off|finished\s+(?:my\s+|the\s+|his\s+|her\s+)?course\s+of)\s+(?:the\s+|my\s+)?"
    r"(?P<drug>[a-z][a-z-]{4,})\b"
)
_SOMEONE_STOPPED = lazy_compile(
    r"(?i)(?<![\w'\u2019])" + _WHO + r"\s+(?:has\s+)?(?:stopped|came\s+off|is\s+off)\s+"
    r"(?:taking\s+)?(?:the\s+|his\s+|her\s+)?(?P<drug>[a-z][a-z-]{4,})\b"
)
_NO_LONGER = lazy_compile(
    r"(?i)\b(?:i\s+|(?P<who>(?-i:[A-Z])[\w-]*)\s+)?(?:don['\u2019]?t|do\s+not|doesn['\u2019]?t|"
    r"does\s+not|no\s+longer)\s+(?:take|takes|need|needs)\s+(?:the\s+|my\s+|his\s+|her\s+)?"
    r"(?P<drug>[a-z][a-z-]{4,})\b"
)
_NO_MORE_ELSEWHERE = lazy_compile(
    r"(?i)(?P<who>(?!))?(?:\bya\s+no\s+tomo\s+|\b(?:dej[ée]|he\s+dejado)\s+de\s+tomar\s+|"
    r"\bje\s+ne\s+prends\s+plus\s+(?:de\s+|d['\u2019])?|"
    r"\bj['\u2019]ai\s+arr[êe]t[ée]\s+(?:de\s+prendre\s+)?|"
    r"\b(?:j[áa]\s+)?n[ãa]o\s+tomo\s+(?:mais\s+)?|\bparei\s+de\s+tomar\s+|"
    r"\bnon\s+prendo\s+pi[uù]\s+|\bho\s+(?:smesso\s+(?:di\s+prendere\s+)?|sospeso\s+))"
    r"(?:el\s+|la\s+|le\s+|l['\u2019]|o\s+|a\s+|il\s+|lo\s+)?(?P<drug>[a-zà-ÿ][a-zà-ÿ-]{4,})\b"
)
"""'Ya no tomo omeprazol', 'Je ne prends plus d'oméprazole', 'Já não tomo omeprazol',
'Parei de tomar …' (an adversary: the dose stayed in effect); 'Non prendo più
l'omeprazolo', 'Ho smesso di prendere il ramipril', 'Ho sospeso la metformina'."""
_NICHT_MEHR = lazy_compile(
    r"(?i)(?P<who>(?!))?\bich\s+nehme\s+(?:kein(?:e|en)?\s+)?(?P<drug>[a-zà-ÿ][a-zà-ÿ-]{4,})"
    r"\s+(?:nicht\s+)?mehr\b"
)
"""'Ich nehme kein Omeprazol mehr', 'Ich nehme Omeprazol nicht mehr' (an adversary)."""
_STOP_CUES = (
    "stop", "off", "no more", "n't take", "nt take", "not take", "no longer", "quit", "finished",
    "discontinued", "ceased", "mehr", "ya no", "dej", "plus", "arr", "não", "nao", "parei",
    "più", "piu", "smesso", "sospes",
)  # fmt: skip
_STOPPED_WORDINGS = (
    *(_SOMEONE_STOPPED, _STOPPED, _OFF_IT, _TOOK_OFF, _NO_MORE, _NO_LONGER, _QUIT),
    *(_NO_MORE_ELSEWHERE, _NICHT_MEHR),
)
_TAKEN_OTHERWISE = lazy_compile(
    r"(?i)\b(?:now\s+i\s+take|instead|switched\s+to|in\s+the\s+morning\s+now)\b"
)
"""A medicine taken at another time or in its place: "I stopped taking atorvastatin with
dinner, now I take it in the morning" stopped nothing (an adversary saw the dose go)."""
"""Also "I'm off lisinopril now", "Doctor took me off lisinopril", "No more lisinopril for
me", "Dad stopped metformin" (an adversary: each left the dose in effect, unmarked), "i
dont take atorvastatin anymore" (a new user)."""
MORE_DRUG_ENDINGS = (
    r"zil|mantine|stigmine|galantamine|pentin|gabalin|grel|osin|steride|purinol|faxine|"
    r"lamide|tamol"
)
"""More medicines' endings: "Manny stopped donepezil on 28/1" left the 10mg dose in effect (a
new user, a carer); memantine, rivastigmine, gabapentin, pregabalin, clopidogrel, tamsulosin,
finasteride, allopurinol, venlafaxine too (read anew by migration 0043)."""
_DRUG_LIKE = lazy_compile(
    r"(?i)(?:pril|olol|statin|formin|dipine|sartan|azole|cillin|mycin|cycline|oxetine|aline|"
    r"pram|azepam|zolam|thiazide|semide|parin|xaban|gatran|gliptin|glutide|lukast|tidine|"
    r"profen|olone|sone|vir|mab|nib|prazole?|triptan|pine|done|zine|tyline|aspirin|insulin|"
    r"oxine|warfarin|paracetamol|codeine|morphine|digoxin|" + MORE_DRUG_ENDINGS + r")[aeo]?$"
)
"""A medicine by its name's ending, when no word says it is one ("Dad stopped metformin"),
in the Italian or Spanish form too ("omeprazolo", "metformina")."""
_STOPPED_VALUE = frozenset(["stopped"])
_PRESCRIBED = lazy_compile(
    r"(?i)\b(?:taking|giving|gp|doctor|dr|nurse|pharmacist|cardiolog\w*|consultant|"
    r"meds|medications?|medicines?|tablets?|pills?|dose|prescription)\b"
)
"""Words that say the thing stopped is a medicine: "stop the music" stops none."""


def _named_allergies(text: str, values: dict[str, frozenset[str]]) -> None:
    """Add the allergies `text` says someone named has or has not to `values`."""
    for rule in (_NAMED_ALLERGIC, _NAMED_ALLERGY):
        for found in rule.finditer(text):
            if found["who"].casefold() in _NOT_NAMED:
                continue
            named = ONE_KIN.get(found["who"].casefold(), found["who"])
            who = _topic(" ".join(filter(None, (found["whose"], named))))
            has = frozenset(["no" if found["no"] else "yes"])
            for item in _LIST_BREAK.split(found["what"]):
                if what := _topic(item):
                    values.setdefault(f"{who}'s allergy to {what}", has)


def _dose(found: re.Match[str]) -> tuple[str, frozenset[str]] | None:
    """(topic, value) of a dose rule's match: whose dose of what, and how much."""
    groups = found.groupdict()
    drug = groups.get("drug") or groups.get("drug2")
    who = groups.get("who")
    if not drug or drug.casefold() in _NOT_A_DRUG or (who and who.casefold() in _NOT_NAMED):
        return None
    whose = "" if who is None else f"{_whose(who)}'s "
    return f"{whose}dose of {_medicine(drug)}", frozenset([_amount_of(found)])


def _amount_of(found: re.Match[str]) -> str:
    """A match's amount and unit, as a dose's value: "2,5 µg" is "2.5mcg"."""
    amount = found["amount"].replace(",", ".")
    unit = found["unit"].casefold().replace("µg", "mcg").replace("ug", "mcg")
    return amount + ("unit" if unit.startswith("unit") else unit)


_MAY_STATE_A_DOSE = lazy_compile(r"(?i)\d\s?(?:mg|mcg|µg|ug|g|ml|iu|units?)\b")
DOSE_WORDINGS = "dose medication medicine meds tablets pills"
"""What a question about a dose asks with that a statement of it need not say: "what's
my current dose?" and "what medication am I on?" found nothing of "I take 10mg of
lisinopril every morning" (found by a new user), nor "what tablets do i take now" and "WHAT
PILLS AM I ON" (a later new user)."""


_A_DIGIT = lazy_compile(r"\d")
_DRUG_AMOUNT = lazy_compile(
    r"(?i)\d\s?(?:mg|mcg|µg|ug|iu)\b|\binsulin\b.{0,40}?\b\d+\s?units?\b"
    r"|\b\d+\s?(?:puffs?|pufjes?|inhalations?|h(?:ü|ue)be)\b"
    r"|\b\d+\s?units?\s+of\s+insulin\b|\b\d+\s+(?:tablets?|pills?|capsules?)\s+of\b"
)
"""An amount only a medicine is measured in (not ml, g or "units of work"), or insulin's."""


def names_a_dose(text: str) -> bool:
    """Whether `text` says a dose of a medicine: by the dose rules, or by its amount alone.

    For the words a dose is asked with (`DOSE_WORDINGS`): "Amlodipine 5mg daily", "Vitamin D
    1000 IU" and "my insulin went up to 14 units" said no "I take" (a second adversary).
    """
    text = in_digits(text)
    if _A_DIGIT.search(text) is None:
        return False  # every amount has one: one scan instead of the patterns' many
    if _DRUG_AMOUNT.search(text) is not None:
        return True
    if not _MAY_STATE_A_DOSE.search(text):
        return False  # most texts: two quick scans, not the rules
    return any(topic.startswith("dose of ") for topic in health_values(text))


_MEDICINE = lazy_compile(
    r"(?i)\b(?:inhalers?|puffers?|puffs|eye\s+drops|ear\s+drops|nasal\s+spray|epi-?pens?|"
    r"antibiotics|antihistamines?|prescriptions?|pills|capsules)\b"
    r"|\bfor\s+(?:my|his|her|their|our|the)\s+(?:asthma|allerg(?:y|ies)|hay\s+fever|migraines?|"
    r"blood\s+pressure|diabetes|thyroid|reflux|eczema|cholesterol|arthritis|epilepsy|adhd|"
    r"anxiety|depression|insomnia|acne|heart)\b"
)
"""A medicine said without an amount: its form ("my inhaler", "eye drops") or what it is
for ("Ventolin for my asthma": a new user's "what meds am I on?" found nothing of it)."""
_CARE_GIVER = lazy_compile(
    r"(?i)\b(?:gp|pcp|physician|p(?:a)?ediatrician|dermatologist|psychiatrist|cardiologist|"
    r"gyn(?:a)?ecologist|allergist|neurologist|oncologist|endocrinologist|rheumatologist|"
    r"urologist|surgeon)s?\b"
)
"""Doctors by another name: "who's my doctor?" found nothing of "My GP is Dr Patel" (a new
user)."""


_LIKE_AN_ALLERGY = lazy_compile(
    r"(?i)\b(?:c(?:o)?eliac|intoleran(?:t|ce)|gluten[- ]free|lactose|anaphyla\w*|epi-?pen)\b"
)
"""What a question about allergies means too: "who's allergic to what?" found no "Mrs Byrne
is coeliac - GF loaf only" (a new user, a baker)."""


_GATE_WORDS = (
    "inhaler inhalers puffer puffs drops spray epi epipen antibiotic antibiotics antihistamine "
    "antihistamines prescription prescriptions pills capsules asthma allergy allergies "
    "allergic fever migraine migraines pressure diabetes thyroid reflux eczema cholesterol "
    "arthritis epilepsy adhd anxiety depression insomnia acne heart gp gps pcp physician "
    "pediatrician paediatrician dermatologist psychiatrist cardiologist gynecologist "
    "gynaecologist allergist neurologist oncologist endocrinologist rheumatologist urologist "
    "surgeon coeliac celiac intolerant intolerance gluten lactose anaphylaxis anaphylactic"
)


"""Every word one of the three patterns needs (as index terms, once analysed)."""


@cache
def _gate_terms() -> frozenset[str]:
    return frozenset(analyze(_GATE_WORDS))


def health_wordings(text: str, terms: Iterable[str]) -> str:
    """The words a question about `text`'s medicine or doctor asks with that it need not say.

    `DOSE_WORDINGS` for a dose or a medicine; "doctor" for a GP, a pediatrician …;
    "allergy" for coeliac disease or an intolerance. `terms`: `text`'s index terms. Every
    text indexed is read, and most hold none of the words the patterns need: one set test
    passes them over (the patterns' scans took a third of an import's time).
    """
    if _gate_terms().isdisjoint(terms):
        said = names_a_dose(text) or stops_a_medicine(text)
        return f"{DOSE_WORDINGS} {medicines_without_foreign_endings(text)}".rstrip() if said else ""
    medicine = names_a_dose(text) or _MEDICINE.search(text) is not None or stops_a_medicine(text)
    doctor = _CARE_GIVER.search(text) is not None
    allergy = _LIKE_AN_ALLERGY.search(text) is not None
    return " ".join(
        word
        for word, said in (
            (f"{DOSE_WORDINGS} {medicines_without_foreign_endings(text)}".rstrip(), medicine),
            ("doctor", doctor),
            ("allergy food", allergy),
        )
        if said
    )


def medicines_without_foreign_endings(text: str) -> str:
    """Each medicine named in its Italian or Spanish form, without the ending (`_medicine`).

    So "Non prendo più l'omeprazolo" is found by "omeprazole", and finds the dose it ends.
    """
    return " ".join(
        word[:-1]
        for word in _A_WORD.findall(text)
        if word[-1:].casefold() in ("a", "o") and _DRUG_LIKE.search(word[:-1])
    )


_DOSE_UNNAMED = lazy_compile(
    r"(?i)\b(?:i['\u2019]?m|i\s+am)\s+(?:now\s+)?(?:on|taking)\s+(?:the\s+)?" + AMOUNT
)
"""A dose said without its medicine: "I'm on 40mg now"."""


def dose_named(text: str) -> str | None:
    """A dose said without its medicine, said with it: "I'm on 40mg of atorvastatin".

    Of `text`'s one medicine (`dose_of_the_one_medicine`); None when there is none.
    """
    unnamed = _dose_of_the_one_medicine(text)
    return None if unnamed is None else f"{unnamed[0].group()} of {unnamed[1]}"


def dose_of_the_one_medicine(text: str) -> tuple[str, frozenset[str]] | None:
    """(topic, value) of a dose said without its name, of the one medicine `text` names.

    Found by an adversary: "Dr Kelly doubled my atorvastatin, I'm on 40mg now" left "I
    take atorvastatin 20mg" in effect: each clause was read alone, and the one with the
    dose names no medicine.
    """
    unnamed = _dose_of_the_one_medicine(text)
    if unnamed is None:
        return None
    return f"dose of {_medicine(unnamed[1])}", frozenset([_amount_of(unnamed[0])])


def _dose_of_the_one_medicine(text: str) -> tuple[re.Match[str], str] | None:
    """The dose said without its medicine, and the one medicine `text` names, as written."""
    text = in_digits(text)
    found = _DOSE_UNNAMED.search(text)
    if found is None or _NOT_DONE.search(text):
        return None
    named: dict[str, str] = {}  # each medicine → the word first naming it
    for word in _A_WORD.findall(text):
        if _DRUG_LIKE.search(word):
            named.setdefault(_medicine(word), word)
    return (found, next(iter(named.values()))) if len(named) == 1 else None


def medicines_and_allergens(text: str) -> frozenset[str]:
    """The medicines `text` names by their names' endings, and what one is allergic to.

    In a few languages: "allergic to", "allergisch gegen", "alérgico a".
    """
    # By their stems: "Omeprazol" (German) is "omeprazole" (an adversary saw "Ich nehme kein
    # Omeprazol mehr" kept as another medicine's stop).
    named = {_medicine(word) for word in _A_WORD.findall(text) if _DRUG_LIKE.search(word)}
    named |= {_topic(found[1]) for found in _ALLERGIC_TO.finditer(text)}
    return frozenset(named - {""})


def medicines_dosed(text: str) -> frozenset[str]:
    """The medicines `text` gives a dose of, by the dose rules: brands too ("Concor 5 mg").

    Found by a new user, a pharmacist in Cairo: his mother's new Concor dose went at 30
    days and the old one stayed, as no ending named it a medicine.
    """
    return frozenset(
        topic.split(" dose of ", 1)[-1].removeprefix("dose of ")
        for topic in health_values(text)
        if "dose of " in topic
    )


_A_WORD = lazy_compile(r"[^\W\d_]{5,}")
_ALLERGIC_TO = lazy_compile(
    r"(?i)\b(?:allerg\w*|al[eé]rgic[oa]s?)\s+(?:to|gegen|auf|a|al|à|ao|à\s+la)\s+"
    r"(?:(?:la|el|los|las|le|les|the|o|a)\s+)?([^\W\d_][\w'-]*)"
)


def may_say_a_stop(text: str) -> bool:
    """Whether `text` holds a word a stop is said with (`_STOP_CUES`): read anew by 0026."""
    folded = text.casefold()
    return any(cue in folded for cue in _STOP_CUES)


def stopped_in_other_languages(text: str) -> bool:
    """Whether `text` says a medicine was stopped in another language, or as advice taken.

    "Ich nehme kein Omeprazol mehr", "… told me to stop taking warfarin, and I did": read
    anew by 0027.
    """
    return bool(_NO_MORE_ELSEWHERE.search(text) or _NICHT_MEHR.search(text)) or (
        "told me to" in text.casefold() and stops_a_medicine(text)
    )


def stops_a_medicine(text: str) -> bool:
    """Whether `text` says a medicine was stopped ("I'm off lisinopril now").

    Found by "what medication am I on?" as a dose is (an adversary: the stop was not
    recalled beside the dose it ended).
    """
    return bool(_stopped(text))


def names_health_wordings(text: str) -> bool:
    """Whether `text` names what `health_wordings` reads (for stores indexed before)."""
    return any(
        pattern.search(text) is not None for pattern in (_MEDICINE, _CARE_GIVER, _LIKE_AN_ALLERGY)
    )


def health_changed(new: str, old: str) -> bool:
    """Whether `new` gives another value for what `old` says of an allergy or a dose.

    Only when `new` speaks of all `old` does: "I'm not allergic to peanuts" does not
    replace "I'm allergic to peanuts and shellfish", which would lose the shellfish.
    """
    ours, theirs = health_values(new), health_values(old)
    return (
        bool(theirs)
        and theirs.keys() <= ours.keys()
        and any(ours[topic] != value for topic, value in theirs.items())
    )
