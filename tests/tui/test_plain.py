"""`tui.plain`: outside text made safe to draw, one visible symbol per control character."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text
from textual.content import Content

from tests.helpers.hostile import HOSTILE_TEXTS, SURFACE_TEXT
from tests.tui.hostile_checks import FORBIDDEN
from tui.plain import ControlPictures, plain, plain_text, visible


def test_controls_become_their_pictures_and_newlines_and_tabs_stay() -> None:
    assert visible("a\x1b[31mb\x00\x07\x7f") == "a␛[31mb␀␇␡"
    assert visible("line\nnext\tcell") == "line\nnext\tcell"
    assert visible("crlf\r\n") == "crlf␍\n"


def test_c1_and_bidi_overrides_are_shown_not_obeyed() -> None:
    assert visible("csi\x9b2J") == "csi\ufffd2J"
    assert visible("RTL \u202etxt.exe\u202c and \u2066isolate\u2069") == (
        "RTL \ufffdtxt.exe\ufffd and \ufffdisolate\ufffd"
    )


def test_markup_is_text() -> None:
    assert plain("[bold]not bold[/bold] [@click=app.quit]x[/]").plain == (
        "[bold]not bold[/bold] [@click=app.quit]x[/]"
    )
    assert plain_text("in vim use [/] to close").plain == "in vim use [/] to close"
    assert isinstance(plain("x"), Content) and isinstance(plain_text("x"), Text)


def test_a_style_is_ours_and_applies_to_the_whole_text() -> None:
    content = plain("[red]x", "bold")
    assert content.plain == "[red]x" and content.spans


@given(SURFACE_TEXT)
def test_visible_keeps_the_length_and_leaves_nothing_to_obey(text: str) -> None:
    shown = visible(text)
    assert len(shown) == len(text)  # editors map columns one to one
    assert FORBIDDEN.search(shown) is None
    assert visible(shown) == shown
    assert plain(text).plain == shown and plain_text(text).plain == shown


@given(st.sampled_from(HOSTILE_TEXTS))
def test_the_input_highlighter_masks_what_is_drawn_only(text: str) -> None:
    drawn = Text(text)
    ControlPictures().highlight(drawn)
    assert FORBIDDEN.search(drawn.plain) is None


def test_zero_width_characters_take_a_visible_cell() -> None:
    invisible = "\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2064\ufeff\u061c"
    family = "\U0001f468\u200d\U0001f469"
    assert visible(family) == family  # a joiner at work stays
    shown = visible(f"key{invisible}end")
    assert shown == "key" + "\ufffd" * len(invisible) + "end"
    # One cell per character: a padded column of keys stays straight.
    assert Text(shown).cell_len == len(shown)
