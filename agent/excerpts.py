"""What of a long memory the model is shown: its opening, and the part the message asks about.

Found by a new user: a pasted e-mail from a child's coach was recalled for "what time is
Leo's soccer on Saturdays in January?", but the model was shown its first 600 characters,
and the change of time was item 6, 1,400 characters further on. A memory longer than its
share of the block keeps its opening (who wrote it, what it is) and, when a later run of
sentences holds more of the message's words, that run, each cut marked.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from memory.lazy_patterns import lazy_compile
from memory.text import analyze

ELLIPSIS = "…"
_OPENING_SHARE = 4
"""The opening takes a quarter of the room; the part asked about the rest."""
_SENTENCE_START = lazy_compile(r"(?<=[.!?:;])\s+|\s+(?=(?:\d{1,2}[.)]|[-*•])\s)|\n+")
"""Where a sentence, a list item or a line begins (a pasted log is lines, not sentences)."""
_SCANNED = 400_000
"""Characters of a memory searched for the part asked about: a pasted book is read only so
far. It is read once (`_analyzed_sentences`): 150 KB took 40 ms, then every turn again,
on the event loop, until the reading was kept."""


def excerpt(text: str, query: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, keeping what `query` asks about."""
    if len(text) <= limit:
        return text
    prefix = text[: max(limit - 1, 0)] + ELLIPSIS
    asked = set(analyze(query))
    if not asked or limit < 4 * len(ELLIPSIS) + 20:
        return prefix
    opening = limit // _OPENING_SHARE
    room = limit - opening - 2 * len(ELLIPSIS) - 2
    found = _best_run(text, opening, room, asked)
    if found is None or _covered(text[: limit - 1], asked) >= found[2]:
        cut = _asked_sentence_cut(text, opening, limit - 1, asked)
        if cut is None:
            return prefix
        # The opening, then the sentence the cut fell in whole: "… Ana is off…" was shown
        # for "who is off in May?", and "10-21 May" was cut (a new user, a contractor).
        found = (max(opening, cut - room), cut, 0)
    start, end, _ = found
    # The run ends with the words asked for: what follows them goes too, up to a third
    # of the room ("… worker crashed:" was cut before "disk full").
    after = min(room // 3, len(text) - end)
    start, end = max(start, end + after - room), end + after
    head = text[:opening].rstrip()
    tail = ELLIPSIS if end < len(text) else ""
    return f"{head} {ELLIPSIS} {text[start:end].strip()}{tail}"


def _asked_sentence_cut(text: str, after: int, cut: int, asked: set[str]) -> int | None:
    """The end of the sentence `cut` falls in, when it holds a word asked; else None."""
    for start, end, terms in _analyzed_sentences(text, after):
        if start < cut < end:
            return end if asked.intersection(terms) else None
    return None


def _covered(text: str, asked: set[str]) -> int:
    return len(asked.intersection(analyze(text)))


@lru_cache(maxsize=256)
def _analyzed_sentences(text: str, after: int) -> tuple[tuple[int, int, tuple[str, ...]], ...]:
    """Each sentence after `after` (within what is scanned) with its terms.

    Read once per text: a long memory recalled turn after turn was analysed anew each time
    (a new user's pasted log, ~15 ms of every turn that showed it).
    """
    scanned = min(len(text), _SCANNED)
    starts = [after] + [m.end() for m in _SENTENCE_START.finditer(text, after, scanned)]
    return tuple(
        (start, end, tuple(analyze(text[start:end])))
        for start, end in zip(starts, [*starts[1:], scanned], strict=True)
    )


def _best_run(text: str, after: int, room: int, asked: set[str]) -> tuple[int, int, int] | None:
    """The run of sentences after `after`, fitting in `room`, that holds most of `asked`.

    (start, end, words held); the earliest of equals; None when none holds any.
    """
    sentences = [
        (start, end, [t for t in terms if t in asked])
        for start, end, terms in _analyzed_sentences(text, after)
    ]
    best: tuple[int, int, int] | None = None
    held: Counter[str] = Counter()
    first = 0
    for last, (_, end, terms) in enumerate(sentences):
        held.update(terms)
        while first < last and end - sentences[first][0] > room:
            held.subtract(sentences[first][2])
            first += 1
        start = sentences[first][0]
        end = min(end, start + room)
        covered = sum(1 for count in held.values() if count > 0)
        if covered and (best is None or covered > best[2]):
            best = (start, end, covered)
    return best
