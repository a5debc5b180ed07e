"""Text analysis shortcuts give exactly what the full path gives."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from memory import text as analysis

_COMBINING = re.compile(r"[\u0300-\u036f]")


@given(st.text())
def test_fold_matches_full_normalisation(sample: str) -> None:
    decomposed = unicodedata.normalize("NFKD", sample.lower())
    assert analysis.fold(sample) == unicodedata.normalize("NFC", _COMBINING.sub("", decomposed))


@given(
    st.lists(st.sampled_from(["The", "cats", "Ünïcode", "커피를", "x2", "2024", "ſ"]) | st.text())
)
def test_cached_terms_match_each_token_analysed_afresh(words: list[str]) -> None:
    sample = " ".join(words)
    for keep in (False, True):
        fresh = [
            term
            for token in analysis._TOKEN.findall(analysis.fold(sample))
            for term in analysis._analyze_token(token, keep)
        ]
        assert analysis.analyze(sample, keep_stop_words=keep) == fresh
