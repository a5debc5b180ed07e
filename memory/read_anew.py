"""Which stored texts a newer analysis reads otherwise, for the migrations of every backend.

SQLite's migrations (`memory.sqlite.schema`) and PostgreSQL's steps (`memory.postgres.migrate`)
index these rows again; one test serves both, so the two stores re-read the same rows.
"""

from __future__ import annotations

from memory.changes_to_come import a_change_to_come
from memory.date_ranges import ranges_written_out
from memory.date_terms import (
    DOTTED_ALIKE,
    EVENTS_SAID_ON,
    mentioned_date_terms,
    names_a_date_after_a_day_word,
    names_a_day_elsewhere,
    names_may_after_a_day,
    names_short_date,
)
from memory.day_first import days_said_day_first
from memory.days_elsewhere import (
    names_a_day_written_together,
    names_a_relative_day_elsewhere,
)
from memory.diets import diet_of
from memory.health_values import (
    MORE_DRUG_ENDINGS,
    may_say_a_stop,
    medicines_without_foreign_endings,
    names_a_dose,
    names_health_wordings,
    stopped_in_other_languages,
    stops_a_medicine,
)
from memory.kin_words import names_kin, names_kin_written_together
from memory.lazy_patterns import lazy_compile
from memory.letters import DIGIT_ZEROS
from memory.money_words import names_money
from memory.month_names import MONTH_NAMES
from memory.numbers import names_millions_in_short, names_thousands_in_short
from memory.predicates import (
    A_STREET_IN_LOWER_CASE,
    NEW_ADDRESS_SAID,
    a_home_elsewhere,
    names_an_address,
    states_a_predicate,
    user_moved_to,
)
from memory.relative_dates import names_a_relative_day
from memory.shift_words import names_shifts
from memory.short_words import has_short_words, names_a_weekday_elsewhere, written_out
from memory.text import names_an_in_law, names_an_irregular_plural, names_someone_by_trade
from memory.weekly_days import WEEKDAY, names_a_weekly_day


def short_words_or_markers(text: str) -> bool:
    """Whether `text` names what migration 0022 reads anew.

    Words typed short ("tmrw"), a day named relatively, a redaction marker.
    """
    return has_short_words(text) or names_a_relative_day(text) or "[REDACTED:" in text


def dates_or_medicines(text: str) -> bool:
    """Whether `text` names what migration 0023 reads anew.

    A day and month without the year, a weekday before a clock time, a medicine without
    its amount, a doctor by another name, an amount of money.
    """
    return (
        names_short_date(text)
        or has_short_words(text)
        or names_health_wordings(text)
        or names_a_relative_day(text)
        or names_money(text)
    )


def ranges_or_words(text: str) -> bool:
    """Whether `text` names what migration 0024 reads anew.

    A range of dates ("Away 20/12 to 2/1": the days between), a score of a date's shape
    ("Passed 12/12 tests": no date), a day and month joined by a hyphen ("14/5-16/5"), an
    amount of money (found by "charge" and "rate" too), a weight (by "weigh"), a weekday
    before a day of the month ("Sat 19th") or before a day and month ("Wed 2/12"), a day
    and month without the year (indexed in the year it comes next from the day said),
    weekends every week, a home (found by "address" too; "I live at 12 Oak St"), "BP".
    """
    return (
        names_short_date(text)
        or names_money(text)
        or "weight" in text.casefold()
        or names_a_relative_day(text)
        or names_a_weekly_day(text)
        or states_a_predicate(text)
        or has_short_words(text)
        or any(term.startswith("dtmd") for term in mentioned_date_terms(text))
    )


def claims_stops_or_days(text: str) -> bool:
    """Whether `text` names what migration 0025 reads anew.

    A home or an employer said in one of several sentences or clauses ("Hi! My name is
    Sam and I live in Porto. I work at Acme." is found by "address" and "employer"), or
    the user's address in other words ("My address is …" is found by "where do I live"); a
    medicine stopped ("I'm off lisinopril now" is found by "medication"), a medicine (found
    by "tablets" and "pills" too); a weekday before
    a day of the month ("Sat 16th" is the next 16th that is a Saturday); a range in other
    words ("20-23/1", "from 3 to 7 February", "between 10/2 and 14/2": the days between).
    """
    return (
        states_a_predicate(text)
        or names_an_address(text)
        or stops_a_medicine(text)
        or names_a_dose(text)
        or names_health_wordings(text)
        or names_a_relative_day(text)
        or ranges_written_out(text) != text
    )


