"""The days a message names in the ways the index reads no date, for keeping it until then.

Found by an adversary: "mammogram 8/1", "Concert on 20.12", "Dentist on 14/01/27",
"Termin am 14. Januar", "Visa expires 2027-03", "MOT due in January" and "Lease ends end of
February", each said in November, were deleted at 30 days as if they named no day to come.
The index leaves some of these alone on purpose ("on 1/2 tablet" is no date), but keeping
a message a little longer costs nothing: a day read here only keeps it (`memory.days_gone`).
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from functools import lru_cache

from memory.date_terms import (
    MAY_THE_VERB,
    nearest_day,
    said_just_before,
    the_weekdays_reading,
    weekday_before,
)
from memory.lazy_patterns import lazy_compile
from memory.month_names import IN_WELSH, MONTH_OF_ANY_LANGUAGE, MONTHS, WELSH_ORDINAL
from memory.months_ahead import months_ahead
from memory.more_days import (
    A_YEAR_ON,
    days_written_otherwise,
    kept_for_years,
    last_day_of_stays,
)
from memory.periods_ahead import last_day_of_periods, month_end

_MONTH_OF = MONTH_OF_ANY_LANGUAGE
_MONTH_NAME = "|".join(sorted(_MONTH_OF, key=len, reverse=True))
_NUMERIC = lazy_compile(
    r"(?<!scored\s)(?<!score\s)(?<!rated\s)(?<!passed\s)(?<!got\s)(?<!won\s)"
    # A blood pressure: "BP 13/8" (an adversary saw it kept past its 30 days as a date).
    r"(?<!bp\s)(?<!BP\s)(?<!Bp\s)(?<!pressure\s)(?<!Pressure\s)"
    r"(?<![\d/.:-])(?P<day>[0-3]?\d)[/.](?P<month>[01]?\d)(?:[/.](?P<year>\d{4}|\d{2}))?"
    r"(?![\d/:]|\.\d)(?!\s*(?:kg|g|km|m|cm|mm|h|hrs?|hours?|bar|psi|l|ml|mg|x|%|mins?|of|tablets?|"
    r"pills?|cups?|doses?|tsp|tbsp|tests?|marks?|points?|stars?)\b)"
)
_YEAR_FIRST = lazy_compile(r"(?<![\d/.-])(20\d\d)-([01]?\d)-([0-3]?\d)(?![\d/.-])")
"""'gym on 2027-05-20', as a form or a calendar writes it (an adversary saw it deleted at
30 days, its year-month read as the month's end at best)."""
_YEAR_MONTH = lazy_compile(
    r"(?<![\d/-])(?P<year>20\d\d)[-/](?P<month>[01]\d)(?![\d/-])"
    r"|(?<![\d/.-])(?P<month_first>[01]?\d)/(?P<year_after>20\d\d)(?![\d/])"
)
"""'2027-03', '2027/03', '03/2027', '3/2027'."""
_A_YEAR = lazy_compile(r"(?<![\d/.-])(20\d\d)(?![\d/.-])")
"""'Lease ends 2027': a year to come, kept to its end."""
_NAMED = lazy_compile(
    rf"(?i)(?:(?P<day>[0-3]?\d)(?:st|nd|rd|th|\.|º|{WELSH_ORDINAL})?\s+(?:de\s+|of\s+|o\s+)?)?"
    rf"\b(?P<month>{_MONTH_NAME})\b\.?"
    rf"(?:\s+(?:the\s+)?(?P<after>[0-3]?\d)(?:st|nd|rd|th)?\b)?(?:,?\s+(?P<year>20\d\d))?"
)
_ARABIC_LETTER = lazy_compile(r"[\u0600-\u06ff]")
_ALSO_A_WORD = frozenset("may mai mar mars marco jan dic ago ene mei augustus".split())
_A_MONTH_AFTER_A_CUE = frozenset(("may", "mai"))
_MONTH_CUE = lazy_compile(
    r"(?i)\b(?:in|im|by|until|till|before|since|through|early|late|mid|end\s+of|start\s+of|"
    r"beginning\s+of|next|coming|ab|bis|seit|anfang|ende|mitte|en|fin|d[ée]but)[\s-]+$"
)
"""What makes "May" a month, with no day: "wedding in May", "Hochzeit im Mai", "by may" (an
adversary saw each deleted at 30 days); "I may go" stays a verb."""
_TOLD_OF_THE_PAST = lazy_compile(
    r"(?i)\b(?:was|were|went|had|got|did|loved|enjoyed|war|waren|fue|fueron|foi|foram|"
    r"[ée]tait|[ée]taient)\b"
)
"""Past: "the wedding in May was lovely", "Hochzeit im Mai war schön" (a second adversary
saw each kept to May's end)."""
_MAY_THE_VERB = lazy_compile(MAY_THE_VERB)
_A_NAME_THEN = lazy_compile(
    r"(?:['\u2019]s\s|\s+(?:said|says|called|came|told|texted|rang|and\s+i|the\s+halls|"
    r"will\s+(?:visit|come|stay|call|be\s+here)|(?:is|was)\s+(?:coming|visiting|staying)|"
    r"(?:is|was)\s+(?:my|our|his|her|their)\s|"
    # An age: "June will be 40 soon", "April turns 5" (an adversary: kept till June).
    r"(?:will\s+(?:be|turn)|turns|turned|turning|is|was)\s+\d{1,3}\b"
    r"(?!\s*(?:weeks?|days?|months?|degrees|°|%|st\b|nd\b|rd\b|th\b))))"
)
"""What follows a month named as a person, or in a song: "April said hi", "August is my
cousin", "June's mum", "Dec the halls", "April will visit us soon", "my daughter April is
coming next week" (a second adversary: each kept till April), "June will be 40 soon"."""
_FEASTS = {
    "new year's eve": (12, 31), "nye": (12, 31), "silvester": (12, 31),
    "nochevieja": (12, 31), "réveillon": (12, 31), "hogmanay": (12, 31),
    "new year's day": (1, 1), "christmas eve": (12, 24), "xmas eve": (12, 24),
    "heiligabend": (12, 24), "nochebuena": (12, 24), "christmas day": (12, 25),
    "christmas": (12, 25), "xmas": (12, 25), "navidad": (12, 25), "noël": (12, 25),
    "natal": (12, 25), "weihnachten": (12, 25), "boxing day": (12, 26),
    "stephen's day": (12, 26), "halloween": (10, 31), "valentine's day": (2, 14),
    "valentine's": (2, 14), "patrick's day": (3, 17), "paddy's day": (3, 17),
}  # fmt: skip
"""Days named by their feast: "Party on New Year's Eve", "Dentist on Christmas Eve" (an
adversary saw each deleted at 30 days, before its day)."""
_FEAST = lazy_compile(
    r"(?i)\b(?:"
    + "|".join(
        re.escape(name).replace("'", "['\u2019]?").replace(r"\ ", r"\s+")
        for name in sorted(_FEASTS, key=len, reverse=True)
    )
    + r")(?!\w)"
)


def _without_marks(name: str) -> str:
    """A feast's name as its day is looked up by: "New Years Day" is "new year's day"."""
    return re.sub(r"\s+", " ", re.sub(r"['\u2019]", "", name.casefold()))


_FEAST_DAYS = {_without_marks(name): day for name, day in _FEASTS.items()}
"""Each feast's day by its name without the apostrophe, which the patterns make optional
("valentines day", "paddys day" matched, and their lookup failed)."""
_SHORT_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_RUN_TOGETHER = lazy_compile(
    rf"(?i)(?<![\w.-])(?P<day>[0-3]?\d)(?:st|nd|rd|th)?[-./]?(?P<month>{_SHORT_MONTH})"
    r"(?:[-./]?(?P<year>20\d\d|\d\d))?(?![\w-])"
    rf"|(?<![\w.-])(?P<month_first>{_SHORT_MONTH})(?P<day_after>[0-3]?\d)(?:st|nd|rd|th)?"
    r"(?![\w-])"
)
"""'Surgery 14JAN27', as a ticket or a form writes it (an adversary); with no year, '12JAN',
'JAN12', '12-JAN', '12.JAN', '1stFeb' (a later one saw each deleted at 30 days, to come);
the month in full or with its day's ending, '12MARCH', '20SEPT', 'Apr3rd', '3rdApril' (a
third); with slashes or a year after a dash, '12/Mar/2027', '12-MAR-27', '12/MAR' (a fourth)."""
_TO_COME = lazy_compile(
    r"(?i)\b(?:this|by|next|for|until|till|before|coming|over|"
    # "antes de Navidad tengo que …" said in June (a new user, a nurse in Madrid, saw it
    # deleted at 30 days where "before Christmas" was kept); in French, German, Italian
    # and Portuguese too.
    r"antes\s+de(?:\s+la)?|antes\s+del?|para|hasta|esta|este|pr[óo]xim[ao]s?|avant|pour|"
    r"jusqu['\u2019]?\s*[àa]|cette|ce|vor|bis|zu|dieses|diesem|diese|n[äa]chste[sn]?|"
    r"prima\s+di|entro|questo|questa|antes\s+do|at[ée]|neste|nesta)\s+$"
)
_DONE_BEFORE = lazy_compile(
    r"(?i)\b(?:started|began|happened|came|went|was|were|had|did|met|saw|"
    r"fue|fuimos|estuvo|pas[óo]|empez[óo]|hicimos|tuvimos|[ée]tait|war|waren)\b"
)
"""Done before the feast gone by: "the consultant started him on it before christmas", said
in January, names last Christmas (a new user, a carer, saw it kept till the next one)."""
_A_CHANGE_FROM = lazy_compile(
    r"(?i)(?<!apart\s)(?<!aside\s)(?<!away\s)\b(?:from|starting(?:\s+(?:in|on|from))?|as\s+of|beginning(?:\s+(?:in|on))?|desde|"
    r"a\s+partir\s+del?|d[èe]s|ab|[àa]\s+partir\s+d[eu]|a\s+partire\s+da)\s+"
    r"(?:(?:the|el|le|la)\s+)?(?:\d{1,2}(?:st|nd|rd|th|er|º)?\s+(?:de\s+|of\s+)?)?"
    rf"(?P<month>{_MONTH_NAME})(?![\w-])"
    # A range is no change: "from April to June", "desde el 1 de agosto hasta el 15".
    r"(?!\.?\s*(?:\d{1,2}(?:st|nd|rd|th)?\s*)?(?:[-\u2013\u2014]|(?:to|until|till|through|thru|"
    r"hasta|al|a|bis|au|jusqu|fino|at[ée]|for|durante|pendant|f[üu]r)\b))"
)
"""What holds from a month on, not for a while from it ("Sister visiting from 1 Dec for six
weeks"): "desde abril cambio a turno de mañanas", "from July my shift
is afternoons" (a new user, a nurse in Madrid: each was deleted at the end of its month,
before the older shift it changed). Kept a year, as what lasts (`memory.more_days`)."""
_LOOKED_BACK = 30
"""As `memory.days_gone` reads a day without its year: up to this many days back is gone."""


_NOT_HELD = lazy_compile(
    r"(?i)\?\s*$|\b(?:weather|hot|cold|warm|rain\w*|snow\w*|sunny|fr[ií]o|calor|llueve|lluvia|"
    r"tiempo|wetter|kalt|hei(?:ß|ss)|regen\w*|froid|chaud|pluie|freddo|caldo|pioggia)\b"
)
"""A question, or the weather: "what should I cook from July on?", "desde abril no hace
frío" (a second adversary saw each kept a year)."""


def _held_from_a_month(text: str, said: date) -> list[date]:
    if _NOT_HELD.search(text):
        return []
    if any(found["month"] not in _ALSO_A_WORD for found in _A_CHANGE_FROM.finditer(text)):
        return [date.fromordinal(said.toordinal() + A_YEAR_ON)]
    return []


@lru_cache(maxsize=16)
def _told_of_the_past(text: str) -> bool:
    # Asked for each date a text names: once is enough.
    return _TOLD_OF_THE_PAST.search(text) is not None


def tells_of_the_past(text: str) -> bool:
    """Whether `text` tells of what was ("was charged … on 01/03"), not of a move or a plan."""
    return _TOLD_OF_THE_PAST.search(text) is not None and _A_MOVE_OR_A_PLAN.search(text) is None


_A_MOVE_OR_A_PLAN = lazy_compile(
    r"(?i)\b(?:moved|postponed|changed|rescheduled|pushed|brought|booked|planned|scheduled|"
    r"arranged|will|going\s+to|gonna|next|due|until|till|from|starts?|begins?|ends?|new|now|"
    r"instead|cancell?ed|rebooked|again|still)\b"
)


def last_day_said(text: str, said: date, *, kept: bool = True) -> str | None:
    """The last day `text`, said on `said`, names in these ways, as YYYYMMDD; or None.

    A month named without its day is its last day ("MOT due in January": kept through
    January). `kept`: the days it is kept until too, read as late as they may be (a day
    and month read month first as well), and the day a message asking to be kept, or
    giving one's own details, is kept until (`memory.more_days.kept_for_years`).
    """
    days: list[date] = kept_for_years(text, said) + _held_from_a_month(text, said) if kept else []
    days += _numeric_days(text, said, kept) + months_ahead(text, said)
    for found in _YEAR_FIRST.finditer(text):
        year, month, day = (int(part) for part in found.groups())
        days += _meant(said, month, day, year) if 1 <= month <= 12 else []
    for found in _YEAR_MONTH.finditer(text):
        if _no_year(text, found):
            continue  # "Build 2030-04 failed", "Serial 2029/12 is broken" (an adversary)
        year = int(found["year"] or found["year_after"])
        month = int(found["month"] or found["month_first"])
        if 1 <= month <= 12:
            days.append(month_end(year, month))
    days += [
        date(int(year[0]), 12, 31)
        for year in _A_YEAR.finditer(text)
        if int(year[0]) > said.year
        and not _no_year(text, year)
        # Far off, a year is one when said as one: "retire in 2045", not "lol whatever
        # 2086" or "my cat 2084 is called Biscuit" (an adversary: each kept till then).
        and (int(year[0]) <= said.year + _YEARS_AHEAD or _AS_A_YEAR.search(text, 0, year.start()))
    ]
    for feast in _FEAST.finditer(text):
        month, day = _FEAST_DAYS[_without_marks(feast.group())]
        nearest = nearest_day(month, day, said)  # "Christmas was lovely" said in January
        if (
            nearest < said
            and said_just_before(_TO_COME, text, feast.start())
            and not _DONE_BEFORE.search(text)
        ):
            # "this Christmas", "by Christmas" said in June: the one to come (a second
            # adversary saw each deleted at 30 days, last Christmas being nearer).
            nearest = nearest.replace(year=nearest.year + 1)
        days.append(nearest)
    for found in _RUN_TOGETHER.finditer(text):
        if found["month"] and _MAY_THE_VERB.match(text, found.end()):
            continue  # "the 2may be fine"
        month = _MONTH_OF[(found["month"] or found["month_first"]).casefold()[:3]]
        given = _full_year(found["year"])
        day = int(found["day"] or found["day_after"])
        days += _gone_or_to_come(_meant(said, month, day, given), given, text, said)
    days += _months_named(text, said)
    days += last_day_of_periods(text, said)
    days += days_written_otherwise(text, said)
    days += last_day_of_stays(text, max([said, *days]))
    if _EASTER.search(text):
        days.append(_easter_to_come(said, text))
    days += _weeks_of(text, said)
    # No plan is that far off: "I'll clean the garage in 50 years" was kept until then (an
    # adversary).
    days = [day for day in days if day.year <= said.year + FURTHEST_YEARS]
    return f"{max(days):%Y%m%d}" if days else None


def _weeks_of(text: str, said: date) -> list[date]:
    """The last days of the weeks `text` names by their first day.

    "half term is w/c 15th Feb" is kept through that week (a new user, a baker, saw it
    deleted on its Saturday).
    """
    days = []
    for week in _WEEK_OF.finditer(text):
        first = last_day_said(text[week.end() : week.end() + 30], said, kept=False)
        if first is not None:
            days.append(date.fromisoformat(first) + timedelta(days=6))
    return days


_WEEK_OF = lazy_compile(
    r"(?i)\b(?:w/c|w\.c\.|week\s+(?:commencing|beginning|starting|of))\s+(?=\S)"
)
_YEARS_AHEAD = 10
_AS_A_YEAR = lazy_compile(
    r"(?i)\b(?:in|by|until|till|from|after|before|around|circa|of|since|year)\s+$"
)
FURTHEST_YEARS = 30
"""No day is kept for further off than this many years from the day it was said."""


def _months_named(text: str, said: date) -> list[date]:
    """The days of the months `text` names by name, with their day or alone."""
    days: list[date] = []
    for named in _NAMED.finditer(text):
        name = named["month"].casefold()
        written_day: str | None = named["day"] or named["after"]
        if (
            written_day is None
            and (name in _ALSO_A_WORD or named["month"].islower() and len(name) <= 3)
            and not (
                name in _A_MONTH_AFTER_A_CUE
                and said_just_before(_MONTH_CUE, text, named.start())
                and not _told_of_the_past(text)
            )
        ):
            continue  # "I may go", "Jan is coming": a month only with its day
        if named["month"] == "may" and _MAY_THE_VERB.match(text, named.end()):
            continue  # "8 may be too many" (a second adversary)
        if name not in MONTHS and not _a_month_elsewhere(text, named):
            continue
        if written_day is None and _A_NAME_THEN.match(text, named.end()):
            continue  # "April said hi", "June is my aunt's name" (an adversary)
        which = None if written_day is None else int(written_day)
        year = _full_year(named["year"])
        days += _gone_or_to_come(_meant(said, _MONTH_OF[name], which, year), year, text, said)
    return days


def _numeric_days(text: str, said: date, kept: bool) -> list[date]:
    days: list[date] = []
    numeric = list(_NUMERIC.finditer(text))
    # A day above 12 said beside says the others are day first too: "I parked 12/1 to 14/1"
    # was kept to 1 December (a second adversary).
    day_first = any(int(found["day"]) > 12 for found in numeric)
    for found in numeric:
        day, month = int(found["day"]), int(found["month"])
        year = _full_year(found["year"])
        readings = [(month, day)]
        # Dotted, a date is day first wherever it is written so: "Friseur am 9.1." was kept
        # to 1 September (an adversary).
        dotted = "." in found.group()
        # Not of what was: "your card … was charged £32.50 … on 01/03" was kept to 3 January
        # next year (a new user, a taxi driver).
        if (
            kept
            and not day_first
            and not dotted
            and day <= 12
            and day != month
            and not _told_of_the_past(text)
        ):
            # Month first, as in the US: "Dentist 3/12" may be 12 March (an adversary saw it
            # deleted after 3 December); what comes next is asked of the day as read first
            # ("Fri 11/12" is no 12 November to come).
            readings.append((day, month))
        readings = _on_its_weekday(readings, year, weekday_before(text, found.start()), said)
        for month, day in readings:
            days += _gone_or_to_come(_meant(said, month, day, year), year, text, said)
    return days


def _on_its_weekday(
    readings: list[tuple[int, int]], year: int | None, weekday: int | None, said: date
) -> list[tuple[int, int]]:
    """Of a date's (month, day) `readings`, the one on the weekday named with it, if one is.

    Kept longer by a reading its weekday rules out, "PTA meeting na Tuesday 12/1" stayed
    until 1 December while its correction to Thursday went at 30 days (a new user).
    """
    if weekday is None or len(readings) < 2:
        return readings
    if year is not None:
        on_it = [
            (month, day)
            for month, day in readings
            if any(meant.weekday() == weekday for meant in _meant(said, month, day, year))
        ]
        return on_it if len(on_it) == 1 else readings
    that_day = the_weekdays_reading(readings, weekday, said)
    return readings if that_day is None else [that_day]


def _gone_or_to_come(meant: list[date], year: int | None, text: str, said: date) -> list[date]:
    """A day or a month just gone, said with no year and no word of the past: next year's.

    "I'm going to Japan in September" and "Flight to Tokyo 20 September", said in October,
    were deleted at 30 days (adversaries). Kept a year longer if it was the one gone, not
    lost if not.
    """
    if year is not None or not meant or meant[0] >= said or _told_of_the_past(text):
        return meant
    gone = meant[0]
    if gone.day == calendar.monthrange(gone.year, gone.month)[1]:
        return [month_end(gone.year + 1, gone.month)]
    return [gone.replace(year=gone.year + 1)] if (gone.month, gone.day) != (2, 29) else meant


_NOT_A_YEAR_BEFORE = lazy_compile(
    r"(?i)(?:\b(?:cost|costs|costing|paid|pay|price|priced|room|rm|extension|ext|bus|route|line|"
    r"flight|platform|no|number|model|version|unit|flat|apt|apartment|code|pin|ordered|bought|"
    r"spent|spend|spending|counted|"
    r"sold|about|over|under|around|runner|"
    # "Postcode 2040 is where my aunt lives", "Phone 0800 2028 2030", "Build 2030-04
    # failed", "My step count today was 2030" (an adversary saw each kept for decades).
    r"post\s*code|postal\s+code|zip(?:\s+code)?|phone|tel|mobile|call|dial|build|serial|"
    r"order|ticket|ref|reference|invoice|count(?:\s+today)?|novel|score|seat|"
    # "Cabin 2033 on the ferry" (a later adversary: kept until 2033).
    r"cabin|berth|gate|locker|desk|table|coach|carriage|row|bay|stand|pitch|plot|"
    r"ends\s+in|ending\s+in)\.?"
    r"(?:\s+(?:is|was|of|number|no\.?))?|[#£€$¥₹₩]|\d{3,}[ \t])\s*$"
)
_NOT_A_YEAR_AFTER = lazy_compile(
    r"(?i)^\s*(?:euros?|eur|dollars?|usd|pounds?|gbp|quid|bucks|€|£|\$|screws|people|units|"
    r"subscribers|runners|birds|members|followers|visitors|guests|users|customers|students|"
    r"items|pieces|words|steps|calories|kcal|km|miles|metres|meters|feet|kg|lbs|pages|times|"
    r"points|votes|followers|views|likes|rpm|mah|w\b|kw|"
    r"yen|won|krw|jpy|inr|rupees?|rs\b|baht|pesos|reais|lira|zloty|kr\b|chf|francs?|cents?|"
    r"build|builds|script|lines|rows|entries|records|errors|bytes|kb|mb|gb|tb|ms\b|"
    # "the 2030 bus was late again" (a later adversary: kept until 2030).
    r"(?:bus|train|tram|service|flight|ferry|coach|shuttle|departure|arrival)\b|"
    r"[ \t]\d{3}|"
    # A sum, steps or a street in Korean, Japanese or Chinese, or an address: "2099円",
    # "커피 2030원", "2031걸음", "2030 Main Street" (an adversary saw each kept for years).
    r"円|원|元|块|걸음|보|歩|명|개|個|번|号|호|"
    r"(?:[A-Z][a-z]+\s+)?(?:street|st\b|avenue|ave\b|road|rd\b|lane|drive|dr\b|blvd))"
)
"""A number of four digits that is no year: "the TV cost 2099 euros", "Room 2030", "my
extension is 2027", "ordered 2028 screws" (an adversary saw each kept for years)."""


def _no_year(text: str, year: re.Match[str]) -> bool:
    return bool(
        said_just_before(_NOT_A_YEAR_BEFORE, text, year.start())
        or _NOT_A_YEAR_AFTER.match(text[year.end() :])
    )


_EASTER = lazy_compile(r"(?i)\b(?:easter|ostern|pascua|p(?:â|a)ques|pasqua|p(?:á|a)scoa)\b")
"""Easter, whose day moves: "next Easter we go to Rome", "Easter Sunday lunch at mum's" (an
adversary saw both deleted at 30 days)."""


_EASTER_GONE = lazy_compile(
    r"(?i)\b(?:easter|ostern|pascua|p(?:â|a)ques|pasqua|p(?:á|a)scoa)\s+(?:was|were)\b"
    r"|\b(?:loved|enjoyed|had|spent|over)\b[^.!?]{0,30}\b(?:easter|ostern|pascua|pasqua)\b"
    r"|\blast\s+easter\b|\beaster\s+this\s+year\b"
)
"""Easter gone by: "Easter was lovely", "loved Easter this year" (a second adversary saw each,
said after Easter, kept until the next)."""


def _easter_to_come(said: date, text: str = "") -> date:
    """Easter Monday of the Easter to come (or of the one just gone, within the week)."""
    if _EASTER_GONE.search(text):
        return _easter_sunday(said.year) + timedelta(days=1)
    for year in (said.year, said.year + 1):
        monday = _easter_sunday(year) + timedelta(days=1)
        if monday >= said:
            return monday
    return monday


def _easter_sunday(year: int) -> date:
    """Easter Sunday by the Gregorian computus (the anonymous algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (b - (b + 8) // 25 + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    weekday = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * weekday) // 451
    month, day = divmod(h + weekday - 7 * m + 114, 31)
    return date(year, month, day + 1)


_GERMAN_MONTHS = frozenset(
    "januar jänner februar märz maerz april mai juni juli august september oktober november "
    "dezember".split()
)
_CUE_OF_A_MONTH = lazy_compile(
    r"(?i)\b(?:en|in|im|a|à|em|de|desde|hasta|ab|bis|vom|seit|fin|fine|finales|principios|"
    r"anfang|ende|mitte|d[ée]but|inizio|da|dal|del|al|entro|f(?:ü|ue)r|per|para|au|mois|mes|"
    r"mese|monat)\s+$"
)
_BETWEEN_DAY_AND_MONTH = lazy_compile(rf"(?i)\.|º|\bde\b|\bdi\b|\ber\b|^{WELSH_ORDINAL}?\s+o\s+$")
_WELSH_MONTHS = frozenset(name for names in IN_WELSH.values() for name in names.split())
"""Capitalised after a day as Welsh writes them: "20 Mehefin" (a new user in Wales)."""


def _a_month_elsewhere(text: str, named: re.Match[str]) -> bool:
    """Whether a month named in another language is one, not a name or a word alike.

    Found by an adversary: "I put mayo on everything", "Our daughter Avril plays the
    cello", "Julio 14 goles esta temporada", "Ich bin 1 Mai Tai entfernt", "Marta dice que
    Agosto es su perro" were kept for months. Day first, as those languages write it ("14
    de enero", "14. Januar", "3 mars"); alone, after a word that names a month ("en
    enero", "im Juli", "fin de mars"), lower case but in German.
    """
    written, name = named["month"], named["month"].casefold()
    if named["after"] and not named["day"]:
        return False  # "Julio 14": the name of someone, not a date so written
    if named["day"]:
        between = text[named.end("day") : named.start("month")]
        if _ARABIC_LETTER.match(written):
            return True  # no case, no word between: "٢٠ مارس", "۱۲ آوریل" are dates
        # Not "mayo", nor Czech "leden" (January, as a date writes it "12. ledna"): Dutch
        # "De club heeft 12 leden" (members).
        return (
            bool(_BETWEEN_DAY_AND_MONTH.search(between))
            or (written.islower() and name not in ("mayo", "leden"))
            or name in _WELSH_MONTHS
        )
    if not (written.islower() or name in _GERMAN_MONTHS):
        return False
    return said_just_before(_CUE_OF_A_MONTH, text, named.start())


def _full_year(year: str | None) -> int | None:
    if year is None:
        return None
    return int(year) + 2000 if len(year) == 2 else int(year)


def _meant(said: date, month: int, day: int | None, year: int | None) -> list[date]:
    """The day meant: in the year given, else the one not more than a month gone."""
    if not 1 <= month <= 12:
        return []
    for candidate in (year,) if year is not None else (said.year, said.year + 1):
        last = calendar.monthrange(candidate, month)[1]
        if day is not None and not 1 <= day <= last:
            return []
        meant = date(candidate, month, last if day is None else day)
        if year is not None or (said - meant).days <= _LOOKED_BACK:
            return [meant]
    return []
