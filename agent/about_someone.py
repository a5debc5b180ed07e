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
from memory.text import analyze

ASKED_WHAT_IS_KNOWN = (
    r"(?i)^\W*(?:(?:so|ok|okay|hey|hi|hello)\W+)?(?:(?:what|wat|wot)\s+(?:do|else\s+do)\s+"
    r"(?:you|u|ya)\s+(?:know|remember)|what\s+have\s+i\s+told\s+(?:you|u)|tell\s+me\s+"
    r"(?:everything\s+|all\s+|what\s+)?(?:you|u)\s+(?:know|remember))\s+(?:about|abt|of)\s+"
)
"""How a message asks what is remembered of someone, up to whom ("… about me", "… about dad")."""
ABOUT_SOMEONE = re.compile(
    ASKED_WHAT_IS_KNOWN
    + r"(?P<who>(?:my\s+|our\s+)?(?!(?:me|myself|us|it|this|that|them)\b)[\w'\u2019-]+"
    r"(?:\s+(?-i:[A-Z])[\w'\u2019-]+)?)\W*$"
)
"""A message asking what is remembered of someone named or of the user's ("my sister")."""


def is_someone(who: str) -> bool:
    """Whether `who` names a person: a relation ("dad", "my sister") or a name ("Anna").

    "my cat" is searched as any question is.
    """
    named = set(analyze(who))
    return bool(named) and bool(named & relation_terms() or who.split()[-1][:1].isupper())


def facts_about(facts: list[MemoryEntry], who: str) -> list[MemoryEntry]:
    """The facts naming `who` by every word of it ("dad", "Anna Silva")."""
    named = set(analyze(who))
    return [fact for fact in facts if named <= set(analyze(fact.content))]
