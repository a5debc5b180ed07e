"""Numbers and clock times written one way before a text is split into terms.

People write the same number or time in many ways: "1,250" and "1250", "9 AM", "9am",
"9 a.m." and "09:00", "2pm" and "14:00", "5km" and "5 km", "noon" and "12pm". Each way
is rewritten so that both the index and the query hold the same terms (`written_alike`,
applied by `memory.text.analyze` to folded text).
"""

from __future__ import annotations

import re

from memory.lazy_patterns import lazy_compile

# A thousands comma splits "1,250" into "1" and "250", which match neither "1250" nor
# each other's numbers. Groups of exactly three digits only: "1,2,3" is a list. With three
# digits before the first comma ("101,102,103") it may be a list too: both readings.
_THOUSANDS = lazy_compile(r"(?<![\w.,])[0-9]{1,3}(?:,[0-9]{3})+(?![0-9]|,[0-9])")
_INDIAN_GROUPS = lazy_compile(r"(?<![\w.,])[0-9]{1,2}(?:,[0-9]{2})+,[0-9]{3}(?![0-9]|,[0-9])")
"""India's grouping, in lakhs and crores: "Rs. 1,20,000", "2,00,00,000" (an adversary: not
found by 120000)."""
# A thousands dot, as written in much of Europe ("1.200 €", "12.000 Wörter"): "1200" found
# nothing of "1.200 €" (a multilingual new user). The number is also read joined; as it
# may be a decimal too ("1.250 kg"), it keeps its groups.
_DOT_THOUSANDS = lazy_compile(r"(?<![\w.,])[0-9]{1,3}(?:\.[0-9]{3})+(?![0-9]|[.,][0-9])")
# A number run into its unit ("5km", "12.5kg", "250ml") is the number and the unit. Units
# only: "5x", "3b" or "2fa" stay one term (split, "5x + 6" made an unrelated request find
# memories holding a 5 in the off-topic bench).
_UNITS = (
    "km|m|cm|mm|mi|ft|yd|kg|g|mg|lb|lbs|oz|l|ml|cl|dl|h|hr|hrs|min|mins|sec|ms|"
    "kb|mb|gb|tb|kbps|mbps|ghz|mhz|hz|kw|kwh|mw|w|v|mah|mph|kmh|kph|cal|kcal"
)
_UNIT = lazy_compile(rf"(?<![\w.,:])([0-9]+(?:\.[0-9]+)?)({_UNITS})\b")
# "9 AM", "9 a.m.", "9:30 pm", "3.30pm": the hour, the minutes, and one term for the hour
# of that half of the day ("9am"); "am" alone is a stop word and went unsearched.
_HALF_DAY = lazy_compile(r"(?<![\w:.])(1[0-2]|0?[1-9])(?:[:.]([0-5][0-9]))?\s?([ap])\.?m\b\.?")
# "14:00" and "09:00" can only be 24-hour times; "9:00" could be either, so it keeps its
# digits alone. With a dot ("14.00") it may be a price, and is left as it is.
_DAY_CLOCK = lazy_compile(r"(?<![\w:.,])([01]?[0-9]|2[0-3]):([0-5][0-9])(?![\w:])")
_NOON = lazy_compile(r"\b(noon|midday|midnight)\b")
# A sum in thousands as people write it: "N50,000" (naira, the letter for "₦"), "R2,500"
# (rand), and "50k", "1.2k" (a new user in Lagos: "my ajo is 50k" and "N50,000" found
# nothing of "₦50,000"). Folded text: in lower case.
_LETTERS_OF_A_CURRENCY = "n|r|rs|ksh|kes|ngn|zar|inr"
_A_SUM_IN_SHORT = r"[0-9]{1,3}(?:\.[0-9]{1,2})?[km]\b"
_CURRENCY_LETTERS = lazy_compile(
    rf"(?<![\w.,])({_LETTERS_OF_A_CURRENCY})(?=[0-9]{{1,3}}(?:,[0-9]{{3}})+(?![0-9]|,[0-9])"
    # Or before a sum in short: "N50k", "N1.2m" (an adversary: not found by "50k").
    rf"|{_A_SUM_IN_SHORT})"
)
_IN_THOUSANDS = lazy_compile(r"(?<![\w.,])([0-9]{1,3})(?:\.([0-9]))?k\b")
_IN_MILLIONS = lazy_compile(
    rf"(?<![\w.,])((?:[₦$€£₹]|(?<![\w])(?:{_LETTERS_OF_A_CURRENCY}|usd|eur|gbp))\s?)?"
    r"([0-9]{1,3})(?:\.([0-9]{1,2}))?\s?(m|mn|million|millions|millones|milh[õo]es|mio|"
    r"lakhs?|lacs?|crores?|cr|l)\b"
)
"""A sum in millions, lakhs or crores: "Lagos rent is ₦1.2m a year" was not found by
"1,200,000" (an adversary). "m" alone only after a currency: "1.2m" may be metres."""
_MULTIPLE = {"lakh": 100_000, "lakhs": 100_000, "lac": 100_000, "lacs": 100_000}
_MULTIPLE |= {"crore": 10_000_000, "crores": 10_000_000, "cr": 10_000_000, "l": 100_000}


