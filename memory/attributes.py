"""Whether two facts under one key name two attributes of one thing ("X's PM", "X pays").

Found by a new user, a translator, with a model that made its keys from a fact's first
words: "the Lyon agency's PM is Camille Bernard", stored under the key of "The lyon agency
pays me 0.11 per word", replaced the rate (it was left only as history). A fact that names
what it says of its owner ("X's PM is …", "X's number is …") and another that does not
speak of that ("X pays me …", "My dentist is Dr Kelly") are two facts. Telling them apart
errs towards keeping both: two facts in effect that disagree are shown with their dates
(the later holds), while a fact replaced is gone from recall.
"""

from __future__ import annotations

import re
from functools import cache

from memory.lazy_patterns import lazy_compile
from memory.text import analyze

_POSSESSED = lazy_compile(
    r"(?i)^\W*(?!(?:it|that|what|who|there|here|let|he|she)\b)(?:the\s+|my\s+|our\s+)?[\w&.\u00c0-\u024f-]+(?:\s+[\w&.\u00c0-\u024f-]+){0,3}?"
    r"['\u2019]s?\s+(?:new\s+|current\s+)?(?P<attribute>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+"
    r"(?:is|are|was|were|has\s+been|will\s+be)\b"
)
"""The attribute a fact names of its owner: "the Lyon agency's PM is …", "Dr Kelly's
phone number is …", "the kids' school is …"."""

_NAMES_NOTHING = frozenset({"name", "names", "full name", "first name", "surname"})
""""My dentist's name is Dr Walsh" is the dentist again, said another way."""

_ALIKE = (
    "rate rates pay pays paid charge charges charged fee fees price prices cost costs per "
    "wage salary earn earns",
    "number phone mobile cell tel call ring landline whatsapp",
    "address live lives lived home flat house moved street",
    "email mail e-mail @",
    "birthday born bday birth",
    "boss manager pm lead head supervisor project",
    "deadline due",
    "shift shifts work works working rota roster",
    "school schools attend attends class",
)
"""Words that speak of one attribute: "rate" of "pays me 0.11 per word"."""


@cache
def _alike() -> dict[str, frozenset[str]]:
    groups: dict[str, frozenset[str]] = {}
    for line in _ALIKE:
        stems = frozenset(analyze(line)) | frozenset(line.split())
        for stem in stems:
            groups[stem] = groups.get(stem, frozenset()) | stems
    return groups


def alike(stem: str) -> frozenset[str]:
    """The stems that speak of the attribute `stem` does ("pay" of "rate"); none if none."""
    return _alike().get(stem, frozenset())


def _named_attribute(text: str) -> tuple[re.Match[str], frozenset[str]] | None:
    """The match naming what `text` says of its owner, and that attribute's stems."""
    found = _POSSESSED.match(text)
    if found is None or found["attribute"].casefold() in _NAMES_NOTHING:
        return None
    stems = frozenset(analyze(found["attribute"]))
    return (found, stems) if stems else None


def _attribute_named(text: str) -> frozenset[str]:
    """The stems of the attribute `text` names of its owner and their like; none if none."""
    named = _named_attribute(text)
    if named is None:
        return frozenset()
    return named[1].union(*(alike(stem) for stem in named[1]))


def _attribute(text: str) -> frozenset[str] | None:
    """What `text` says of its owner: the attribute's stems and their like, and its value's.

    None when it names no attribute of an owner.
    """
    named = _named_attribute(text)
    if named is None:
        return None
    found, stems = named
    value = frozenset(analyze(text[found.end() :]))
    return stems.union(value, *(alike(stem) for stem in stems))


def other_attributes(new: str, old: str) -> bool:
    """Whether one names an attribute of its owner that the other says nothing of.

    Nothing of: neither the attribute, nor a word alike ("rate" of "pays me 0.11 per
    word"), nor a word of its value ("Aoife's shift is Saturday", "Aoife works Saturdays").
    """
    ours, theirs = _attribute_named(new), _attribute_named(old)
    if ours and theirs and ours.isdisjoint(theirs):
        # Both name what they say of their owner, apart: "Lucía's school is CEIP Ruzafa"
        # under the key of "Lucía's pediatrician is Dr. Ortega at the Centro de Salud
        # Ruzafa" replaced it (a new user, a parent), one word of their values alike.
        return True
    for named, other in ((new, old), (old, new)):
        attribute = _attribute(named)
        if attribute is None:
            continue
        said = frozenset(analyze(other)) | frozenset(other.casefold().split())
        if not attribute & said:
            return True
    return False