def stops_or_shifts(text: str) -> bool:
    """Whether `text` names what migration 0026 reads anew.

    A medicine stopped in other words ("GP discontinued my omeprazole", "I don't take
    levothyroxine anymore") or a stop only asked about ("Should I stop the warfarin?": no
    stop); a roster or a shift (found by "shift", "roster" and "rota").
    """
    return may_say_a_stop(text) or names_shifts(text)


def stops_in_other_languages(text: str) -> bool:
    """Whether `text` names what migration 0027 reads anew.

    A medicine stopped in German, Spanish, French or Portuguese ("Ich nehme kein Omeprazol
    mehr" is found by "medication").
    """
    return stopped_in_other_languages(text)


def other_languages_read(text: str) -> bool:
    """Whether `text` names what migration 0028 reads anew.

    A medicine stopped in Italian ("Non prendo più l'omeprazolo" is found by "medication"),
    or named in its Italian or Spanish form ("omeprazolo", "metformina": found by
    "omeprazole" and "metformin"); a day and month in another language ("20 de diciembre"
    is found by "December 20"), a weekday ("el jueves" by "Thursday").
    """
    stopped = stopped_in_other_languages(text) and stops_a_medicine(text)
    return (
        stopped
        or bool(medicines_without_foreign_endings(text))
        or names_a_day_elsewhere(text)
        or names_a_weekday_elsewhere(text)
    )


_A_MONTH = lazy_compile(rf"(?i)\b(?:{MONTH_NAMES})\b")


_WEEK_OR_TOMORROW_SHORT = lazy_compile(r"(?i)(?<![\w-])(?:wks?|tomoz|2moz)(?![\w-])")


def places_in_lower_case_read(text: str) -> bool:
    """Whether `text` names what migration 0030 reads anew: a wording of a home or a job.

    A home or an employer said in lower case beside the capital "I" ("I moved to
    portobello" is found by "where do I live?"), and a move to what one drinks ("moved to
    oat milk" is no home), `memory.predicates`.
    """
    return states_a_predicate(text)


def streets_named_first_read(text: str) -> bool:
    """Whether `text` names what migration 0031 reads anew: a wording of a home or a job.

    A street named before its number ("I live at Rua do Ouro 10" is a home, and replaces
    the one before), `memory.predicates`.
    """
    return states_a_predicate(text)


def people_by_trade_read(text: str) -> bool:
    """Whether `text` names what migration 0032 reads anew: someone by their trade.

    An accountant, an assistant or a consultant, no longer stemmed as "account", "assist",
    "consult" (`memory.text`).
    """
    return names_someone_by_trade(text)


def may_and_plurals_read(text: str) -> bool:
    """Whether `text` names what migration 0033 reads anew.

    "may" after a day's number ("8 may be too many" was indexed as 8 May,
    `memory.date_terms`); a plural the stemmer left apart from its singular ("loaves" is
    now "loaf", `memory.text`).
    """
    return names_may_after_a_day(text) or names_an_irregular_plural(text)


def months_to_come_read(text: str) -> bool:
    """Whether `text` names what migration 0029 reads anew.

    A change to come from a month named without its year ("the fee goes up to €45 from
    January" is found by "next year", `memory.month_to_come`); "wk" and "tomoz" typed short
    ("boiler svc tomoz" is found by "tomorrow", `memory.short_words`).
    """
    if _WEEK_OR_TOMORROW_SHORT.search(text):
        return True
    return _A_MONTH.search(text) is not None and a_change_to_come(text)


_HANGUL_OR_A_CJK_DATE = lazy_compile(r"[\uac00-\ud7af]|[0-9]\s*[월月]")


def korean_and_cjk_dates_read(text: str) -> bool:
    """Whether `text` names what migration 0034 reads anew.

    A Korean word, read without its particles ("월세가" is "월세", `memory.text`); a date
    in Korean, Japanese or Chinese ("12월 18일", "12月18日", `memory.date_terms`).
    """
    return _HANGUL_OR_A_CJK_DATE.search(text) is not None


_A_WEEKDAY_THEN_A_TIME = lazy_compile(
    r"(?i)(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:,?\s+at\s+[0-9]|\s+"
    r"(?:morning|afternoon|evening|night|lunchtime))"
)


def weekdays_at_a_time_read(text: str) -> bool:
    """Whether `text` names what migration 0035 reads anew.

    A weekday alone before "at" and an hour, or a part of the day ("dentist tuesday at 3",
    "the meter man comes friday morning"): the day to come (`memory.weekday_readings`).
    """
    return _A_WEEKDAY_THEN_A_TIME.search(text) is not None


_A_WEEKDAY_THEN_A_NUMBER = lazy_compile(
    r"(?i)(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+(?:at\s+)?[0-9]{1,2}"
)


