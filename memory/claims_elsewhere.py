"""A move, a job or an allergy said in Spanish, Italian, French, German or Portuguese.

Found by an adversary: "Me he mudado a Sevilla", "Ich arbeite jetzt bei Siemens" and "Je ne
suis plus allergique à la pénicilline" left "I live in Porto", "I work at Acme" and "I'm
allergic to penicillin" in effect and unmarked, while the same said in English updated
them; and once the message expired, nothing said the fact had changed. The rules that read
a home, an employer or an allergy read English: such a sentence is read as its English
wording (`said_in_english`), as a new contact is (`memory.contacts_elsewhere`).
"""

from __future__ import annotations

import re

from memory.lazy_patterns import lazy_compile

_NAME_PART = r"(?-i:[A-ZÀ-Þ])[\w'\u2019.&-]*"
_LINKING = r"(?:de|del|la|do|da|am|an|sur|sul|el)"
_PLACE = (
    rf"(?P<place>{_NAME_PART}(?:\s+(?:{_LINKING}\s+)?{_NAME_PART}){{0,3}}"
    # One word in lower case, where nothing is in capitals: "me mudé a sevilla" (how a new
    # user types; it was read as no move).
    r"|(?<![^\W\d_])(?-i:[a-zà-ÿ][\w'\u2019-]*)(?=[\s.!]*$))"
)
"""A place named, capitalised, and nothing after it: "Nos mudamos a Valencia el mes que
viene" is a plan (an adversary saw it replace the home with "I moved to Valencia el mes que
viene")."""
_EMPLOYER = rf"(?P<employer>{_NAME_PART}(?:\s+{_NAME_PART}){{0,3}})"
_END = r"\s*(?:[.!]+\s*)?$"
_NOW = r"(?:ahora|adesso|ora|maintenant|d[ée]sormais|jetzt|nun|agora|now)"

