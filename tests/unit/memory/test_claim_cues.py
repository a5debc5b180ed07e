"""The cheap check before the claim patterns never skips a text one of them matches."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memory import predicates
from memory.predicates import ONE_VALUE, claim_of

_PHRASES = [
    "I live in",
    "I'm living in",
    "we reside in",
    "I relocated to",
    "I'm based in",
    "my home is now",
    "I moved back from Porto to",
    "I work as a senior nurse at",
    "I'm employed by",
    "my job is with",
    "I got a new position at",
    "I got a new role with",
    "I started working at",
    "I joined",
    "I quit Acme and joined",
    "I left Acme to join",
    "Last month I left my job at Acme to join",
    "I've been hired by",
    "I start at",
    "Quit my job at Acme! Starting at",
    "We moved house, we're in",
    "We relocated again \u2014 now living in",
]
_WORDS = ["Lisbon", "Initech", "Google", "the", "now", "Bob", "and", "since", "2020", ",", "."]

_TEXTS = st.lists(st.sampled_from(_PHRASES + _WORDS), min_size=1, max_size=8).map(" ".join)


def _predicates_matching(text: str) -> list[str]:
    """The predicates whose claim `claim_of` reads further: its pattern or its told-first
    wording matches."""
    told_first = predicates._TOLD_FIRST  # noqa: SLF001 - the invariant is about it
    return [
        name
        for name, pattern, _ in ONE_VALUE
        if pattern.search(text) or told_first[name].search(text)
    ]


def _holds_a_cue(text: str, name: str) -> bool:
    return any(cue in text.casefold() for cue in predicates._CUES[name])  # noqa: SLF001


def test_each_wording_a_claim_pattern_matches_holds_a_cue() -> None:
    matched = 0
    for phrase in _PHRASES:
        for word in _WORDS:
            for text in (f"{phrase} {word}", f"{phrase} {word}".upper(), f"ok, {phrase} {word}"):
                for name in _predicates_matching(text):
                    matched += 1
                    assert _holds_a_cue(text, name), (name, text)
    assert matched >= len(_PHRASES)  # the wordings above are claims, most of them


@given(_TEXTS.map(lambda text: text.upper()) | _TEXTS)
def test_every_text_a_claim_pattern_matches_holds_a_cue(text: str) -> None:
    for name in _predicates_matching(text):
        assert _holds_a_cue(text, name), name


def test_each_wording_still_makes_its_claim() -> None:
    for phrase in _PHRASES[:12]:
        said = f"{phrase} Lisbon" if "live" in phrase or "home" in phrase else f"{phrase} Initech"
        if any(word in phrase for word in ("reside", "relocated", "based", "moved")):
            said = f"{phrase} Lisbon"
        assert claim_of(said) is not None, said
    assert claim_of("My cat sleeps a lot") is None  # no cue: the patterns are skipped
