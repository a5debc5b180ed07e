"""What "shown literally" means on screen, for the hostile-text Pilot tests."""

from __future__ import annotations

import re

from textual.app import App
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from tui.plain import visible

FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Characters that must never be drawn: they act on the terminal or reorder the text."""

MARKUP_TOKENS = (
    "[/]",
    "[bold]not bold[/bold]",
    "[red]",
    "[link=https://example.com]",
    "[@click=app.quit]",
    "[@click=app.bell]",
    "[b]",
    "[/b]",
    "[on red]",
    "[$accent]",
)
"""Markup that a renderer would have eaten: where the text holds one, it must show."""


def drawn(widget: Widget, *, frame: bool = False) -> str:
    """What `widget` itself draws, line by line (its children draw their own).

    Without `frame`, only the content area: a border drawn on every line would come
    between the lines of a wrapped text.
    """
    width, height = widget.outer_size
    if not width or not height:
        return ""
    crop = Region(0, 0, width, height)
    if not frame:
        gutter = widget.styles.gutter
        crop = Region(gutter.left, gutter.top, *widget.size)
    return "\n".join(strip.text for strip in widget.render_lines(crop))


def clicks(root: Widget) -> list[str]:
    """The `@click` actions of everything `root` and the widgets inside it draw."""
    found = []
    for widget in [root, *root.query("*")]:
        width, height = widget.outer_size
        if widget.display and width and height:
            for strip in widget.render_lines(Region(0, 0, width, height)):
                for segment in strip:
                    action = segment.style.meta.get("@click") if segment.style else None
                    if action is not None:
                        found.append(str(action))
    return found


def drawn_tree(root: Widget) -> str:
    """What `root` and every widget inside it draw, frames included."""
    widgets = [root, *root.query("*")]
    return "\n".join(drawn(widget, frame=True) for widget in widgets if widget.display)


class Drawing:
    """The current screen with each widget rendered once, frames included.

    Checks that look at a widget, the widgets inside it, its click actions and the whole
    screen share this one pass: a long reply takes seconds to render.
    """

    def __init__(self, app: App[None]) -> None:
        self.strips: dict[Widget, list[Strip]] = {}
        for widget in [app.screen, *app.screen.query("*")]:
            width, height = widget.outer_size
            if widget.display and width and height:
                self.strips[widget] = widget.render_lines(Region(0, 0, width, height))

    def _tree(self, root: Widget) -> list[list[Strip]]:
        return [self.strips[w] for w in [root, *root.query("*")] if w in self.strips]

    def text(self, root: Widget) -> str:
        """What `root` and every widget inside it draw (as `drawn_tree`)."""
        return "\n".join("\n".join(s.text for s in strips) for strips in self._tree(root))

    def content(self, widget: Widget) -> str:
        """What `widget` draws inside its frame (as `drawn`)."""
        gutter, (width, height) = widget.styles.gutter, widget.size
        rows = self.strips.get(widget, [])[gutter.top : gutter.top + height]
        return "\n".join(row.crop(gutter.left, gutter.left + width).text for row in rows)

    def clicks(self, root: Widget) -> list[str]:
        """The `@click` actions `root` and the widgets inside it draw (as `clicks`)."""
        return [
            str(segment.style.meta["@click"])
            for strips in self._tree(root)
            for strip in strips
            for segment in strip
            if segment.style and "@click" in segment.style.meta
        ]


def screen_drawn(app: App[None]) -> str:
    """What the whole current screen draws."""
    return drawn_tree(app.screen)


def squash(text: str) -> str:
    """Text without whitespace: wrapping and padding cannot hide or fake a match."""
    return "".join(text.split())


def assert_safe(where: str, shown: str, source: str) -> None:
    """No control character reached the screen, and every markup token of `source` shows."""
    found = FORBIDDEN.search(shown)
    assert found is None, f"{where}: {found.group()!r} drawn for {source[:80]!r}"
    for token in MARKUP_TOKENS:
        if token in source:
            assert squash(token) in squash(shown), f"{where}: {token!r} not shown verbatim"


def assert_shown(where: str, shown: str, source: str) -> None:
    """`source` is drawn exactly, control characters as their symbols (and safe)."""
    assert_safe(where, shown, source)
    assert squash(visible(source)) in squash(shown), f"{where}: {source[:80]!r} not shown as is"
