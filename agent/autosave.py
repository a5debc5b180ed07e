"""Which user messages are saved as conversation memories, and under what key."""

from __future__ import annotations

import re
import uuid

from agent.injection import FENCE_CLOSE, FENCE_OPEN
from memory.lazy_patterns import lazy_compile
from memory.text import analyze, asks_nothing

CONTINUE_PROMPT = "Continue from where you stopped."
"""What the Continue button under a stopped reply sends: memchat's words, not the user's."""


_RECALLED_BLOCK = lazy_compile(re.escape(FENCE_OPEN) + r".*?" + re.escape(FENCE_CLOSE), re.DOTALL)


def saved_text(text: str) -> str:
    """The message as saved: without a block of recalled memories pasted into it.

    The block's memories are kept already. A message only naming the marker ("I wrote
    <memory-context> in my notes and my car is a blue Fiat") is kept whole: found by an
    adversary, such messages were never saved, and nothing said so.
    """
    if FENCE_OPEN not in text:
        return text
    return _RECALLED_BLOCK.sub(_left_out_if_recalled, text).strip()


def _left_out_if_recalled(block: re.Match[str]) -> str:
    # Only what memchat wrote: "<memory-context>Cat is called Biscuit</memory-context>",
    # the user's own label, was left out too (a later adversary).
    return "" if _WRITTEN_BY_MEMCHAT.search(block.group()) else block.group()


_WRITTEN_BY_MEMCHAT = lazy_compile(
    r"Memories recalled for this message|^Current time: |^- \[(?:core|conversation|daily|[\w-]+)\]",
    re.MULTILINE,
)


_POINTS_BACK = lazy_compile(
    r"(?i)^\W*(?:(?:pls|please|plz|ok|okay|so|can\s+you|could\s+you|pode[s]?|por\s+favor)\s+)*"
    r"(?:remember|save|store|note|keep|guarda|grava|anota|apunta|memorizza|speicher)\s+"
    r"(?:it|them|isso|isto|esto|eso|ça|das|quello|questo|"
    # "that", "those deadlines": what was said before; not "the milk", a thing to do.
    r"(?:that|this|those|these)(?:\s+(?:deadlines?|dates?|details?|numbers?|names?|info|"
    r"information|stuff|points?|facts?|ones?|bits?|things?|plans?|codes?|times?))?)"
    r"(?:\s+(?:down|in\s+mind|for\s+me|for\s+later|too|as\s+well))?"
    r"(?:\s*,?\s*(?:pls|please|plz|pf|por\s+favor|thanks|thx|ty))?[\s.!]*$"
)
"""A request to keep what was said before, and nothing more: "guarda isso pf", "remember
those deadlines pls" (a new user saw such messages recalled, first, for the questions about
what they pointed at). What it points at is the message before, or the fact the model
stores. "remember the milk" is a thing to do, and kept."""


_POINTS_BACK_ELSEWHERE = lazy_compile(
    r"(?i)^\W*(?:(?:ok|okay|so|bitte|por\s+favor|s['\u2019]il\s+te\s+pla[iî]t)\s*,?\s+)*"
    r"(?:don['\u2019]?t\s+forget\s+(?:that|this|it|those)|merk\s+dir\s+(?:das|es)|"
    r"vergiss\s+(?:das|es)\s+nicht|lembra(?:-te|-se)?\s+(?:disso|disto)|"
    r"acu[eé]rdate\s+de\s+(?:eso|esto)|recuerda\s+(?:eso|esto)|"
    r"souviens[- ]toi\s+de\s+(?:[çc]a|cela)|retiens\s+(?:[çc]a|cela)|"
    r"ricorda(?:telo|lo|tela|la)|ricordati\s+(?:di\s+)?(?:questo|quello)|"
    # A second adversary: "recuérdalo por favor", "no lo olvides", "n'oublie pas ça", "non
    # dimenticarlo", "não te esqueças disso", "please remember".
    r"recu[eé]rdalo|no\s+lo\s+olvides|n['\u2019]oublie\s+pas(?:\s+(?:[çc]a|cela))?|"
    r"non\s+(?:lo\s+)?dimenticar(?:lo|e)|n[aã]o\s+(?:te\s+)?esque[çc]as?(?:\s+(?:disso|disto))?|"
    r"(?:please|pls|plz)\s+remember|remember)"
    r"(?:\s*,?\s*(?:bitte|pf|pfv|porfa|por\s+favor|stp|svp|s['\u2019]il\s+te\s+pla[iî]t|"
    r"per\s+favore|pls|please|plz|danke|obrigad[oa]|gracias|merci|grazie))*[\s.!]*$"
)
"""The same in German, Portuguese, Spanish, French and Italian, and "don't forget that": "merk
dir das bitte", "lembra-te disso pf", "ricordatelo per favore" (an adversary saw each saved)."""


def points_back(text: str) -> bool:
    """Whether `text` only asks to keep what was said before ("remember that pls")."""
    stripped = text.strip()
    return bool(_POINTS_BACK.match(stripped) or _POINTS_BACK_ELSEWHERE.match(stripped))


def should_autosave(text: str, min_chars: int) -> bool:
    """Skip small talk, slash commands, Continue and pasted recalled-context blocks.

    Small talk by its words ("ok", "thanks!", "sounds good"), not by its length: "Aiko
    quit." was ten characters, under the twelve a message needed, and was never
    remembered, nothing said (found by a new user).
    """
    stripped = saved_text(text).strip()
    if len(stripped) < min_chars or stripped == CONTINUE_PROMPT or asks_nothing(stripped):
        return False
    if points_back(stripped):
        return False
    if not analyze(stripped):
        return False  # no word to be found by ("You too!", "Same here!"): small talk too
    return not stripped.startswith("/")


def conversation_key(session_id: str) -> str:
    """A unique key for one auto-saved message."""
    return f"conversation/{session_id}/{uuid.uuid4().hex[:12]}"
