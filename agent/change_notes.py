"""What a note on a memory changed since says: which later memory, quoted where it speaks.

Split from `agent.since_changed`, whose readers of values and of events
(`agent.events_moved`) both write these notes.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from agent.asked_secrets import key_without_secrets, redacted_for_the_model
from agent.excerpts import excerpt
from memory.entry import MemoryCategory
from memory.last_word import says_a_new_value
from memory.lazy_patterns import lazy_compile
from memory.long_texts import the_part_about
from memory.questions import only_asks
from memory.text import analyze

if TYPE_CHECKING:
    from memory.entry import MemoryEntry

CONVERSATION = MemoryCategory.CONVERSATION.value
SHOWN_CHARS = 160
"""Of the later memory said in a note: at 80, "big news, mudei-me! we moved flats last
weekend, i'm at Rua Morais Soares 88, 1…" cut the new address off (a new user)."""


def only_asks_something(entry: MemoryEntry) -> bool:
    """Whether `entry` is a saved message that only asks: it changes nothing.

    Found by a new user, a translator: "do i need to tell the gestoria my new address is
    calle sueca 12 if we move in feb?" marked the address changed, and "Is the dentist
    moved to 21/12?" the appointment.
    """
    return entry.category == CONVERSATION and only_asks(entry.content)


def kept_as_is(entry: MemoryEntry) -> bool:
    """A pinned fact, which no later memory marks; a pinned message is only kept longer."""
    return entry.pinned and entry.category != CONVERSATION


def written(entry: MemoryEntry) -> datetime:
    """When `entry` was said."""
    # When it was said: a core fact's new value is a new version with its own time, while
    # pinning or re-storing the same text only moves `updated_at` (found by an adversary:
    # a pinned old home marked the newer message that changed it as changed since).
    return entry.timestamp


def saying(entry: MemoryEntry, about: str = "") -> str:
    """What a note says of `entry`, the later memory: its key or "a later message", quoted."""
    # Its secrets redacted, asked for or not: a fact keeps its secret, and a saved message
    # a bike lock's code (an adversary saw "the bike lock code is 7702" go to the model,
    # unasked, in the note on the fact it changed).
    said = redacted_for_the_model(entry.content)
    text = " ".join(said.split())
    if len(text) > SHOWN_CHARS and about:
        # Where it speaks of what it changes: a pasted email's note quoted its header
        # ("From: Lisa Chen Sent: Monday, …"), not the line that moved the checkup (a new
        # user, a parent).
        text = the_sentence_about(said, about) or excerpt(text, about, SHOWN_CHARS)
    elif len(text) > SHOWN_CHARS:
        cut = text[: SHOWN_CHARS - 1]
        text = (cut.rsplit(" ", 1)[0] if " " in cut[SHOWN_CHARS // 2 :] else cut) + "…"
    if entry.category == MemoryCategory.CONVERSATION.value:
        return f"a later message says {text!r}"
    return f"{key_without_secrets(entry.key, entry.content, said)!r} says {text!r}"


SENTENCE_BREAK = lazy_compile(
    r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bSt\.)(?<!\bvs\.)(?<=[.!?])\s+|\s*\n\s*"
)
"""Where a sentence ends: not after "Dr." ("… with Dr. Sharma got rescheduled"); a line's
end too (an email's header ran into its first sentence, too long to quote)."""


def the_sentence_about(text: str, about: str) -> str | None:
    """The sentence of a long `text` sharing most words with `about`, as a quote's middle."""
    wanted = set(analyze(about))
    best, rank = "", (False, 1)
    # Among the sentences of its part about it: a pasted page was analysed whole. The one
    # saying a new value first, then the one sharing most words.
    for line in SENTENCE_BREAK.split(the_part_about(text, about)):
        sentence = " ".join(line.split())
        held = len(set(analyze(sentence)) & wanted)
        if held <= 1 or len(sentence) > SHOWN_CHARS - 2:
            continue
        if (ranked := (says_a_new_value(sentence, about), held)) > rank:
            best, rank = sentence, ranked
    if not best:
        return None
    flat = " ".join(text.split())
    return ("" if flat.startswith(best) else "…") + best + ("" if flat.endswith(best) else "…")


def read_together(later: str, earlier: str) -> tuple[str, str]:
    """Two texts as a comparison reads them: a long one by its part about the other.

    A pasted page of 300 KB was read whole by every reader, for every fact it was
    compared with, each turn (`memory.long_texts`).
    """
    return the_part_about(later, earlier), the_part_about(earlier, later)
