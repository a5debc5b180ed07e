"""Words typed short, read as the words they stand for: "tmrw", "thurs", "appt", "bday".

Found by a new user typing as on a phone: "Maya has dentist tmrw at 10am" was found by
neither "what's on tomorrow?" nor its date, and "lands thurs 9:40pm" not by "Thursday".
A short word is indexed as its long one (`SHORT_WORDS`, in `memory.text.analyze`), and days
are read from the text written out (`written_out`): a weekday's three letters only after a
word that names a day by it ("on sat", "next fri"), as "sat", "sun" and "wed" are words.
"""

from __future__ import annotations

import re

from memory.days_elsewhere import days_in_english
from memory.lazy_patterns import lazy_compile

SHORT_WORDS = {
    "tmrw": "tomorrow",
    "tmrrw": "tomorrow",
    "tmr": "tomorrow",
    "tmw": "tomorrow",
    "2moro": "tomorrow",
    "2morrow": "tomorrow",
    "tomorow": "tomorrow",
    "tommorow": "tomorrow",
    "tommorrow": "tomorrow",
    "tonite": "tonight",
    "2nite": "tonight",
    "2day": "today",
    "yday": "yesterday",
    "tues": "tuesday",
    "weds": "wednesday",
    "thur": "thursday",
    "thurs": "thursday",
    "appt": "appointment",
    "appts": "appointments",
    "bday": "birthday",
    "bdays": "birthdays",
    "wknd": "weekend",
    # A new user, a plumber: "what have i got next wk", "boiler svc tomoz".
    "wk": "week",
    "wks": "weeks",
    "tomoz": "tomorrow",
    "2moz": "tomorrow",
    # "BP 138/84 this morning" was found by no "blood pressure" (a new user, a carer).
    "bp": "blood pressure",
}
"""Folded words, each with the word it stands for."""
_SHORT = lazy_compile(r"(?i)(?<![\w-])(" + "|".join(SHORT_WORDS) + r")(?![\w-])")
WEEKDAY_SHORTS = {
    "mon": "monday",
    "tue": "tuesday",
    "wed": "wednesday",
    "thu": "thursday",
    "fri": "friday",
    "sat": "saturday",
    "sun": "sunday",
}
_SHORT_PARTS = (
    "tmr", "tmw", "2mo", "tomorow", "tommo", "tonite", "2ni", "2da", "yday", "tues", "weds",
    "thur", "appt", "bday", "wknd", "bp", "wk", "tomoz", "2moz",
)  # fmt: skip
"""A part of each of `SHORT_WORDS`, rare in other words ("tom" and "app" are not)."""
_WEEKDAY_NAMED = lazy_compile(
    r"(?i)\b((?:on|next|this|by|due|until|till|before|coming|last|every)\s+)"
    r"(mon|tue|wed|thu|fri|sat|sun)\b\.?"
    # Then a time or nothing more: "by sat phone" and "on sun loungers" named no day (an
    # adversary).
    r"(?=\s*(?:$|[^\w\s]|\d|(?:at|morning|afternoon|evening|night|noon|lunch|am|pm|"
    r"and|or|for|with|to|in)\b))"
)


_A_WEEKDAY_SHORT = lazy_compile(r"\b(?:mon|tue|wed|thu|fri|sat|sun)\b")
"""Any weekday's three letters, in the lower-cased text: most texts hold none."""
_WEEKDAY_TIMED = lazy_compile(
    r"(?i)(?<!\bi\s)(?<!\bwe\s)(?<!\byou\s)(?<!\bhe\s)(?<!\bshe\s)(?<!\bthey\s)"
    r"\b(mon|tue|wed|thu|fri|sat|sun)\b\.?(?=\s+(?:at\s+)?(?:\d{1,2}(?::\d\d)?\s*(?:am|pm|h)\b|\d{1,2}:\d\d\b)"
    r"|,?\s+\d{1,2}(?:/\d{1,2}|\.\d{1,2}\.)(?![\d/.]))"
)
"""Three letters of a weekday before a clock time or a day and month, with no word before
them: "dentist fri 9am" (an adversary found it by no "friday"), "Night shift Mon 7/12" (a
new user, not by "monday"); not after a pronoun ("I sat 1/2 of it")."""