_MOVED = lazy_compile(
    r"(?i)^\s*(?:"
    r"(?:me\s+he\s+mudado|me\s+mud[eé]|nos\s+hemos\s+mudado|nos\s+mudamos)\s+a"
    r"|(?:mi\s+sono|ci\s+siamo)\s+trasferit[oaie]\s+(?:a|in)"
    # "Mudei-me para o Porto" (an adversary: read as no move).
    r"|(?:mudei-me|me\s+mudei|mud[aá]mo-nos|n[oó]s\s+mudamos|mudamos)\s+(?:para|pra)(?:\s+[oa])?"
    r"|(?:j['\u2019]ai|nous\s+avons)\s+d[ée]m[ée]nag[ée]\s+(?:[àa]|en)"
    # "Je viens de déménager à Québec", "Je me suis installée à Québec" (an adversary).
    r"|(?:je\s+viens|nous\s+venons|on\s+vient)\s+de\s+d[ée]m[ée]nager\s+(?:[àa]|en)"
    r"|(?:je\s+me\s+suis|nous\s+nous\s+sommes|on\s+s['\u2019]est)\s+install[ée]e?s?\s+(?:[àa]|en)"
    r"|(?:ich\s+bin|wir\s+sind)\s+(?:jetzt\s+)?nach"
    rf")\s+{_PLACE}(?:\s+gezogen)?{_END}"
)
"""'Me he mudado a Sevilla', 'Mi sono trasferita a Roma', 'Mudei-me para Lisboa', "J'ai
déménagé à Lyon", 'Ich bin nach Berlin gezogen'."""
_LIVE_NOW = lazy_compile(
    rf"(?i)^\s*(?:{_NOW}\s+)?(?:vivo\s+en|vivo\s+a|abito\s+a|j['\u2019]habite\s+(?:{_NOW}\s+)?[àa]"
    rf"|ich\s+wohne\s+(?:{_NOW}\s+)?in|moro\s+(?:{_NOW}\s+)?(?:em|no|na))"
    rf"\s+{_PLACE}(?:\s+{_NOW})?{_END}"
)
"""'Ahora vivo en Sevilla', "J'habite à Lyon", 'Ich wohne jetzt in Berlin'."""
_WORK_AT = lazy_compile(
    rf"(?i)^\s*(?P<now>{_NOW}\s+)?(?:trabajo\s+(?:{_NOW}\s+)?(?:en|para)"
    rf"|lavoro\s+(?:{_NOW}\s+)?(?:da|per|presso|in)"
    rf"|je\s+travaille\s+(?:{_NOW}\s+)?(?:chez|pour|[àa])"
    rf"|ich\s+arbeite\s+(?P<jetzt>{_NOW}\s+)?(?:bei|f[üu]r)"
    rf"|trabalho\s+(?:{_NOW}\s+)?(?:na|no|em|para))"
    rf"\s+{_EMPLOYER}(?:\s+{_NOW})?{_END}"
)
"""'Ahora trabajo en Telefónica', 'Ich arbeite jetzt bei Siemens', 'Je travaille chez
Renault'."""
_STARTED_WORK = lazy_compile(
    r"(?i)^\s*(?:"
    r"empec[eé]\s+a\s+trabajar\s+(?:en|para|con)"
    r"|(?:ho|abbiamo)\s+iniziato\s+a\s+lavorare\s+(?:da|per|presso|in|con)"
    r"|j['\u2019]ai\s+commenc[ée]\s+[àa]\s+travailler\s+(?:chez|pour|[àa])"
    r"|comecei\s+a\s+trabalhar\s+(?:na|no|em|para|com)"
    rf")\s+{_EMPLOYER}{_END}"
)
"""'Empecé a trabajar en Telefónica', 'Ho iniziato a lavorare da Ferrero', "J'ai commencé à
travailler chez Renault", 'Comecei a trabalhar na Sonae' (a new user: read as no new job)."""
_STARTED_WORK_DE = lazy_compile(
    rf"(?i)^\s*ich\s+habe\s+(?:jetzt\s+)?bei\s+{_EMPLOYER}\s+angefangen{_END}"
)
"""'Ich habe bei Bosch angefangen'."""
_ARTICLE = r"(?:(?:la|el|le|les|los|las|il|lo|gli|die|der|das|o|os|as|a)\s+|l['\u2019]\s*)?"
_NO_LONGER_ALLERGIC = lazy_compile(
    r"(?i)^\s*(?:"
    r"je\s+ne\s+suis\s+plus\s+allergique\s+(?:[àa]\s+|aux?\s+)"
    r"|ich\s+bin\s+nicht\s+mehr\s+allergisch\s+(?:gegen|auf)\s+"
    r"|ya\s+no\s+soy\s+al[ée]rgic[oa]\s+(?:a|al)\s+"
    r"|non\s+sono\s+pi[uù]\s+allergic[oa]\s+(?:a|al|alla|allo|ai|alle|agli)\s+"
    r"|j[aá]\s+n[aã]o\s+sou\s+al[ée]rgic[oa]\s+(?:a|[àa]|ao|aos|[àa]s)\s+"
    rf"){_ARTICLE}(?P<what>[^\W\d_][\w'\u2019 -]{{0,40}}?){_END}"
)
"""'Je ne suis plus allergique à la pénicilline', 'Ich bin nicht mehr allergisch gegen
Penicillin', 'Ya no soy alérgica a la penicilina'."""
_ALLERGIC = lazy_compile(
    r"(?i)^\s*(?:"
    r"je\s+suis\s+allergique\s+(?:[àa]\s+|aux?\s+)"
    r"|ich\s+bin\s+allergisch\s+(?:gegen|auf)\s+"
    r"|soy\s+al[ée]rgic[oa]\s+(?:a|al)\s+"
    r"|sono\s+allergic[oa]\s+(?:a|al|alla|allo|ai|alle|agli)\s+"
    r"|sou\s+al[ée]rgic[oa]\s+(?:a|[àa]|ao|aos|[àa]s)\s+"
    rf"){_ARTICLE}(?P<what>[^\W\d_][\w'\u2019 -]{{0,40}}?){_END}"
)
_ALLERGENS = {
    "penicillin": r"p[ée]nicilline|penicilina|penicillina|penicillin",
    "peanuts": r"cacahu[èe]tes?|arachides?|cacahuetes?|man[ií]|arachidi|erdn[üu]sse|amendoins?",
    "nuts": r"noix|fruits\s+[àa]\s+coque|nueces|frutos\s+secos|noci|frutta\s+secca|n[üu]sse|nozes",
    "shellfish": r"fruits\s+de\s+mer|mariscos?|frutti\s+di\s+mare|meeresfr[üu]chte|crust[áa]ceos",
    "latex": r"latex|l[áa]tex",
    "gluten": r"gluten|gl[úu]ten",
    "eggs": r"(?:les\s+)?œufs|oeufs|huevos?|uova|eier|ovos?",
    "cats": r"chats|gatos|gatti|katzen",
    "dogs": r"chiens|perros|cani|hunde|c[ãa]es",
}
_HINTS = ("mud", "trasfer", "ménag", "menag", "gezogen", "install", "viv", "abito", "habite",
          "wohne", "moro", "trabaj", "lavor", "travail", "arbeite", "trabal", "allerg", "alérg",
          "alerg", "angefangen")  # fmt: skip


