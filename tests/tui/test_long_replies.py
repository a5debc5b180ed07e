"""A long streamed reply is shown in pieces, each parsed only while it grows.

Found by an adversary: a reply of 40 KB took 67 s to show and one of 225 KB never did, a
CPU core busy: its many lines, with no blank one, were one Markdown block parsed again at
each fragment.
"""

from __future__ import annotations

import re

from textual.widgets import Markdown

from agent.testing import ScriptedModel
from tests.tui.conftest import MakeApp, settle
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.reply_chunks import ReplyPieces


def _shown(pieces: ReplyPieces, text: str, fragment: int = 7) -> list[str]:
    """The pieces' texts, as the reply streams in fragments of `fragment` characters."""
    shown = [""]
    for start in range(0, len(text), fragment):
        for part in pieces.feed(text[start : start + fragment]):
            if part is None:
                shown.append("")
            else:
                shown[-1] += part
    return shown


def test_a_long_reply_breaks_at_line_ends_and_loses_nothing() -> None:
    lines = [f"Alice met Bob on {day}/12 and paid invoice #{1000 + day}." for day in range(400)]
    text = "\n".join(lines)
    shown = _shown(ReplyPieces(size=500), text)
    assert len(shown) > 10
    assert "".join(shown) == text
    assert all(piece.endswith("\n") for piece in shown[:-1])
    assert max(len(piece) for piece in shown) <= 2 * 500 + 80


def test_a_code_block_broken_is_closed_and_opened_again_with_its_language() -> None:
    code = "".join(f"print({n})\n" for n in range(300))
    text = f"Here:\n\n```python\n{code}```\n\nDone."
    shown = _shown(ReplyPieces(size=400), text)
    assert len(shown) > 3
    for piece in shown[1:-1]:
        assert piece.startswith("```python\n") and piece.endswith("```\n")
    assert "".join(shown).count("print(") == 300


def test_a_table_keeps_its_rows_with_its_heading_until_it_is_very_long() -> None:
    rows = "".join(f"| {n} | row {n} |\n" for n in range(60))
    text = "intro\n\n| n | what |\n|---|---|\n" + rows + "\nafter\n"
    shown = _shown(ReplyPieces(size=400), text)
    assert "| 59 | row 59 |" in shown[0]


def test_a_reply_of_one_line_breaks_between_words() -> None:
    text = " ".join(f"word{n}" for n in range(3000))
    shown = _shown(ReplyPieces(size=500), text)
    assert len(shown) > 5
    assert "".join(shown) == text


async def test_a_long_reply_streams_into_several_pieces(make_app: MakeApp) -> None:
    reply = "\n".join(
        f"line {n}: Priya paid invoice #{5000 + n} on {n % 28 + 1}/3" for n in range(250)
    )
    h = make_app(ScriptedModel([reply], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.prompt
        prompt.focus()
        prompt.text = "list the payments"
        await pilot.press("enter")
        await settle(pilot)
        message = h.app.query_one(AssistantMessage)
        pieces = list(message.query(Markdown))
        assert len(pieces) >= 3
        assert message.text == reply
        assert "line 249: Priya paid invoice #5249" in pieces[-1].source
        assert "line 0: Priya" in pieces[0].source


def test_a_very_long_table_has_its_heading_again_in_each_piece() -> None:
    """Found by an adversary: rows after the break of a table of 400 rows were shown as
    paragraphs of "| 380 | item-380 | …"."""
    rows = "".join(f"| {n} | item-{n} |\n" for n in range(400))
    text = "intro\n\n| n | what |\n|---|---|\n" + rows + "\nafter\n"
    shown = _shown(ReplyPieces(size=400), text)
    assert len(shown) > 3
    assert all(piece.startswith("| n | what |\n|---|---|\n| ") for piece in shown[1:-1])
    assert sum(piece.count("item-") for piece in shown) == 400  # each row once


def test_a_table_streamed_in_words_is_broken_between_rows_only() -> None:
    """Found by a second adversary: fragments ending in a space ("| 130 with some …") cut a
    row in two once the piece was long, and the rows after lost their heading."""
    rows = "".join(
        f"| {n} | item number {n} with some padding | {n * 3} zł |\n" for n in range(300)
    )
    text = "| # | Name | Price |\n|---|---|---|\n" + rows
    pieces = ReplyPieces(size=400)
    shown = [""]
    for word in re.findall(r"\S+\s*", text):
        for part in pieces.feed(word):
            if part is None:
                shown.append("")
            else:
                shown[-1] += part
    assert len(shown) > 3
    assert all(piece.startswith("| # | Name | Price |\n|---|---|---|\n| ") for piece in shown[1:])
    assert all(piece.endswith("|\n") for piece in shown)


def test_code_within_a_line_opens_no_code_block() -> None:
    """Found by an adversary: "```not a fence```" opened a code block for the rest of the
    reply, and every piece after began with its text."""
    text = "start\n```not a fence```\n" + "".join(f"line {n}\n" for n in range(300))
    shown = _shown(ReplyPieces(size=400), text)
    assert len(shown) > 3
    assert "".join(shown) == text


def test_a_line_of_one_long_word_breaks_within_it() -> None:
    """Found by an adversary: 100 KB of base64 on one line was one block (74 s to show)."""
    text = "QUJD" * 5_000
    shown = _shown(ReplyPieces(size=400), text)
    assert len(shown) > 5
    assert "".join(shown) == text
