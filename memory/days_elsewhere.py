"""Days named relative to now in Spanish, German, French, Italian and Portuguese, in English.

Found by a new user, a contractor in Valencia: "qué tengo esta semana?" found nothing that
"what do I have on this week?" found. Read as `memory.short_words` reads a weekday said in
another language: the phrase becomes its English words, for the index and for questions.
A word that is also another ("mañana" is the morning after "la", "Morgen" after "guten")
is read as a day only where it can be one.
"""

from __future__ import annotations

import re

from memory.lazy_patterns import lazy_compile

_PHRASES = {
    "the day after tomorrow": (
        "pasado mañana", "pasado manana", "übermorgen", "uebermorgen", "après-demain",
        "apres-demain", "dopodomani", "depois de amanhã", "depois de amanha",
    ),
    "today": ("hoy", "heute", "aujourd'hui", "aujourd\u2019hui", "oggi", "hoje"),
    "tomorrow": ("demain", "domani", "amanhã", "amanha"),
    "yesterday": ("ayer", "gestern", "ieri", "ontem"),
    "this week": ("esta semana", "diese woche", "cette semaine", "questa settimana"),
    "next week": (
        "la semana que viene", "la próxima semana", "la proxima semana", "la semana próxima",
        "próxima semana", "proxima semana", "semana que vem", "nächste woche",
        "naechste woche", "nächster woche", "la semaine prochaine", "semaine prochaine",
        "la prossima settimana", "prossima settimana", "settimana prossima",
    ),
    "this weekend": (
        "este fin de semana", "este finde", "dieses wochenende", "am wochenende", "ce week-end",
        "ce weekend", "questo fine settimana", "questo weekend", "este fim de semana",
    ),
    "next month": (
        "el mes que viene", "el próximo mes", "el proximo mes", "nächsten monat",
        "naechsten monat", "le mois prochain", "il mese prossimo", "il prossimo mese",
        "o próximo mês", "mês que vem",
    ),
    "this month": ("este mes", "diesen monat", "ce mois-ci", "questo mese", "este mês"),
}  # fmt: skip
_ENGLISH = {said: english for english, phrases in _PHRASES.items() for said in phrases}
_PHRASE = lazy_compile(
    r"(?i)(?<![\w'\u2019-])(?:"
    + "|".join(re.escape(said) for said in sorted(_ENGLISH, key=len, reverse=True))
    + r")(?![\w-])"
    # Tomorrow, where it is no morning: "mañana a las 5", not "esta mañana", "por la
    # mañana"; "morgen" in lower case, not "guten Morgen", "heute Morgen", "am Morgen".
    r"|(?<![\w-])(?<!la\s)(?<!esta\s)(?<!una\s)(?<!cada\s)(?<!las\s)(?<!media\s)(?P<manana>"
    r"(?i:mañana))(?![\w-])"
    r"|(?<![\w-])(?<!guten\s)(?<!Guten\s)(?<!heute\s)(?<!Heute\s)(?<!am\s)(?<!Am\s)"
    r"(?<!jeden\s)(?<!einen\s)(?<!den\s)(?<!der\s)(?P<morgen>morgen)(?![\w-])"
)
_FIRST_WORDS = frozenset(said.split()[0] for said in [*_ENGLISH, "mañana", "morgen"])
_WORD = lazy_compile(r"[\w'\u2019-]+")


def days_in_english(text: str) -> str:
    """`text` with each day named relative to now in another language in English."""
    # Read for every text indexed: most hold none of the first words, and are passed over.
    if _FIRST_WORDS.isdisjoint(_WORD.findall(text.lower())):
        return text
    return _PHRASE.sub(_in_english, text)


def _in_english(found: re.Match[str]) -> str:
    if found["manana"] or found["morgen"]:
        return "tomorrow"
    return _ENGLISH[found.group().lower()]


def names_a_relative_day_elsewhere(text: str) -> bool:
    """Whether `text` names a day relative to now in another language (read anew by 0037)."""
    return days_in_english(text) != text
