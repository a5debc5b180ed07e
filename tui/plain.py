"""Text that is not ours, shown exactly as it is: never markup, never a terminal command.

What a user types, a model says, a file or a server holds may contain Rich/Textual markup
(`[/]`, `[@click=app.quit]`), ANSI escapes or other control characters, and bidi overrides
that reorder what follows them. Each widget that shows such text gets it from here, so that:

- markup is never parsed (a literal `Content` or `Text` is built, not markup), and
- every character that would act on the terminal or hide the real text is replaced by a
  visible symbol of the same length: C0 controls (except newline and tab) and DEL by their
  Unicode control pictures (ESC becomes ␛), C1 controls, bidi marks, embedding, override
  and isolate characters and zero-width characters (space, word joiner, invisible
  operators, BOM, a joiner beside ASCII) by � (there are no pictures for those). A
  zero-width character drawn raw takes no cell, so a padded column (the inspector's
  keys) would slip, and two keys would look the same.

One character for one keeps indices valid, so editors (`ControlPictures` for an `Input`,
`tui.widgets.plain_text_area` for a `TextArea`) can mask what they draw while the text
they edit stays exactly what was stored. The raw text is always kept for copying.
"""

from __future__ import annotations

from rich.highlighter import Highlighter
from rich.text import Text
from textual.content import Content

from agent.terminal_text import STRAY_JOINER
from memory.lazy_patterns import lazy_compile

_NEWLINE, _TAB, _DEL = 0x0A, 0x09, 0x7F
_C1 = range(0x80, 0xA0)
_BIDI = (0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_ZERO_WIDTH = (0x200B, 0x200E, 0x200F, *range(0x2060, 0x2065), 0xFEFF)
# The CLI's rule for joiners that only hide (see agent.terminal_text.STRAY_JOINER).
_STRAY_JOINER = lazy_compile(STRAY_JOINER)
_UNKNOWN = "\ufffd"


def _picture(code: int) -> str:
    if code < 0x20:
        return chr(0x2400 + code)  # U+2400..U+241F: ␀ ␁ … ␛ … ␟
    if code == _DEL:
        return "\u2421"  # ␡
    return _UNKNOWN


_VISIBLE: dict[int, str] = {
    code: _picture(code)
    for code in (*range(0x20), _DEL, *_C1, *_BIDI, *_ZERO_WIDTH)
    if code not in (_NEWLINE, _TAB)
}


def visible(text: str) -> str:
    """`text` with every control and bidi override character replaced by a visible symbol.

    Args:
        text: Anything that did not come from memchat's own code.

    Returns:
        A string of the same length, safe to hand to any renderer or the terminal.
    """
    return _STRAY_JOINER.sub(_UNKNOWN, text.translate(_VISIBLE))


def plain(text: str, style: str = "") -> Content:
    """Textual content that shows `text` literally (for labels, statics, titles, options).

    Args:
        text: Outside text, markup and all.
        style: A style for the whole text (ours, never taken from `text`).

    Returns:
        Content with no markup parsed and control characters made visible.
    """
    shown = visible(text)
    return Content.styled(shown, style) if style else Content(shown)


def plain_text(text: str, style: str = "") -> Text:
    """A Rich `Text` that shows `text` literally (for tables, selects, Rich renderables).

    Args:
        text: Outside text, markup and all.
        style: A style for the whole text (ours, never taken from `text`).

    Returns:
        Text with no markup parsed and control characters made visible.
    """
    return Text(visible(text), style=style, end="")


class ControlPictures(Highlighter):
    """An `Input` highlighter that draws control characters as visible symbols.

    The input's value is untouched: only what reaches the screen changes, character for
    character, so the cursor and selection stay where they belong.
    """

    def highlight(self, text: Text) -> None:
        """Replace control characters in the rendered copy of the value.

        Args:
            text: The copy of the value the input is about to draw (changed in place).
        """
        shown = visible(text.plain)
        if shown != text.plain:
            text.plain = shown
