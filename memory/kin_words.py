"""Family said any way is found by the English word: "Mãe's birthday" by "mom's birthday".

Found by a new user, a Brazilian student: "when is mom's birthday?" found nothing of "Mãe's
birthday is 23 de abril", though "when is my mother's birthday?" did. A memory naming one
of the family in an everyday or another language's word is indexed by the English word too
(`kin_wordings`), and a question's word for them is read as that English word
(`kin_in_english`), so each wording finds every other.

Accents are read as written: "mãe" and "mère" are mothers, "Mae" is a name and "mere" a
word. Words that are names or other words as often ("nan", "gran", "ma", "pa", "frau") are
left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache

from memory.lazy_patterns import lazy_compile
from memory.letters import CJK_LETTER

_KIN = {
    "mother": (
        "mom mum mommy mummy momma mamma mama mamá mamã mamãe mãe madre mère maman mutter "
        "mutti moeder"
    ),
    "father": "dad daddy papa papá papai pai padre père vater vati vader papà",
    "grandmother": "grandma granny grandmom grandmum abuela abuelita avó oma nonna grootmoeder",
    "grandfather": "grandpa granddad grandad abuelo abuelito avô opa nonno grootvader",
    "sister": "sis irmã hermana schwester zus sœur soeur sorella",
    "brother": "bro irmão hermano bruder broer frère frere fratello",
    "son": "sohn hijo filho fils figlio zoon",
    "daughter": "tochter hija filha fille figlia dochter",
}
_BY_WORD = {word: kin for kin, words in _KIN.items() for word in words.split()}
_KIN_WORD = lazy_compile(
    r"(?i)(?<![\w-])("
    + "|".join(sorted(_BY_WORD, key=len, reverse=True))
    + r")(?:['\u2019]?s)?(?![\w-])"
)


_LETTERS = lazy_compile(r"[^\W\d_]+")
_SAID = frozenset(_BY_WORD) | {f"{word}s" for word in _BY_WORD}
"""Each word as `_KIN_WORD` may find it, "'s" or "s" and all, as `_LETTERS` splits it."""


def _may_name_kin(text: str) -> bool:
    # A set lookup of the text's words is a quarter of the cost of trying the long
    # alternation at every word of every memory indexed (an import of 10,000 spent 7 % of
    # its time there); `_KIN_WORD` still decides.
    return not _SAID.isdisjoint(_LETTERS.findall(text.casefold()))


def names_kin(text: str) -> bool:
    """Whether `text` names one of the family in a word `_KIN` reads."""
    return bool(_kin_together(text)) or (_may_name_kin(text) and _KIN_WORD.search(text) is not None)


def names_kin_written_together(text: str) -> bool:
    """Whether `text` names one of the family in Japanese, Chinese or Korean (read by 0050)."""
    return bool(_kin_together(text))


def _kin_together(text: str) -> list[tuple[str, str]]:
    if CJK_LETTER.search(text) is None:
        return []
    return [
        (word, _TOGETHER_BY_WORD.get(word) or _ONE_LETTER[word])
        for word in _KIN_TOGETHER.findall(text)
    ]


def _kin_of(text: str) -> list[tuple[str, str]]:
    """(word as written, English word) of each of the family `text` names."""
    return _kin_together(text) + [
        (found[1], _BY_WORD[found[1].casefold()]) for found in _family_words(text)
    ]


def _family_words(text: str) -> Iterator[re.Match[str]]:
    """Each word `_KIN_WORD` finds in `text` that names one of the family, as a match.

    Not a word that is a name as often, unless whose it is comes before it (`_ALSO_NAMES`).
    """
    if not _may_name_kin(text):
        return
    for found in _KIN_WORD.finditer(text):
        if found[1].casefold() not in _ALSO_NAMES or _WHOSE.search(text, 0, found.start()):
            yield found


_WRITTEN_TOGETHER = {
    "mother": "お母さん 母さん お袋 おふくろ 母親 妈妈 媽媽 母亲 엄마 어머니",
    "father": "お父さん 父さん 親父 おやじ 父親 爸爸 父亲 아빠 아버지",
    "grandmother": "おばあちゃん お祖母さん 祖母 奶奶 外婆 할머니",
    "grandfather": "おじいちゃん お祖父さん 祖父 爷爷 爺爺 外公 할아버지",
    "sister": "お姉さん 姉さん 姐姐 妹妹 언니 누나 여동생",
    "brother": "お兄さん 兄さん 哥哥 弟弟 오빠 남동생",
    "son": "息子 儿子 兒子 아들",
    "daughter": "女儿 女兒",
}
_TOGETHER_BY_WORD = {
    word: kin for kin, words in _WRITTEN_TOGETHER.items() for word in words.split()
}
_KIN_TOGETHER = lazy_compile(
    "("
    + "|".join(sorted(_TOGETHER_BY_WORD, key=len, reverse=True))
    # "ママ", "パパ" as a word, not in "パパイヤ" (papaya); "母", "父" alone before a
    # particle ("母の誕生日"), not in "祖母" or "母国".
    + r"|ママ(?![\u30a1-\u30ff])|パパ(?![\u30a1-\u30ff])"
    + r"|(?<![祖叔伯義継養])[母父](?=[のはがにともへ])"
    + ")"
)
"""Japanese, Chinese and Korean, written without spaces: "お母さんの誕生日は5月3日です" was
found by no "when is my mother's birthday?" (a new user in Berlin)."""
_ONE_LETTER = {"ママ": "mother", "パパ": "father", "母": "mother", "父": "father"}

_ALSO_NAMES = frozenset("papa pai bro sis mama".split())
"""Words that are names, brands or slang as often: one of the family only after "my" or the
like ("Papa John's closes at 11pm", "Pai is my colleague", "bro that match was insane": an
adversary saw each recalled as the user's family)."""
_WHOSE = lazy_compile(
    r"(?i)\b(?:my|our|mein(?:e[mnrs]?)?|unser(?:e[mnrs]?)?|mon|ma|mes|mi|mis|meu|minha|mijn|"
    r"onze|o|a|der|die|den|dem|el|la|le|mio|mia)\s+$"
)


def kin_named(text: str) -> list[str]:
    """The words of `text` that name one of the family, as written ("Mãe", "mom")."""
    return [word for word, _ in _kin_of(text)]


def kin_said_in_english(text: str) -> str:
    """`text` with each word for one of the family as its English word ("mother's birthday").

    What a fact is about is read so: "Mae's birthday is 2 July" replaced "Mãe's birthday is
    23 de abril", both folded to "mae" (an adversary); "Mom's birthday" is Mãe's.
    """
    parts: list[str] = []
    last = 0
    for found in _family_words(text):
        parts += [text[last : found.start(1)], _BY_WORD[found[1].casefold()]]
        last = found.end(1)
    return "".join(parts) + text[last:]


def english_kin_word(word: str) -> str:
    """`word`, one for one of the family, as the English word ("mom" → "mother"); else itself."""
    return _BY_WORD.get(word.casefold(), word)


def kin_wordings(text: str) -> str:
    """The English words of the family `text` names in other words, for its index terms."""
    return " ".join(dict.fromkeys(kin for _, kin in _kin_of(text)))


@cache
def _term_of(word: str, analyze: Callable[[str], list[str]]) -> str:
    terms = analyze(word)
    return terms[0] if terms else word


def kin_in_english(text: str, terms: list[str], analyze: Callable[[str], list[str]]) -> list[str]:
    """`terms` of a question with each word for one of the family as its English word.

    Every memory naming them holds the English word (`kin_wordings`): asked for as well, the
    word as said would count as one the memory lacks.
    """
    said = {_term_of(word, analyze): _term_of(kin, analyze) for word, kin in _kin_of(text)}
    if not said:
        return terms
    return list(dict.fromkeys(said.get(term, term) for term in terms))
