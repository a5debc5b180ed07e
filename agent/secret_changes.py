"""A secret a message says changed, while a fact still holds the old one.

Found by a new user, a carer: "The key safe code changed to 8153 today after the agency
asked" was saved redacted, as every secret said in passing is, and "The key safe code at
Dad's is 4471" stayed in effect, unmarked: the model was shown the old code as current.
The new value is not made a fact (a secret is kept only when the user asks to keep it);
the chat says the fact is out of date and how to keep the new one, and recall marks the
fact "since changed" (`agent.since_changed`).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from agent.redact import redact
from memory.fact_subjects import WHOSE, change_terms
from memory.lazy_patterns import lazy_compile
from memory.stated_values import pieces
from memory.text import REDACTED_MARKER, analyze
from memory.words_elsewhere import english_of

if TYPE_CHECKING:
    from memory.entry import MemoryEntry

_SAYS_CHANGED = lazy_compile(
    r"(?i)\b(?:now|new|changed?|changes|reset|updated?|different|switched|"
    # In Spanish, German, French, Italian, Portuguese: "el código del garaje cambió a …",
    # "der Code für die Garage ist jetzt …" left the old code unmarked (an adversary).
    r"cambi[óo]|cambiado|cambiato|ahora|ora|adesso|jetzt|neue?[rsnm]?|ge(?:ä|ae)ndert|"
    r"nuev[oa]|nuov[oa]|nouve(?:au|lle)|chang[ée]e?|maintenant|mudou|agora|nov[oa])(?!\w)"
)
_CHANGED_MY = lazy_compile(
    r"(?i)\b(?:changed|reset|updated|switched)\s+(?:my|our|the|his|her|their)\s+"
    r"(?P<what>[^.,;:!?]+?)\s+(?:to|:)?\s*$"
)
""""I changed my wifi password to …": what changed follows the verb."""
_NAMED_BEFORE = lazy_compile(
    r"(?i)^(?P<what>.+?)\s+(?:is|are|was|has\s+been|got|changed|reset|updated|switched|now|"
    r"cambi[óo]|ha\s+cambiado|es|ist|wurde|hat\s+sich|est|a\s+chang[ée]|è|é|mudou|"
    r"[èe]\s+cambiato)(?!\w)"
    r"|^(?P<label>[^:]+):"
)
""""My pin is now …", "The key safe code changed to …", "New door code: …"."""


_POINTING = lazy_compile(
    r"(?i)^\W*(?:it['\u2019]?s|it\s+is|that['\u2019]?s|(?:the\s+)?new\s+one\s+is|now|"
    r"agora\s+[ée]|ahora\s+es|adesso\s+[èe]|ora\s+[èe]|jetzt\s+ist|maintenant\s+c['\u2019]est)"
    r"(?:\s+now)?\s*$"
)


def _what_changed(before: str) -> frozenset[str]:
    found = _CHANGED_MY.search(before) or _NAMED_BEFORE.search(before.strip())
    if found is None:
        return frozenset()
    return _secret_named(next(group for group in found.groups() if group is not None))


def _secret_named(named: str) -> frozenset[str]:
    """The words naming a secret, as a fact holding it says them."""
    terms = frozenset(analyze(named)) - change_terms() - WHOSE - _said_by_the_way()
    # "we changed the wifi pw" names the fact "Our wifi password is …" (an adversary).
    english = english_of(analyze)
    return frozenset(_SAME_SECRET.get(term) or english.get(term, term) for term in terms)


@cache
def _said_by_the_way() -> frozenset[str]:
    """Words a message is opened with that name nothing.

    "FYI the Vienna door code changed to …" named "fyi" too, which no fact says (an
    adversary: the old code stayed unmarked).
    """
    return frozenset(
        analyze(
            "fyi btw ps ok okay so just know heads up note also anyway update "
            # What one sighs first: "ugh, the lab door code changed again" (a new user).
            "ugh argh ah oh hmm sigh omg damn gah ai "
            # Articles and little words of the other languages a change is said in.
            "der die das den dem des el la los las le les il lo gli o os as de del da di du "
            "für fur von vom zur zum del della dello e y und et do dos das"
        )
    )


_SAME_SECRET = {
    "pw": "password",
    "pwd": "password",
    "passwd": "password",
    # A lock's code by any of its names: "new shed padlock combo is …" left "the shed
    # padlock code is now 9023" unmarked (a new user, an allotment's secretary).
    "combo": "code",
    "combin": "code",
    "passcod": "code",
    # The French door: not among a question's words elsewhere (`memory.words_elsewhere`),
    # where "port" is an English word; a lock's name it is.
    "port": "door",
}
"""Beside a lock's and a secret's names in Portuguese, Spanish, Italian, French and German
(`memory.words_elsewhere.english_of`): "ah e o código da porta do lab mudou" left "The lab
door keypad code is 5930#" unmarked (a new user writing half in Portuguese)."""


