"""The state of one turn's exchange with the model, kept in one place.

`Agent._converse` moves it through small steps (a model round, a tool round, the forced
final answer); if the turn is cancelled or fails half-way, what it holds is what is saved.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Literal

from agent.events import Notice, ReplyTrimmed, StopReason, TextDelta, ThinkingDelta, TurnEvent
from agent.messages import ChatMessage, ToolCall, ToolSpec
from agent.model import ChatModel, ChatOptions, ChunkStats
from agent.repetition import LoopGuard
from agent.sessions import Session
from agent.tools import ToolResult
from memory.entry import MemoryEntry

ToolMode = Literal["native", "structured", "off"]
"""How a turn offers tools: the server's tool calling, JSON replies, or not at all."""

TOOL_LIMIT_INSTRUCTION = (
    "You have used every tool call this message allows. Do not call tools now: answer the "
    "user's last message from what the tool results above give you, and say what you could "
    "not finish."
)


@dataclass
class ModelRound:
    """What one model call produced so far (kept if the turn is cancelled mid-stream)."""

    text: list[str] = field(default_factory=list)
    thinking: list[str] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    stats: ChunkStats | None = None
    looped: bool = False
    """The stream was stopped because the reply kept repeating itself."""
    model: str | None = None
    """The model answering."""

    @property
    def said_anything(self) -> bool:
        """Whether any text or thinking arrived."""
        return bool(self.text or self.thinking)

    def message(self, stopped: bool = False) -> ChatMessage:
        """The assistant message this round adds to the conversation."""
        return ChatMessage(
            role="assistant",
            content="".join(self.text),
            thinking="".join(self.thinking),
            tool_calls=self.calls,
            stopped=stopped,
            model=self.model,
        )


@dataclass
class Exchange:
    """One turn's conversation with the model: the request and everything added to it."""

    request: list[ChatMessage] = field(default_factory=list)
    """System prompt, trimmed history and the user's message (with recalled memories)."""
    tools: list[ToolSpec] = field(default_factory=list)
    """The tools offered; empty once the server refused them."""
    mode: ToolMode = "native"
    """How the tools are offered (structured: in the prompt, with a JSON schema reply)."""
    produced: list[ChatMessage] = field(default_factory=list)
    """The assistant and tool messages of this turn, in order."""
    current: ModelRound = field(default_factory=ModelRound)
    tool_rounds: int = 0
    results: dict[str, ToolResult] = field(default_factory=dict)
    """Results by call signature: a repeated call is answered again, not run again."""
    reason: StopReason = "done"
    done: bool = False
    """The model has answered (or the turn stopped it); no further round."""
    finished: bool = False
    """The exchange ended normally; `current` is already in `produced`."""
    failed_by_model: bool = False
    """The model call failed (a `ModelError`): what streamed was cut off, not stopped."""
    notices: list[Notice] = field(default_factory=list)
    """Said before the next model call (a request larger than the context)."""

    def messages(self) -> list[ChatMessage]:
        """What the next model call is sent."""
        return [*self.request, *self.produced]

    def new_round(self, model: str | None = None) -> ModelRound:
        """Start the next model call (to `model`, recorded with what it says)."""
        self.current = ModelRound(model=model)
        return self.current

    def close_round(self) -> None:
        """Add the finished round's message (marked stopped when it went round in a loop)."""
        self.produced.append(self.current.message(stopped=self.current.looped))

    def keep_partial(self) -> None:
        """After a cancel or a failure mid-stream: keep what streamed, marked stopped.

        A reply cut off by a failure is marked failed too (`failed_by_model`).
        """
        if not self.finished and self.current.said_anything:
            message = self.current.message(stopped=True)
            if self.failed_by_model:
                message = message.model_copy(update={"failed": True})
            self.produced.append(message)

    def told_to_answer(self) -> list[ChatMessage]:
        """The request for the answer after the last tool round, telling the model to answer.

        The instruction joins the first system message, not a new one after the tool
        results: several chat templates refuse a system message anywhere but first.
        """
        system, *rest = self.messages()
        told = system.model_copy(
            update={"content": f"{system.content}\n\n{TOOL_LIMIT_INSTRUCTION}"}
        )
        return [told, *rest]

    def reply_text(self) -> str:
        """Everything the assistant said this turn."""
        return "".join(m.content for m in self.produced if m.role == "assistant")


def last_user_index(messages: list[ChatMessage]) -> int:
    """Where the last user message is (-1 when there is none)."""
    return max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)


@dataclass(frozen=True)
class RoundOptions:
    """How every model call of a turn is made."""

    chat: ChatOptions
    stop_looping_replies: bool = True


async def stream_round(
    model: ChatModel,
    messages: list[ChatMessage],
    tools: list[ToolSpec],
    options: RoundOptions,
    current: ModelRound,
) -> AsyncGenerator[TurnEvent, None]:
    """One model call into `current`; stops it when the reply goes round in a loop."""
    guard = LoopGuard()
    chunks = model.chat(messages, tools=tools, options=options.chat)
    try:
        async for chunk in chunks:
            if chunk.thinking:
                current.thinking.append(chunk.thinking)
                yield ThinkingDelta(chunk.thinking)
            if chunk.text:
                current.text.append(chunk.text)
                yield TextDelta(chunk.text)
                cut = guard.feed(current.text) if options.stop_looping_replies else None
                if cut is not None:
                    current.text = ["".join(current.text)[:cut]]
                    current.looped = True
                    yield ReplyTrimmed(current.text[0])
                    return
            current.calls.extend(chunk.tool_calls)
            current.stats = chunk.stats or current.stats
    finally:
        # Stopping early must end the HTTP stream now, not when it is collected.
        close = getattr(chunks, "aclose", None)
        if close is not None:
            await close()


def stored_keys(messages: list[ChatMessage], *, asked: bool = False) -> list[str]:
    """Keys that memory_store calls among `messages` stored (their result was no error).

    The key its result names: a fact merged into a near-duplicate is kept under that one's
    key, and an edit's notice named the key asked for, which holds nothing. `asked`: the
    keys asked for too.
    """
    failed = {m.tool_call_id for m in messages if m.role == "tool" and m.error}
    results = {m.tool_call_id: m.content for m in messages if m.role == "tool" and not m.error}
    keys = []
    for message in messages:
        for call in message.tool_calls:
            key = call.arguments.get("key") if isinstance(call.arguments, dict) else None
            if call.name != "memory_store" or call.id in failed or not isinstance(key, str):
                continue
            stored = key_stored(results.get(call.id, ""))
            keys += [key, stored or key] if asked else [stored or key]
    return list(dict.fromkeys(keys))


def key_stored(result: str) -> str | None:
    """The key a memory_store result says it stored under, if it says one."""
    try:
        said = json.loads(result)
    except ValueError:
        return None
    stored = said.get("stored") if isinstance(said, dict) else None
    key = stored.get("key") if isinstance(stored, dict) else None
    return key if isinstance(key, str) else None


@dataclass
class PendingEdit:
    """An edit nothing has answered yet: enough to put the replaced turn back."""

    session: Session
    index: int
    """Where the replaced message was in the conversation."""
    cut: list[ChatMessage]
    """The replaced message and everything after it."""
    superseded_copy: str | None = None
    """The replaced message's auto-saved memory, superseded by the new message's."""
    withdrawn_copy: MemoryEntry | None = None
    """The replaced message's auto-saved memory, forgotten: the new message made none."""
    undone_changes: list[MemoryEntry] = field(default_factory=list)
    """The facts the replaced message had updated, now history (`agent.edited_changes`)."""
