"""Two things said of two days are two events, unless one says the other moved.

Found while fixing a new user's roster: "Night shift on 16.12. at 9pm" replaced "night
shift again tmrw 9pm-7am, ugh" (the same two words, so "the same subject"), and a nurse's
shifts, a parent's appointments, a baker's deliveries, each of another day, replaced one
another. A change says so ("moved to", "rescheduled", "now", "instead"); a one-valued fact
(a deadline, a birthday) is compared by its value elsewhere (`memory.fact_values`).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache, lru_cache

from memory.date_terms import find_dates
from memory.fact_values import attribute_terms, user_value
from memory.function_words import function_words_of
from memory.lazy_patterns import lazy_compile
from memory.month_names import MONTH_NAMES
from memory.relative_dates import named_days
from memory.short_words import written_out
from memory.text import analyze
from memory.weekly_days import WEEKDAY, weekly_terms

_MOVED_WORDS = (
    r"moved|rescheduled|rebooked|postponed|pushed|shifted|brought\s+forward|delayed|put\s+back"
    r"|don\s+(?:move|shift|postpone|push|reschedule|change)"
)
"""The words saying an event moved to another day (every rule of this module reads them);
in Nigerian Pidgin, "harvest thanksgiving don move to Sunday 28 March" (a new user, in
Lagos: the old day was shown alone)."""
_MOVED_ELSEWHERE = (
    r"verschoben|verlegt|aplazad[oa]|pospuest[oa]|movid[oa]|cambiad[oa]|report[ée]e?|"
    r"d[ée]plac[ée]e?|repouss[ée]e?|d[ée]cal[ée]e?|adiad[oa]|remarcad[oa]|mudou|mudad[oa]|"
    r"spostat[oaie]|rinviat[oaie]|posticipat[oaie]|anticipat[oaie]|"
    # In Dutch: "kapper verzet naar dinsdag" (an adversary: the move went at 30 days and
    # the haircut's old day stayed).
    r"verzet|verplaatst|verschoven|uitgesteld"
)
"""Moved, in German, Spanish, French, Portuguese and Italian: "Zahnarzt verschoben auf 21.12."
(an adversary: it stood beside the appointment it moved); "la deadline Boréal est repoussée
au 12 février" (a new user, a translator); "… è stata spostata al 14 aprile",
"a consulta … mudou para 22 de maio" (a later one: the same)."""
_SAYS_CHANGE = lazy_compile(
    rf"(?i)\b(?:{_MOVED_WORDS}|changed|instead|now|cancel(?:l?ed)?|no\s+longer)\b"
)
MOVED_OR_CALLED_OFF = lazy_compile(
    r"(?i)^\W*(?:actually|sorry|oops|(?:no\s+)?wait)\b|"
    rf"\b(?:{_MOVED_WORDS}|{_MOVED_ELSEWHERE}|changed|now|cancel(?:l?ed)?|called\s+off|"
    r"(?:is|are)\s+off|scratch\s+that|correction|it['\u2019]?s\s+actually|it\s+is\s+actually|"
    r"not\s+(?:on\s+)?the\s+[0-9]{1,2}(?:st|nd|rd|th)|"
    r"perdona|perd[oó]n|corrijo|mejor\s+dicho|scusa(?:te)?|anzi|desculpa|desculpe)\b"
)
"""Every word `moves_it` or `cancels_it` may read a move or a call-off by: a text holding
none of them moves no event (`agent.since_changed` passes the rest over)."""
_DAY_GRAIN = ("dtd", "dtmd")
_READ_ON = datetime(2000, 1, 3, 12, tzinfo=UTC)
"""Relative days are compared by their words ("tomorrow", "on Friday"), read on any day."""


@lru_cache(maxsize=2048)
def days_named(text: str) -> frozenset[str]:
    """The days `text` names: its dates' day terms, and the words of days named relatively."""
    dates, _ = find_dates(text)
    absolute = {term for term in dates if term.startswith(_DAY_GRAIN)}
    relative = {f"said:{named.words.casefold()}" for named in named_days(text, _READ_ON)}
    # Every week too: "Night shift every Friday" took four dated shifts out of effect (a
    # third adversary); "every Monday at 10" still changes to "every Monday at 11".
    weekly = set(weekly_terms(written_out(text)))  # "every Tues and Fri" too
    return frozenset(absolute | relative | weekly)


