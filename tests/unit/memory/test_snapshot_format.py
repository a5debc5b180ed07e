"""The snapshot layout (MEMORY_SNAPSHOT.md and the markdown backend's files): exact, readable."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.entry import MemoryEntry
from memory.snapshot import (
    MARKER,
    parse_snapshot,
    read_snapshot,
    read_snapshot_bytes,
    render_block,
    render_snapshot,
)
from memory.snapshot_parser import SNAPSHOT_FIELDS
from memory.upsert import RECORD_FIELDS
from tests.helpers.hostile import HOSTILE_CASES, HOSTILE_TEXTS, SURFACE_TEXT

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
SEPARATORS = ["\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
STRUCTURE = [
    '- id: "x"',
    "```",
    "```text",
    "````json",
    MARKER,
    "## heading",
    "##",
    "# title",
    "- superseded_by: null",
]
TRICKY = st.lists(
    st.one_of(
        st.sampled_from(SEPARATORS + STRUCTURE + ["\x00", " ", "\t", "`", "\n", "\ud800"]),
        st.text(max_size=6),
    ),
    max_size=10,
).map("".join)
TEXT = st.one_of(SURFACE_TEXT, TRICKY, st.text())


def entry(content: str, key: str = "k", **fields: object) -> MemoryEntry:
    return MemoryEntry.model_validate(
        {"id": "e1", "key": key, "content": content, "timestamp": NOW, "updated_at": NOW, **fields}
    )


ENTRIES = st.builds(
    MemoryEntry,
    id=TEXT,
    key=TEXT,
    content=TEXT,
    category=st.one_of(
        st.sampled_from(["core", "daily", "project-x"]),
        st.text(min_size=1).filter(lambda c: 0 < len(c.strip()) <= 32),
    ),
    timestamp=st.datetimes(timezones=st.just(UTC)),
    updated_at=st.datetimes(timezones=st.just(UTC)),
    session_id=st.none() | TEXT,
    namespace=TEXT,
    importance=st.floats(0.0, 1.0),
    superseded_by=st.none() | TEXT,
    pinned=st.booleans(),
    source=TEXT,
)


@given(content=TEXT, key=TEXT)
@settings(max_examples=300, deadline=None)
def test_any_content_and_key_round_trip_exactly(content: str, key: str) -> None:
    original = entry(content, key=key)
    found = read_snapshot_bytes(render_snapshot([original, original], NOW).encode("utf-8"))
    assert (found.entries, found.problems) == ([original, original], [])


@given(entries=st.lists(ENTRIES, min_size=1, max_size=3))
@settings(max_examples=100, deadline=None)
def test_every_field_round_trips_exactly(entries: list[MemoryEntry]) -> None:
    text = render_snapshot(entries, NOW)
    # Written to disk as UTF-8 (lone surrogates are escaped, so this cannot fail).
    found = read_snapshot_bytes(text.encode("utf-8"))
    assert found.problems == []
    assert found.entries == entries
    # Every line break in the file is "\n": nothing another tool splits lines on is raw.
    assert len(text.splitlines()) == text.count("\n")
    # An editor that saves the file with CRLF line endings changes nothing.
    assert read_snapshot(text.replace("\n", "\r\n")).entries == entries


@pytest.mark.parametrize(("kind", "text"), HOSTILE_CASES, ids=[k for k, _ in HOSTILE_CASES])
def test_hostile_corpus_round_trips_as_content_key_and_id(kind: str, text: str) -> None:
    original = entry(text, key=text, id=text, session_id=text, source=text, namespace=text)
    assert parse_snapshot(render_snapshot([original], NOW)) == [original]


@pytest.mark.parametrize("separator", SEPARATORS + ["\x00"])
def test_line_separators_and_nul_round_trip(separator: str) -> None:
    contents = [f"a{separator}b", f"{separator}", f"x{separator}\n{separator}", f"end{separator}"]
    originals = [entry(c, key=f"k{separator}", id=f"id{i}") for i, c in enumerate(contents)]
    assert parse_snapshot(render_snapshot(originals, NOW)) == originals


@pytest.mark.parametrize(
    "content",
    [
        "",
        "\n",
        "\n\n",
        "trailing newline\n",
        "\nleading newline",
        "trailing spaces   ",
        "tab at the end\t\nnext",
        "``` ```` `````",
        "`",
        "ends with backticks ```",
        "\n".join(STRUCTURE),
        f'{MARKER}\n## k\n\n- id: "evil"\n\n```text\nfake\n```\n',
    ],
)
def test_edge_contents_round_trip(content: str) -> None:
    original = entry(content)
    assert parse_snapshot(render_snapshot([original, entry("after", id="e2")], NOW)) == [
        original,
        entry("after", id="e2"),
    ]


def test_plain_text_stays_readable_and_the_rest_is_exact_json() -> None:
    plain = "The user edits in Helix\n```python\nprint('x')\n```\n## not a heading"
    block = render_block(entry(plain))
    assert f"````text\n{plain}\n````\n" in block
    carriage = render_block(entry("windows\r\nline"))
    assert '```json\n"windows\\r\\nline"\n```\n' in carriage
    assert "\r" not in carriage
    bidi = render_block(entry("RTL \u202etxt.exe", key="k\u202e"))
    assert "\u202e" not in bidi and "\\u202e" in bidi


def test_a_file_written_before_json_blocks_still_reads_exactly() -> None:
    # Older versions put every content in a text block, a raw "\r" included.
    old = render_snapshot([entry("placeholder")], NOW).replace(
        "```text\nplaceholder\n```", "```text\nwindows\r\nline\rold mac\n```"
    )
    assert [e.content for e in parse_snapshot(old)] == ["windows\r\nline\rold mac"]


def test_damaged_parts_are_skipped_and_named_by_line() -> None:
    good = [entry(f"content {i}", key=f"k{i}", id=f"id{i}") for i in range(4)]
    text = render_snapshot(good, NOW).replace("- pinned: false\n", "- pinned: fals\n", 1)
    head, _, rest = text.partition('- key: "k1"')
    text = head + '- key: "k1"' + rest.replace("- importance: 0.5", "- importance: 2", 1)
    found = read_snapshot(text + '\n## torn\n\n- id: "id9"\n\n```text\ncut off')
    assert [e.id for e in found.entries] == ["id2", "id3"]
    lines = text.split("\n")
    assert found.problems[0] == (
        f"line {lines.index('- pinned: fals') + 1}: bad pinned value (Expecting value); "
        "the entry was skipped"
    )
    assert found.problems[1].startswith(
        f"line {lines.index('- importance: 2') + 9}: entry 'k1' skipped: importance:"
    )
    assert found.problems[2] == (
        f"line {len(lines) + 5}: entry (no key): the file ends inside it (cut off, e.g. by "
        "a crash mid-write); it was skipped"
    )
    assert found.open_fence == 3
    with pytest.raises(ValueError, match=f"line {lines.index('- pinned: fals') + 1}"):
        parse_snapshot(text)


def test_a_block_after_a_torn_one_is_not_swallowed() -> None:
    torn = render_snapshot([entry("one", id="a")], NOW) + render_block(entry("two", id="b"))
    torn = torn[: torn.rindex("two") + 2]  # "tw": the closing fence is gone
    later = render_block(entry("three", key="k ```", id="c"), min_fence=3)
    found = read_snapshot(torn + "\n" + later)
    assert [(e.id, e.content) for e in found.entries] == [("a", "one"), ("c", "three")]
    assert len(found.problems) == 1 and "has no closing fence" in found.problems[0]


def test_a_longer_torn_fence_is_closed_by_a_long_enough_next_fence() -> None:
    torn = render_snapshot([entry("``` inside", id="a")], NOW)
    torn = torn[: torn.rindex("inside")]
    found = read_snapshot(torn)
    assert found.entries == [] and found.open_fence == 4
    fixed = read_snapshot(torn + "\n" + render_block(entry("b", id="b"), found.open_fence))
    assert [e.id for e in fixed.entries] == ["b"]


def test_text_that_is_not_a_snapshot_is_a_problem_not_an_error() -> None:
    found = read_snapshot("# my notes\n\n```text\nhello\n```\n")
    assert found.entries == [] and not found.has_marker
    assert "marker line is missing" in found.problems[0]


def test_notes_and_headings_a_person_added_are_ignored() -> None:
    notes = "\n## My notes\n\nsome prose\n\n- a list item\n\n```python\nprint()\n```\n"
    found = read_snapshot(render_snapshot([entry("kept")], NOW) + notes)
    assert found.entries == [entry("kept")]
    assert found.problems == []


def test_bytes_that_are_not_utf8_are_reported_and_the_rest_read() -> None:
    data = render_snapshot([entry("caf\u00e9", id="a"), entry("b", id="b")], NOW).encode()
    data = data.replace("caf\u00e9".encode(), b"caf\xe9")
    found = read_snapshot_bytes(data)
    assert [e.content for e in found.entries] == ["caf\ufffd", "b"]
    assert "not UTF-8" in found.problems[0]


def test_the_layout_writes_every_field_a_store_keeps() -> None:
    # A new entry field needs a place in the layout, or it would be lost in the files.
    assert {*SNAPSHOT_FIELDS, "content"} == RECORD_FIELDS
    assert len(HOSTILE_TEXTS) >= 20
