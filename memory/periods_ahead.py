"""The last day of a period to come a message names without a date, for keeping it till then.

Found by an adversary: "big trip to Japan next year", "renovation next summer", "sales
start in the new year", "dentist in 3 months", "visa expires in six months" and "exam in
the spring", said on 1 October, were deleted at 30 days, before the time they name
(`memory.days_to_keep` reads the days and months said as dates).
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from memory.lazy_patterns import lazy_compile
from memory.numbers import NUMBER_WORDS

COUNTS = rf"\d{{1,2}}|an?|{'|'.join(sorted(NUMBER_WORDS, key=len, reverse=True))}"
"""How many, in digits or words ("3", "a", "six")."""
_IN_SOME = lazy_compile(
    r"(?i)\b(?P<in>in\s+(?:about\s+|around\s+|another\s+)?)?"
    rf"(?P<few>a\s+couple\s+of|a\s+few|half\s+an?|{COUNTS})\s+"
    r"(?P<unit>weeks?|wks?|months?|mos|mths?|years?|yrs?)\b(?P<half>\s+and\s+a\s+half)?"
    r"(?P<tail>\s+(?:from\s+now|away|to\s+go|until|till|time|later)\b)?"
)
"""A time said by how long till it: "in 3 months", "in half a year", "in a couple of months",
"ten weeks until the marathon", "the exam is 5 weeks away", "a month and a half from now"
(an adversary saw the last ones deleted at 30 days, before the time they name)."""
_FOREIGN_COUNTS = {
    "ein": 1, "einem": 1, "einer": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "fuenf": 5,
    "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "zwölf": 12, "zwoelf": 12,
    "un": 1, "una": 1, "uno": 1, "um": 1, "uma": 1, "une": 1, "dos": 2, "dois": 2, "duas": 2,
    "deux": 2, "due": 2, "tres": 3, "três": 3, "trois": 3, "tre": 3, "cuatro": 4, "quatro": 4,
    "quatre": 4, "quattro": 4, "cinco": 5, "cinq": 5, "cinque": 5, "seis": 6, "six": 6,
    "sei": 6, "siete": 7, "sete": 7, "sept": 7, "sette": 7, "ocho": 8, "oito": 8, "huit": 8,
    "otto": 8, "nueve": 9, "nove": 9, "neuf": 9, "diez": 10, "dez": 10, "dix": 10,
    "dieci": 10, "doce": 12, "doze": 12, "douze": 12, "dodici": 12,
}  # fmt: skip
_IN_SOME_ELSEWHERE = lazy_compile(
    r"(?i)\b(?:in|en|dentro\s+de|daqui\s+a|em|dans|tra|fra|entre)\s+"
    rf"(?P<few>\d{{1,2}}|{'|'.join(sorted(_FOREIGN_COUNTS, key=len, reverse=True))})\s+"
    r"(?P<unit>wochen|woche|monaten|monat|jahren|jahr|semanas?|mes(?:es)?|meses|a(?:ñ|n)os?|"
    r"anos?|semaines?|mois|ans?|ann(?:é|e)es?|settimane?|mesi|mese|anni|anno)\b"
)
"""The same in German, Spanish, Portuguese, French and Italian: "Zahnarzt in drei Monaten",
"dentista daqui a três meses", "dentista dentro de 3 meses", "dans deux semaines" (an
adversary saw each deleted at 30 days, before the time they name)."""
_UNITS_ELSEWHERE = (
    ("woche", "weeks"), ("semana", "weeks"), ("semaine", "weeks"), ("settiman", "weeks"),
    ("monat", "months"), ("mes", "months"), ("mois", "months"),
    ("jahr", "years"), ("año", "years"), ("ano", "years"), ("an", "years"),
)  # fmt: skip
_NEXT_YEAR = lazy_compile(
    # Not "the next year", told of the past: "in 2019 I started uni, the next year I
    # dropped out" was kept through next year (an adversary).
    r"(?i)\b(?:(?<!\bthe\s)next\s+(?:year|yr)(?:['\u2019]s)?(?=\W|$)|para\s+o\s+ano(?!\s+passado)|"
    r"(?:in|after|early\s+in)\s+the\s+new\s+year|after\s+new\s+year|"
    r"n(?:ä|ae)chstes\s+jahr|el\s+a(?:ñ|n)o\s+que\s+viene|el\s+pr(?:ó|o)ximo\s+a(?:ñ|n)o|"
    r"l['\u2019]ann(?:é|e)e\s+prochaine|l['\u2019]an\s+prochain|l['\u2019]anno\s+prossimo|"
    r"o\s+pr(?:ó|o)ximo\s+ano|no\s+pr(?:ó|o)ximo\s+ano)\b(?!['\u2019]s)"
)
_THIS_YEAR = lazy_compile(
    r"(?i)\b(?:(?:the\s+)?end\s+of\s+(?:the|this)\s+year|year[ -]end|(?:later|by\s+the\s+end\s+of)"
    r"\s+this\s+year|this\s+year)\b"
)
"""'before the end of the year', 'bonus paid at year end', 'later this year' (a second
adversary: each deleted at 30 days)."""
_SEASON = lazy_compile(
    r"(?i)\b(?P<which>next|this|in\s+the|in|coming|over\s+the|come|by|before\s+the|until\s+the|"
    r"n(?:ä|ae)chsten|diesen|el\s+pr(?:ó|o)ximo|este|la\s+prossima|questa|o\s+pr(?:ó|o)ximo|"
    r"neste|no\s+pr(?:ó|o)ximo)\s+(?P<season>spring|summer|autumn|fall|winter|sommer|winter|"
    r"fr(?:ü|ue)hling|herbst|verano|invierno|primavera|oto(?:ñ|n)o|estate|inverno|autunno|"
    r"ver(?:ã|a)o|outono)\b"
    # "el verano que viene", "no verão que vem" (a second adversary).
    r"|\b(?:el|la|o|no|a)\s+(?P<season_then>verano|invierno|primavera|oto(?:ñ|n)o|ver(?:ã|a)o|"
    r"inverno|outono)\s+que\s+v(?:iene|em)\b"
    r"|\b(?P<season_first>(?:l['\u2019])?(?:(?:é|e)t(?:é|e)|hiver|printemps|automne))\s+prochain"
)
_SEASONS_ELSEWHERE = {
    "sommer": "summer", "verano": "summer", "estate": "summer", "verão": "summer",
    "verao": "summer", "été": "summer", "ete": "summer", "invierno": "winter",
    "inverno": "winter", "hiver": "winter", "frühling": "spring", "fruehling": "spring",
    "primavera": "spring", "printemps": "spring", "herbst": "autumn", "otoño": "autumn",
    "otono": "autumn", "autunno": "autumn", "outono": "autumn", "automne": "autumn",
}  # fmt: skip
"""A season in German, Spanish, Italian, Portuguese or French: "nächsten Sommer fahren wir
nach Italien" (an adversary: deleted at 30 days)."""
_TOLD_OF_THE_PAST = lazy_compile(
    r"(?i)\b(?:was|were|went|had|did|said|told|saw|met|got|came|left|last|ago)\b"
)
"""A season said with "in" alone is the one to come unless the text tells of the past."""
_NEXT_IN_WORDS = frozenset({"next", "nächsten", "naechsten"})
_SEASON_ENDS = {"spring": 5, "summer": 8, "autumn": 11, "fall": 11, "winter": 2}
"""The month each season ends in (the northern one: the app's users say it so)."""