def on_other_days(new: str, old: str) -> bool:
    """Whether both name days, not the same ones, and `new` does not say `old` moved."""
    ours, theirs = days_named(new), days_named(old)
    if not ours or not theirs or ours & theirs:
        return False
    claim = user_value(new)
    if claim is not None and claim[0] & attribute_terms() <= set(analyze(old)):
        # "Alex's birthday is March 16" gives the birthday another day; "Mum's birthday
        # dinner on 5/4" is no birthday (an adversary: it replaced "Mum's birthday is 3/4").
        return False
    return _SAYS_CHANGE.search(new) is None


_CALLED_OFF = lazy_compile(r"(?i)\b(?:cancel(?:l?ed)?|called\s+off|no\s+longer)\b")
"""A move says where to, by a day or a time: "Book club book moved to Dune" and "… moved to
Anna's" keep the day (an adversary saw the first take it away)."""
_CLOCK_TIME = lazy_compile(r"(?i)\b[0-9]{1,2}(?::[0-9]{2})?\s*[ap]\.?m\b|\b[0-9]{1,2}:[0-9]{2}\b")


def leaves_its_day(new: str, old: str) -> bool:
    """Whether `old` is an event of a day and `new`, naming no day or time, does not move it.

    Found by an adversary: "Book club book is now Dune" replaced "Book club on 9/12 at
    Anna's", and "Night shift pay is now $45 an hour" the shift: each says something else
    of the event's name, and the day was lost; so did "Book club book moved to Dune" (a
    later adversary). "Yoga now at 7pm" and "Book club cancelled" still change the event.
    """
    return (
        bool(days_named(old))
        and not days_named(new)
        and _CLOCK_TIME.search(new) is None
        and (_CALLED_OFF.search(new) is None or _BEFORE_NOW.search(new) is not None)
    )


def called_off_before(text: str) -> bool:
    """Whether `text` tells of an event called off before now (`_BEFORE_NOW`)."""
    return _CALLED_OFF.search(text) is not None and _BEFORE_NOW.search(text) is not None


_BEFORE_NOW = lazy_compile(r"(?i)\b(?:last\s+(?:week|month|year|time)|yesterday|ago|previously)\b")
"""A call-off said of before: "Piano lesson cancelled last week because of snow" took the
next lesson's day away (an adversary)."""


def one_time_of(new: str, old: str) -> bool:
    """Whether `new` moves or calls off one time of an event `old` says recurs.

    Found by a new user: "rorys speech therapy moved to thurs 17/12 at 4" replaced "Rory
    speech therapy every other wed at 3.30", and "aoife swimming cancelled til january"
    would end her Tuesday swimming: the schedule holds after.
    """
    if _RECURS.search(old) is None or _RECURS.search(new) is not None:
        return False
    return (
        bool(days_named(new))
        or _CALLED_OFF.search(new) is not None
        or _MOVED_VERB.search(new) is not None
    )


_MOVED_VERB = lazy_compile(rf"(?i)\b(?:{_MOVED_WORDS})\b")


_RECURS = lazy_compile(
    r"(?i)\b(?:every|each|weekly|fortnightly|biweekly|monthly|(?:mon|tues|wednes|thurs|fri|"
    r"satur|sun)days)\b"
)


def several_events(texts: list[str]) -> bool:
    """Whether two or more of `texts` are events, each of other days than the others.

    Found by an adversary: "Night shift moved to Thu 17/12" replaced both the Monday and
    the Wednesday shift; which one moved it does not say, so it replaces neither.
    """
    days = [days_named(text) for text in texts]
    if len(days) < 2 or not all(days):
        return False
    # By their dates where each has one: "Dentist on Fri 14/1" and "Dentist on Fri 28/1"
    # share a Friday, and "moved to Fri 21/1" marked both (an adversary).
    dated = [frozenset(d for d in named if d.startswith(_DAY_GRAIN)) for named in days]
    if all(dated):
        days = dated
    if all(a.isdisjoint(b) for at, a in enumerate(days) for b in days[at + 1 :]):
        return True
    # The same day, at other times or for someone else: "Dentist for rory 22/1 at 3" and
    # "Dentist for me 22/1 at 4" (a new user: "dentist moved to 29/1" replaced both).
    told = [(_times(text), _for_whom(text)) for text in texts]
    return all(
        (times and other_times and times != other_times)
        or (whom and other_whom and whom != other_whom)
        for at, (times, whom) in enumerate(told)
        for other_times, other_whom in told[at + 1 :]
    )


