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

from memory.predicates import words_of

SELF_TERM = "mcownself"
"""The index term of a memory the user is the subject of."""
MINE_TERM = "mcownmine"
"""The index term of a memory about something of the user's."""

Person = Literal["self", "mine"]

_LEAD_IN = frozenset(
    "now currently also actually just please remember that btw oh ok okay so and but well "
    "yes no hey hi note".split()
)
"""Words before the subject that say nothing of whose fact it is."""
_SUBJECTS = frozenset("i i'm im i've i'd i'll we we're we've user".split())
_OWNERS = frozenset("my our user's".split())
_ASKS_OF_SELF = frozenset("i i'm i've i'd me myself am".split())
_ASKS_OF_MINE = frozenset("my mine our".split())


def _opening(text: str) -> list[str]:
    words = words_of(text[:200])
    at = 0
    while at < len(words) and words[at] in _LEAD_IN:
        at += 1
    opening = words[at : at + 2]
    return opening[1:] if opening[:1] == ["the"] else opening


def owner_terms(text: str) -> list[str]:
    """The owner term `text` is indexed by: the user's own fact, or of what is theirs."""
    opening = _opening(text)
    if not opening:
        return []
    if opening[0] in _SUBJECTS:
        return [SELF_TERM]
    if opening[0] in _OWNERS:
        return [MINE_TERM]
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
    """0 for the memories a question about `asked` wants first, then 1, then 2."""
    if asked is None:
        return 0
    if SELF_TERM in terms:
        return 0
    if MINE_TERM in terms:
        return 1 if asked == "self" else 0
    return 2
