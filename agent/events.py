"""What `Agent.turn` yields: small typed events the UI renders and tests assert on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agent.memory_editing import Forgotten
from memory.entry import MemoryEntry

StopReason = Literal["done", "length", "tool_limit", "command", "repetition"]
"""Why a turn ended: answered; cut at the length limit; out of tool rounds; a /command;
cut for repeating itself."""


CutReason = Literal[
    "below floor",
    "held back",
    "budget",
    "already in conversation",
    "low confidence",
    "same text as another",
    "a correction of something else",
    # No longer given (a fact's secret is redacted instead): chats saved before hold it.
    "secret not asked for",
]


@dataclass(frozen=True)
class CutMemory:
    """A recalled memory that was not injected, and why."""

    entry: MemoryEntry
    reason: CutReason


@dataclass(frozen=True)
class MemoryRecalled:
    """Memories injected before the user's message for this request, with their scores."""

    injected: list[MemoryEntry]
    cut: list[CutMemory]
    mode: str
    """The recall mode (hybrid, keyword, keyword-early, off …)."""
    degraded: str | None = None
    calibration: str | None = None
    """Set when this recall first calibrated the embedding model (it took longer)."""
    since_changed: dict[str, str] = field(default_factory=dict)
    """Saved messages (by id) that a later memory gave a value of otherwise, and which."""
    limit_reached: int = 0
    """The recall limit, when the recall found that many above the floor (more may match)."""
    in_this_chat: int = 0
    """This chat's saved messages the recall left out: the model has them in front of it."""
    kind: Literal["memory_recalled"] = "memory_recalled"


@dataclass(frozen=True)
class MemorySaved:
    """Memory changed: a message auto-saved, a fact stored, or a message folded into one.

    Folded: the message became the history of the fact stored from it (`entry`, the fact).
    """

    entry: MemoryEntry
    kind: Literal["memory_saved"] = "memory_saved"


@dataclass(frozen=True)
class MemoryForgotten:
    """A memory_forget call (the model's, or /forget) removed a key and its history.

    `forgotten` is what `MemoryEditor.undo_forget` puts back: a forget made in the chat
    can be undone as one made in the inspector.
    """

    forgotten: Forgotten
    kind: Literal["memory_forgotten"] = "memory_forgotten"


@dataclass(frozen=True)
class TextDelta:
    """A piece of the assistant's reply."""

    text: str
    kind: Literal["text_delta"] = "text_delta"


@dataclass(frozen=True)
class ReplyTrimmed:
    """The model was repeating itself: its stream was stopped and the reply cut to `text`."""

    text: str
    kind: Literal["reply_trimmed"] = "reply_trimmed"


@dataclass(frozen=True)
class ThinkingDelta:
    """A piece of the model's thinking (shown collapsed)."""

    text: str
    kind: Literal["thinking_delta"] = "thinking_delta"


@dataclass(frozen=True)
class ToolCallStarted:
    """The model asked for a tool call."""

    call_id: str
    name: str
    arguments: object
    kind: Literal["tool_call_started"] = "tool_call_started"


@dataclass(frozen=True)
class ToolCallFinished:
    """A tool call's result, or the error sent back to the model."""

    call_id: str
    name: str
    result: str
    error: bool = False
    repeated: bool = False
    """The same call was already made this turn; its result was reused, not re-executed."""
    kind: Literal["tool_call_finished"] = "tool_call_finished"


@dataclass(frozen=True)
class Notice:
    """Something the user should know that is not part of the reply."""

    text: str
    level: Literal["info", "warning", "error"] = "info"
    about_reply: bool = False
    """It explains the reply (cut short, answered without tools): the chat keeps it beside
    the reply, where a passing notification would be missed."""
    kind: Literal["notice"] = "notice"


@dataclass(frozen=True)
class TurnStats:
    """Figures for the status bar."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens_per_second: float | None = None
    context_used: int = 0
    num_ctx: int = 0
    duration_s: float = 0.0
    load_duration_s: float | None = None
    done_reason: str | None = None
    tool_rounds: int = 0


@dataclass(frozen=True)
class TurnFinished:
    """The turn ended normally (possibly at the tool-round limit)."""

    stats: TurnStats = field(default_factory=TurnStats)
    stopped_reason: StopReason = "done"
    kind: Literal["turn_finished"] = "turn_finished"


@dataclass(frozen=True)
class TurnFailed:
    """The turn could not finish; the user's message is kept in the transcript and memory."""

    error: str
    """Machine-readable kind: server_unavailable, model_not_found, timeout, stream_cut …"""
    message: str
    """What a person can do about it."""
    kind: Literal["turn_failed"] = "turn_failed"


TurnEvent = (
    MemoryRecalled
    | MemorySaved
    | MemoryForgotten
    | TextDelta
    | ReplyTrimmed
    | ThinkingDelta
    | ToolCallStarted
    | ToolCallFinished
    | Notice
    | TurnFinished
    | TurnFailed
)