_AT_TIME = lazy_compile(
    r"(?i)\b(?:at\s+)?(?P<hour>[0-9]{1,2})(?:[:.](?P<minute>[0-9]{2}))?\s*(?P<half>[ap])\.?m\b"
    r"|\bat\s+(?P<at>[0-9]{1,2})(?:[:.](?P<at_minute>[0-9]{2}))?\b(?![/.-]?[0-9])"
    r"|\b(?P<clock>[0-9]{1,2}):(?P<clock_minute>[0-9]{2})\b"
)
_FOR_WHOM = lazy_compile(
    r"(?i)\bfor\s+(?:the\s+|a\s+|an\s+)?(?P<whom>me|[a-z][\w'\u2019-]*)|\b(?P<owner>[A-Za-z]+)['\u2019]s\b|\b(?P<my>my)\b"
)


def _times(text: str) -> frozenset[str]:
    """The times of day `text` names, as "15:00" ("at 3", "3pm", "15:00", "3.30pm")."""
    times = set()
    for found in _AT_TIME.finditer(text):
        hour = found["hour"] or found["at"] or found["clock"]
        minute = found["minute"] or found["at_minute"] or found["clock_minute"] or "00"
        value = int(hour) % 12 + (12 if (found["half"] or "").lower() == "p" else 0)
        times.add(f"{value if found['half'] else int(hour)}:{minute}")
    return frozenset(times)


def _for_whom(text: str) -> frozenset[str]:
    """Whose event `text` says it is: "for rory", "Rory's", "my" (the user's)."""
    whom = set()
    for found in _FOR_WHOM.finditer(text):
        name = (found["whom"] or found["owner"] or "me").casefold()
        whom.add("me" if name in ("me", "my", "myself", "us") else name)
    return frozenset(whom)


_MOVED = lazy_compile(
    rf"(?i)\s+(?:has\s+been\s+|was\s+|got\s+|is\s+|wurde\s+|ist\s+|se\s+ha\s+|ha\s+sido\s+|"
    rf"fue\s+|a\s+été\s+|est\s+|foi\s+|é\s+|(?:è|e|sono)\s+stat[oaie]\s+|è\s+|"
    # "la cita de la ITV la he cambiado al 22 de mayo" (a new user, a nurse in Madrid: both
    # days stood in effect).
    rf"(?:l[oa]s?\s+)?(?:he|hemos|ha|han)\s+)?"
    rf"(?:{_MOVED_WORDS}|{_MOVED_ELSEWHERE}|changed)(?:\s+back)?(?!\w)"
    r"(?:\s+(?:to|till|until|auf|a|al|para|pour|à|au|naar)\b)?"
    # "… is now due 28 Jan" after "… moved to 21 Jan" (a new user: both stayed in effect).
    r"|\s+(?:is\s+)?now\s+(?=(?:due\s+)?(?:on\s+)?(?:the\s+)?(?:mon|tue|wed|thu|fri|sat|sun|\d))"
    # German puts the verb last: "Lenas Mathe-Klausur wurde auf den 29. April verschoben" (a
    # new user, an electrician: the 24 April exam stood unmarked).
    r"|\s+(?:wurde|wird|ist)\s+(?=(?:auf|zum|zur|f(?:ü|ue)r|nach|in)\s+[^!?\n]{1,40}?\s+"
    r"(?:verschoben|verlegt)\b)"
)
"""'Dentist moved to …', 'The dentist is now on the 21st' (an adversary)."""


_NOT_THAT_DAY = lazy_compile(
    r"(?i)^\W*(?P<what>[^,;.!?]+?)\s+(?:is|was)\s+not\s+(?:on\s+)?the\s+(?P<old>[0-9]{1,2})"
    r"(?:st|nd|rd|th)\b[\s,;:-]+(?:it['\u2019]?s|it\s+is|but)\s+(?:on\s+)?the\s+"
    r"(?P<new>[0-9]{1,2})(?:st|nd|rd|th)\b"
)
"""A day put right: "Dentist is not the 23rd, it's the 25th" (an adversary saw "Dentist on
23/12 at 9am" left unmarked)."""


