"""Asked what is known of someone ("what do you know about dad?"): their facts first.

Found by a new user, a carer: "what do you know about dad" recalled the five memories that
named "dad" most plainly (his NHS number, a key safe's code), and none of his conditions,
carers or appointments. As "what do you know about me?" reads the user's facts
(`agent.injection`), this reads the facts that name the one asked about, then what a
recall finds beside them.
"""

from __future__ import annotations

import re

from memory.entry import MemoryEntry
from memory.fact_subjects import relation_terms
from memory.lazy_patterns import lazy_compile
from memory.text import analyze

ASKED_WHAT_IS_KNOWN = (
    r"(?i)^\W*(?:(?:so|ok|okay|hey|hi|hello|hallo|hola|salut|ciao|ol[áa])\W+)?(?:(?:(?:what|wat|wot)"
    r"\s+(?:do|else\s+do)\s+(?:you|u|ya)\s+(?:know|remember)|what\s+have\s+i\s+told\s+(?:you|u)|"
    r"tell\s+me\s+(?:everything\s+|all\s+|what\s+)?(?:you|u)\s+(?:know|remember))\s+"
    r"(?:about|abt|of)"
    # In German, Spanish, French, Italian and Portuguese: "Was weißt du über mich?" recalled
    # nothing where "what do you know about me?" told the facts (a new user, an electrician).
    r"|was\s+wei(?:ß|ss|s)t\s+du\s+(?:noch\s+|alles\s+)?(?:über|ueber|uber|von)"
    r"|qu[ée]\s+sabes\s+(?:de|sobre)|que\s+sais[ -]tu\s+(?:de|sur)"
    r"|qu['\u2019]est[ -]ce\s+que\s+tu\s+sais\s+(?:de|sur)|(?:che\s+)?cosa\s+sai\s+(?:di|su)"
    r"|o\s+que\s+(?:(?:voc[êe]|tu)\s+)?sabes?\s+(?:de|sobre)"
    # And Dutch: "wat weet je over mij?" (a new user, a teacher in Utrecht: nothing).
    r"|wat\s+weet\s+(?:je|jij|u)\s+(?:nog\s+|allemaal\s+)?(?:over|van))\s+"
)
"""How a message asks what is remembered of someone, up to whom ("… about me", "… about dad")."""
ABOUT_ME = r"(?:me|mich|m[ií]|moi|mim|mij)"
"""The user, as those questions name them."""
ABOUT_SOMEONE = lazy_compile(
    ASKED_WHAT_IS_KNOWN
    + r"(?P<who>(?:my\s+|our\s+|mi\s+|meine?[mnrs]?\s+|ma\s+|mon\s+|mia\s+|mio\s+|minha\s+"
    r"|meu\s+|mijn\s+)?(?!(?:me|myself|us|it|this|that|them|mich|uns|m[ií]|moi|mim|mij|ons)\b)"
    r"[\w'\u2019-]+"
    r"(?:\s+(?-i:[A-Z])[\w'\u2019-]+)?)\W*$"
)
"""A message asking what is remembered of someone named or of the user's ("my sister")."""


def is_someone(who: str) -> bool:
    """Whether `who` names a person: a relation ("dad", "my sister") or a name ("Anna").

    "my cat" is searched as any question is.
    """
    named = set(analyze(who))
    return bool(named) and bool(
        named & relation_terms() or _relation(who) or who.split()[-1][:1].isupper()
    )


def _naming(facts: list[MemoryEntry], who: str) -> list[MemoryEntry]:
    """The facts naming `who` by every word of it.

    One word typed in lower case only as a name with its capital: "summer" is not "every
    summer in Kerry" (a third adversary).
    """
    if (name := _as_a_name(who)) is not None and any(name.search(f.content) for f in facts):
        return [fact for fact in facts if name.search(fact.content)]
    named = set(analyze(who))
    return [fact for fact in facts if named <= set(analyze(fact.content))]


def named_in(facts: list[MemoryEntry], who: str) -> bool:
    """Whether `who`, typed in lower case, is a name a fact gives with its capital.

    "what do you know about emmanuel" (a new user, a carer, types all in lower case).
    """
    name = _as_a_name(who)
    return name is not None and any(name.search(fact.content) for fact in facts)


def _as_a_name(who: str) -> re.Pattern[str] | None:
    """`who`, one word typed in lower case, as a name with its capital; None otherwise."""
    if not who.islower() or " " in who:
        return None
    return re.compile(rf"\b{re.escape(who.capitalize())}\b")


