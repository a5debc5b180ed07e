"""Where each key of a config file is set, for error messages that point at it."""

from __future__ import annotations

import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.config_lines import key_lines
from tests.helpers.depth import examples

TRICKY = '''[agent]
system_prompt = """
[memory]
auto_save = "x"
"""
# [memory] in a comment
[ 'memory' ]
"autö save" = 1
recall_limit = "3"   # trailing comment
retention_days = { core = "x", daily = 2 }
budgets . core_max_entries = "y"
weights = [
  1, # one
  "[ollama]",
]
[[tools]]
name = 'a'
[ollama]
think = "true"
'''


def test_keys_are_found_where_a_line_pattern_goes_wrong() -> None:
    tomllib.loads(TRICKY)  # the scanner only ever sees valid TOML
    found = key_lines(TRICKY)
    assert found[("agent", "system_prompt")] == 2
    assert found[("memory",)] == 7  # not line 3, inside the string, nor the comment
    assert found[("memory", "autö save")] == 8
    assert found[("memory", "recall_limit")] == 9
    assert found[("memory", "retention_days", "core")] == 10
    assert found[("memory", "retention_days", "daily")] == 10
    assert found[("memory", "budgets")] == 11
    assert found[("memory", "budgets", "core_max_entries")] == 11
    assert found[("memory", "weights")] == 12
    assert found[("tools", "name")] == 17
    assert found[("ollama", "think")] == 19
    assert ("memory", "auto_save") not in found and ("ollama",) in found


def test_text_it_cannot_follow_keeps_what_came_before() -> None:
    assert key_lines("[memory]\nrecall_limit = 3\n= broken") == {
        ("memory",): 1,
        ("memory", "recall_limit"): 2,
    }


KEY = st.text(alphabet="abcXYZ_-09 .é\"'\\#=[]{}\n\t", min_size=1, max_size=8)
VALUE = st.recursive(
    st.one_of(st.integers(), st.booleans(), st.text(max_size=12)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEY, inner, max_size=3),
    max_leaves=6,
)


@given(tables=st.dictionaries(KEY, st.dictionaries(KEY, VALUE, max_size=4), max_size=4))
@settings(max_examples=examples(60), deadline=None)
def test_every_key_of_any_document_is_found_on_its_line(
    tables: dict[str, dict[str, object]],
) -> None:
    text = ""
    expected: dict[tuple[str, ...], int] = {}
    for table, values in tables.items():
        expected[(table,)] = text.count("\n") + 1
        text += f"[{_quoted(table)}]\n"
        for key, value in values.items():
            expected[(table, key)] = text.count("\n") + 1
            text += f"{_quoted(key)} = {_toml(value)}\n"
    assert tomllib.loads(text) == tables
    found = key_lines(text)
    for path, line in expected.items():
        assert found[path] == line, (path, text)


def _quoted(text: str) -> str:
    escaped = (
        f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F else "\\" + c if c in '"\\' else c
        for c in text
    )
    return '"' + "".join(escaped) + '"'


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # Multi-line strings where the text has line breaks: the hard case for line counts.
        plain = all(c == "\n" or (0x20 <= ord(c) != 0x7F) for c in value)
        if "\n" in value and plain and '"' not in value and "\\" not in value:
            return '"""\n' + value + '"""'  # the first line break is not content
        return _quoted(value)
    if isinstance(value, list):
        return "[\n  " + ",\n  ".join(_toml(item) for item in value) + "\n]"
    assert isinstance(value, dict)
    return "{ " + ", ".join(f"{_quoted(k)} = {_toml(v)}" for k, v in value.items()) + " }"
