"""The hostile-text corpus (tests/data/hostile-text.jsonl) and generated text around it.

Each corpus line is something a user may type, a model may say or a file may hold: markup,
Markdown, ANSI escapes, control characters, bidi marks, CJK, FTS and SQL syntax, fence and
chat-template imitations, template strings, paths, CRLF, a huge word, many lines. Every
surface (widgets, CLI output, files) must show or keep it exactly, interpreting nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import strategies as st

CORPUS_PATH = Path(__file__).resolve().parent.parent / "data" / "hostile-text.jsonl"


def _load() -> list[tuple[str, str]]:
    cases = []
    for line in CORPUS_PATH.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            cases.append((str(record["kind"]), str(record["text"])))
    return cases


HOSTILE_CASES: list[tuple[str, str]] = _load()
"""(kind, text) pairs, in corpus order."""

HOSTILE_TEXTS: list[str] = [text for _, text in HOSTILE_CASES]

MARKUP_PIECES = st.sampled_from(
    [
        "[/]",
        "[",
        "]",
        "[b]",
        "[/b]",
        "[bold red]",
        "[@click=app.quit]",
        "[@click=app.bell]x[/]",
        "[link=https://example.com]",
        "[/link]",
        "\\",
        "\\[",
        "[on red]",
        "[$accent]",
        "[reverse]",
        "$variable",
        "\x1b[31m",
        "\x1b]8;;https://example.com\x07",
        "\x07",
        "\r",
        "\x08",
        "\x00",
        "\u202e",
        "\u2066",
        "\x9b",
        "\ufeff",
        "**",
        "`",
        "```",
        "\n",
        "\t",
    ]
)
"""Fragments that a renderer or a terminal might interpret."""

SURFACE_TEXT = st.one_of(
    st.sampled_from(HOSTILE_TEXTS),
    st.lists(st.one_of(MARKUP_PIECES, st.text(max_size=8)), min_size=1, max_size=8).map("".join),
)
"""Hostile text for any surface: a corpus case, or markup pieces mixed with any text."""
