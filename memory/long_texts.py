"""The part of a long text that speaks of another: what is read when the two are compared.

Found by an adversary: three pasted texts of 50, 150 and 300 KB made every short question
take 5 to 6 seconds. Each recalled fact and event was compared with each of them, and
every reader (a move, a call-off, a new value, an ending, someone else's) ran over the
whole paste, on the event loop. A change a paste makes to a fact is said in sentences that
name what it changes: those (with the sentence before and after each) are read instead.
"""

from __future__ import annotations

from functools import lru_cache

from memory.lazy_patterns import lazy_compile
from memory.text import analyze

LONG = 2_000
"""Characters from which a text is read by its parts: a message or an e-mail is read whole."""
_MOST_SENTENCES = 24
"""Of the sentences sharing words with the other text, those sharing the most: a paste
where every line names the fact's one word (a log of "manager" lines) stays a page."""

SENTENCE = lazy_compile(r"(?:[^.!?\n]|[.!?](?![.!?]*(?:\s|$)))+[.!?]*")
"""A sentence or a line: its stops end it only before a space ("mary@new.ie", "3.5 mg"
go on)."""


@lru_cache(maxsize=2048)
def sentences_of(text: str) -> tuple[str, ...]:
    """The sentences of `text`, each stripped, in order (kept: a text is read each turn)."""
    return tuple(part.strip() for part in SENTENCE.findall(text) if part.strip())


@lru_cache(maxsize=64)
def _where_words_are(text: str) -> dict[str, tuple[int, ...]]:
    # Each word of a long text → the sentences holding it: read once per text, then each
    # comparison costs the other text's words, not this one's length.
    found: dict[str, list[int]] = {}
    for number, sentence in enumerate(sentences_of(text)):
        for term in set(analyze(sentence)):
            found.setdefault(term, []).append(number)
    return {term: tuple(numbers) for term, numbers in found.items()}


def the_part_about(text: str, other: str) -> str:
    """`text` if it is short; else its sentences naming words of `other`, with neighbours.

    Runs of sentences far apart are kept apart by a blank line, so that no reader takes
    the end of one for the start of the next. Empty when no sentence names any of them.
    """
    return text if len(text) < LONG else _part_about(text, other)


@lru_cache(maxsize=1024)
def _part_about(text: str, other: str) -> str:
    # Kept per pair: a fact is compared with the same paste each turn.
    where = _where_words_are(text)
    shared: dict[int, int] = {}
    for term in set(analyze(other)):
        for number in where.get(term, ()):
            shared[number] = shared.get(number, 0) + 1
    most = sorted(shared, key=lambda number: (-shared[number], number))[:_MOST_SENTENCES]
    sentences = sentences_of(text)
    kept = sorted(
        {
            near
            for number in most
            for near in (number - 1, number, number + 1)
            if 0 <= near < len(sentences)
        }
    )
    runs: list[list[str]] = []
    previous = -2
    for number in kept:
        if runs and number - 1 == previous:
            runs[-1].append(sentences[number])
        else:
            runs.append([sentences[number]])
        previous = number
    return "\n\n".join(" ".join(run) for run in runs)
