"""Renders one turn's events into the chat and tells the app what else changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from agent.commands import COMMAND_CALL_ID
from agent.events import (
    MemoryForgotten,
    MemoryRecalled,
    MemorySaved,
    Notice,
    ReplyTrimmed,
    TextDelta,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnEvent,
    TurnFailed,
    TurnFinished,
    TurnStats,
)
from agent.memory_editing import Forgotten
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.chat_view import ChatView
from tui.widgets.recalled_entry import RecalledEntry
from tui.widgets.reply_note import ReplyNote
from tui.widgets.tool_call_entry import ToolCallEntry
from tui.widgets.transcript_window import NOT_ANSWERED

if TYPE_CHECKING:
    from textual.widget import Widget
from tui.widgets.user_message import UserMessage

MEMORY_TOOLS_THAT_WRITE = ("memory_store", "memory_forget")


@dataclass
class Outcome:
    """Side effects of one event outside the chat view."""

    used_ids: set[str] | None = None
    memory_changed: bool = False
    stats: TurnStats | None = None
    length_stop: bool = False
    notice: Notice | None = None
    failure: TurnFailed | None = None
    recall_degraded: str | None = None
    """Set by a recall: "" when it ran as configured, else why it fell back (keyword-only)."""
    forgotten: Forgotten | None = None
    """What a forget in the chat removed: the inspector offers to undo it."""


class TurnView:
    """The widgets of one turn: the user's message, recalled memories, tools, replies."""

    def __init__(self, chat: ChatView) -> None:
        self.chat = chat
        self.message: UserMessage | None = None
        """The user's bubble for this turn (None when a reply is regenerated)."""
        self.recalled: RecalledEntry | None = None
        self.reply: AssistantMessage | None = None
        self.replies: list[AssistantMessage] = []
        self.tools: dict[str, ToolCallEntry] = {}

    async def start(self, user_text: str | None, *, retry: bool = False) -> None:
        """Show the user's message (None when a reply is regenerated).

        A `retry` (the same text sent again after nothing answered it) keeps the bubble
        still shown last (a resumed session); a withdrawn one comes back.
        """
        if user_text is None:
            return
        children = list(self.chat.children)
        # The line a reopened chat shows under its unanswered last message: sent again,
        # an answer is on its way.
        note = children.pop() if children and _says_not_answered(children[-1]) else None
        last = children[-1] if children else None
        if retry and isinstance(last, UserMessage) and last.text == user_text:
            self.message = last
            if note is not None:
                await note.remove()
            return
        self.message = UserMessage(user_text)
        await self.chat.add(self.message)

    @property
    def answered(self) -> bool:
        """Something came back: reply text, thinking or a tool call."""
        return bool(self.replies or self.tools or (self.reply and not self.reply.is_empty))

    async def withdraw(self) -> None:
        """Take back a message nothing answered (it goes back to the input).

        Its bubble and what was recalled for it go. The agent keeps the message as the
        session's unanswered last one and treats the same text sent again as a retry, which
        shows it (and recalls) again: left here, it would be shown twice.
        """
        if self.answered:
            return
        for widget in (self.recalled, self.message):
            if widget is not None and widget.is_attached:
                await widget.remove()
        self.message = self.recalled = None

    async def _reply(self) -> AssistantMessage:
        if self.reply is None:
            self.reply = AssistantMessage()
            self.replies.append(self.reply)
            await self.chat.add(self.reply)
        return self.reply

    async def apply(self, event: TurnEvent) -> Outcome:  # noqa: C901 - one branch per kind
        """Render one event."""
        if isinstance(event, MemorySaved):
            return Outcome(memory_changed=True)
        if isinstance(event, MemoryForgotten):
            return Outcome(memory_changed=True, forgotten=event.forgotten)
        if isinstance(event, MemoryRecalled):
            self.recalled = RecalledEntry(event)
            await self.chat.add(self.recalled)
            return Outcome(
                used_ids={entry.id for entry in event.injected},
                recall_degraded=event.degraded or "",
            )
        if isinstance(event, ThinkingDelta):
            (await self._reply()).add_thinking(event.text)
        elif isinstance(event, TextDelta):
            await (await self._reply()).append(event.text)
        elif isinstance(event, ReplyTrimmed):
            await (await self._reply()).replace(event.text)
        elif isinstance(event, ToolCallStarted):
            await self._close_reply()
            # A slash command's result is what the user asked to see: shown opened.
            entry = ToolCallEntry(
                event.name, event.arguments, collapsed=event.call_id != COMMAND_CALL_ID
            )
            self.tools[event.call_id] = entry
            await self.chat.add(entry)
        elif isinstance(event, ToolCallFinished):
            started = self.tools.get(event.call_id)
            if started is not None:
                started.finish(event.result, error=event.error, repeated=event.repeated)
            return Outcome(memory_changed=event.name in MEMORY_TOOLS_THAT_WRITE)
        elif isinstance(event, Notice):
            if not event.about_reply:
                return Outcome(notice=event)
            # After the reply it explains; text still to come opens a reply below it.
            await self.chat.add(ReplyNote(event))
        elif isinstance(event, TurnFinished):
            # A reply cut for looping offers Regenerate, like one stopped with Esc.
            await self._close_reply(stopped=event.stopped_reason == "repetition")
            return Outcome(stats=event.stats, length_stop=event.stopped_reason == "length")
        elif isinstance(event, TurnFailed):
            await self._close_reply(failed=True)
            return Outcome(failure=event)
        return Outcome()

    async def _close_reply(self, *, stopped: bool = False, failed: bool = False) -> None:
        if self.reply is not None:
            if self.reply.is_empty:
                await self.reply.remove()
                self.replies.remove(self.reply)
            else:
                await self.reply.finish(stopped=stopped, failed=failed)
            self.reply = None

    async def stopped(self) -> bool:
        """After Esc: mark the partial reply stopped; False when nothing had arrived."""
        if self.reply is not None and not self.reply.is_empty:
            await self.reply.finish(stopped=True)
            self.reply = None
            return True
        await self._close_reply()
        return bool(self.replies or self.tools)


def _says_not_answered(widget: Widget) -> bool:
    return isinstance(widget, ReplyNote) and widget.notice == NOT_ANSWERED
