"""The widgets of a window of a stored conversation, and the buttons around a window.

A long chat is shown a window at a time (found by an adversary: a chat of 800 exchanges
took minutes to open, and a search hit far back in 4,000 messages laid out everything
from the hit to the end). `ChatView` mounts windows; this module makes their widgets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from textual.widget import Widget
from textual.widgets import Button

from agent.events import MemoryRecalled, Notice
from agent.messages import ChatMessage, CommandNote
from agent.sessions import command_slot
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.recalled_entry import RecalledEntry
from tui.widgets.reply_note import ReplyNote
from tui.widgets.tool_call_entry import ToolCallEntry
from tui.widgets.user_message import UserMessage

NO_REPLY = Notice(
    "No reply to this message (memchat or the model stopped first); the next message was "
    "sent to the model with it.",
    "warning",
)
"""Found by an adversary: after a kill mid-reply, the message showed as if answered later,
while the model was sent it joined to the next one."""
NOT_ANSWERED = Notice(
    "No reply to this message (memchat stopped before it was answered, and what had "
    "arrived was not saved): send it again, or your next message goes to the model with it.",
    "warning",
)
"""Found by a second adversary: after a kill -9 mid-reply, the chat's last message showed
with nothing under it, and nothing said why."""

TRANSCRIPT_WINDOW = 60
"""Messages a reopened chat shows at first; a button shows each window before or after."""


class EarlierMessages(Button):
    """Above the first message shown: shows the window before it."""

    def __init__(self, hidden: int) -> None:
        label = "1 earlier message" if hidden == 1 else f"{hidden:,} earlier messages"
        super().__init__(f"▲ {label}: show more", id="earlier-messages", compact=True)


class LaterMessages(Button):
    """Below the last message shown, when a search hit opened the chat far back."""

    def __init__(self, hidden: int) -> None:
        label = "1 later message" if hidden == 1 else f"{hidden:,} later messages"
        super().__init__(f"▼ {label}: show more", id="later-messages", compact=True)


@dataclass
class Window:
    """The widgets showing messages `first` to `last` (not included) of a conversation."""

    first: int
    last: int
    widgets: list[Widget] = field(default_factory=list)
    shown: dict[int, Widget] = field(default_factory=dict)
    """The widget shown for each message, by position; commands under `command_slot`."""
    replies: list[tuple[AssistantMessage, ChatMessage]] = field(default_factory=list)
    """Replies whose text is set once they are mounted (`AssistantMessage.finish`)."""


def window(
    messages: Sequence[ChatMessage],
    commands: Sequence[tuple[int, CommandNote]],
    recalls: Mapping[int, MemoryRecalled],
    first: int,
    last: int,
    notes: Mapping[int, list[str]] | None = None,
) -> Window:
    """The widgets of messages `first`…`last`, with the commands and ◆ lines among them.

    A command is shown before the message at its position; those after the last message
    only when the window reaches the end. A ◆ line is shown before the reply it came
    before, never as a window's first line (its message is in the window before).
    """
    made = Window(first, last)
    widgets = made.widgets
    at_end = last >= len(messages)
    # The tool calls are shown as during the turn, with their stored outcomes (found by
    # a new user: a reopened chat showed none of them).
    outcomes = {m.tool_call_id: m for m in messages if m.role == "tool" and m.tool_call_id}
    pending = sorted(
        (
            (number, position, note)
            for number, (position, note) in enumerate(commands)
            if position >= first and (position < last or at_end)
        ),
        key=lambda item: item[1],
    )
    for index in range(first, min(last, len(messages))):
        message = messages[index]
        if index in recalls and index > first:
            widgets.append(RecalledEntry(recalls[index]))
        while pending and pending[0][1] <= index:
            number, _, note = pending.pop(0)
            made.shown[command_slot(number)] = _command_widgets(note, widgets)
        if message.role == "user":
            made.shown[index] = UserMessage(message.content)
            widgets.append(made.shown[index])
            if index + 1 < len(messages) and messages[index + 1].role == "user":
                widgets.append(ReplyNote(NO_REPLY))
        elif message.role == "assistant":
            reply = _reply_widgets(message, outcomes, widgets)
            if reply is not None:
                made.replies.append((reply, message))
                made.shown[index] = reply
            widgets += [ReplyNote(Notice(text)) for text in (notes or {}).get(index + 1, [])]
    if at_end and len(messages) in recalls and len(messages) > first:
        widgets.append(RecalledEntry(recalls[len(messages)]))  # a turn unanswered
    if at_end and messages and messages[-1].role == "user" and len(messages) > first:
        widgets.append(ReplyNote(NOT_ANSWERED))
    for number, _, note in pending:
        made.shown[command_slot(number)] = _command_widgets(note, widgets)
    return made


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


def _command_widgets(note: CommandNote, widgets: list[Widget]) -> Widget:
    """A slash command as it was run: what was typed, and its line with the outcome.

    Found by a new user: a reopened chat showed none of its /remember, /recall or
    /forget, which are never sent to the model and so were not in its messages.
    """
    typed = UserMessage(note.text)
    entry = ToolCallEntry(note.tool, note.arguments)
    entry.finish(note.result, error=note.error, repeated=False)
    widgets.extend([typed, entry])
    return typed