_LAST_CLAUSE = lazy_compile(r"[,;]\s+(?=[^,;]+$)")


def said_in_english(text: str) -> str:
    """`text` in English if it says, in another language, a move, a job or an allergy.

    Said whole, or in its last clause: "Ich bin nicht mehr bei Siemens, ich arbeite jetzt
    bei Bosch" (a second adversary saw it change nothing).
    """
    lowered = text.casefold()
    if not any(hint in lowered for hint in _HINTS):
        return text
    read = _read(text)
    if read == text and (last := _LAST_CLAUSE.search(text)) is not None:
        clause = text[last.end() :]
        return _read(clause) if _read(clause) != clause else text
    return read


def _read(text: str) -> str:
    """`text` in English if the whole of it says a move, a job or an allergy."""
    if (found := _MOVED.match(text)) is not None and (place := _place(found["place"], text)):
        return f"I moved to {place}"
    if (found := _LIVE_NOW.match(text)) is not None and (place := _place(found["place"], text)):
        return f"I live in {place}"
    if (found := _STARTED_WORK.match(text) or _STARTED_WORK_DE.match(text)) is not None:
        return f"I started working at {found['employer'].strip()}"
    if (found := _WORK_AT.match(text)) is not None:
        now = " now" if found["now"] or found["jetzt"] else ""
        return f"I work at {found['employer'].strip()}{now}"
    if (found := _NO_LONGER_ALLERGIC.match(text)) is not None:
        return f"I'm no longer allergic to {_allergen(found['what'])}"
    if (found := _ALLERGIC.match(text)) is not None:
        return f"I'm allergic to {_allergen(found['what'])}"
    return text


_MOVED_HOUSE = (
    r"on\s+a\s+d[ée]m[ée]nag[ée]|nous\s+avons\s+d[ée]m[ée]nag[ée]|j['\u2019]ai\s+d[ée]m[ée]nag[ée]"
    r"|(?:on|je|nous)\s+vien[st]?\s+de\s+d[ée]m[ée]nager|(?:wir\s+sind|ich\s+bin)\s+umgezogen"
    r"|nos\s+(?:hemos\s+)?mudado|nos\s+mudamos|me\s+(?:he\s+)?mud(?:ado|[ée])"
    r"|(?:ci\s+siamo|mi\s+sono)\s+trasferit[oaie]|(?:abbiamo|ho)\s+traslocato"
    r"|mud[aá]mos(?:\s+de\s+casa)?|mudei(?:-me)?(?:\s+de\s+casa)?"
    # Dutch: "We zijn verhuisd!" (a new user, a teacher in Utrecht: no home was changed).
    r"|(?:(?:we|wij)\s+zijn|ik\s+ben)\s+(?:eindelijk\s+)?verhuisd(?:\s+naar\s+(?-i:[A-Z])[\w-]+)?"
)
_NEW_ADDRESS = (
    r"nouvelle\s+adresse|neue\s+adresse|nueva\s+direcci[oó]n|nuovo\s+indirizzo|nova\s+morada"
    r"|novo\s+endere[cç]o|nieuwe\s+adres"
)
_MOVED_AND_NEW_ADDRESS = lazy_compile(
    rf"(?i)^\W*(?:(?:enfin|endlich|finalmente|ça\s+y\s+est)\W+)?(?:(?:{_MOVED_HOUSE})\s*[!.,;:]*\s*)?"
    r"(?:(?:a|o|la|le|die|il)\s+)?"
    rf"(?:ma\s+|notre\s+|meine\s+|unsere\s+|mi\s+|nuestra\s+|mio\s+|minha\s+|nossa\s+|mijn\s+|"
    rf"ons\s+|het\s+)?"
    rf"(?:{_NEW_ADDRESS})\s*(?::|est|ist|lautet|es|è|é|is)?\s*:?\s*(?P<address>[^!?\n]*\d[^!?\n]*?)"
    r"\s*[.!]*\s*$"
    # Or the move into an address: "On a déménagé au 4521 rue Fabre", "Wir sind in die
    # Lindenstraße 8 gezogen".
    rf"|^\W*(?:{_MOVED_HOUSE})\s+(?:au|à\s+la|à|a\s+la|a|al|in\s+die|in\s+den|in|para\s+[ao]|para)\s+"
    r"(?P<into>[^!?\n]*\d[^!?\n]*?)\s*[.!]*\s*$"
    r"|^\W*(?:wir\s+sind|ich\s+bin)\s+in\s+(?:die|den|das)\s+(?P<gezogen>[^!?\n]*\d[^!?\n]*?)\s+gezogen"
    r"\s*[.!]*\s*$"
    # Or living there now, after the move or alone: "Wir sind umgezogen, wir wohnen jetzt in
    # der Lindenstraße 8", "J'habite maintenant au 4521 rue Fabre".
    # "Ora abito in via Garibaldi 12, Torino" (an adversary: read as no move).
    rf"|^\W*(?:(?:{_MOVED_HOUSE})\s*[!.,;:]*\s*)?(?:{_NOW}\s+)?(?:wir\s+wohnen|ich\s+wohne|on\s+habite"
    r"|j['\u2019]habite|nous\s+habitons|vivimos|vivo|abitiamo|abito|moramos|moro"
    r"|ik\s+woon|we\s+wonen|wij\s+wonen)\s+"
    rf"(?:(?:{_NOW}|nu)\s+)?(?:in\s+der|in\s+dem|im|in|au|à\s+la|à|en\s+la|en|a|na|no|em|"
    r"op\s+de|op\s+het|op|aan\s+de|aan\s+het|aan)\s+"
    r"(?P<lives>[^!?\n]*\d[^!?\n]*?)\s*[.!]*\s*$"
)
_MOVE_TO_COME = lazy_compile(
    r"(?i)\bd[ée]m[ée]nag(?:e|es|eons|erons|erai|era|eront)\b|\b(?:va|vais|allons|vont)\s+d[ée]m[ée]nager"
    r"|\bziehen\s+(?:\w+\s+){0,3}um\b|\bumziehen\b|\bmudaremos\b|\bnos\s+mudamos\s+el\b"
    r"|\bci\s+trasferiremo\b|\bvamos\s+mudar\b"
)
"""A move to come ("on déménage le 1er juillet"): no home yet."""