_SECRET_NOUN = r"(?:password|passwort|pw|pwd|passwd|passcode|pin|code|combination|combo)"
_CHANGED_WITHOUT_IT = lazy_compile(
    r"(?i)\b(?:changed|reset|updated|switched)\s+(?:my|our|the|his|her|their)\s+"
    rf"(?P<what>(?:[\w'-]+\s+){{0,3}}?{_SECRET_NOUN})\b"
    r"(?:\s+(?:on|for|at|of)\s+(?:the\s+|my\s+|our\s+)?(?P<where>[\w'-]+))?"
    rf"|^\W*(?:the\s+|my\s+|our\s+)?(?P<named>(?:[\w'-]+\s+){{0,3}}?{_SECRET_NOUN})\s+"
    r"(?:has\s+been|have\s+been|was|were|got|is)\s+(?:changed|reset|updated)\b"
)
"""A secret said to have changed with no new value: "they changed the wifi password
yesterday", "the alarm code has been changed" (an adversary: the fact holding the old one
was shown as current)."""


def _changed_without_its_value(piece: str) -> frozenset[str]:
    found = _CHANGED_WITHOUT_IT.search(piece)
    if found is None or "?" in piece:
        return frozenset()
    return _secret_named(" ".join(part for part in found.group("what", "where", "named") if part))


def secret_said_changed(text: str) -> frozenset[str]:
    """The words naming a secret `text` says changed, its new value redacted; else none.

    "my pin is now [REDACTED:pin]" gives {"pin"}; "my pin is [REDACTED:pin]" none: said
    again, not said to have changed.
    """
    said_before = ""
    for piece in pieces(text):
        mark = REDACTED_MARKER.search(piece)
        if mark is None and (named := _changed_without_its_value(piece)):
            return named
        if mark is None or "?" in piece:
            said_before = piece
            continue
        lead = piece[: mark.start()]
        head, _comma, tail = lead.rpartition(",")
        if _POINTING.match(tail):
            # "We changed the door code, it's 9090 now": named in the clause before, or
            # in the sentence before ("The door code changed. It is 9090 now").
            lead = f"{head if _comma else said_before} to "
        elif _comma and _what_changed(tail):
            # The clause the secret is in: "Free changed the box, wifi password is now …"
            # named "Free" (a new user, a pharmacist: the old password stayed unmarked).
            lead = tail
        said_before = piece
        if not _SAYS_CHANGED.search(piece):
            continue
        named = _what_changed(lead)
        if named:
            return named
    return frozenset()


def facts_with_the_old_secret(text: str, facts: list[MemoryEntry]) -> list[MemoryEntry]:
    """The facts holding a secret that `text` says changed: they name all it names."""
    named = secret_said_changed(text)
    if not named:
        return []
    # As the model is shown it too: its secret already redacted (an adversary saw the fact
    # recalled unmarked).
    return [
        fact
        for fact in facts
        if named <= _secret_named(fact.content)
        and (redact(fact.content)[1] or REDACTED_MARKER.search(fact.content))
    ]


def old_secret_notice(fact: MemoryEntry, message: str) -> str:
    """What the chat says of a fact whose secret `message` (as saved) says changed."""
    # The fact as redacted: a note is kept with the chat, where no secret goes.
    new_one = (
        "the new one was redacted from the saved message"
        if REDACTED_MARKER.search(message)
        else "your message did not say the new one"
    )
    return (
        f"Your message says this changed, but the memory {fact.key!r} "
        f"({redact(fact.content)[0]!r}) still holds the old one, and {new_one}. To keep "
        'it, ask to remember it ("remember …") or edit the memory in the inspector (F2).'
    )