_THAT_DAY_NOT_THE_OTHER = lazy_compile(
    r"(?i)^\W*(?:(?:sorry|oops|correction|no|actually)\W+)?(?P<what>[^,;.!?]+?)\s+"
    r"(?:is|was|['\u2019]s)\s+(?:on\s+)?the\s+(?P<new>[0-9]{1,2})(?:st|nd|rd|th)\b[\s,;:-]*"
    r"(?:and\s+|but\s+)?not\s+(?:on\s+)?(?:the\s+)?(?P<old>[0-9]{1,2})(?:st|nd|rd|th)\b"
)
"""The new day first: "Mia's party is on the 19th, not the 18th", "sorry, book club is on the
19th not 18th" (an adversary saw both parties kept in effect)."""


def puts_its_day_right(new: str, old: str) -> bool:
    """Whether `new` says the event `old` names is not on its day but on another."""
    found = _NOT_THAT_DAY.match(new) or _THAT_DAY_NOT_THE_OTHER.match(new)
    if found is None or found["old"] == found["new"]:
        return False
    spoken = function_words_of(re.findall(r"\w+", new.casefold()))
    named = set(analyze(found["what"])) - _an_appointment() - spoken
    if not named or not named <= set(analyze(old)):
        return False
    day = f"{int(found['old']):02d}"
    if re.search(rf"(?i)\bthe\s+0?{int(found['old'])}(?:st|nd|rd|th)\b", old):
        return True  # "the Acme deadline is the 23rd": no day the index reads, said so
    return any(term.startswith("dt") and term.endswith(day) for term in days_named(old))


def moves_it(new: str, old: str) -> bool:
    """Whether `new` says the event `old` names moved to another day.

    Found by an adversary: "Dentist moved to 21/1", "Haircut moved to Saturday 3pm", "Flight
    to Perth rescheduled to 23/12" and "Vet for Biscuit now Thu 10/12" each stood beside the
    event they moved (a one-word name is too few words shared to be one subject). The words
    before "moved" must all name the old event.
    """
    if puts_its_day_right(new, old):
        return True
    if not (days_named(new) or _A_MONTH.search(new) or _A_DAY_ALONE.search(new)):
        return False
    if not days_named(old):
        return False  # "Eye test postponed until January" moves it too (an adversary)
    # Also in the last clause: "Kellys rang, they moved Bella to sat 12/12 noon" (an
    # adversary: the booking stood unmarked).
    verb_first = _MOVED_THE.match(new) or _MOVED_THE.match(_CLAUSE_BEFORE.split(new)[-1])
    pointed = _MOVED_IT.search(new)
    if (corrected := _CORRECTED_IT.match(new) or _SORRY_IT_IS.match(new)) is not None:
        said = whole = corrected["what"]
    elif pointed is not None and pointed.start() > 0:
        # "oh wait, the munich contract — actually they pushed it to the 21st": what "it"
        # is was named before (a new user, a translator: the deadline stood unmarked).
        said = whole = _ANOTHER_CLAUSE.split(new[: pointed.start()].strip(" ,;:-\u2013\u2014"))[-1]
    elif (
        verb_first is not None
        and (caller := _WHO_RANG.match(new)) is not None
        and (verb_first["what"].casefold() in ("me", "us"))
    ):
        # "the dentist rang, moved me to the 21st at 3pm": the caller's appointment (a new
        # user, a retired nurse: the dentist's stood unmarked).
        said = whole = caller["who"]
    elif verb_first is not None:
        said = whole = verb_first["what"]  # "Moved the dentist to 21/1", "Rescheduled my …"
    else:
        found = _MOVED.search(new)
        if found is None:
            return False
        said = whole = new[: found.start()]
        # The clause the verb is in: "Murphys rang, Bailey moved to sat 12/12" moves Bailey's
        # groom (a new user, a dog groomer: "rang" named no word of it, so nothing moved).
        said = _CLAUSE_BEFORE.split(said)[-1] or said
    # "Dentist appointment moved to 21/1" names the dentist on 14/1 as well (an adversary).
    # The function words of the language it is in, read in the whole text: "El dentista"
    # alone is read as English, keeping "el" (an adversary: it moved nothing).
    spoken = function_words_of(re.findall(r"\w+", new.casefold()))
    if set(analyze(said)) & _an_appointment() and _no_appointment(old):
        return False
    named = {_without_its_kind(word) for word in analyze(said)}
    named -= _an_appointment() | spoken | _ARTICLES
    # Its words as typed too: "o jantar com o João mudou para 22 de maio" was read as
    # English, keeping "com", which "o jantar com o João é dia 18 de maio", read as
    # Portuguese, had not (a second adversary).
    if not named or not named <= set(analyze(old)) | set(re.findall(r"\w+", old.casefold())):
        return False
    if (ours := days_named(new)) and ours <= days_named(old):
        # Moved to the days it holds: the same said again ("My meetings with prof. duarte
        # are now on thursdays at 14h" marked "… the meeting with duarte moved to thursdays
        # at 14h" changed since: a new user).
        return False
    # A meeting named by who it is with is not anything else of theirs: "My meetings with
    # prof. duarte are now on thursdays" moved "Thesis deadlines: chapter 2 due to Prof.
    # Duarte on 15 January" (a new user).
    with_whom = _WITH_WHOM.search(whole)
    return (
        with_whom is None
        or _WITH_WHOM.search(old) is not None
        or bool(set(analyze(old)) & (_an_appointment() | _met()))
    )


