"""Hypothesis strategies for hostile text, shared by the unit and reliability suites."""

from __future__ import annotations

from hypothesis import strategies as st

NASTY = st.sampled_from(
    [
        '"',
        "'",
        "*",
        "^",
        "(",
        ")",
        ":",
        "-",
        "+",
        "NEAR",
        "AND",
        "OR",
        "NOT",
        "{",
        "}",
        "\x00",
        "%",
        "_",
        "\\",
        "🐍",
        "👨‍👩‍👧",
        "한국어 메모",
        "東京タワー",
        "שלום עולם",
        "مرحبا",
        "\u200f",
        "\u202e",
        "\ud800",
        "\udfff",
        "\ufeff",
        "NEAR(a b, 2)",
        "col:term",
        "a* OR b*",
        "\r\n",
    ]
)
"""FTS5 syntax, quotes, NUL, lone surrogates, RTL marks, emoji, Korean, Japanese, Arabic."""

HOSTILE_TEXT = st.lists(st.one_of(NASTY, st.text(max_size=16)), max_size=10).map(" ".join)

VALID_TEXT = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=60)
"""Any text that can be stored (no lone surrogates)."""

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
