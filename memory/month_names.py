"""Month names and their short forms, as every date reading spells them."""

from __future__ import annotations

MONTHS: dict[str, int] = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
MONTH_NAMES = "|".join(sorted(MONTHS, key=len, reverse=True))
"""Every name of `MONTHS` as a pattern's alternatives, the longest first."""

OTHER_LANGUAGES: dict[int, str] = {
    # German, French, Spanish, Portuguese, Italian, Dutch, Polish and Czech (their
    # nominative and the genitive a date uses: "12 czerwca", a new user, a taxi driver;
    # "15. července", a new user, a developer in Prague), Czech with its marks and without:
    # the first letters each is written with, short or whole.
    1: (
        "januar janvier enero janeiro gennaio jän jänner janv ene januari styczeń "
        "stycznia leden ledna"
    ),
    2: (
        "februar février fevrier febrero fevereiro febbraio févr fevr februari luty "
        "lutego únor února unor unora"
    ),
    3: "märz maerz mars marzo março marco maart marzec marca březen března brezen brezna",
    4: "avril abril aprile avr abr kwiecień kwietnia duben dubna",
    5: "mai mayo maio maggio mei maj maja květen května kveten kvetna",
    6: "juni juin junio junho giugno czerwiec czerwca červen června cerven cervna",
    7: "juli juillet julio julho luglio juil lipiec lipca červenec července cervenec cervence",
    8: "août aout agosto ago augustus sierpień sierpnia srpen srpna",
    9: "septembre septiembre setembro settembre wrzesień września září zari",
    10: (
        "oktober octobre octubre outubro ottobre okt październik października říjen "
        "října rijen rijna"
    ),
    11: "novembre noviembre novembro listopad listopada listopadu",
    12: (
        "dezember décembre decembre diciembre dezembro dicembre dez dic déc grudzień "
        "grudnia prosinec prosince"
    ),
}
"""Month names in other languages (English is `MONTHS`), by month."""
IN_ARABIC_SCRIPT: dict[int, str] = {
    # The calendar's months as Egyptian Arabic and Persian write them: "المقابلة يوم ٢٠ مارس",
    # "تولد آرین ۱۲ آوریل است" (new users in Cairo and Toronto: neither read as a day).
    1: "يناير ژانویه",
    2: "فبراير فوریه",
    3: "مارس",
    4: "أبريل ابريل إبريل آوریل",
    5: "مايو",
    6: "يونيو يونية ژوئن",
    7: "يوليو يولية ژوئیه",
    8: "أغسطس اغسطس اوت",
    9: "سبتمبر سپتامبر",
    10: "أكتوبر اكتوبر اکتبر",
    11: "نوفمبر نوامبر",
    12: "ديسمبر دیسمبر دسامبر",
}
"""Not Persian "مه" (May), which is also fog."""
IN_WELSH: dict[int, str] = {
    # With the soft mutation a date gives them after "o" (of): "20fed o Fehefin" (a new user,
    # a retired librarian in Wales: her eye appointment went two months before its day).
    1: "ionawr",
    2: "chwefror",
    3: "mawrth fawrth",
    4: "ebrill",
    6: "mehefin fehefin",
    7: "gorffennaf orffennaf",
    8: "awst",
    9: "medi fedi",
    10: "hydref",
    11: "tachwedd dachwedd",
    12: "rhagfyr",
}
"""Welsh months; May is "Mai", as in German."""
WELSH_ORDINAL = "(?:af|il|ydd|ed|fed|eg|ain)"
"""A day's ending in Welsh: "1af", "2il", "3ydd", "5ed", "20fed", "11eg", "21ain"."""
WELSH_SHORT = frozenset(("awst", "medi", "fedi"))
"""Welsh months of four letters, none an English word: read after a day alone ("2 Awst")."""
for _names_by_number in (IN_ARABIC_SCRIPT, IN_WELSH):
    for _number, _names in _names_by_number.items():
        OTHER_LANGUAGES[_number] += " " + _names
MONTH_OF_ANY_LANGUAGE: dict[str, int] = MONTHS | {
    name: number for number, names in OTHER_LANGUAGES.items() for name in names.split()
}
"""A month's number by any of its names, English or another language's."""