def weekdays_with_their_days_read(text: str) -> bool:
    """Whether `text` names what migration 0036 reads anew.

    A weekday before "at" and an hour of two digits ("call with Ferran thursday at 10" was
    no day, where "at 3" was), or before its day of the month without "th" ("friday 29 at
    11:00", "el jueves 28 a las 16:00"): `memory.relative_dates`.
    """
    return _A_WEEKDAY_THEN_A_NUMBER.search(written_out(text)) is not None


def days_elsewhere_read(text: str) -> bool:
    """Whether `text` names what migration 0037 reads anew.

    A day named relative to now in Spanish, German, French, Italian or Portuguese
    ("dentista mañana a las 5", "esta semana": `memory.days_elsewhere`).
    """
    return names_a_relative_day_elsewhere(text)


_A_DOTTED_DAY_WITHOUT_ITS_LAST_DOT = lazy_compile(
    r"(?<![\w/.:])[0-9]{1,2}\.[01][0-9](?![0-9]|\.[0-9])"
)


def dotted_days_read(text: str) -> bool:
    """Whether `text` names what migration 0038 reads anew.

    A day and month written with a dot and none after ("Aneks to sign on 20.01", "Jasełka on
    18.12 at 17:00"): a day where the words before or after say so (`memory.date_terms`).
    """
    return _A_DOTTED_DAY_WITHOUT_ITS_LAST_DOT.search(text) is not None


_NEW_ADDRESS = lazy_compile(NEW_ADDRESS_SAID)


def new_addresses_read(text: str) -> bool:
    """Whether `text` names what migration 0039 reads anew.

    A new address opening its sentence ("We moved house! New address is 14 Wattle Ave"):
    the user's, found by "where do I live?" (`memory.predicates`).
    """
    return _NEW_ADDRESS.search(text) is not None


_A_DAY_AFTER_A_WORD_ELSEWHERE = lazy_compile(
    r"(?i)\b(?:il|al|dal|entro|fino|el|hasta|desde|até|ate|au|dnia|od)\s+[0-9]{1,2}[./][0-9]{1,2}"
)


def days_after_words_elsewhere_read(text: str) -> bool:
    """Whether `text` names what migration 0040 reads anew.

    A day and month after a word of another language naming a day ("cena con Marco il
    20.02", "spostata al 22.02": `memory.date_terms.DAY_WORDS_ELSEWHERE`).
    """
    return _A_DAY_AFTER_A_WORD_ELSEWHERE.search(text) is not None


def moves_said_otherwise_read(text: str) -> bool:
    """Whether `text` names what migration 0041 reads anew.

    A move of the user's said in other words ("We moved house, new address is 4 Elm
    Road", "We just moved into 4 Elm Road"): found by "where do I live?"
    (`memory.predicates.user_moved_to`).
    """
    return user_moved_to(text) is not None


_A_STREET_IN_LOWER_CASE = lazy_compile(A_STREET_IN_LOWER_CASE)
_A_DENIAL_IN_AN_ADDRESS = lazy_compile(r"(?i)[\w+-][.@/](?:no|not|never|none)\b")


def streets_in_lower_case_read(text: str) -> bool:
    """Whether `text` names what migration 0042 reads anew.

    A street whose kind is said in lower case before its name ("I live at 4521 rue Fabre":
    `memory.predicates.A_STREET_IN_LOWER_CASE`), found by "where do I live?"; and an e-mail
    or web address holding a word of denial ("per@club.no"), no longer read as one.
    """
    return bool(_A_STREET_IN_LOWER_CASE.search(text) or _A_DENIAL_IN_AN_ADDRESS.search(text))


_A_DRUG_OF_MORE_ENDINGS = lazy_compile(rf"(?i)[a-z-]{{2,}}(?:{MORE_DRUG_ENDINGS})[aeo]?\b")


def medicines_of_more_endings_read(text: str) -> bool:
    """Whether `text` names what migration 0043 reads anew.

    A stop of a medicine named by one of `memory.health_values.MORE_DRUG_ENDINGS` ("Manny
    stopped donepezil on 28/1"), found by "what is he on now?".
    """
    return may_say_a_stop(text) and _A_DRUG_OF_MORE_ENDINGS.search(text) is not None


def homes_elsewhere_and_diets_read(text: str) -> bool:
    """Whether `text` names what migration 0044 reads anew.

    The user's home and its address said in another language ("Vivo en calle Mayor 5,
    Madrid": `memory.predicates.a_home_elsewhere`), found by "what's my address?"; what the
    user eats ("I eat fish now": `memory.diets`), found by "am I vegetarian?".
    """
    return bool(diet_of(text)) or a_home_elsewhere(text)


