"""A collapsible whose title is outside text, shown literally."""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import Collapsible

from tui.plain import plain


class PlainCollapsible(Collapsible):
    """A `Collapsible` whose `title` is never parsed as markup.

    Collapsible parses a str title as markup (a tool's arguments holding `[/]` would end
    the app); here `title` stays the raw string and the title row shows it through `plain`.
    """

    def __init__(
        self,
        *children: Widget,
        title: str,
        collapsed: bool = True,
        id: str | None = None,  # noqa: A002 - Textual's name
        classes: str | None = None,
    ) -> None:
        # The base class builds its title row from `title` at once: give it nothing to parse.
        super().__init__(*children, title="", collapsed=collapsed, id=id, classes=classes)
        self.title = title

    def _watch_title(self, title: str) -> None:
        # Replaces Collapsible's watcher, which hands the str to the row as markup.
        self._title.label = plain(title)
