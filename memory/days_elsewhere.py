"""Days named relative to now in other languages, in English.

Spanish, German, French, Italian, Portuguese, Polish, Czech, Egyptian Arabic and Persian
(in its script and in Latin letters), and Japanese, Chinese and Korean.

Found by a new user, a contractor in Valencia: "qué tengo esta semana?" found nothing that
"what do I have on this week?" found. Read as `memory.short_words` reads a weekday said in
another language: the phrase becomes its English words, for the index and for questions.
A word that is also another ("mañana" is the morning after "la", "Morgen" after "guten")
is read as a day only where it can be one.
"""

from __future__ import annotations

import re

from memory.lazy_patterns import lazy_compile
from memory.letters import CJK_LETTER

_PHRASES = {
    # Each first: Vietnamese, with its marks and without ("hẹn bác sĩ ngày mai", a new user, a
    # nurse in Sydney), and Welsh ("yfory", "wythnos nesaf": a new user in Wales).
    "the day after tomorrow": (
        "ngày kia", "ngay kia", "ngày mốt", "ngay mot", "drennydd",
        "pasado mañana", "pasado manana", "übermorgen", "uebermorgen", "après-demain",
        "apres-demain", "dopodomani", "depois de amanhã", "depois de amanha", "pojutrze",
        "pozítří", "pozitri", "بعد بكرة", "بعد بكره", "بعد غد", "ba3d bokra", "ba3d bukra",
        "پس\u200cفردا", "پس فردا", "pas farda", "pasfarda",
    ),
    "today": (
        "hôm nay", "hom nay", "heddiw",
        "hoy", "heute", "aujourd'hui", "aujourd\u2019hui", "oggi", "hoje", "dzisiaj", "dnes",
        "dneska", "النهاردة", "النهارده", "اليوم", "el naharda", "elnaharda", "naharda",
        "امروز", "emrooz", "emruz",
    ),
    # Polish too: "jutro mrs patel cancelled" (a new user, a taxi driver from Poland).
    # And Czech: "zítra" (a new user, a developer in Prague).
    # And Egyptian Arabic, in its script and in Arabizi: "بكرة", "bokra" (a new user, a
    # pharmacist in Cairo).
    "tomorrow": (
        "ngày mai", "ngay mai", "yfory", "fory",
        "demain", "domani", "amanhã", "amanha", "jutro", "zítra", "zitra", "بكرة", "بكره",
        "غدا", "bokra", "bukra", "فردا", "farda",
    ),
    "yesterday": (
        "hôm qua", "hom qua", "ddoe",
        "ayer", "gestern", "ieri", "ontem", "wczoraj", "včera", "vcera", "امبارح", "إمبارح",
        "أمس", "امس", "embare7", "mbare7", "دیروز", "dirooz", "diruz",
    ),
    "this week": (
        "tuần này", "tuan nay", "yr wythnos hon", "wythnos yma",
        "esta semana", "diese woche", "cette semaine", "questa settimana", "tento týden",
        "tento tyden", "الأسبوع ده", "الاسبوع ده", "هذا الأسبوع", "هذا الاسبوع",
    ),
    "next week": (
        "tuần sau", "tuan sau", "tuần tới", "tuan toi", "wythnos nesaf", "wythnos nesa",
        "la semana que viene", "la próxima semana", "la proxima semana", "la semana próxima",
        "próxima semana", "proxima semana", "semana que vem", "nächste woche",
        "naechste woche", "nächster woche", "la semaine prochaine", "semaine prochaine",
        "la prossima settimana", "prossima settimana", "settimana prossima",
        "w przyszłym tygodniu", "w przyszlym tygodniu", "agle hafte", "příští týden",
        "pristi tyden", "الأسبوع الجاي", "الاسبوع الجاي", "الأسبوع القادم", "الاسبوع القادم",
        "el esbo3 el gai", "هفته بعد", "هفته\u200cی بعد", "هفته آینده", "هفته\u200cی آینده",
        "hafte-ye ba'd", "hafteye bad", "hafte bad",
    ),
    "this weekend": (
        "cuối tuần này", "cuoi tuan nay", "penwythnos yma", "y penwythnos hwn",
        "este fin de semana", "este finde", "dieses wochenende", "am wochenende", "ce week-end",
        "ce weekend", "questo fine settimana", "questo weekend", "este fim de semana",
    ),
    "next month": (
        "tháng sau", "thang sau", "tháng tới", "thang toi", "mis nesaf", "mis nesa",
        "el mes que viene", "el próximo mes", "el proximo mes", "nächsten monat",
        "naechsten monat", "le mois prochain", "il mese prossimo", "il prossimo mese",
        "o próximo mês", "mês que vem", "w przyszłym miesiącu", "w przyszlym miesiacu",
        "příští měsíc", "pristi mesic", "الشهر الجاي", "الشهر القادم", "ماه بعد", "ماه آینده",
    ),
    "this month": (
        "tháng này", "thang nay", "y mis hwn", "mis yma",
        "este mes", "diesen monat", "ce mois-ci", "questo mese", "este mês",
    ),
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


_WRITTEN_TOGETHER = {
    "the day after tomorrow": ("明後日", "あさって", "后天", "後天", "모레"),
    "tomorrow": ("明日", "あした", "明天", "내일"),
    "today": ("今日", "今天", "오늘"),  # not "きょう": "きょうだい" are siblings
    "yesterday": ("昨日", "きのう", "昨天", "어제"),
    "this weekend": ("今週末", "这个周末", "這個週末", "이번 주말"),
    "next week": ("来週", "下周", "下星期", "下週", "다음 주", "다음주"),
    "this week": ("今週", "这周", "本周", "這週", "이번 주", "이번주"),
    "next month": ("来月", "下个月", "下個月", "다음 달", "다음달"),
    "this month": ("今月", "这个月", "這個月", "이번 달", "이번달"),
}  # fmt: skip
_TOGETHER_IN_ENGLISH = {
    said: english for english, phrases in _WRITTEN_TOGETHER.items() for said in phrases
}
_TOGETHER = lazy_compile(
    "(?:"
    + "|".join(re.escape(said) for said in sorted(_TOGETHER_IN_ENGLISH, key=len, reverse=True))
    # Not a name: "明日香" (Asuka).
    + r")(?!香)"
)
"""Japanese, Chinese and Korean, written without spaces between words: read anywhere, the
English words set apart ("明日は歯医者 10時", remembered by a new user in Berlin, named no
day, and weeks later nothing said which day "tomorrow" had been)."""


def days_in_english(text: str) -> str:
    """`text` with each day named relative to now in another language in English."""
    if CJK_LETTER.search(text) is not None:
        text = _TOGETHER.sub(lambda found: f" {_TOGETHER_IN_ENGLISH[found.group()]} ", text)
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


def names_a_day_written_together(text: str) -> bool:
    """Whether `text` names a day relative to now in Japanese, Chinese or Korean (0050)."""
    return CJK_LETTER.search(text) is not None and _TOGETHER.search(text) is not None