_WEEKDAYS_ELSEWHERE = {
    "monday": "lundi montag lunedì lunedi segunda-feira poniedziałek poniedzialek pondělí pondeli",
    "tuesday": "martes mardi dienstag martedì martedi terça-feira terca-feira wtorek úterý utery",
    "wednesday": (
        "miércoles miercoles mercredi mittwoch mercoledì mercoledi quarta-feira środa środę "
        "sroda srode středa středu streda stredu"
    ),
    "thursday": "jueves jeudi donnerstag giovedì giovedi quinta-feira czwartek čtvrtek ctvrtek",
    "friday": "viernes vendredi freitag venerdì venerdi sexta-feira piątek piatek pátek patek",
    "saturday": "samedi samstag sonnabend sobota sobotę sobote sobotu",
    "sunday": "dimanche sonntag niedziela niedzielę niedziele neděle neděli nedele nedeli",
}
_WEEKDAYS_IN_ARABIC = {
    # A new user, a pharmacist in Cairo: "امتحان يوسف العربي الخميس الجاي" was read as no day;
    # another, writing Persian: "سه‌شنبه" and "پنجشنبه" were found by no Tuesday or Thursday.
    "monday": "الاثنين الإثنين الاتنين الإتنين دوشنبه دو\u200cشنبه",
    "tuesday": "الثلاثاء الثلاثا التلات سه\u200cشنبه سهشنبه",
    "wednesday": "الأربعاء الاربعاء چهارشنبه چهار\u200cشنبه",
    "thursday": "الخميس پنجشنبه پنج\u200cشنبه",
    "friday": "الجمعة الجمعه جمعه",
    "saturday": "السبت شنبه",
    "sunday": "الأحد الاحد یکشنبه یک\u200cشنبه",
}
_PERSIAN_DAY_IN_TWO = lazy_compile(r"(?<![\w-])(یک|دو|سه|چهار|پنج)[ \t]+شنبه(?![\w-])")
"""A Persian weekday typed with a space for its half-space: "سه شنبه" is Tuesday, not Saturday."""
_WEEKDAY_ELSEWHERE = {
    name: english
    for weekdays in (_WEEKDAYS_ELSEWHERE, _WEEKDAYS_IN_ARABIC)
    for english, names in weekdays.items()
    for name in names.split()
}
_WEEKDAY_WITH_ARTICLE = {
    "lunes": "monday",
    "sábado": "saturday",
    "sabado": "saturday",
    "sabato": "saturday",
    "domingo": "sunday",
    "domenica": "sunday",
}
WEEKDAY_NAMES_ELSEWHERE = {**_WEEKDAY_ELSEWHERE, **_WEEKDAY_WITH_ARTICLE}
"""Each weekday's name in Spanish, French, German, Italian, Portuguese, Polish, Czech or
Arabic → its English name ("w piątek": a new user, a taxi driver from Poland; "v pátek 9.
dubna": a new user, a developer in Prague)."""
_ON_OR_EVERY = (
    r"(?:(?P<on>am|el|le|il|lo|o|no|na|au)\s+|"
    r"(?P<every>jeden|cada|chaque|ogni|todos\s+los|tous\s+les|todas\s+as)\s+)"
)
_NAMED_ELSEWHERE = lazy_compile(
    rf"(?i)(?<![\w-]){_ON_OR_EVERY}?("
    + "|".join(sorted(_WEEKDAY_ELSEWHERE, key=len, reverse=True))
    + r")(?![\w-])"
    r"|(?<![\w-])(?P<article>(?:el|los|este|pr[oó]ximo|cada|il|la|ogni|questo|o|no|neste)\s+)"
    r"(lunes|s[aá]bado|sabato|domingo|domenica)(?![\w-])"
)
"""A weekday in Spanish, French, German, Italian or Portuguese: "el martes", "am Freitag",
"jeudi" (a translator's "qué tengo el jueves?" found nothing of Thursday). Those that are
names or other words too ("Domingo", "lunes" the moons) only after an article."""
_ELSEWHERE_WORDS = frozenset(_WEEKDAY_ELSEWHERE) | frozenset(_WEEKDAY_WITH_ARTICLE)
_WORD_OR_HYPHENED = lazy_compile(r"[\w-]+")