_KINDS_AT_THE_END = ("termin", "besuch", "afspraak")
"""An appointment's word ending a German or Dutch compound: "Zahnarzttermin" is the
"Zahnarzt" of "Zahnarzt am 14. Januar" (an adversary: "Der Zahnarzttermin wurde auf den
21. Januar verschoben" moved nothing)."""


def _without_its_kind(word: str) -> str:
    for kind in _KINDS_AT_THE_END:
        if word.endswith(kind) and len(word) - len(kind) >= 3:
            return word[: -len(kind)]
    return word


_WITH_WHOM = lazy_compile(r"(?i)\bwith\b")
_ARTICLES = frozenset("la le il lo el los las les der die das".split())
"""An article names nothing moved: "la cena con Marco è spostata al 22.02" moves "cena con
Marco il 20.02" (an adversary)."""


def moves_an_appointment_of_none(new: str, old: str) -> bool:
    """Whether `new` moves an appointment and `old` is no event a move may mean.

    "Dr Pham's clinic rang, mum's appointment moved to Fri 5/3 at 2pm" changes not "Mum's
    metformin is now 1000mg twice a day (from 22/12) — Dr Pham", though both name Dr Pham
    and mum (a new user, a nurse, saw the dose marked changed).
    """
    found = _MOVED.search(new)
    if found is None or not set(analyze(new[: found.start()])) & _an_appointment():
        return False
    return not days_named(old) or _no_appointment(old)


def _no_appointment(old: str) -> bool:
    """Whether `old` is a change from a day, not an appointment a move may name.

    "Mum's metformin is now 1000mg twice a day (from 22/12) — Dr Pham" is no appointment
    of "mum's appointment moved to Fri 5/3" (a new user, a nurse: the move marked the dose,
    and with two events of other days, the appointment it moved was left unmarked).
    """
    from memory.changes_to_come import a_change_to_come  # it reads days with `event_days`

    return a_change_to_come(old) and not set(analyze(old)) & _an_appointment()


@cache
def _met() -> frozenset[str]:
    """Words of what one does with someone, beside `_an_appointment`'s."""
    return frozenset(analyze("call lunch dinner coffee drinks chat catchup catch supervision"))


