"""The assistant's reply, streamed into Markdown, with its thinking folded away.

The reply is Markdown on purpose, but nothing in it may act on the app or the terminal:
control characters are made visible before the Markdown widget sees them (it never parses
Rich markup), and a clicked link opens only when it is a web address.
"""

from __future__ import annotations

from typing import ClassVar, Literal
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Collapsible, Label, Markdown, Static
from textual.widgets.markdown import MarkdownStream

from tui.plain import plain, visible
from tui.widgets.reply_chunks import ReplyPieces

WEB_SCHEMES = ("http", "https")


def reply_parser() -> MarkdownIt:
    """Textual's Markdown flavour with raw HTML off.

    The widget draws no HTML, so with it on a reply's `<div>` or `a<b>c` simply vanished;
    off, tags are shown as the text they are.
    """
    return MarkdownIt("gfm-like", {"html": False})


class AssistantMessage(Vertical, can_focus=True):
    """One reply; after Esc it says it stopped and offers to continue or regenerate."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("c", "copy", "Copy")]

    class ActionRequested(Message):
        """The user asked to continue or regenerate a stopped reply."""

        def __init__(self, action: Literal["continue", "regenerate"]) -> None:
            super().__init__()
            self.action = action

    def __init__(self) -> None:
        super().__init__(classes="assistant-message")
        self.text = ""
        self.thinking = ""
        self._stream: MarkdownStream | None = None
        self._pieces = ReplyPieces()
        self._piece: Markdown | None = None
        """The Markdown widget the reply streams into now (`tui.widgets.reply_chunks`)."""

    def compose(self) -> ComposeResult:
        """Thinking (hidden until the model thinks), the reply, and the stopped row."""
        with Collapsible(title="Thinking", collapsed=True, id="thinking"):
            yield Static("", id="thinking-text")
        # Links are ours to open (see on_markdown_link_clicked), not Textual's.
        yield Markdown("", id="reply", open_links=False, parser_factory=reply_parser)
        with Horizontal(id="reply-actions"):
            yield Label("⏹ stopped", id="reply-status")
            yield Button("Continue", id="continue", compact=True)
            yield Button("Regenerate", id="regenerate", compact=True)

    async def append(self, fragment: str) -> None:
        """Add streamed reply text."""
        self.text += fragment
        for part in self._pieces.feed(visible(fragment)):
            if part is None:
                await self._next_piece()
                continue
            if self._stream is None:
                self._piece = self._piece or self.query_one("#reply", Markdown)
                self._stream = Markdown.get_stream(self._piece)
            await self._stream.write(part)

    async def _next_piece(self) -> None:
        """End the piece being written; what follows goes into a new one below it."""
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None
        self._piece = Markdown(
            "", classes="reply-more", open_links=False, parser_factory=reply_parser
        )
        await self.mount(self._piece, before=self.query_one("#reply-actions"))

    async def replace(self, text: str) -> None:
        """Show `text` instead of what streamed (the agent cut a looping reply)."""
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None
        await self.query(".reply-more").remove()
        self._pieces, self._piece = ReplyPieces(), None
        self.text = text
        await self.query_one("#reply", Markdown).update(visible(text))

    def add_thinking(self, fragment: str) -> None:
        """Add streamed thinking (shown collapsed)."""
        self.thinking += fragment
        self.query_one("#thinking").display = True
        self.query_one("#thinking-text", Static).update(plain(self.thinking))

    async def finish(self, *, stopped: bool = False, failed: bool = False) -> None:
        """Render the final text; a stopped (or failed) reply says so and shows its actions.

        A reply the server cut off read "⏹ stopped", as if Esc had stopped it (found by a
        new user): it says it was cut off instead.
        """
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None
        if not self.query(".reply-more"):
            # In pieces, each piece holds its part already: parsed whole, a long reply took
            # seconds more, once more at its end.
            await self.query_one("#reply", Markdown).update(visible(self.text))
        if stopped or failed:
            status = "✗ cut off: the reply failed" if failed else "⏹ stopped"
            self.query_one("#reply-status", Label).update(status)
            self.add_class("stopped")

    @property
    def is_empty(self) -> bool:
        """Nothing arrived yet."""
        return not self.text and not self.thinking

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Forward Continue / Regenerate to the app."""
        event.stop()
        if event.button.id in ("continue", "regenerate"):
            self.remove_class("stopped")
            self.post_message(self.ActionRequested(event.button.id))  # type: ignore[arg-type]

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        """Open web links; anything else (a file, a script, an app's scheme) is only shown."""
        event.stop()
        try:
            scheme = urlsplit(event.href).scheme.lower()
        except ValueError:
            scheme = ""
        if scheme in WEB_SCHEMES:
            self.app.open_url(event.href)
        else:
            self.notify(f"Not opened (only web links open): {event.href}", severity="warning")

    def action_copy(self) -> None:
        """Copy this reply to the clipboard."""
        self.app.copy_to_clipboard(self.text)
        self.notify("Reply copied")
