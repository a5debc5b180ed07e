"""Plain questions in Korean, Japanese and Chinese, which put their question word anywhere.

Found by a new user writing in Korean: "Hanbit 담당자 누구였지?" (who was my contact at
Hanbit?) was used as a memory, above the answer. And by an adversary: a question that tells
something first ("땅콩 알레르기 있는데 …", a peanut allergy) must stay a memory.
"""

from __future__ import annotations

from memory.lazy_patterns import lazy_compile
from memory.letters import CJK_LETTER

SENTENCE_BREAK = lazy_compile(r"[.!]\s")
"""Where one sentence ends and another begins: a question of one sentence has none."""
MOST_WORDS = 12
"""The most words of a plain question: a longer one tells something too."""

_CJK_QUESTION_WORD = lazy_compile(
    r"(?:^|(?<=\s))(?:누구|누가|뭐|무엇|무슨|언제|어디|얼마|왜|어떻게|몇|어느)"
    r"|誰|何|いつ|どこ|いくら|なぜ|谁|什么|哪|几|多少|为什么|怎么"
)
_CJK_TELLS_FIRST = lazy_compile(
    r"[、，,]|(?:는데|인데|은데|지만|니까|어서|아서|해서|고서|거든|ですが|だけど|けど|けれど|から|ので)"
    r"(?=\s|[^\s?？]{1,})"
)
"""A clause that tells before the question: "땅콩 알레르기 있는데 태국 음식 뭐 먹을 수
있어?" ("I have a peanut allergy: what Thai food can I eat?"), "12月18日に歯医者の予約が
あるけど何時だっけ?" (an adversary saw each held back, and the allergy with it)."""
_MOST_CJK_CHARACTERS = 40
_FEW_CJK_CHARACTERS = 6
"""A thing asked alone in Japanese or Chinese: "住所?" (the address?)."""
"""A question of one sentence in Japanese or Chinese, which write no spaces."""


def asked_in_cjk(said: str) -> bool:
    """A plain question in Korean, Japanese or Chinese.

    One sentence ending in "?" that asks with a question word, wherever it stands
    ("Hanbit 담당자 누구였지?", "who was my contact at Hanbit?": a new user saw it used as a
    memory, above the answer).
    """
    said = said.rstrip().replace("\uff1f", "?")
    return (
        said.endswith("?")
        and "?" not in said[:-1]
        and CJK_LETTER.search(said) is not None
        and _CJK_QUESTION_WORD.search(said) is not None
        and _CJK_TELLS_FIRST.search(said) is None
        and not any(mark in said for mark in (":", ";", " - ", "\n", "。", "！"))
        and not SENTENCE_BREAK.search(said)
        and len(said.split()) <= MOST_WORDS
        and len(said) <= _MOST_CJK_CHARACTERS * max(1, len(said.split()))
    )


def written_without_spaces(said: str) -> bool:
    """Whether `said` is Japanese or Chinese text longer than a thing asked alone."""
    return CJK_LETTER.search(said) is not None and len(said) > _FEW_CJK_CHARACTERS