_CLAUSE_BEFORE = lazy_compile(r"[,;:.!?]\s+|\s+(?:and|so|but)\s+")
_ANOTHER_CLAUSE = lazy_compile(r"[,;:.!?]\s+|\s+(?:and|so|but)\s+|\s+[-\u2013\u2014]+\s+")
_MOVED_IT = lazy_compile(
    r"(?i)[\s,;:\u2013\u2014-]+(?:(?:actually|so|and|then|now)\s+)?(?:they|he|she|we|i)\s+"
    rf"(?:have\s+|'ve\s+|has\s+)?(?:{_MOVED_WORDS})\s+(?:it|them)\s+(?:back\s+)?"
    r"(?:to|till|until)\b"
)
"""A move of what was named before it: "the munich contract — they pushed it to the 21st"."""
_CORRECTED_IT = lazy_compile(
    r"(?i)^\W*(?:(?:actually|no|oh|wait|sorry|oops)[\s,]+)*(?:scratch\s+that|correction|"
    r"my\s+bad|i\s+was\s+wrong)[\s,:-]*(?:about|re|on|for)\s+(?P<what>[^,;:.!?]+?)"
    r"[,;:\u2013\u2014-]+\s*(?:it['\u2019]?s|it\s+is)\s+(?:actually|really|now)\s+"
    r"(?=(?:on\s+)?(?:the\s+)?(?:mon|tue|wed|thu|fri|sat|sun|\d))"
)
"""A day put right, naming what: "scratch that about the dentist, it's actually on 22/01,
same time" (a new user, a contractor: the 21/01 stood unmarked)."""
_SORRY_IT_IS = lazy_compile(
    r"(?i)^\W*(?:perdona|perd[oó]n|corrijo|mejor\s+dicho|scusa(?:te)?|anzi|desculpa|desculpe|"
    r"pardon|sorry|correction|actually|oops|(?:oh\s+|no\s+)?wait)[\s,:!.-]+(?P<what>[^,;:.!?]+?)\s+"
    r"(?:es|ser[aá]|è|sar[aà]|é|est|sera|is|will\s+be)\s+(?:actually\s+)?"
    r"(?=(?:(?:el|il|le|la|o|a|the|on)\s+)?(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|"
    r"domingo|luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabato|domenica|segunda|"
    r"ter[cç]a|quarta|quinta|sexta|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|"
    r"mon|tue|wed|thu|fri|sat|sun|\d))"
)
"""A day put right after a word of sorry, naming what: "perdona, la cena con Marta es el jueves
17" (an adversary: the Tuesday stood unmarked), "sorry, the dinner with Marta is on Thursday",
"actually the vet is Thursday the 19th" (a later one: it went before the day it put right)."""
_A_MONTH = lazy_compile(rf"(?i)\b(?:to|till|until|into)\s+(?:{MONTH_NAMES})\b")
_A_DAY_ALONE = lazy_compile(
    r"(?i)\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|maandag|dinsdag|woensdag|donderdag"
    r"|vrijdag|zaterdag|zondag|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag"
    r"|lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo)\b"
    r"|\b[0-9]{1,2}(?:st|nd|rd|th)\b"
)
"""A weekday or a day of the month said alone, which no calendar day is read from: "meeting
with Ana pushed to Thursday", "physio moved again, now it's the 24th" (an adversary: each
move went at 30 days, and the day it moved from stayed)."""
_WHO_RANG = lazy_compile(
    r"(?i)^\s*(?P<who>(?:the\s+)?[\w'\u2019]+(?:\s+[\w'\u2019]+)?)\s+(?:rang|called|phoned|"
    r"texted|emailed|rang\s+me|called\s+me)\b"
)
_MOVED_THE = lazy_compile(
    rf"(?i)^\s*(?:(?:i|we|they|he|she|(?-i:[A-Z][\w'\u2019-]+))\s+(?:have\s+|'ve\s+|has\s+)?)?"
    rf"(?:{_MOVED_WORDS}|changed)\s+(?:the\s+|my\s+|our\s+)?(?P<what>.+?)"
    # Moved again: "Okafor pushed my chapter 2 deadline again, to 15 November" (a new user
    # saw the deadline's second move mark nothing).
    r"(?:\s+again\s*,?)?\s+(?:to|till|until)\b"
)


@cache
def _an_appointment() -> frozenset[str]:
    """Words naming any event, which name no event of their own."""
    # "job" too: "patel job moved to thurs 10th" names Mrs Patel's booking, which says no
    # "job" (a new user, a plumber, saw it mark the parts ordered for it instead).
    return frozenset(
        # In other languages: "la cita de la ITV la he cambiado al 22 de mayo" (a new user,
        # a nurse in Madrid: "cita" was read as a word of the ITV's, and nothing moved).
        analyze(
            "appointment appt booking session meeting slot visit job callout 예약 약속 일정 "
            "cita rdv rendez-vous termin appuntamento consulta reserva"
        )
    )