_A_DOTTED_MONTH_ALIKE = lazy_compile(rf"(?i)\b[0-9]{{1,2}}\.\s+(?:{DOTTED_ALIKE})\b")


def dotted_months_alike_read(text: str) -> bool:
    """Whether `text` names what migration 0045 reads anew.

    A German day before a month written as the English one ("29. April": the day's dot
    had left it no date, `memory.date_terms.DOTTED_ALIKE`), found by "what's on 29 April?".
    """
    return _A_DOTTED_MONTH_ALIKE.search(text) is not None


_AN_EVENT_SAID_ON = lazy_compile(
    rf"(?i)\b{EVENTS_SAID_ON}\s*[0-9]{{1,2}}[/.-][0-9]{{1,2}}(?![0-9])"
)


def events_said_on_read(text: str) -> bool:
    """Whether `text` names what migration 0046 reads anew.

    An event, then its day as a fraction's shape ("Dentist is 10/9": the day was no date,
    `memory.date_terms.EVENTS_SAID_ON`), found by "what's on 10 September?".
    """
    return _AN_EVENT_SAID_ON.search(text) is not None


_PUFFS = lazy_compile(r"(?i)\b\d+\s?(?:puffs?|pufjes?|inhalations?|h(?:ü|ue)be)\b")
_A_DAY_OF_A_DUTCH_MONTH = lazy_compile(
    r"\b[0-9]{1,2}\s+(?:(?i:januari|februari|maart|augustus)|juni|juli|mei)\b"
)


def dutch_and_puffs_read(text: str) -> bool:
    """Whether `text` names what migration 0047 reads anew.

    A day, then a Dutch month ("vrijdag 4 juni 2027", "12 maart"): found by "what's on 4
    June?" (`memory.date_terms`); the user's home said in Dutch ("ik woon op de Oudegracht
    112, Utrecht"), by "what's my address?" (`memory.claims_elsewhere`); an inhaler's puffs
    ("Ventolin, 2 puffs when needed"), by "what medication am I on?" (`memory.health_values`).
    """
    if _A_DAY_OF_A_DUTCH_MONTH.search(text) is not None or _PUFFS.search(text) is not None:
        return True
    lowered = text.casefold()
    return any(word in lowered for word in ("woon", "adres", "verhuisd")) and a_home_elsewhere(text)


_A_ROTAS_DAY = lazy_compile(
    r"(?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:shifts?|rotas?|rosters?|opening\s+hours)\b"
)


_DAYS_OF_EVERY_WEEK = lazy_compile(
    rf"(?i)\b(?:every|each)\s+{WEEKDAY}s?\.?\s*(?:,|and|&|\+|/|or)\s*(?:mon|tue|wed|thu|fri|sat|sun)"
)


def kin_and_rotas_read(text: str) -> bool:
    """Whether `text` names what migration 0048 reads anew.

    One of the family in an everyday or another language's word ("Mãe's birthday is 23 de
    abril", "mom's number"): found by "mother" (`memory.kin_words`); a rota's day
    ("Saturday shift: Jo and Priya") and the days of a list said every week ("every Tues
    and Fri"): found by a question naming one (`memory.weekly_days`).
    """
    return (
        names_kin(text)
        or _A_ROTAS_DAY.search(text) is not None
        or _DAYS_OF_EVERY_WEEK.search(text) is not None
    )


def sums_in_thousands_read(text: str) -> bool:
    """Whether `text` names what migration 0049 reads anew.

    A sum written "50k", "1.2k" or "N50,000": found since by the number ("50000").
    """
    return names_thousands_in_short(text)


def days_and_kin_elsewhere_read(text: str) -> bool:
    """Whether `text` names what migration 0050 reads anew.

    A day relative to now or one of the family in Japanese, Chinese or Korean ("明日は歯医者",
    "お母さんの誕生日"): found since by "tomorrow" and "mother", and dated from the day said;
    one of the family by marriage ("my mother-in-law Rosa"), no longer found by "mother"; a
    day and month after a weekday in another language ("Friseur sábado 9/1").
    """
    return (
        names_a_day_written_together(text)
        or names_kin_written_together(text)
        or names_an_in_law(text)
        or names_a_date_after_a_day_word(text)
    )


def sums_in_millions_read(text: str) -> bool:
    """Whether `text` names what migration 0051 reads anew.

    A sum in millions, lakhs or crores ("₦1.2m", "Rs 1.2 lakh", "2 crore", "₹1.2 Cr", "Rs
    4.5L"), in India's grouping ("1,20,000"), or a letter for a currency before a sum in
    short ("N50k"): found since by the number.
    """
    return names_millions_in_short(text)