def move_said_in_english(text: str) -> str:
    """`text` as "We moved house, new address is …" if it says so in another language.

    "On a déménagé, nouvelle adresse : 14 rue des Lilas, Lyon", "Wir sind umgezogen, neue
    Adresse: Lindenstraße 8, Berlin", "On a déménagé au 4521 rue Fabre" left the home in
    effect where the same in English replaced it (an adversary, and a new user, a
    translator in Montréal). Not a move to come.
    """
    lowered = text.casefold()
    if not any(hint in lowered for hint in _ADDRESS_HINTS) or _MOVE_TO_COME.search(text):
        return text
    found = _MOVED_AND_NEW_ADDRESS.match(text.strip())
    if found is None:
        return text
    address = next(found[name] for name in ("address", "into", "gezogen", "lives") if found[name])
    address = _SINCE_A_YEAR.sub("", address).strip(" ,;:")
    if _A_FLOOR.match(address) or not any(c.isdigit() for c in address):
        # "j'habite au 3e étage" names a floor; "vivo en Madrid desde 2019" a town (a
        # year is no house number).
        return text

    return f"We moved house, new address is {address}"


_SINCE_A_YEAR = lazy_compile(
    r"(?i)[\s,]+(?:desde|since|seit|depuis|dal|dall['\u2019]|da|from|em|en|in)\s+"
    r"(?:(?:el|la|il|o|a)\s+)?(?:19|20)\d\d\b.*$"
)
_A_FLOOR = lazy_compile(
    r"(?i)\d+\s*(?:e|er|re|ère|ème|eme|º|ª|\.)?\s*(?:étage|etage|stock|piso|piano|andar)\b"
)


_ADDRESS_HINTS = ("adress", "direcci", "indirizzo", "morada", "endere", "ménag", "menag",
                  "umgezogen", "gezogen", "mud", "trasferit", "traslocato", "wohne", "habit",
                  "viv", "abit", "mor", "verhuisd", "woon", "adres")  # fmt: skip


def _place(said: str, text: str) -> str:
    """A place's name, with its capital where it was typed in lower case; "" if it is none.

    In lower case, a word is a place only where nothing after the first letter is written
    in capitals, and no word for a home or a place said otherwise ("me mudé a casa").
    """
    said = said.strip()
    if not said.islower():
        return said
    if any(c.isupper() for c in text[1:]) or said.casefold() in _NO_PLACE:
        return ""
    return said[:1].upper() + said[1:]


_NO_PLACE = frozenset(
    "casa aquí aqui allí alli allá alla ahí ahi otra otro qui là la lì li ici dort dorthin "
    "hier da dahin lá cá ali aí nuevo nueva novo nova nuovo nuova nouveau nouvelle".split()
)


def _allergen(said: str) -> str:
    """The allergen in English where its name is known ("pénicilline" is penicillin)."""
    said = said.strip()
    return next(
        (name for name, words in _ALLERGENS.items() if re.fullmatch(words, said, re.I)), said
    )
