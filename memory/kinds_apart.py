"""One kind of thing, told apart by a word before it: another one, not a new version.

A model reuses its keys. Found by adversaries: "My Westpac card PIN is 2222", written under
the key of "My ANZ card PIN is 1111", replaced it; so did "office locker code is 5678"
under the key of "gym locker code is 1234". Each names the kind the other does ("card
PIN", "locker code") by a word the other lacks.
"""

from __future__ import annotations

from functools import cache

from memory.fact_subjects import subject_terms_in_order, subject_words
from memory.lazy_patterns import lazy_compile
from memory.letters import UPPER
from memory.text import analyze


def another_by_name(new: str, old: str) -> bool:
    """Whether both name, before their value, one kind of thing by another name or word.

    By a name ("Westpac" and "ANZ" of "card PIN"), or by a word before the kind both end
    with ("gym" and "office" of "locker code"); not "my new card PIN" beside "my old card
    PIN", nor "Dr Kelly's number" beside "Dr Kelly's phone" (one thing, two words).
    """
    ours, theirs = subject_words(new), subject_words(old)
    if not ours or not theirs or not ours & theirs:
        return False
    named_ours = (ours - theirs) & _capitalised(new)
    named_theirs = (theirs - ours) & _capitalised(old)
    return bool(named_ours and named_theirs) or _another_by_a_word_before(new, old)


_WITH_A_CAPITAL = lazy_compile(rf"[\w'\u2019-]*{UPPER}[\w'\u2019-]*")


def _capitalised(text: str) -> frozenset[str]:
    """The analysed words holding a capital: "Westpac", "ANZ", "mBank"."""
    return frozenset(analyze(" ".join(_WITH_A_CAPITAL.findall(text))))


@cache
def _one_thing_in_other_words() -> tuple[frozenset[str], ...]:
    """Words that name one thing, or no other thing, in other words.

    "my mobile number" under the key of "my phone number" is its new version.

    Made on first use, so commands that store nothing do not load the stemmer.
    """
    return tuple(
        frozenset(analyze(words))
        for words in (
            "phone mobile cell cellphone telephone tel handy",
            "email e-mail mail",
            "wifi wi-fi wlan wireless network",
            "home house",
            "old previous former last earlier",
        )
    )


def _another_by_a_word_before(new: str, old: str) -> bool:
    """Whether each names the kind both end with by a word before it the other lacks."""
    ours, theirs = subject_terms_in_order(new), subject_terms_in_order(old)
    if not ours or not theirs or ours[-1] != theirs[-1]:
        return False
    shared = set(ours) & set(theirs)
    ours_before, theirs_before = _words_before(ours, shared), _words_before(theirs, shared)
    if ours_before is None or theirs_before is None or not ours_before or not theirs_before:
        return False
    if any(character.isdigit() for term in ours_before | theirs_before for character in term):
        return False  # "flat2 rent" beside "Flat 2 rent": numbered ones are told apart elsewhere
    return not any(ours_before | theirs_before <= alike for alike in _one_thing_in_other_words())


def _words_before(said: tuple[str, ...], shared: set[str]) -> frozenset[str] | None:
    """The words before the first shared one, or None when another follows it."""
    first = next(at for at, term in enumerate(said) if term in shared)
    if any(term not in shared for term in said[first:]):
        return None  # "Dr Kelly's phone" beside "Dr Kelly's number": the kind differs
    return frozenset(said[:first])
