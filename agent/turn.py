"""`Agent.turn`: everything between the user pressing Enter and the reply."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from datetime import datetime

from agent.autosave import conversation_key, should_autosave
from agent.commands import MemoryCommand, parse_command
from agent.config import Config
from agent.consolidation import SCHEMA, consolidate
from agent.events import (
    MemoryRecalled,
    MemorySaved,
    Notice,
    ReplyTrimmed,
    StopReason,
    TextDelta,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnEvent,
    TurnFailed,
    TurnFinished,
    TurnStats,
)
from agent.failures import storage_failure, unexpected_failure
from agent.history import estimate_tokens, join_user_runs, trim_history, unanswered
from agent.injection import InjectionBudget, render, select
from agent.messages import ChatMessage, ToolCall, ToolSpec
from agent.model import ChatModel, ChatOptions, ChunkStats, ModelError, ToolsUnsupportedError
from agent.prompts import system_prompt
from agent.redact import redact
from agent.repetition import LoopGuard
from agent.sessions import Session, SessionStore
from agent.tools import WRITING_TOOLS, MemoryTools, ToolError
from memory.entry import MemoryEntry, RecallResult, utc_now
from memory.errors import MemoryStoreError, StorageFullError
from memory.procedures import ProcedureStep
from memory.protocol import Memory


@dataclass
class _Round:
    """What one model call produced so far (kept if the turn is cancelled mid-stream)."""

    text: list[str] = field(default_factory=list)
    thinking: list[str] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    stats: ChunkStats | None = None
    looped: bool = False
    """The stream was stopped because the reply kept repeating itself."""

    def message(self, stopped: bool = False) -> ChatMessage:
        return ChatMessage(
            role="assistant",
            content="".join(self.text),
            thinking="".join(self.thinking),
            tool_calls=self.calls,
            stopped=stopped,
        )


TOOL_LIMIT_INSTRUCTION = (
    "You have used every tool call this message allows. Do not call tools now: answer the "
    "user's last message from what the tool results above give you, and say what you could "
    "not finish."
)


def _without_tools(messages: list[ChatMessage]) -> list[ChatMessage]:
    """The request for the answer after the last tool round, telling the model to answer.

    The instruction joins the first system message, not a new one after the tool results:
    several chat templates refuse a system message anywhere but first.
    """
    system, *rest = messages
    told = system.model_copy(update={"content": f"{system.content}\n\n{TOOL_LIMIT_INSTRUCTION}"})
    return [told, *rest]


def _last_user_index(messages: list[ChatMessage]) -> int:
    return max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)


class Agent:
    """Runs turns against one model and one memory store."""

    def __init__(
        self,
        model: ChatModel,
        memory: Memory,
        config: Config,
        sessions: SessionStore,
        clock: Callable[[], datetime] = utc_now,
        namespace: str = "default",
    ) -> None:
        self.model = model
        self.memory = memory
        self.config = config
        self.sessions = sessions
        self.clock = clock
        self.namespace = namespace
        """Where this agent's memories live (the demo uses a throwaway one)."""
        self.tools = MemoryTools(memory, namespace)
        self._described = False
        self._context_length: int | None = None
        self._tools_refused = False
        """The server refused this model's tools: later turns go without them. Kept here,
        not set on the model, which the app shares (model picker, status bar)."""
        self._background: set[asyncio.Task[list[MemoryEntry]]] = set()
        self.consolidated: list[MemoryEntry] = []
        """Entries stored by consolidation since the agent started (for the UI)."""

    def use_model(self, model: ChatModel) -> None:
        """Talk to another model from the next turn on."""
        self.model = model
        self._described = False
        self._context_length = None
        self._tools_refused = False

    @property
    def num_ctx(self) -> int:
        """The context window requests use (the model's own limit if it is smaller)."""
        configured = self.config.ollama.num_ctx
        return min(configured, self._context_length) if self._context_length else configured

    def _options(self) -> ChatOptions:
        ollama = self.config.ollama
        return ChatOptions(
            num_ctx=self.num_ctx,
            temperature=ollama.temperature,
            seed=None if ollama.seed < 0 else ollama.seed,
            keep_alive=ollama.keep_alive,
            think=ollama.think,
            max_tokens=ollama.max_reply_tokens or None,
        )

    @staticmethod
    def is_retry(user_text: str, session: Session) -> bool:
        """Whether `user_text` is the last message sent again after nothing answered it.

        After a dead server or a stopped reply, the turn answers that message instead of
        storing a second copy, and the chat keeps its one bubble.
        """
        return parse_command(user_text) is None and unanswered(session.messages) == user_text

    async def turn(
        self, user_text: str, session: Session, *, resend: bool = False
    ) -> AsyncGenerator[TurnEvent, None]:
        """Handle one user message; yields events and never raises past `TurnFailed`.

        With `resend`, `user_text` is the session's last user message, answered again
        (regenerate, or retry after an error): it is not stored or auto-saved a second
        time, and the replies after it are left out of the request.

        Whatever goes wrong (a full disk, a failing store, a bug) ends the turn with
        `TurnFailed`; what was said so far stays in the session. Only cancellation passes.
        """
        closing = False
        try:
            async with contextlib.aclosing(self._turn(user_text, session, resend)) as events:
                async for event in events:
                    try:
                        yield event
                    except GeneratorExit:
                        closing = True
                        raise
        except Exception as exc:
            if closing:
                # Our consumer stopped listening and cleaning up failed: nobody is left
                # to tell, and raising here would reach whoever closed the stream.
                return
            yield unexpected_failure(exc)

    async def _turn(
        self, user_text: str, session: Session, resend: bool
    ) -> AsyncGenerator[TurnEvent, None]:
        command = parse_command(user_text)
        if command is not None and not resend:
            async for event in self._command(command, session):
                yield event
            return
        started = time.monotonic()
        resend = resend or self.is_retry(user_text, session)
        if resend:
            history = list(session.messages[: max(_last_user_index(session.messages), 0)])
            saved: MemoryEntry | Notice | None = None
        else:
            history = list(session.messages)
            outcome = await self._autosave(user_text, session)
            if isinstance(outcome, TurnFailed):
                yield outcome
                return
            saved = outcome
            # The message is on disk before the model is asked: a dead model loses nothing.
            try:
                await self.sessions.save(session, [ChatMessage(role="user", content=user_text)])
            except OSError as exc:
                # Kept in the session (and written later), but not sent: sending it again
                # retries it, and the reply could not be saved either.
                yield storage_failure(exc, "your message", sent=False)
                return
        if isinstance(saved, Notice):
            yield saved
        elif saved is not None:
            yield MemorySaved(saved)
        recalled = await self._recall(user_text, session, saved, resend)
        yield recalled[0]
        # aclosing: if our consumer stops early, the inner loop's cleanup (which keeps the
        # partial reply) runs now, not whenever the garbage collector gets to it.
        conversation = self._converse(user_text, session, history, recalled[1], started)
        async with contextlib.aclosing(conversation) as events:
            async for event in events:
                yield event

    async def _autosave(
        self, text: str, session: Session
    ) -> MemoryEntry | Notice | TurnFailed | None:
        settings = self.config
        if session.incognito or not settings.memory.auto_save:
            return None
        if not should_autosave(text, settings.agent.min_autosave_chars):
            return None
        clean, _kinds = redact(text)
        try:
            return await self.memory.store_with_metadata(
                conversation_key(session.id),
                clean,
                "conversation",
                session.id,
                namespace=self.namespace,
                source="autosave",
            )
        except StorageFullError as exc:
            return TurnFailed(
                "storage_full",
                f"{exc}. Your message was not sent; free some "
                "space (or forget old memories) and send it again.",
            )
        except MemoryStoreError as exc:
            return Notice(f"This message was not saved to memory: {exc}", "warning")

    async def _recall(
        self, text: str, session: Session, saved: MemoryEntry | Notice | None, resend: bool
    ) -> tuple[MemoryRecalled, str]:
        exclude = [saved.id] if isinstance(saved, MemoryEntry) and saved.id else []
        scope = None if self.config.agent.recall_across_sessions else session.id
        try:
            result = await self.memory.recall(
                text,
                self.config.memory.recall_limit,
                scope,
                exclude_ids=exclude,
                namespace=self.namespace,
            )
        except MemoryStoreError as exc:
            result = RecallResult(entries=[], mode="off", degraded=f"recall failed: {exc}")
        agent = self.config.agent
        budget = InjectionBudget(
            agent.inject_max_entries, agent.inject_max_entry_chars, agent.inject_max_total_chars
        )
        answering = _last_user_index(session.messages)
        # A message answered again has no fresh copy to exclude by id; its saved copy is
        # cut as "already in conversation" instead.
        live = [m for i, m in enumerate(session.messages) if resend or i != answering]
        injected, cut = select(result, budget, session.id, live)
        block = render(injected, self.clock(), budget)
        recalled = MemoryRecalled(injected, cut, result.mode, result.degraded, result.calibration)
        return recalled, block

    async def _describe(self) -> None:
        if not self._described:
            info = await self.model.describe()
            self._context_length = info.context_length
            self._described = True

    def _request(
        self, session_history: list[ChatMessage], user_text: str, block: str, tools: bool
    ) -> list[ChatMessage]:
        system = ChatMessage(
            role="system", content=system_prompt(self.config.agent.system_prompt, tools)
        )
        user = ChatMessage(role="user", content=f"{block}\n\n{user_text}" if block else user_text)
        reserve = min(self.num_ctx // 4, 2048) + (600 if tools else 0)
        room = self.num_ctx - reserve - estimate_tokens([system, user])
        history = trim_history(session_history, self.config.agent.max_history_messages, room)
        return [system, *join_user_runs([*history, user])]

    async def _converse(  # noqa: C901 - the turn loop reads best in one place
        self,
        user_text: str,
        session: Session,
        history: list[ChatMessage],
        block: str,
        started: float,
    ) -> AsyncGenerator[TurnEvent, None]:
        produced: list[ChatMessage] = []
        current = _Round()
        finished = False
        unsaved: OSError | None = None
        rounds = 0
        reason: StopReason = "done"
        try:
            await self._describe()
            offered = self.model.supports_tools and not self._tools_refused
            tools: list[ToolSpec] = self.tools.specs() if offered else []
            request = self._request(history, user_text, block, bool(tools))
            seen: dict[str, tuple[str, bool]] = {}
            while True:
                current = _Round()
                try:
                    async with contextlib.aclosing(
                        self._stream([*request, *produced], tools, current)
                    ) as stream:
                        async for event in stream:
                            yield event
                except ToolsUnsupportedError as refusal:
                    if not tools or current.text:
                        raise
                    self._tools_refused = True
                    tools = []
                    request = self._request(history, user_text, block, False)
                    yield Notice(
                        f"{self.model.name} cannot use tools here ({refusal}), so it cannot "
                        "store memories itself; use /remember, /recall and /forget."
                    )
                    continue
                produced.append(current.message(stopped=current.looped))
                if current.looped:
                    reason = "repetition"
                    yield Notice(
                        "The reply was stopped: the model kept repeating itself. "
                        "Regenerate, or ask differently.",
                        "warning",
                        about_reply=True,
                    )
                    break
                if not current.calls:
                    break
                rounds += 1
                async with contextlib.aclosing(
                    self._run_calls(current.calls, seen, produced, session.incognito)
                ) as tool_events:
                    async for event in tool_events:
                        yield event
                if rounds >= self.config.agent.max_tool_iterations:
                    reason = "tool_limit"
                    yield Notice(
                        f"The model used all {rounds} rounds of tool calls "
                        "(agent.max_tool_iterations), so it was asked to answer without tools.",
                        "warning",
                        about_reply=True,
                    )
                    current = _Round()
                    final = _without_tools([*request, *produced])
                    async with contextlib.aclosing(self._stream(final, [], current)) as stream:
                        async for event in stream:
                            yield event
                    # Calls it still makes have no round left to run in; kept, they would
                    # stand unanswered in the history the next turn sends.
                    current.calls = []
                    produced.append(current.message(stopped=current.looped))
                    if not current.text:
                        yield Notice(
                            "The model gave no answer after its tool calls.",
                            "warning",
                            about_reply=True,
                        )
                    break
            finished = True
        except ModelError as exc:
            yield TurnFailed(exc.code, str(exc))
            return
        finally:
            if not finished and (current.text or current.thinking):
                produced.append(current.message(stopped=True))
            # Never raise from here: this also runs while the turn is being cancelled.
            try:
                await self.sessions.save(session, produced)
            except OSError as exc:
                unsaved = exc
        if unsaved is not None:
            yield storage_failure(unsaved, "the reply")
            return
        procedure = await self._remember_procedure(user_text, produced, session)
        if procedure is not None:
            yield MemorySaved(procedure)
        reply = "".join(m.content for m in produced if m.role == "assistant")
        self._consolidate_later(user_text, reply, session)
        stats = self._stats(current.stats, rounds, started)
        if stats.done_reason == "length":
            reason = "length"
            yield Notice("The reply stopped at the length limit.", "warning", about_reply=True)
        yield TurnFinished(stats, reason)

    async def _stream(
        self, messages: list[ChatMessage], tools: list[ToolSpec], current: _Round
    ) -> AsyncGenerator[TurnEvent, None]:
        """One model call into `current`; stops it when the reply goes round in a loop."""
        guard = LoopGuard()
        watch_loops = self.config.agent.stop_looping_replies
        chunks = self.model.chat(messages, tools=tools, options=self._options())
        try:
            async for chunk in chunks:
                if chunk.thinking:
                    current.thinking.append(chunk.thinking)
                    yield ThinkingDelta(chunk.thinking)
                if chunk.text:
                    current.text.append(chunk.text)
                    yield TextDelta(chunk.text)
                    cut = guard.feed(current.text) if watch_loops else None
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

    async def _run_calls(
        self,
        calls: list[ToolCall],
        seen: dict[str, tuple[str, bool]],
        produced: list[ChatMessage],
        read_only: bool,
    ) -> AsyncGenerator[TurnEvent, None]:
        for call in calls:
            yield ToolCallStarted(call.id, call.name, call.arguments)
            signature = call.name + json.dumps(call.arguments, sort_keys=True, default=str)
            repeated = signature in seen
            if repeated:
                result, error = seen[signature]
            else:
                stored_before = len(self.tools.stored)
                try:
                    result, error = await self.tools.run(call, read_only=read_only), False
                except ToolError as exc:
                    result, error = json.dumps({"error": str(exc)}), True
                seen[signature] = (result, error)
                for entry in self.tools.stored[stored_before:]:
                    yield MemorySaved(entry)
            yield ToolCallFinished(call.id, call.name, result, error, repeated)
            produced.append(
                ChatMessage(
                    role="tool",
                    content=result,
                    tool_name=call.name,
                    tool_call_id=call.id,
                    error=error,
                )
            )

    async def _remember_procedure(
        self, user_text: str, produced: list[ChatMessage], session: Session
    ) -> MemoryEntry | None:
        """After tool calls that all succeeded, remember how the request was handled."""
        store = getattr(self.memory, "store_procedural", None)
        calls = [call for m in produced if m.role == "assistant" for call in m.tool_calls]
        results = [m for m in produced if m.role == "tool"]
        if (
            store is None
            or not calls
            or session.incognito
            or not self.config.memory.procedural_memory
            or any(r.error for r in results)
        ):
            return None
        steps = [
            ProcedureStep(c.name, c.arguments if isinstance(c.arguments, dict) else {})
            for c in calls
        ]
        try:
            entry: MemoryEntry | None = await store(
                redact(user_text)[0], steps, session.id, self.namespace
            )
        except MemoryStoreError:
            return None
        return entry

    def _consolidate_later(self, user_text: str, reply: str, session: Session) -> None:
        """Start consolidation in the background: the reply is never kept waiting for it."""
        if not self.config.memory.consolidation or session.incognito or not reply.strip():
            return
        options = ChatOptions(
            num_ctx=self.num_ctx,
            temperature=0.0,
            keep_alive=self.config.ollama.keep_alive,
            format=SCHEMA,
        )
        task = asyncio.create_task(
            consolidate(
                self.model, self.memory, user_text, reply, self.clock(), options, self.namespace
            )
        )
        self._background.add(task)
        task.add_done_callback(self._finished_background)

    def _finished_background(self, task: asyncio.Task[list[MemoryEntry]]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is None:
            self.consolidated.extend(task.result())

    async def drain(self) -> None:
        """Wait for background work (consolidation) to finish."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    def _stats(self, last: ChunkStats | None, rounds: int, started: float) -> TurnStats:
        last = last or ChunkStats()
        speed = (
            last.completion_tokens / last.eval_seconds
            if last.eval_seconds and last.completion_tokens
            else None
        )
        return TurnStats(
            prompt_tokens=last.prompt_tokens,
            completion_tokens=last.completion_tokens,
            tokens_per_second=speed,
            context_used=last.prompt_tokens + last.completion_tokens,
            num_ctx=self.num_ctx,
            duration_s=time.monotonic() - started,
            load_duration_s=last.load_seconds,
            done_reason=last.done_reason,
            tool_rounds=rounds,
        )

    async def _command(
        self, command: MemoryCommand | str, session: Session
    ) -> AsyncGenerator[TurnEvent, None]:
        if isinstance(command, str):
            yield Notice(command, "warning")
            yield TurnFinished(stopped_reason="command")
            return
        if session.incognito and command.call.name in WRITING_TOOLS:
            yield Notice(
                f"Incognito: memory is read-only, so {command.name} changed nothing. "
                "Turn incognito off (F4) to remember or forget.",
                "warning",
            )
            yield TurnFinished(stopped_reason="command")
            return
        seen: dict[str, tuple[str, bool]] = {}
        async for event in self._run_calls([command.call], seen, [], False):
            yield event
        yield TurnFinished(stopped_reason="command")
