"""Whether a chat message states something in the user's own words, in earnest.

A fact is only ever changed, or a message only marked as changed since, from a sentence
the user says of themselves and means. Found by an adversary: a quote (`"I live in
Lisbon," said Maria.`, `> I moved to Lisbon`), a code block, a list item or a heading,
and a claim taken back ("I moved to Lisbon. Just kidding!", "/s", "in my dreams") each
changed the user's home.
"""

from __future__ import annotations

import re

from memory.lazy_patterns import lazy_compile

_TAKEN_BACK = lazy_compile(
    r"(?i)(?:\bjust\s+kidding\b|\bkidding\b|\bjk\b|\bj/k\b|(?:^|\s)/s\b|\bnot\s+really\b"
    r"|\bapril\s+fools?\b|\bsaid\s+no\s*(?:one|body)\b|\bin\s+my\s+dreams?\b|\bi\s+wish\b"
    r"|\bin\s+(?:minecraft|the\s+game|a\s+game|my\s+novel|the\s+story|a\s+dream)\b|\bjoking\b"
    r"|\blol\b|\blmao\b|\bhaha|\bnot!|\bno\s+more\b(?=\s*(?:[.!?,;]|$))|\bdraft\b|\bnovel\b"
    r"|\bpretend|\bimagine|\bhypothetical|\bsarcas|\bironic"
    r"|\bactually,?\s+no\b|\bno\s+wait\b|\bscratch\s+that\b|\bi\s+mean\b|\bcorrection\b"
    r"|\bin\s+(?:a|the|my|this)\s+video\s*game|\bin\s+theory\b|\btheoretically\b|\(not\)|(?:^|\s)/h?j\b"
    r"|\bin\s+(?:the\s+sims|a\s+movie|the\s+movie|a\s+film|a\s+book|role-?play|an?\s+rp)\b"
    r"|(?:^|[.!?]\s+)not[.!]|\b(?:well|actually|oh),?\s+(?:my|our|his|her|their)\s+\w+\s+did\b"
    # Taken back in Spanish: "Ahora tomo 80 mg de omeprazol... no, perdón, sigo con 40"
    # replaced the 40 mg dose (an adversary).
    r"|\bno,?\s+perd[oó]n\b|\bperd[oó]n,?\s+no\b|\bme\s+equivoqu[eé]\b|\bquise\s+decir\b"
    r"|\bmejor\s+dicho\b|\bsigo\s+(?:con|tomando)\b|\bes\s+broma\b|\bbromeaba\b)"
)
"""Words that take a claim back, correct it, or set it in a story, a game or a joke."""
_LIFE_STORY = lazy_compile(
    r"(?i)\b(?:(?:was|were)\s+born|grew\s+up|growing\s+up|childhood|as\s+an?\s+"
    r"(?:kid|child|baby|toddler|teen(?:ager)?)|when\s+i\s+was\s+(?:a\s+\w+|young|little|\d+))\b"
)
"""A story of the user's past: "I was born in Porto but we moved to Krakow" tells where
they grew up, not where they live now (an adversary saw it change the home)."""
_SHOUTED_NOT = lazy_compile(r"\bNOT\b")
""""I work at Google - NOT": only in capitals (a plain "not" is a denial, read elsewhere)."""
_REPORTED = lazy_compile(
    r"[\"“”„«»]|\b(?:said|says|saying|asked|wrote|told|quote|replied|replies|answered|"
    r"texted|tweeted|posted|claimed|claims|pasted|forwarded|fwd|customer|dear|"
    r"translate|draft|template)\b",
    re.I,
)
"""Someone else's words, or the user's own repeated from before."""
_CARE_GIVER_SAYS = lazy_compile(
    r"(?i)\b(?:(?:my|the)\s+)?(?:doctor|allergist|dentist|gp|physician|specialist|nurse|"
    r"pharmacist|cardiologist|dermatologist|therapist)\s+(?:says|said|told\s+me)\s+"
    r"(?:that\s+)?(?=i\b|i['\u2019])"
    # From where a run of spaces begins: from each of its spaces, a pasted run of 25,000
    # held the app for 88 s (an adversary).
    r"|(?<!\s),?\s+(?:(?:my|the)\s+)?(?:doctor|gp|nurse|pharmacist|specialist)\s+(?:says|said)"
    r"[.!]*\s*$"
    r"|\b(?:(?:my|the)\s+)?(?:doctor|gp|physician|specialist|nurse|pharmacist|cardiologist)\s+"
    r"told\s+me\s+to\s+(?=(?:stop|quit|come\s+off)\b[^.!?]*\b(?:and|so)\s+i\s+(?:did|have)\b)"
    r"|,\s*(?:(?:my|the)\s+)?(?:doctor|gp|physician|specialist|nurse|pharmacist|physio"
    r"(?:therapist)?|m[ée]dico|doctora?)\s+told\s+me\s+to\s+(?:stop|quit|come\s+off)\b[^.!?]*[.!]*\s*$"
    # Told what to do of a medicine: "dr patel says stop the metoprolol", "nurse says cut
    # the warfarin to 4mg" (a new user, a retired farmer: neither changed the dose).
    r"|\b(?:(?:my|the)\s+)?(?:doctor|dr\.?\s+[a-z]+|gp|physician|specialist|nurse|pharmacist|"
    r"cardiologist|consultant)\s+(?:says|said|told\s+me)\s+(?:that\s+)?(?:to\s+|i\s+(?:should|"
    r"must|need\s+to|have\s+to)\s+)?(?=(?:stop|quit|cut|take|up|raise|lower|increase|reduce|"
    r"double|halve|come\s+off|go\s+(?:up|down))\b)"
    r"|,\s*(?:(?:my|the|her|his)\s+)?(?:doctor|gp|physician|specialist|nurse|pharmacist|"
    r"cardiologist|consultant|physio(?:therapist)?)\s+(?:says|said)\b[^.!?\"\u201c\u201d]{0,60}[.!]*\s*$"
)
"""A care giver's finding about the user is the user's news, not a quote: "the allergist
says I've outgrown the peanut allergy" (found by a new user: the allergy stayed), "doctor
said i dont need it anymore", "No more lisinopril for me, the GP said" (later ones), "My
doctor told me to stop taking warfarin, and I did" (an adversary), "ya no tomo ibuprofeno,
the physio told me to stop it last week" (a translator: the stop said first, then why),
"mum stopped the bisoprolol, cardiologist said no need anymore" (a pharmacist)."""
_NOT_PROSE = lazy_compile(r"(?m)^(?:[ \t]*(?:>|[-*+•]\s|#|\d+[.)]\s)|\t| {4})|```|~~~")
"""A quote, a list item, a heading, indented or fenced text: not a plain statement."""
_ANOTHER_VALUE = lazy_compile(
    r"(?i)\b(?:also|too|as\s+well|second|another|part[- ]time|half\s+(?:the|of\s+the)\s+"
    r"(?:year|time|week)|for\s+tax|on\s+paper|officially|competitors?|sometimes|(?<!last\s)weekends?)\b"
    r"|\w['’]s\s+(?:competitor|rival|client|customer|partner|office)"
)
"""A value that is one more, or not quite the one held ("I live in Lisbon half the year")."""


_THEIR_WORD_AFTER = lazy_compile(
    r"(?i)[,;]\s*(?:and\s+|but\s+)?(?:he|she|they)\s+(?:said|says|told\s+me)\s+(?:that\s+)?"
    r"(?:he|she|they)\b[^.!?\n]*[.!]?\s*$"
)
"""What someone said they would do, told after what the user says of them: "Siobhan hasn't
paid yet, she said she'd pay at the mtg" is the user's word that she has not paid (a new
user, an allotment's secretary: her payment said later left it unmarked)."""


def said_in_earnest(message: str) -> bool:
    """Whether the whole message is plain prose that takes nothing back and quotes no one."""
    message = _THEIR_WORD_AFTER.sub("", _CARE_GIVER_SAYS.sub("", message))
    return not (
        _TAKEN_BACK.search(message)
        or _LIFE_STORY.search(message)
        or _SHOUTED_NOT.search(message)
        or _REPORTED.search(message)
        or _NOT_PROSE.search(message)
    )


def one_more_value(sentence: str) -> bool:
    """Whether the sentence gives a value beside the one held, not instead of it."""
    return _ANOTHER_VALUE.search(sentence) is not None
