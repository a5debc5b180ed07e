"""Whose fact a memory states, so a question about the user ranks the user's facts first.

"Where do I live?" shares one word with "I live in Lisbon", "Bob lives in Berlin" and "My
sister Ana lives in Porto": all three matched it fully, and the shortest (Bob's) came first
(found by a new user). Among memories that score alike, a question in the first person
now puts the user's own facts ahead: those the user is the subject of ("I …", "the user
…"), then those of what the user has ("my sister …", "the user's cat …"). Scores are not
changed: only the order of ties, so what passes the floor stays the same.

The index holds a term for each kind (`owner_terms`), so ranking needs no text.
"""

from __future__ import annotations

from typing import Literal

from memory.lazy_patterns import lazy_compile
from memory.letters import UPPER
from memory.predicates import USER, claim_of, words_of

SELF_TERM = "mcownself"
"""The index term of a memory the user is the subject of."""
MINE_TERM = "mcownmine"
"""The index term of a memory about something of the user's."""
CLAIM_TERM = "mcownclaim"
"""The index term of the user's plain statement of their home or employer
(`memory.predicates.claim_of`): "where do I live?" wants it before "I asked Bob where he
lives" (an adversary)."""

Person = Literal["self", "mine"]
_OWNED = frozenset({SELF_TERM, MINE_TERM})

_LEAD_IN = frozenset(
    "now currently also actually just please remember that btw oh ok okay so and but well "
    "yes no hey hi note".split()
)
"""Words before the subject that say nothing of whose fact it is."""
_SUBJECTS = frozenset("i i'm im i've i'd i'll we we're we've user".split())
_OWNERS = frozenset("my our user's".split())
_OWN_ATTRIBUTES = frozenset(
    "home address email e-mail phone mobile number job employer work name birthday age "
    "password username website occupation profession nationality flat apartment house "
    "favourite favorite".split()
)
"""What the user has that says where or who the user is (an adversary: "The user's home is
in Lisbon" ranked with the user's sister, not with "I live in …")."""
_ASKS_OF_SELF = frozenset("i i'm i've i'd me myself am".split())
_ASKS_OF_MINE = frozenset("my mine our".split())


def _opening(text: str, size: int = 2) -> list[str]:
    words = words_of(text[:200])
    at = 0
    while at < len(words) and words[at] in _LEAD_IN:
        at += 1
    if words[at : at + 1] == ["the"]:
        at += 1
    return words[at : at + size]


_ADJECTIVES_OF_CHANGE = frozenset("new old current latest usual".split())


_NAMED_OPENING = lazy_compile(
    rf"({UPPER}[\w-]*)(?:['\u2019]s\b|\s+(?:is|are|was|were|has|had|takes|took|needs|gets|got|"
    r"can't|cannot|does|doesn't|isn't|wasn't|owes|lives|works)\b)"
)
"""A person named at the start, then what they are or have: "Sam is …", "Jo's allergic"."""
_LEAD_WORD = lazy_compile(r"[\w'\u2019-]+")
_NOT_NAMED = (
    _SUBJECTS
    | _OWNERS
    | _OWN_ATTRIBUTES
    | frozenset(
        "the this that it he she they there here what who everyone nobody someone rent wifi "
        "code pin door gate dentist doctor meeting appointment deadline flight dinner lunch "
        "party today tomorrow tonight".split()
    )
)
"""Capitalised openers that name no one ("Rent is 900", "Password is …")."""


def _opens_with_a_name(text: str) -> bool:
    for found in _LEAD_WORD.finditer(text[:200]):
        word = found.group().casefold()
        if word in _LEAD_IN:
            continue
        named = _NAMED_OPENING.match(text, found.start())
        return named is not None and named.group(1).casefold() not in _NOT_NAMED
    return False


def whose_fact(text: str) -> Literal["user", "theirs", "someone"] | None:
    """Whose fact `text` states, by how it opens: the user's, someone's of theirs, or another's.

    "user" for "I'm allergic to …" or "my email is …"; "theirs" for "my daughter is
    allergic to …" or "the user's cat …"; "someone" for a person named first ("Sam is
    allergic to …"); None for any other opening ("Dentist at 9").
    """
    opening = _opening(text, 4)
    if not opening:
        return None
    if opening[0] in _SUBJECTS:
        return "user"
    if opening[0] not in _OWNERS:
        return "someone" if _opens_with_a_name(text) else None
    rest = [word for word in opening[1:] if word not in _ADJECTIVES_OF_CHANGE]
    return "user" if rest[:1] and rest[0] in _OWN_ATTRIBUTES else "theirs"


def owner_terms(text: str) -> list[str]:
    """The owner terms `text` is indexed by: the user's own fact, or of what is theirs."""
    claim = claim_of(text)
    if claim is not None and claim[0] == USER:
        return [SELF_TERM, CLAIM_TERM]
    opening = _opening(text)
    if not opening:
        return []
    if opening[0] in _SUBJECTS:
        return [SELF_TERM]
    if opening[0] in _OWNERS:
        # "My home", "the user's email": the user's own; "my sister": someone of theirs.
        return [SELF_TERM if opening[1:2] and opening[1] in _OWN_ATTRIBUTES else MINE_TERM]
    return []


def asks_of(query: str) -> Person | None:
    """Whom `query` asks about: the user ("where do I live"), theirs ("my cat"), or neither."""
    words = set(words_of(query))
    if words & _ASKS_OF_SELF:
        return "self"
    if words & _ASKS_OF_MINE:
        return "mine"
    return None


def owner_rank(asked: Person | None, terms: frozenset[str]) -> int:
    """0 for the memories a question about `asked` wants first, then 1, 2 and 3.

    About the user: their plain statement of home or employer, their other facts, what
    is theirs, the rest. About what is theirs: anything of the user's, the rest.
    """
    if asked is None:
        return 0
    if asked == "mine":
        return 0 if terms & _OWNED else 3
    if CLAIM_TERM in terms:
        return 0
    if SELF_TERM in terms:
        return 1
    return 2 if MINE_TERM in terms else 3
