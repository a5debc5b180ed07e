"""`one_line` and `safe_json`: nothing stored can drive the terminal, JSON stays exact."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.terminal_text import one_line, safe_json
from tests.helpers.hostile import HOSTILE_TEXTS, SURFACE_TEXT
from tests.unit.agent.cli_harness import RAW_CONTROL

# Controls, format characters (bidi), separators and lone surrogates, among ordinary text.
AWKWARD = st.characters(categories=["Cc", "Cf", "Cs", "Zl", "Zp", "Zs", "L", "M", "N", "S"])
ANY_TEXT = st.one_of(SURFACE_TEXT, st.text(alphabet=AWKWARD, max_size=40))


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[2Jcleared", "\\x1b[2Jcleared"),
        ("bell\x07", "bell\\x07"),
        ("fake\rerror", "fake\\rerror"),
        ("two\nlines", "two⏎lines"),
        ("tab\there", "tab\\there"),
        ("del\x7f c1\x9b", "del\\x7f c1\\x9b"),
        ("\u202etxt.exe\u202c", "\\u202etxt.exe\\u202c"),
        ("\u2066iso\u2069 \u200e\u200f\u061c", "\\u2066iso\\u2069 \\u200e\\u200f\\u061c"),
        ("line\u2028para\u2029", "line\\u2028para\\u2029"),
        ("argv byte \udcff", "argv byte \\udcff"),
        ("plain 日本語 émoji 👨‍👩‍👧 [b]x[/b]", "plain 日本語 émoji 👨‍👩‍👧 [b]x[/b]"),
    ],
)
def test_one_line_shows_controls_as_escapes(raw: str, shown: str) -> None:
    assert one_line(raw) == shown


@given(text=ANY_TEXT)
def test_one_line_output_is_inert_and_single(text: str) -> None:
    shown = one_line(text)
    assert RAW_CONTROL.search(shown) is None and "\n" not in shown
    shown.encode("utf-8")  # printable on any UTF-8 terminal (surrogates escaped)


@given(text=ANY_TEXT)
def test_safe_json_escapes_and_round_trips(text: str) -> None:
    for dumped in (json.dumps({"t": text}, ensure_ascii=False), json.dumps([text], indent=2)):
        escaped = safe_json(dumped)
        assert RAW_CONTROL.search(escaped) is None
        assert json.loads(escaped) == json.loads(dumped)


def test_safe_json_keeps_the_corpus_exact() -> None:
    for text in HOSTILE_TEXTS:
        dumped = json.dumps({"content": text}, ensure_ascii=False)
        assert json.loads(safe_json(dumped))["content"] == text


def test_zero_width_characters_are_escaped_in_cli_text_and_json() -> None:
    import json

    invisible = "\u200b\u200c\u200d\u2060\u2063\ufeff"
    assert one_line("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645") == (
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # Persian needs its ZWNJ
    )
    assert one_line(f"a{invisible}b") == "a\\u200b\\u200c\\u200d\\u2060\\u2063\\ufeffb"
    encoded = safe_json(json.dumps({"key": f"k{invisible}"}, ensure_ascii=False))
    assert not any(char in encoded for char in invisible)
    assert json.loads(encoded) == {"key": f"k{invisible}"}