def day_first_beside_read(text: str) -> bool:
    """Whether `text` names what migration 0052 reads anew.

    A day and month that can only be day first ("OS 15/03") beside others that could be
    either ("DSA 10/03"): those are read day first since, and found by their day.
    """
    return days_said_day_first(text)


_POLISH_DAYS = lazy_compile(
    r"(?i)(?<![\w-])(?:stycz|lut|marz|marca|kwie|maj|czerw|lip|sierp|wrze|pa[zź]dziernik|listopad|"
    r"grud|poniedzia|wtor|[śs]rod|czwart|pi[ąa]t|sobot|niedziel|jutro|pojutrze|dzisiaj|"
    r"wczoraj|w\s+przysz|agle\s+hafte)"
)


def polish_days_read(text: str) -> bool:
    """Whether `text` names what migration 0053 reads anew.

    A month, a weekday or a day relative to now in Polish ("12 czerwca", "w piątek",
    "jutro"), or next week in Hinglish ("agle hafte"): found since by that day.
    """
    return _POLISH_DAYS.search(text) is not None


_OTHER_DIGITS = "".join(f"{chr(zero)}-{chr(zero + 9)}" for zero in DIGIT_ZEROS)
_CZECH_DAYS_OR_OTHER_SCRIPTS = lazy_compile(
    # Arabic script (its presentation forms too) and the half-space, and every digit
    # `memory.text.fold` reads as 0-9.
    rf"(?i)[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff\u200c{_OTHER_DIGITS}]"
    r"|(?<![\w-])(?:led(?:en|na)|[úu]nor|b[řr]ez|dub(?:en|na)|kv[ěe]t|[čc]erv|srp(?:en|na)|"
    r"z[áa][řr][íi]|[řr][íi]j|listopad|prosin|pond[ěe]l|[úu]ter|st[řr]ed|[čc]tvrt|p[áa]tek|"
    r"sobotu|ned[ěe]l|z[íi]tra|poz[íi]t|dnes|v[čc]era|tento\s+t|p[řr][íi][šs]t[íi]|"
    r"bokra|bukra|naharda|mbare7|embare7|esbo3|farda|emrooz|emruz|dirooz|diruz|hafte)"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[\u00c0-\u024f]"
)


def czech_days_and_other_scripts_read(text: str) -> bool:
    """Whether `text` names what migration 0054 reads anew.

    A month, a weekday or a day relative to now in Czech ("15. července", "v pátek",
    "zítra") or Egyptian Arabic ("بكرة", "bokra", "الخميس"); Arabic, whose vowel marks and
    hamza forms are folded since, or another script's digits, read as 0-9 ("١٥/٢" a date,
    "١٢٠٠" found by "1200"); a word that opens as a month and goes on with a letter with a
    mark ("Nováková" had named November).
    """
    return _CZECH_DAYS_OR_OTHER_SCRIPTS.search(text) is not None


_VIETNAMESE_OR_WELSH_DAYS = lazy_compile(
    r"(?i)(?<![\w-])(?:th[ứu]\s+(?:hai|ba|t[ưu]|n[ăa]m|s[áa]u|b[ảa]y)|ch[ủu]\s+nh[ậa]t|"
    r"dydd\s+(?:llun|mawrth|mercher|iau|gwener|sadwrn|sul)|ng[àa]y\s+(?:mai|kia|m[ốo]t)|"
    r"h[ôo]m\s+(?:nay|qua)|(?:cu[ốo]i\s+)?tu[ầa]n\s+(?:n[àa]y|sau|t[ớo]i)|"
    r"th[áa]ng\s+(?:n[àa]y|sau|t[ớo]i)|y?fory|heddiw|ddoe|drennydd|wythnos|penwythnos|"
    r"mis\s+(?:nesaf|nesa|yma|hwn)|ionawr|chwefror|[mf]awrth|ebrill|[mf]ehefin|g?orffennaf|"
    r"awst|[mf]edi|hydref|t?achwedd|dachwedd|rhagfyr)(?![\w-])"
)


def vietnamese_and_welsh_days_read(text: str) -> bool:
    """Whether `text` names what migration 0056 reads anew.

    A weekday in Vietnamese or Welsh ("thứ Sáu 5/3", "dydd Iau"), a day relative to now
    ("ngày mai", "tuần sau", "yfory", "wythnos nesaf"), a Welsh month ("20fed o Fehefin").
    """
    return _VIETNAMESE_OR_WELSH_DAYS.search(text) is not None
