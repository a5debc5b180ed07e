"""Text analysis shortcuts give exactly what the full path gives."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st
from snowballstemmer.english_stemmer import EnglishStemmer

from memory import text as analysis
from memory.function_words import function_words_of
from memory.numbers import written_alike
from memory.read_anew import czech_days_and_other_scripts_read
from memory.write_policy import content_hash

_PYTHON_PORT = EnglishStemmer()

_COMBINING = re.compile(r"[\u0300-\u036f]")


@given(st.text())
def test_fold_matches_full_normalisation(sample: str) -> None:
    decomposed = unicodedata.normalize("NFKD", sample.lower())
    stripped = _COMBINING.sub("", decomposed).translate(analysis.LETTERS_WITHOUT_MARKS)
    assert analysis.fold(sample) == unicodedata.normalize("NFC", stripped)


@example(["e", "um"])
@example(["[REDACTED:0]"])
@given(
    st.lists(st.sampled_from(["The", "cats", "Ünïcode", "커피를", "x2", "2024", "ſ"]) | st.text())
)
def test_cached_terms_match_each_token_analysed_afresh(words: list[str]) -> None:
    sample = " ".join(words)
    # A redaction's marker is no word the user said: analysis leaves it out first.
    said = analysis.REDACTED_MARKER.sub(" ", sample)
    tokens = analysis._TOKEN.findall(written_alike(analysis.fold(said)))
    for keep in (False, True):
        # A text in another language leaves out that language's function words ("e um").
        foreign = frozenset() if keep else function_words_of(tokens)
        fresh = [
            term
            for token in tokens
            if token not in foreign
            for term in analysis._analyze_token(token, keep)
        ]
        assert analysis.analyze(sample, keep_stop_words=keep) == fresh


def _vocabulary() -> set[str]:
    root = Path(__file__).resolve().parents[3]
    sources = [*root.glob("*.md"), *root.glob("*/**/*.py"), root / "tests/data/hostile-text.jsonl"]
    words: set[str] = set()
    for source in sources:
        if ".venv" not in source.parts:
            words.update(analysis._TOKEN.findall(analysis.fold(source.read_text("utf-8"))))
    return words


def test_the_c_stemmer_stems_as_the_python_port_that_indexed_older_stores() -> None:
    # Stores saved before memchat used PyStemmer hold terms from snowballstemmer's pure
    # Python port: a word stemmed differently now would no longer find them.
    words = _vocabulary()
    assert len(words) > 3_000
    c_stemmer = analysis._english_stemmer()
    differ = {w for w in words if c_stemmer.stemWord(w) != _PYTHON_PORT.stemWord(w)}
    assert not differ, sorted(differ)[:20]


@given(st.text(st.characters(categories=["L", "Nd"]), min_size=1, max_size=20))
def test_any_word_stems_alike_in_c_and_python(word: str) -> None:
    folded = analysis.fold(word)
    assert analysis._english_stemmer().stemWord(folded) == _PYTHON_PORT.stemWord(folded)


_EARLIER_TRAILING = re.compile(r"[\s.!?…]+$")


@given(
    st.text()
    | st.lists(
        # Every kind of space Python knows, and one it does not (zero-width space).
        st.sampled_from(["a", " ", ".", "!", "?", "…", "\n", "\u2003", "\x1c", "\x85"])
        | st.sampled_from(["\xa0", "\u2028", "\u3000", "\u200b", "\t\r\x0b\x0c"])
    ).map("".join)
)
def test_content_hash_is_the_one_stores_already_hold(sample: str) -> None:
    # Stored digests were made with a trailing-marks regex: the strip must agree with it.
    normal = _EARLIER_TRAILING.sub("", re.sub(r"\s+", " ", sample.casefold()).strip())
    earlier = hashlib.sha256(normal.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    assert content_hash(sample) == earlier


def test_letters_with_their_mark_inside_fold_as_typed_without_it() -> None:
    marked = "Søren Łukasz Königstraße Æsir Œuvre Þór Đorđe"
    plain = "Soren Lukasz Konigstrasse Aesir Oeuvre Thor Dorde"
    assert analysis.analyze(marked) == analysis.analyze(plain)
    assert analysis.has_letter_without_mark(marked)
    assert not analysis.has_letter_without_mark("Zürich café naïve")


def _fold_before_marked_letters(sample: str) -> str:
    decomposed = unicodedata.normalize("NFKD", sample.lower())
    return unicodedata.normalize("NFC", _COMBINING.sub("", decomposed))


_BEFORE_0054 = str.maketrans(
    {"ø": "o", "ł": "l", "ß": "ss", "đ": "d", "ħ": "h", "æ": "ae", "œ": "oe", "ŧ": "t",
     "ı": "i", "þ": "th", "ð": "d"}
)  # fmt: skip


def _fold_before_0054(sample: str) -> str:
    """`fold` before Arabic's marks and other scripts' digits were folded (0054)."""
    decomposed = unicodedata.normalize("NFKD", sample.lower())
    return unicodedata.normalize("NFC", _COMBINING.sub("", decomposed).translate(_BEFORE_0054))


def test_the_upgrade_reindexes_exactly_the_characters_whose_terms_changed() -> None:
    # Migration 0011 picks entries with has_letter_without_mark: every character that
    # fold then wrote differently ("Ǿ" too, which decomposes to "ø" and an accent), and
    # none other, over all of Unicode. Migration 0054 picks, among others, every character
    # that fold writes differently since (Arabic's marks, presentation forms, digits).
    differ = []
    for point in range(0x80, 0x110000):
        if 0xD800 <= point <= 0xDFFF:
            continue
        char = chr(point)
        before = _fold_before_0054(char)
        changed = before != _fold_before_marked_letters(char)
        if changed != analysis.has_letter_without_mark(char):
            differ.append(char)
        if analysis.fold(char) != before and not czech_days_and_other_scripts_read(char):
            differ.append(char)
    assert not differ, differ[:20]