def last_day_of_periods(text: str, said: date) -> list[date]:
    """The last day of each period to come `text`, said on `said`, names."""
    days: list[date] = []
    for found in _IN_SOME.finditer(text):
        if not (found["in"] or found["tail"]):
            continue  # "3 months of rent", "two years old": no time to come
        days.append(
            _after(
                said,
                _how_many(found["few"]) + (0.5 if found["half"] else 0),
                found["unit"].casefold(),
            )
        )
    for found in _IN_SOME_ELSEWHERE.finditer(text):
        unit = found["unit"].casefold()
        english = next(eng for start, eng in _UNITS_ELSEWHERE if unit.startswith(start))
        few = found["few"].casefold()
        count = int(few) if few.isdigit() else _FOREIGN_COUNTS[few]
        days.append(_after(said, float(count), english))
    for found in _NEXT_YEAR.finditer(text):
        new_year = found.group().casefold().endswith("new year")
        days.append(date(said.year + 1, 1, 31) if new_year else date(said.year + 1, 12, 31))
    if _THIS_YEAR.search(text):
        days.append(date(said.year, 12, 31))
    for found in _SEASON.finditer(text):
        said_season = found["season"] or found["season_first"] or found["season_then"]
        season = said_season.casefold().removeprefix("l'")
        season = _SEASONS_ELSEWHERE.get(season.removeprefix("l\u2019"), season)
        which = "next" if found["which"] is None else found["which"].casefold()
        if which == "in" and _TOLD_OF_THE_PAST.search(text):
            continue  # "said in spring", "we met in summer": gone by
        days.append(_season_end(season, said, "next" if which in _NEXT_IN_WORDS else which))
    return days


def period_after(start: date, count: str, unit: str) -> date:
    """The last day of `count` (digits or words) days, weeks, months or years from `start`."""
    return _after(start, _how_many(count), unit)


def _how_many(said: str) -> float:
    folded = " ".join(said.casefold().split())
    return {"a couple of": 2.0, "a few": 3.0, "half a": 0.5, "half an": 0.5}.get(
        folded, float(_count(folded))
    )


def _after(said: date, count: float, unit: str) -> date:
    """The last day of `count` days, weeks, months or years from `said`."""
    if unit.startswith("d"):
        return said + timedelta(days=round(count))
    if unit.startswith("w"):
        return said + timedelta(days=round(count * 7))
    months = round(count * 12) if unit.startswith("y") else int(count)
    if unit.startswith("y") and count == int(count):
        return date(said.year + int(count), 12, 31)  # "in 2 years": that year, whole
    index = said.month - 1 + months
    end = month_end(said.year + index // 12, index % 12 + 1)
    return end + timedelta(days=15) if not unit.startswith("y") and count != int(count) else end


def _count(said: str) -> int:
    folded = said.casefold()
    if folded in ("a", "an"):
        return 1
    return int(folded) if folded.isdigit() else int(NUMBER_WORDS.get(folded, "1"))


def month_end(year: int, month: int) -> date:
    """The last day of a month."""
    return date(year, month, calendar.monthrange(year, month)[1])


def _season_end(season: str, said: date, which: str) -> date:
    """The end of the season meant: this one or the next to come, or the one after that."""
    ends = _SEASON_ENDS[season]
    year = said.year + 1 if season == "winter" and said.month >= 3 else said.year
    end = month_end(year, ends)
    if end < said:
        end = month_end(year + 1, ends)
    if which == "next" and end.month - 2 <= said.month <= end.month and end.year == said.year:
        end = month_end(year + 1, ends)  # said in the season: next is a year on
    return end