def facts_about(facts: list[MemoryEntry], who: str) -> list[MemoryEntry]:
    """The facts naming `who` by every word of it ("dad", "Anna Silva").

    A relation by any of its words ("dad" is "father"), and only the user's: not "Priya's
    dad", "my father-in-law" or "dad jokes" (an adversary saw those told as his, and
    "Father is allergic to shellfish" left out).
    """
    relation = _relation(who)
    if relation is None:
        found = _naming(facts, who)
        called = _called(facts, {who.split()[0]}) if who.split() else set()
        if not called:
            return found
        # Not another of that name, by a surname: "Emmanuel Dubois", a colleague, is not
        # "Manny", whom everyone calls so (a third adversary saw his facts told as the
        # husband's).
        by_alias = re.compile(
            r"\b(?:" + "|".join(map(re.escape, sorted(called))) + r")\b(?!\s+[A-Z][a-z])"
        )
        return found + [f for f in facts if f not in found and by_alias.search(f.content)]
    mine = _the_users(relation)
    theirs = [fact for fact in facts if mine.search(fact.content)]
    # By their name too: "Susan's new mobile is …" after "My daughter is Susan" (a new user
    # asked what was known of her daughter, and the number was left out).
    names = {name for fact in theirs for name in _named_as(relation, fact.content)}
    names |= _called(facts, names)
    if not names:
        return theirs
    # Not another of that name, by a surname: "Susan Miller from church".
    by_name = re.compile(
        r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b(?!\s+[A-Z][a-z])"
    )
    return theirs + [f for f in facts if f not in theirs and by_name.search(f.content)]


def _named_as(relation: tuple[str, ...], text: str) -> list[str]:
    """The names `text` gives the user's relation: "My daughter is Susan", "my son Jack"."""
    words = "|".join(relation)
    found = re.finditer(
        r"(?i)\bmy\s+(?:" + words + r")(?:['\u2019]s\s+name)?(?:\s+is\s+(?:called\s+)?|,?\s+)"
        r"(?P<name>(?-i:[A-Z])[a-z'\u2019-]+)\b",
        text,
    )
    return [match["name"] for match in found if match["name"].casefold() not in _NOT_NAMES]


_NOT_NAMES = frozenset("is was has and the lives works".split())
_CALLED = lazy_compile(
    r"(?i:\b(?:everyone|we|people|they|i|most\s+people)\s+calls?\s+(?:him|her|them)|\bgoes\s+by|"
    r"\baka|\ba\.k\.a\.?|\bknown\s+as)\s+(?P<alias>(?-i:[A-Z])[a-z'\u2019-]+)\b"
)
"""One person's other name: "My husband is Emmanuel Okafor, everyone calls him Manny" (a new
user, a carer: "what do you know about emmanuel" found none of the facts saying "Manny")."""
_A_NAME = lazy_compile(r"\b(?-i:[A-Z])[a-z'\u2019-]+\b")
_NOT_A_PERSON = frozenset("my our his her their the he she they we i everyone".split())


def _called(facts: list[MemoryEntry], names: set[str]) -> set[str]:
    """The other names the facts give anyone of `names` ("Manny" of "Emmanuel"), and back.

    The name is one said in the sentence before "everyone calls him …".
    """
    folded = {name.casefold() for name in names}
    called: set[str] = set()
    for fact in facts:
        for found in _CALLED.finditer(fact.content):
            before = re.split(r"[.!?\n]", fact.content[: found.start()])[-1]
            said = [
                name.group()
                for name in _A_NAME.finditer(before)
                if name.group().casefold() not in _NOT_A_PERSON
            ]
            if {name.casefold() for name in said} & folded:
                called.add(found["alias"])
            elif said and found["alias"].casefold() in folded:
                called.add(said[0])  # "Emmanuel", not his surname, which is the family's
    return called


def not_someone_elses(entries: list[MemoryEntry], who: str) -> list[MemoryEntry]:
    """`entries` but those naming the relation `who` only as someone else's.

    "Priya's dad", "my father-in-law": the second found by "dad", asked for as "father".
    """
    relation = _relation(who)
    if relation is None:
        return entries
    mine = _the_users(relation)
    anyones = re.compile(r"(?i)(?<![\w-])(?:" + "|".join(relation) + r")(?:(?![\w-])|-in-law\b)")
    return [e for e in entries if not anyones.search(e.content) or mine.search(e.content)]


def _relation(who: str) -> tuple[str, ...] | None:
    words = [word.casefold() for word in re.findall(r"[\w'\u2019-]+", who)]
    return next((_KIN[word] for word in words if word in _KIN), None)


def _the_users(relation: tuple[str, ...]) -> re.Pattern[str]:
    """A relation's words said of the user's: not after a name's "'s", not in a compound."""
    return re.compile(
        r"(?i)(?<![\w'\u2019-])(?<!['\u2019]s\s)(?<!\w['\u2019]\s)(?:"
        + "|".join(relation)
        + r")(?![\w-])(?!['\u2019]s\s+(?:jokes?|bod)\b)(?!\s+(?:jokes?|bod|jeans|tongue|nature|"
        r"board|ship|land|time|christmas)\b)"
    )


_KIN_WORDS = (
    "dad father daddy papa pa pop",
    "mum mom mother mummy mommy mam ma",
    "sister sis",
    "brother bro",
    "grandma gran granny nana nan grandmother",
    "grandpa grandad granddad gramps grandfather",
    "husband hubby",
    "wife wifey",
    "boyfriend bf",
    "girlfriend gf",
    "son",
    "daughter",
    "partner",
)
_KIN = {word: tuple(group.split()) for group in _KIN_WORDS for word in group.split()}
"""Each relation's words: one asked by one is named by any."""
