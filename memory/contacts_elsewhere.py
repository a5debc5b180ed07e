"""A new address, number or email said in Spanish, Italian, French, German or Portuguese.

Found by a new user, a translator in Valencia: "mi nueva dirección es Calle Sueca 12" and "la
gestoría tiene número nuevo: 961 55 80 33" left the old address and number in effect, and
unmarked, while the same said in English updated them. The rules that read a contact read
English; such a sentence is read as its English wording (`in_english`). The text stored
stays as it was said.
"""

from __future__ import annotations

import re

from memory.lazy_patterns import lazy_compile

_WHAT = {
    "address": r"direcci[oó]n|indirizzo|adresse|endere[cç]o",
    "number": r"n[uú]mero|num[ée]ro|nummer|telefonnummer|handynummer",
    "phone": r"tel[eé]fono|t[ée]l[ée]phone|telefon|telefone",
    "mobile": r"m[oó]vil|cellulare|portable|handy|celular|telem[oó]vel",
    # "Meine neue E-Mail-Adresse ist …" (an adversary: no new e-mail).
    "email": r"e-?mail(?:-?adresse)?|correo(?:\s+electr[oó]nico)?|courriel",
}
_ANY_WHAT = "|".join(_WHAT.values())
_OF_WHAT = {name: lazy_compile(f"(?i)(?:{words})") for name, words in _WHAT.items()}
_MINE = r"(?:mi|il\s+mio|la\s+mia|mon|ma|meine?|meu|minha|o\s+meu|a\s+minha)"
_NEW = r"(?:nuev[oa]|nuov[oa]|nouvel(?:le)?|nouveau|neue?[nrs]?|nov[oa])"
_IS = r"(?:es|è|est|ist|lautet|é)(?!\w)(?:\s+(?:ahora|adesso|ora|maintenant|jetzt|agora)\b)?"
_MY_NEW = lazy_compile(
    rf"(?i)^\s*(?:(?:y|e|et|und)\s+)?{_MINE}\s+(?P<new>{_NEW}\s+)?(?P<what>{_ANY_WHAT})"
    rf"(?:\s+(?P<new_after>{_NEW}))?\s+{_IS}\s*:?\s*(?P<value>\S.*)$"
)
"""'mi nueva dirección es …', 'il mio nuovo numero è …', 'meine neue Adresse ist …'."""
_HAS = r"(?:tiene|ha|a|hat|tem)"
_ARTICLE = r"(?:(?:la|el|il|le|la|der|die|das|o|a|l['\u2019])\s*)"
_HAS_A_NEW = lazy_compile(
    rf"(?i)^\s*{_ARTICLE}?(?P<who>[^\W\d_][\w'\u2019-]*(?:\s+[^\W\d_][\w'\u2019-]*)?)\s+{_HAS}"
    rf"\s+(?:un[ae]?\s+|eine?\s+|um\s+)?(?:{_NEW}\s+(?P<what>{_ANY_WHAT})|"
    rf"(?P<what_first>{_ANY_WHAT})\s+{_NEW})"
    r"\s*[:,-]?\s*(?P<value>[+(]?\d.*)$"
)
"""'la gestoría tiene número nuevo: 961 …', 'Marco ha un nuovo numero 333 …'."""
_HINTS = (
    "mi",
    "mio",
    "mia",
    "mon",
    "ma",
    "mein",
    "meu",
    "minha",
    "nuev",
    "nuov",
    "nouv",
    "neu",
    "nov",
)


def _what(found: re.Match[str]) -> str:
    said = found["what"] or found.groupdict().get("what_first") or ""
    return next(name for name, words in _OF_WHAT.items() if words.fullmatch(said))


def in_english(text: str) -> str:
    """`text` in English if it says a contact of the user's or someone's, new or not."""
    lowered = text.casefold()
    if not any(hint in lowered for hint in _HINTS):
        return text
    mine = _MY_NEW.match(text)
    if mine is not None:
        new = "new " if mine["new"] or mine["new_after"] else ""
        return f"My {new}{_what(mine)} is {mine['value']}"
    theirs = _HAS_A_NEW.match(text)
    if theirs is not None:
        who = theirs["who"]
        return f"{who[:1].upper()}{who[1:]} has a new {_what(theirs)}: {theirs['value']}"
    return text