def cancels_it(new: str, old: str) -> bool:
    """Whether `new` says the event `old` names was called off: "Dentist cancelled".

    Found by an adversary: it stood beside "Dentist on 14/1 at 3pm", both in effect.
    """
    found = (
        _CANCELLED.search(new) or _SOMEONE_CANCELLED.match(new) or _CANCELLED_IN_KOREAN.search(new)
    )
    if found is None or not days_named(old):
        return False
    if found.re.pattern == _SOMEONE_CANCELLED.pattern:
        said = f"{found['who']} {found['what']}"
    elif found.re.pattern == _CANCELLED_IN_KOREAN.pattern:
        said = found["what"]
    else:
        said = new[: found.start()] or new[found.end() :]
    if (day := found.groupdict().get("day")) and int(day) not in _days_of_the_month(
        days_named(old)
    ):
        return False  # "cancelled the 14th" calls off no event of the 21st
    days = days_named(said)
    # "rorys speech therapy on the 17th cancelled, therapist sick" names the day it calls
    # off: the event of that day (a new user: the event stayed, unmarked).
    if days and not _days_of_the_month(days) & _days_of_the_month(days_named(old)):
        return False
    said = _A_DAY_SAID.sub(" ", said)
    named = set(analyze(said)) - _an_appointment()
    if not named or not named <= set(analyze(old)):
        return False
    if found.group().strip().casefold().endswith("off"):
        # "haircut is off" names the whole event; "the heating is off" is no call-off of
        # "Heating service on 14/1".
        bare = _A_DAY_SAID.sub(" ", _WEEKDAY.sub(" ", old))
        event = {t for t in analyze(bare) if not any(c.isdigit() for c in t)}
        return event - _an_appointment() - _AT_WORDS <= named
    return True


_SOMEONE_CANCELLED = lazy_compile(
    r"(?i)^\s*(?P<who>(?:the\s+)?[\w'\u2019-]+(?:\s+(?-i:[A-Z])[\w'\u2019-]*){0,3}"
    r"(?:\s*(?:and|&|\+)\s*[\w'\u2019-]+)?)\s+"
    r"(?:have\s+|has\s+|just\s+)?"
    r"(?:cancell?ed|called\s+off)\s+(?:the\s+|their\s+|his\s+|her\s+)?"
    r"(?P<what>[^,.;!?]+?)\s*(?:[,.;!].*)?$"
)
"""Who called off what: "dalys cancelled the communion cake, going with a shop one" (a new
user, a baker: the order stayed in effect, unmarked); two of them: "Sofia and Marco cancelled
their wedding" (a new user, a photographer); a name of words: "Ancoats Coffee Co have
cancelled their standing order" (a new user, a baker)."""
_CANCELLED_IN_KOREAN = lazy_compile(
    r"(?:^|(?<=[.!?\n]))\s*(?P<what>[^.!?\n]+?)\s*(?:이|가|은|는|을|를|도)?\s*"
    r"취소(?:됐|되었|했|함|됨|돼|되|예정)"
)
"""Called off, in Korean: "치과 예약 취소됐어. 12월 22일 오전 10시로 다시 잡았어" (the dentist
was cancelled and booked again: a new user saw the 18 December booking given as current)."""
_AT_WORDS = frozenset({"on", "at", "am", "pm"})
_WEEKDAY = lazy_compile(rf"(?i)\b{WEEKDAY}s?\b")


_A_DAY_SAID = lazy_compile(
    r"(?i)\b(?:on\s+)?(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:[/.-]\d{1,2}(?:[/.-]\d{2,4})?)?\b"
)


def _days_of_the_month(days: frozenset[str]) -> set[int]:
    """The days of the month `days_named` terms name: "dtmd1217" and "on the 17th" are 17."""
    found: set[int] = set()
    for term in days:
        if term.startswith("dtmd"):
            found.add(int(term[6:8]))
        elif term.startswith("dtd"):
            found.add(int(term[9:11]))
        elif (number := re.search(r"\d{1,2}", term)) is not None and term.startswith("said:"):
            found.add(int(number.group()))
    return found


_CANCELLED = lazy_compile(
    r"(?i)\s*(?:(?:has\s+been|was|is|got|are)\s+)?(?:cancel(?:l?ed)|called\s+off|(?<=is\s)off|"
    r"(?<=are\s)off)\b"
    # The day it called off: "eye hospital cancelled the 14th, theyll send a new date" (a
    # new user, a retired nurse: the appointment stood unmarked).
    r"(?:\s+(?:my\s+|the\s+|our\s+)?(?:(?:appointment|appt|booking)\s+)?(?:(?:on|for)\s+)?"
    r"(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?\b(?:\s+of\s+[a-z]+)?)?"
    # Till when, or why, after it: "aoife swimming cancelled til january, coach is sick".
    r"(?:\s+(?:til|till|until|for|this|today|tomorrow|tonight)\b[^,.;!]*)?(?:[,.;!]\s*\S.*)?"
    r"[.!]*\s*$"
    r"|^\s*(?:(?:i|we)\s+)?(?:cancel(?:l?ed)|called\s+off)\s+(?:the\s+|my\s+|our\s+)?"
)