def _in_millions(match: re.Match[str]) -> str:
    currency, whole, part, word = match.groups()
    if word in ("m", "cr", "l") and not currency:
        return match.group()  # "1.2m wide", "4.5L of water"
    times = _MULTIPLE.get(word, 1_000_000)
    number = int(whole) * times + int((part or "0").ljust(2, "0")) * times // 100
    return f"{currency or ''}{number}"


_DIGIT = lazy_compile(r"[0-9]")
_ANY_OF_THEM = lazy_compile(
    "|".join(
        f"(?:{p.pattern})"
        for p in (
            _CURRENCY_LETTERS,
            _IN_MILLIONS,
            _INDIAN_GROUPS,
            _IN_THOUSANDS,
            _THOUSANDS,
            _DOT_THOUSANDS,
            _UNIT,
            _HALF_DAY,
            _DAY_CLOCK,
            _NOON,
        )
    )
)


def _minutes(minutes: str | None) -> list[str]:
    # On the hour says nothing more than the hour: "09:00" is "9am", as "9 AM" is.
    return [minutes] if minutes and minutes != "00" else []


def _thousands(match: re.Match[str]) -> str:
    written = match.group()
    joined = written.replace(",", "")
    if len(written.split(",", 1)[0]) < 3:
        return joined
    # Rooms "101,102,103" lost "102" as one number (found by an adversary).
    return f"{joined} {written.replace(',', ' ')}"


def _in_thousands(match: re.Match[str]) -> str:
    return str(int(match[1]) * 1000 + int(match[2] or 0) * 100)


def names_thousands_in_short(text: str) -> bool:
    """Whether `text` holds a sum written "50k" or "N50,000" (read as the number since 0049)."""
    folded = text.casefold()
    return _IN_THOUSANDS.search(folded) is not None or _CURRENCY_LETTERS.search(folded) is not None


_LETTER_BEFORE_A_SHORT_SUM = lazy_compile(
    rf"(?<![\w.,])(?:{_LETTERS_OF_A_CURRENCY}){_A_SUM_IN_SHORT}"
)


def names_millions_in_short(text: str) -> bool:
    """Whether `text` holds a sum written "₦1.2m", "1.2 lakh", "2 crore" or "N50k" (0051)."""
    folded = text.casefold()
    if _INDIAN_GROUPS.search(folded) is not None:
        return True
    return _LETTER_BEFORE_A_SHORT_SUM.search(folded) is not None or any(
        _in_millions(found) != found.group() for found in _IN_MILLIONS.finditer(folded)
    )


def _half_day(match: re.Match[str]) -> str:
    hour, minutes, half = match.groups()
    return " ".join([str(int(hour)), *_minutes(minutes), f"{int(hour)}{half}m"])


def _day_clock(match: re.Match[str]) -> str:
    written, minutes = match.groups()
    hour = int(written)
    if 1 <= hour <= 11 and not written.startswith("0"):
        return match.group()  # "9:00": morning or evening, the text does not say
    if int(minutes) % 5:
        # Clock times are mostly on the five minutes; "a split of 14:32", "Matthew 18:23"
        # or "ratio 21:09" are not times (found by an adversary).
        return match.group()
    twelve = f"{hour - 12}pm" if hour > 12 else "12pm" if hour == 12 else f"{hour or 12}am"
    return " ".join([str(hour), *_minutes(minutes), twelve])


def _noon(match: re.Match[str]) -> str:
    word = match.group()
    return f"{word} {'12am' if word == 'midnight' else '12pm'}"


def names_dotted_thousands(text: str) -> bool:
    """Whether `text` holds a number with a thousands dot (read joined too since then)."""
    return _DOT_THOUSANDS.search(text) is not None


