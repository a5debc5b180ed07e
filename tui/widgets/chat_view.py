"""The scrolling conversation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual import events
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button

from agent.events import MemoryRecalled
from agent.messages import ChatMessage, CommandNote
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.recalled_entry import RecalledEntry
from tui.widgets.transcript_window import (
    TRANSCRIPT_WINDOW,
    EarlierMessages,
    LaterMessages,
    Window,
    window,
)
from tui.widgets.user_message import UserMessage

__all__ = ["TRANSCRIPT_WINDOW", "ChatView", "EarlierMessages", "LaterMessages"]


def _last_message(children: list[Widget]) -> int:
    """The position of the last message sent among `children`, or -1."""
    return max((i for i, c in enumerate(children) if isinstance(c, UserMessage)), default=-1)


class ChatView(VerticalScroll):
    """Follows new output while the user is at the bottom; scrolling up releases it."""

    class TypedAway(Message):
        """Text typed or pasted while a message had the focus: it belongs in the prompt."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    _transcript: tuple[list[ChatMessage], list[tuple[int, CommandNote]]] | None = None
    """The stored conversation shown, while it is one (`show_transcript`)."""
    _first = 0
    """The position of the first message shown of it."""
    _later: int | None = None
    """The position of the first message not shown after those shown (a search hit opened
    the chat far back), or None: the view reaches the conversation's end."""
    _recalls: dict[int, MemoryRecalled] = {}  # noqa: RUF012 - replaced, never changed
    _notes: dict[int, list[str]] = {}  # noqa: RUF012 - replaced, never changed
    """Its ◆ lines, by the position of the reply each came before."""

    def on_mount(self) -> None:
        """Start anchored to the bottom."""
        self.anchor()
        self._typing = False
        """Keys are on their way to the prompt: those still queued here follow them."""

    def on_key(self, event: events.Key) -> None:
        """Typing with a message focused goes to the prompt instead of nowhere.

        A new user typed a whole question after Tab had moved into the conversation, and it
        was lost. A key the focused message binds ("c" copies it) keeps its meaning, unless
        typing has begun: keys typed before the prompt has the focus are still delivered
        here, and "ab cd" lost its c to a copy (found by an adversary).
        """
        character = event.character
        if not event.is_printable or character is None:
            return
        if not self._typing and event.key in self.screen.active_bindings:
            return
        self._typing = True
        event.stop()
        event.prevent_default()
        self.post_message(self.TypedAway(character))

    def on_paste(self, event: events.Paste) -> None:
        """A paste with a message focused goes to the prompt too (it was dropped)."""
        event.stop()
        self._typing = True
        self.post_message(self.TypedAway(event.text))

    def on_descendant_focus(self) -> None:
        """A message has the focus again (Tab, a click): its keys mean what they say."""
        self._typing = False

    async def add(self, widget: Widget) -> Widget:
        """Append a widget to the conversation (shown from its end, first, if it was not)."""
        if self._later is not None and self._transcript is not None:
            # A search hit far back had opened the chat there: a turn goes on at its end.
            messages = self._transcript[0]
            await self.remove_children()
            await self._mount_window(max(0, len(messages) - TRANSCRIPT_WINDOW), len(messages))
        if isinstance(widget, UserMessage):
            self._retire_replies()
            # A message sent is followed to the end, even from a search hit scrolled to.
            self.anchor()
        await self.mount(widget)
        return widget

    def _retire_replies(self) -> None:
        # Continue and Regenerate act on the conversation's end, not on an older reply.
        for reply in self.query(AssistantMessage):
            reply.add_class("earlier")

    async def remove_from(self, text: str) -> bool:
        """Take the last bubble holding `text`, and all after it, off the screen (an edit).

        Earlier turns keep everything they show (recalled memories, tool calls); a command
        sent after the edited message goes with it. False when no bubble holds `text`.
        """
        children = list(self.children)
        starts = [
            i
            for i, child in enumerate(children)
            if isinstance(child, UserMessage) and child.text == text
        ]
        if not starts:
            return False
        await self.remove_children(children[starts[-1] :])
        return True

    def after_last_message(self) -> list[Widget]:
        """What is shown after the last message sent: its recall line and its replies."""
        children = list(self.children)
        return children[_last_message(children) + 1 :]

    async def show_transcript(
        self,
        messages: list[ChatMessage],
        commands: Sequence[tuple[int, CommandNote]] = (),
        *,
        around: int | None = None,
        recalls: Mapping[int, MemoryRecalled] | None = None,
        notes: Mapping[int, list[str]] | None = None,
    ) -> dict[int, Widget]:
        """Replace the view with a stored conversation (switching sessions).

        Returns the widget shown for each message, by the message's position, and for each
        slash command under `command_slot` of its position in `commands`. `recalls`: the ◆
        line of each turn, by the position of the reply it came before. A long chat shows
        its last `TRANSCRIPT_WINDOW` messages, or a window from a little before `around`
        when that is earlier, with buttons that show the windows before and after.
        """
        first, last = max(0, len(messages) - TRANSCRIPT_WINDOW), len(messages)
        if around is not None and 0 <= around < first:
            first = max(0, around - TRANSCRIPT_WINDOW // 4)
            last = min(len(messages), first + TRANSCRIPT_WINDOW)
        self._transcript = (messages, list(commands))
        self._recalls = dict(recalls or {})
        self._notes = dict(notes or {})
        await self.remove_children()
        return await self._mount_window(first, last)

    async def _mount_window(self, first: int, last: int) -> dict[int, Widget]:
        assert self._transcript is not None
        messages, commands = self._transcript
        made = window(messages, commands, self._recalls, first, last, self._notes)
        if first:
            made.widgets.insert(0, EarlierMessages(first))
        if last < len(messages):
            made.widgets.append(LaterMessages(len(messages) - last))
        self._first, self._later = first, (last if last < len(messages) else None)
        # One mount for them all: a mount each cost the layout of everything before it.
        await self.mount_all(made.widgets)
        await self._finish(made)
        if self._later is None:
            self.anchor()
        return made.shown

    async def _finish(self, made: Window) -> None:
        for reply, message in made.replies:
            reply.text, reply.thinking = message.content, message.thinking
            await reply.finish(stopped=message.stopped, failed=message.failed)
        self._retire_all_but_the_last_turn()

    async def show_earlier(self) -> None:
        """Show the window before the messages shown, above them; nothing shown is rebuilt.

        Found by an adversary: each "show more" laid out everything shown again, from the
        chat as it was opened (a command run since disappeared).
        """
        buttons = self.query(EarlierMessages)
        if self._transcript is None or not self._first or not buttons:
            return
        messages, commands = self._transcript
        first = max(0, self._first - TRANSCRIPT_WINDOW)
        made = window(messages, commands, self._recalls, first, self._first, self._notes)
        if self._first in self._recalls:
            made.widgets.append(RecalledEntry(self._recalls[self._first]))
        if first:
            made.widgets.insert(0, EarlierMessages(first))
        button = buttons.first()
        children = list(self.children)
        below = children[children.index(button) + 1] if button is not children[-1] else None
        await button.remove()  # first: the new one takes its id
        if below is not None:
            await self.mount_all(made.widgets, before=below)
        else:
            await self.mount_all(made.widgets)
        self._first = first
        await self._finish(made)
        if below is not None:
            # Where the reader was: the first message shown before stays in view.
            self.call_after_refresh(self.scroll_to_widget, below, animate=False, top=True)

    async def show_later(self) -> None:
        """Show the window after the messages shown, below them."""
        buttons = self.query(LaterMessages)
        if self._transcript is None or self._later is None or not buttons:
            return
        messages, commands = self._transcript
        last = min(len(messages), self._later + TRANSCRIPT_WINDOW)
        made = window(messages, commands, self._recalls, self._later, last)
        if self._later in self._recalls:
            made.widgets.insert(0, RecalledEntry(self._recalls[self._later]))
        if last < len(messages):
            made.widgets.append(LaterMessages(len(messages) - last))
        await buttons.first().remove()  # first: the new one takes its id
        await self.mount_all(made.widgets)
        self._later = last if last < len(messages) else None
        await self._finish(made)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The buttons above and below a window of a long chat."""
        button = event.button
        if isinstance(button, EarlierMessages | LaterMessages):
            event.stop()
            # Pressed once: a second press while the window mounts would show it twice.
            button.disabled = True
            shown = self.show_earlier if isinstance(button, EarlierMessages) else self.show_later
            self.app.run_worker(shown(), group="chat-window")

    def _retire_all_but_the_last_turn(self) -> None:
        """Continue and Regenerate act on the conversation's end only (`_retire_replies`)."""
        children = list(self.children)
        for child in children[: _last_message(children)]:
            if isinstance(child, AssistantMessage):
                child.add_class("earlier")

    def show_found(self, widget: Widget) -> None:
        """Scroll to a message found by a search and mark it (until the next search)."""
        for earlier in self.query(".search-hit"):
            earlier.remove_class("search-hit")
        widget.add_class("search-hit")
        self.release_anchor()
        # After the next refresh: just mounted, the messages have no layout yet, and a
        # scroll computed now leaves the view half drawn.
        self.call_after_refresh(self.scroll_to_widget, widget, animate=False, top=True)

    @property
    def last_reply(self) -> AssistantMessage | None:
        """The newest assistant message, if any."""
        replies = self.query(AssistantMessage)
        return replies.last() if replies else None
