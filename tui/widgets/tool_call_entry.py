"""One tool call in the chat: name and arguments, expandable to the result."""

from __future__ import annotations

import json

from rich.text import Text
from textual.widgets import Static

from tui.plain import visible
from tui.widgets.plain_collapsible import PlainCollapsible
from tui.widgets.tool_results import error_text, readable, summary


def _short(value: object, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _reason(message: str, name: str) -> str:
    """An error's first sentence, without the call's name said again before it.

    "✗ memory_store: memory_store refused: memory is read-only in incognito:" said the name
    twice and was cut at a colon, the reason lost (a new user).
    """
    message = message.removeprefix(f"{name} ")
    first = message.split(". ", 1)[0]
    return first if len(first) < len(message) else message


class ToolCallEntry(PlainCollapsible):
    """Compact while collapsed; expanded it shows arguments and result (or error).

    The name, arguments and result come from the model and the store: all shown literally.
    """

    def __init__(self, name: str, arguments: object, *, collapsed: bool = True) -> None:
        self.call_name = name
        self.arguments = arguments
        self._body = Static(self._describe(None, False), classes="tool-body")
        super().__init__(
            self._body,
            title=f"… {name} {_short(arguments)}",
            collapsed=collapsed,
            classes="tool-call",
        )

    def _describe(self, result: str | None, error: bool) -> Text:
        text = Text()
        text.append("arguments ", style="bold")
        arguments = json.dumps(self.arguments, ensure_ascii=False, indent=1, default=str)
        text.append(visible(arguments))
        if result is not None:
            text.append("\nerror " if error else "\nresult ", style="bold red" if error else "bold")
            # An error reads as its message, not as the JSON the model gets.
            shown = Text(visible(error_text(result))) if error else readable(result)
            text.append_text(Text(visible(result)) if shown is None else shown)
        return text

    def finish(self, result: str, *, error: bool, repeated: bool) -> None:
        """Show the outcome."""
        mark = "✗" if error else "✓"
        again = " (repeated, not run again)" if repeated else ""
        # A failure says why on its line: "✗ memory_forget {…}" alone hid the reason until
        # the line was opened (found by a new user).
        why = f": {_short(_reason(error_text(result), self.call_name), 80)}" if error else ""
        # What a call did comes first: the arguments after it are cut to the chat's width.
        what = "" if error else summary(result)
        done = f"{self.call_name}: {what}" if what else self.call_name
        # The reason before the arguments: after a long fact's text it was cut off at the
        # line's end ("✗ memory_store {…" in incognito, said a new user, and nothing why).
        self.title = f"{mark} {done}{why} {_short(self.arguments)}{again}"
        self.add_class("failed" if error else "succeeded")
        self._body.update(self._describe(result, error))