def written_alike(folded: str) -> str:
    """`folded` (see `memory.text.fold`) with its numbers and clock times written one way."""
    if _DIGIT.search(folded) is None:
        # Most text: only the hour words can apply, and they are rare.
        has_hour_word = "noon" in folded or "mid" in folded
        return _NOON.sub(_noon, folded) if has_hour_word else folded
    if _ANY_OF_THEM.search(folded) is None:
        return folded  # keys such as "m12": one scan instead of five
    text = _CURRENCY_LETTERS.sub(" ", folded)
    text = _IN_MILLIONS.sub(_in_millions, text)
    text = _INDIAN_GROUPS.sub(lambda found: found[0].replace(",", ""), text)
    text = _IN_THOUSANDS.sub(_in_thousands, text)
    text = _THOUSANDS.sub(_thousands, text)
    text = _DOT_THOUSANDS.sub(lambda found: f"{found[0].replace('.', '')} {found[0]}", text)
    text = _UNIT.sub(r"\1 \2", text)
    text = _HALF_DAY.sub(_half_day, text)
    text = _DAY_CLOCK.sub(_day_clock, text)
    return _NOON.sub(_noon, text)


# A number written in groups ("0176 8888888", "555-1234", "+351 912 345 678", "(030)
# 1234-5678", "555.123.4567", "030/1234567"): a phone number, an account, a parcel. Not a
# decimal, a date in dots or slashes, an address on a network, or a clock time: those are
# read above and in `memory.date_terms`.
_GROUPED = lazy_compile(r"(?<![\w.,/:])\+?\(?[0-9]+\)?(?:[ -]\(?[0-9]+\)?)+(?![\w/:]|[.,][0-9])")
# Dots or slashes alone, one kind in a run: mixed with spaces, "0176 8888888 3.5 km" lost
# the phone number to the decimal after it, and "-33.8688 151.2093" became a number
# (found by an adversary).
_DOTTED = lazy_compile(r"(?<![\w.,/:-])\+?[0-9]+(?:([./])[0-9]+)(?:\1[0-9]+)*(?![\w/:]|[.,][0-9])")
_ISO_DATE = lazy_compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}")
_DOTTED_DATE = lazy_compile(
    r"[0-9]{1,2}([./])[0-9]{1,2}\1(?:[0-9]{2}|[0-9]{4})|[0-9]{4}([./])[0-9]{1,2}\2[0-9]{1,2}"
)
_NETWORK_ADDRESS = lazy_compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}")
_GROUP = lazy_compile(r"[0-9]+")
JOINED_DIGITS = (7, 19)
"""How many digits a grouped number has for its joined form to be indexed too (a phone
number, up to a card's 16-19)."""
_MOST_GROUPS = 8
"""Groups looked at in one run: their joined sub-runs are at most 28."""


def _dotted_number(written: str) -> bool:
    """Whether a run of digit groups in dots or slashes is a number in groups.

    Not a date, a decimal, a fraction or an address on a network: three groups or more
    ("555.123.4567", "1.250.000"), or two after an area code ("030/1234567").
    """
    if _DOTTED_DATE.fullmatch(written) or _NETWORK_ADDRESS.fullmatch(written):
        return False
    first = written.lstrip("+")
    return len(_GROUP.findall(written)) >= 3 or (first.startswith("0") and first[1:2].isdigit())


def joined_numbers(folded: str) -> list[str]:
    """Numbers written in groups, as one run of digits: "0176 8888888" -> "01768888888".

    The groups are terms of their own, but a number typed without its spaces or hyphens
    ("01768888888") matched none of them (found by a new user). Only the index holds the
    joined form: a query of groups still finds each group.
    """
    if _DIGIT.search(folded) is None:
        return []
    found: dict[str, None] = {}
    fewest, most = JOINED_DIGITS
    runs = [m.group() for m in _GROUPED.finditer(folded)]
    runs += [m.group() for m in _DOTTED.finditer(folded) if _dotted_number(m.group())]
    for written in runs:
        if _ISO_DATE.fullmatch(written):
            continue
        groups = _GROUP.findall(written)[:_MOST_GROUPS]
        # Every run of two groups or more: a number followed by another ("Taxi 0176 8888888
        # 24 hours", "555 6666 555 6667") was only indexed as one long run (an adversary).
        for start in range(len(groups) - 1):
            for end in range(start + 2, len(groups) + 1):
                run = groups[start:end]
                digits = "".join(run)
                if len(digits) > most:
                    break
                if len(digits) >= fewest and all(len(group) >= 2 for group in run[1:]):
                    found[digits] = None
    return list(found)


NUMBER_WORDS: dict[str, str] = {
    **{
        word: str(number)
        for number, word in enumerate(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
        )
    },
    **{"thirty": "30", "forty": "40", "fifty": "50", "hundred": "100"},
    # Roman, as flats and units are named ("Flat II": an adversary); not "i", "v" or "x".
    **{"ii": "2", "iii": "3", "iv": "4", "vi": "6", "vii": "7", "viii": "8", "ix": "9"},
}
"""A number written as a word, as digits: "Flat three" is flat 3, "seven mg" 7 mg."""
