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
from agent.sessions import command_slot
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.recalled_entry import RecalledEntry
from tui.widgets.tool_call_entry import ToolCallEntry
from tui.widgets.user_message import UserMessage

TRANSCRIPT_WINDOW = 60
"""Messages a reopened chat shows at first; a button shows each earlier window."""


class EarlierMessages(Button):
    """At the top of a long reopened chat: shows the messages before those shown."""

    def __init__(self, hidden: int) -> None:
        label = "1 earlier message" if hidden == 1 else f"{hidden:,} earlier messages"
        super().__init__(f"▲ {label}: show more", id="earlier-messages", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Show the previous window."""
        event.stop()
        if any(w.group == "turn" and not w.is_finished for w in self.app.workers):
            # Shown again from the start, the reply streaming below would lose its widget
            # (found by an adversary: the app ended).
            self.app.notify("Wait for the reply to finish, then show the earlier messages.")
            return
        chat = self.parent
        if isinstance(chat, ChatView):
            self.app.run_worker(chat.show_earlier(), group="chat-earlier", exclusive=True)


def _reply_widgets(
    message: ChatMessage, outcomes: Mapping[str, ChatMessage], widgets: list[Widget]
) -> AssistantMessage | None:
    """A stored reply's widgets (its text, then its tool calls with their outcomes)."""
    reply = None
    if message.content or message.thinking:
        reply = AssistantMessage()
        widgets.append(reply)
    for call in message.tool_calls:
        entry = ToolCallEntry(call.name, call.arguments)
        widgets.append(entry)
        outcome = outcomes.get(call.id)
        if outcome is not None:
            entry.finish(outcome.content, error=outcome.error, repeated=False)
    return reply


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
    _recalls: dict[int, MemoryRecalled] = {}  # noqa: RUF012 - replaced, never changed
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
        """Append a widget to the conversation."""
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
        last = max((i for i, c in enumerate(children) if isinstance(c, UserMessage)), default=-1)
        return children[last + 1 :]

    async def show_transcript(
        self,
        messages: list[ChatMessage],
        commands: Sequence[tuple[int, CommandNote]] = (),
        *,
        around: int | None = None,
        recalls: Mapping[int, MemoryRecalled] | None = None,
    ) -> dict[int, Widget]:
        """Replace the view with a stored conversation (switching sessions).

        Returns the widget shown for each message, by the message's position, and for each
        slash command under `command_slot` of its position in `commands`. `recalls`: the ◆
        line of each turn, by the position of the reply it came before. A long chat shows
        its last `TRANSCRIPT_WINDOW` messages (and from a little before `around`, when it
        is earlier), with a button that shows the earlier ones: found by an adversary, a
        chat of 800 exchanges took minutes to open.
        """
        first = max(0, len(messages) - TRANSCRIPT_WINDOW)
        if around is not None and 0 <= around < first:
            first = max(0, around - TRANSCRIPT_WINDOW // 4)
        self._transcript = (messages, list(commands))
        self._recalls = dict(recalls or {})
        return await self._show_from(first)

    async def show_earlier(self) -> None:
        """Show another window of the messages before those shown."""
        if self._transcript is not None:
            await self._show_from(max(0, self._first - TRANSCRIPT_WINDOW))

    async def _show_from(self, first: int) -> dict[int, Widget]:
        assert self._transcript is not None
        messages, commands = self._transcript
        self._first = first
        await self.remove_children()
        shown: dict[int, Widget] = {}
        widgets: list[Widget] = []
        if first:
            widgets.append(EarlierMessages(first))
        # The tool calls are shown as during the turn, with their stored outcomes (found by
        # a new user: a reopened chat showed none of them).
        outcomes = {m.tool_call_id: m for m in messages if m.role == "tool" and m.tool_call_id}
        pending = sorted(
            (item for item in enumerate(commands) if item[1][0] >= first),
            key=lambda item: item[1][0],
        )
        replies: list[tuple[AssistantMessage, ChatMessage]] = []
        for index in range(first, len(messages)):
            message = messages[index]
            if index in self._recalls and index > first:
                widgets.append(RecalledEntry(self._recalls[index]))
            while pending and pending[0][1][0] <= index:
                number, (_, note) = pending.pop(0)
                shown[command_slot(number)] = self._command_widgets(note, widgets)
            if message.role == "user":
                shown[index] = UserMessage(message.content)
                widgets.append(shown[index])
                continue
            if message.role == "assistant":
                reply = _reply_widgets(message, outcomes, widgets)
                if reply is not None:
                    replies.append((reply, message))
                    shown[index] = reply
        if len(messages) in self._recalls and len(messages) > first:
            widgets.append(RecalledEntry(self._recalls[len(messages)]))  # a turn unanswered
        for number, (_, note) in pending:
            shown[command_slot(number)] = self._command_widgets(note, widgets)
        # One mount for them all: a mount each cost the layout of everything before it.
        await self.mount_all(widgets)
        for reply, message in replies:
            reply.text, reply.thinking = message.content, message.thinking
            await reply.finish(stopped=message.stopped, failed=message.failed)
        self._retire_all_but_the_last_turn()
        self.anchor()
        return shown

    def _retire_all_but_the_last_turn(self) -> None:
        """Continue and Regenerate act on the conversation's end only (`_retire_replies`)."""
        children = list(self.children)
        last = max((i for i, c in enumerate(children) if isinstance(c, UserMessage)), default=-1)
        for child in children[:last]:
            if isinstance(child, AssistantMessage):
                child.add_class("earlier")

    def _command_widgets(self, note: CommandNote, widgets: list[Widget]) -> Widget:
        """A slash command as it was run: what was typed, and its line with the outcome.

        Found by a new user: a reopened chat showed none of its /remember, /recall or
        /forget, which are never sent to the model and so were not in its messages.
        """
        typed = UserMessage(note.text)
        entry = ToolCallEntry(note.tool, note.arguments)
        entry.finish(note.result, error=note.error, repeated=False)
        widgets.extend([typed, entry])
        return typed

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