_IN_TWO_WORDS = lazy_compile(
    r"(?i)(?<![\w-])(?:(?P<thu>th[ứu])\s+(?P<vi>hai|ba|t[ưu]|n[ăa]m|s[áa]u|b[ảa]y)|"
    r"(?P<sunday>ch[ủu]\s+nh[ậa]t)|dydd\s+(?P<cy>llun|mawrth|mercher|iau|gwener|sadwrn|sul))"
    r"(?![\w-])"
)
"""A weekday in two words: Vietnamese, with its marks or without ("thứ Sáu 5/3", "thu hai":
a new user, a nurse in Sydney, whose roster named no day), and Welsh ("dydd Llun")."""
_TWO_WORD_NAMES = {
    "hai": "monday", "ba": "tuesday", "tư": "wednesday", "tu": "wednesday",
    "năm": "thursday", "nam": "thursday", "sáu": "friday", "sau": "friday",
    "bảy": "saturday", "bay": "saturday",
    "llun": "monday", "mawrth": "tuesday", "mercher": "wednesday", "iau": "thursday",
    "gwener": "friday", "sadwrn": "saturday", "sul": "sunday",
}  # fmt: skip
_FIRST_OF_TWO = frozenset(("thứ", "thu", "chủ", "chu", "dydd"))


def _in_two_words(found: re.Match[str]) -> str:
    if found["sunday"]:
        return "sunday"
    return _TWO_WORD_NAMES[(found["vi"] or found["cy"]).lower()]


_TWO_WORDS_BEFORE = lazy_compile(r"(\S+)\s+(\S+?)[.,]?\s+\Z")


def weekday_in_two_words_before(text: str, at: int) -> str:
    """The English name of a two-word weekday just before `at` ("thứ Sáu 5/3"), or ""."""
    found = _TWO_WORDS_BEFORE.search(text, max(0, at - 24), at)
    if found is None:
        return ""
    named = _IN_TWO_WORDS.fullmatch(f"{found[1]} {found[2]}")
    return "" if named is None else _in_two_words(named)


def weekdays_in_english(text: str) -> str:
    """`text` with each weekday said in another language in English ("el jueves")."""
    words = _WORD_OR_HYPHENED.findall(text.lower())
    if not _FIRST_OF_TWO.isdisjoint(words):
        text = _IN_TWO_WORDS.sub(_in_two_words, text)
    # Every text indexed is read so, and the case-blind pattern tried at each place cost
    # a tenth of an import: its weekdays are whole words, so most texts are passed over
    # by their words alone.
    if _ELSEWHERE_WORDS.isdisjoint(words):
        return text
    if "شنبه" in text:
        text = _PERSIAN_DAY_IN_TWO.sub("\\1\u200cشنبه", text)
    return _NAMED_ELSEWHERE.sub(_in_english, text)


def _in_english(found: re.Match[str]) -> str:
    """A weekday and the word before it in English: "am Freitag" is "on friday".

    Found by an adversary: "Zahnarzt am Freitag um 10" was found by no "what's on Friday?".
    """
    if found["article"]:
        return found["article"] + _WEEKDAY_WITH_ARTICLE[found[5].lower()]
    english = _WEEKDAY_ELSEWHERE[found[3].lower()]
    if found["every"]:
        return f"every {english}"
    return f"on {english}" if found["on"] else english


def names_a_weekday_elsewhere(text: str) -> bool:
    """Whether `text` names a weekday in another language (read anew by 0028)."""
    return weekdays_in_english(text) != text


def written_out(text: str) -> str:
    """`text` with each short word written out, in lower case.

    Those of `SHORT_WORDS`, a weekday's three letters after "on", "next" and the like, and
    a weekday or a day named relative to now said in another language
    (`weekdays_in_english`, `memory.days_elsewhere`).
    """
    text = days_in_english(weekdays_in_english(text))
    lowered = text.lower()
    # Every text indexed is read so: a few substring tests and a scan of the lower-cased
    # text pass most over (the case-blind patterns cost a tenth of an import's time).
    if any(part in lowered for part in _SHORT_PARTS):
        text = _SHORT.sub(lambda found: SHORT_WORDS[found[1].casefold()], text)
    if _A_WEEKDAY_SHORT.search(lowered) is not None:
        text = _WEEKDAY_NAMED.sub(
            lambda found: found[1] + WEEKDAY_SHORTS[found[2].casefold()], text
        )
        text = _WEEKDAY_TIMED.sub(lambda found: WEEKDAY_SHORTS[found[1].casefold()], text)
    return text


def has_short_words(text: str) -> bool:
    """Whether `text` holds a word `written_out` writes out (for stores indexed before)."""
    return any(
        pattern.search(text) is not None for pattern in (_SHORT, _WEEKDAY_NAMED, _WEEKDAY_TIMED)
    )
