"""`Agent.turn`: everything between the user pressing Enter and the reply."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, Callable
from datetime import datetime

from agent.after_turn import (
    BackgroundConsolidation,
    fold_the_message_remembered,
    remember_procedure,
    turn_stats,
)
from agent.chat_recall import asked
from agent.commands import MemoryCommand, parse_command, parse_in_chat
from agent.config import Config
from agent.consolidation import SCHEMA, consolidate
from agent.events import (
    MemorySaved,
    Notice,
    ToolCallFinished,
    TurnEvent,
    TurnFailed,
    TurnFinished,
)
from agent.failures import storage_failure, unexpected_failure
from agent.history import (
    estimate_tokens,
    join_user_runs,
    over_the_context,
    trim_history,
    unanswered,
)
from agent.kept_messages import MessageKeeper, Saved
from agent.message_facts import MessageFacts
from agent.messages import ChatMessage
from agent.model import ChatModel, ChatOptions, ModelError, ToolsUnsupportedError
from agent.prompts import system_prompt
from agent.recall_notes import recall_note
from agent.sessions import REWRITTEN_ELSEWHERE, Session, SessionStore
from agent.structured_tools import StructuredToolModel
from agent.tool_calls import run_calls, run_command
from agent.tools import MemoryTools
from agent.turn_recall import RecallSetting, recall_for_turn
from agent.turn_state import (
    Exchange,
    RoundOptions,
    ToolMode,
    last_user_index,
    stored_keys,
    stream_round,
)
from memory.date_term_names import local_time
from memory.entry import MemoryEntry, utc_now
from memory.protocol import Memory


def local_now() -> datetime:
    """Now, in this machine's time zone: the one the memory's dates are read in.

    Found by an adversary in Auckland: the model was told "Current time: … 22:13 UTC",
    a day behind the "tomorrow" recall had read from the local date.
    """
    return local_time(utc_now())


class Agent:
    """Runs turns against one model and one memory store."""

    def __init__(
        self,
        model: ChatModel,
        memory: Memory,
        config: Config,
        sessions: SessionStore,
        clock: Callable[[], datetime] = local_now,
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
        self.keeper = MessageKeeper(memory, sessions, namespace)
        self._stopped_before_changes: tuple[MemoryEntry, Session, list[MemoryEntry]] | None = None
        """A stopped turn's saved message, its chat and the facts stored: `changes_after_stop`."""
        self._tools_refused = False
        """The server refused this model's tools: later turns go without them. Kept here,
        not set on the model, which the app shares (model picker, status bar)."""
        self.background = BackgroundConsolidation()

    def use_model(self, model: ChatModel) -> None:
        """Talk to another model from the next turn on."""
        self.model = model
        self._described = False
        self._context_length = None
        self._tools_refused = False

    @property
    def tool_mode(self) -> ToolMode:
        """How this model's tool calls go now: native, structured or off.

        `auto` is native while the model has it (Ollama's capabilities say so, and the
        server has not refused), else structured; `native` never falls back.
        """
        wanted = self.config.model.tool_mode
        if wanted in ("off", "structured"):
            return wanted
        native = self.model.supports_tools and not self._tools_refused
        if native:
            return "native"
        return "structured" if wanted == "auto" else "off"

    def _chat_model(self, exchange: Exchange) -> ChatModel:
        return StructuredToolModel(self.model) if exchange.mode == "structured" else self.model

    @property
    def num_ctx(self) -> int:
        """The context window requests use (the model's own limit if it is smaller)."""
        configured = self.config.generation.num_ctx
        return min(configured, self._context_length) if self._context_length else configured

    @property
    def facts(self) -> MessageFacts:
        """What a saved message does to the facts, with the settings in force now."""
        return MessageFacts(self.memory, self.sessions, self.config, self.namespace)

    @property
    def consolidated(self) -> list[MemoryEntry]:
        """Entries stored by consolidation since the agent started (for the UI)."""
        return self.background.consolidated

    async def drain(self) -> None:
        """Wait for background work (consolidation) to finish."""
        await self.background.drain()

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
        self.background.start(
            consolidate(
                self.model, self.memory, user_text, reply, self.clock(), options, self.namespace
            )
        )

    def _round_options(self) -> RoundOptions:
        return RoundOptions(self._options(), self.config.agent.stop_looping_replies)

    def _options(self) -> ChatOptions:
        generation = self.config.generation
        return ChatOptions(
            num_ctx=self.num_ctx,
            temperature=generation.temperature,
            seed=None if generation.seed < 0 else generation.seed,
            keep_alive=self.config.ollama.keep_alive,
            think=generation.think,
            max_tokens=generation.max_reply_tokens or None,
        )

    @staticmethod
    def is_retry(user_text: str, session: Session) -> bool:
        """Whether `user_text` is the last message sent again after nothing answered it.

        After a dead server or a stopped reply, the turn answers that message instead of
        storing a second copy, and the chat keeps its one bubble.
        """
        return parse_command(user_text) is None and unanswered(session.messages) == user_text

    async def turn(
        self, user_text: str, session: Session, *, resend: bool = False, edit: bool = False
    ) -> AsyncGenerator[TurnEvent, None]:
        """Handle one user message; yields events and never raises past `TurnFailed`.

        With `resend`, `user_text` is the session's last user message, answered again
        (regenerate, or retry after an error): it is not stored or auto-saved a second
        time, and the replies after it are left out of the request.

        With `edit`, `user_text` replaces the session's last user message: that message and
        everything after it leave the conversation (the session file keeps them as history)
        and its auto-saved memory is superseded by the new one's.

        Whatever goes wrong (a full disk, a failing store, a bug) ends the turn with
        `TurnFailed`; what was said so far stays in the session. Only cancellation passes.
        """
        closing = False
        try:
            turn = self._turn(user_text, session, resend, edit)
            async with contextlib.aclosing(turn) as events:
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
        self, user_text: str, session: Session, resend: bool, edit: bool
    ) -> AsyncGenerator[TurnEvent, None]:
        edited: list[str] = []
        self.keeper.pending_edit = None
        self.tools.corrected_keys = frozenset()
        # Continue asks what the stopped reply was asked (a new user saw its door code,
        # shown before Esc, redacted after Continue).
        self.tools.asked = asked(user_text, session)
        with contextlib.suppress(OSError):
            if await asyncio.to_thread(self.sessions.follow_rewrite, session):
                yield Notice(REWRITTEN_ELSEWHERE, "warning")
        if edit:
            async for event in self._take_back_last(session, edited):
                yield event
                if isinstance(event, TurnFailed):
                    return
        command = parse_in_chat(user_text, session.messages)
        if command is not None and not resend:
            async for event in self._edited_into_command(command, session, user_text, edited):
                yield event
            return
        started = time.monotonic()
        resend = not edit and (resend or self.is_retry(user_text, session))
        if resend:
            history = list(session.messages[: max(last_user_index(session.messages), 0)])
            saved: MemoryEntry | Notice | None = None
        else:
            history = list(session.messages)
            kept: list[Saved] = []
            keeping = self.keeper.keep(user_text, session, self.config, edited, kept)
            async for failure in keeping:
                yield failure
                return
            saved = kept[0]
            self.keeper.note_made(saved)
        if isinstance(saved, Notice):
            yield saved
        elif saved is not None:
            yield MemorySaved(saved)
        setting = RecallSetting(
            self.memory, self.config, self.namespace, self.clock(), self.num_ctx
        )
        recalled = await recall_for_turn(setting, user_text, session, saved, resend)
        yield recalled[0]
        self.sessions.note_recall(session, recall_note(recalled[0]))
        # aclosing: if our consumer stops early, the inner loop's cleanup (which keeps the
        # partial reply) runs now, not whenever the garbage collector gets to it.
        copy = saved if isinstance(saved, MemoryEntry) else None
        answered = last_user_index(session.messages) + 1 if resend else None
        replaces = answered if answered and answered < len(session.messages) else None
        conversation = self._converse(
            user_text, session, history, recalled[1], started, copy, replaces
        )
        async with contextlib.aclosing(conversation) as events:
            async for event in events:
                yield event

    async def _take_back_last(
        self, session: Session, edited: list[str]
    ) -> AsyncGenerator[TurnEvent, None]:
        """The keeper's take-back of the last message.

        What this turn stores under a key the replaced turn stored corrects it
        (`MemoryTools.corrected_keys`).
        """
        async for event in self.keeper.take_back_last(session, edited):
            yield event
        if self.keeper.pending_edit is not None:
            self.tools.corrected_keys = frozenset(
                stored_keys(self.keeper.pending_edit.cut, asked=True)
            )

    async def _edited_into_command(
        self, command: MemoryCommand | str, session: Session, user_text: str, edited: list[str]
    ) -> AsyncGenerator[TurnEvent, None]:
        """Run a command; one typed as an edit takes the replaced message out of memory."""
        await self.keeper.withdraw_edited(edited, session)
        async for event in run_command(self.tools, self.sessions, command, session, user_text):
            yield event
            if isinstance(event, ToolCallFinished) and event.name == "memory_store":
                folded = await fold_the_message_remembered(
                    self.memory, event.result, session_id=session.id, namespace=self.namespace
                )
                if folded is not None:
                    yield MemorySaved(folded)  # what the inspector shows changed

    def _note_if_stopped(
        self, exchange: Exchange, saved: MemoryEntry | None, session: Session
    ) -> None:
        """Keep for `changes_after_stop` what a turn stopped before its changes left."""
        stopped = not (exchange.finished or exchange.failed_by_model)
        if stopped and saved is not None and not session.incognito:
            stored = [result.stored for result in exchange.results.values() if result.stored]
            self._stopped_before_changes = (saved, session, stored)

    async def changes_after_stop(self, session: Session) -> AsyncGenerator[TurnEvent, None]:
        """What a turn stopped with its reply kept (Esc) had still to do.

        The facts the message changes, or the message folded into those the model stored.
        Found by an adversary: "I've been hired by Aldi", stopped during the reply, left
        the old employer in effect, only marked changed since; unstopped, it updated it.
        """
        pending, self._stopped_before_changes = self._stopped_before_changes, None
        if pending is None or pending[1] is not session:
            return
        saved, _, facts = pending
        async for event in self.facts.of_the_message(saved, facts, session):
            yield event

    async def undo_edit(self, session: Session) -> bool:
        """See `MessageKeeper.undo_edit`."""
        return await self.keeper.undo_edit(session)

    async def withdraw_unanswered(self, user_text: str, session: Session) -> bool:
        """See `MessageKeeper.withdraw_unanswered`."""
        return await self.keeper.withdraw_unanswered(user_text, session)

    async def _describe(self) -> None:
        if not self._described:
            info = await self.model.describe()
            self._context_length = info.context_length
            self._described = True

    def _request(
        self, session_history: list[ChatMessage], user_text: str, block: str, tools: bool
    ) -> list[ChatMessage]:
        today = self.clock().date()
        system = ChatMessage(
            role="system", content=system_prompt(self.config.agent.system_prompt, tools, today)
        )
        user = ChatMessage(role="user", content=f"{block}\n\n{user_text}" if block else user_text)
        reserve = min(self.num_ctx // 4, 2048) + (600 if tools else 0)
        room = self.num_ctx - reserve - estimate_tokens([system, user])
        history = trim_history(session_history, self.config.agent.max_history_messages, room)
        return [system, *join_user_runs([*history, user])]

    async def _converse(
        self,
        user_text: str,
        session: Session,
        history: list[ChatMessage],
        block: str,
        started: float,
        saved: MemoryEntry | None = None,
        replaces: int | None = None,
    ) -> AsyncGenerator[TurnEvent, None]:
        """The model rounds of one turn, then saving what they produced.

        `saved`: the message's auto-saved memory, folded into the facts stored from it.
        `replaces`: a regenerated reply replaces the replies from this position on, once
        it has something to say (found by a new user: each Regenerate stacked another
        answer under the question, and a reopened chat showed them all).
        """
        exchange = Exchange()
        try:
            await self._start(exchange, history, user_text, block)
            while not exchange.done:
                async for event in self._model_round(exchange, history, user_text, block):
                    yield event
                if exchange.done or not exchange.current.calls:
                    continue
                async for event in self._tool_round(exchange, session.incognito):
                    yield event
            exchange.finished = True
        except ModelError as exc:
            exchange.failed_by_model = True
            yield TurnFailed(exc.code, str(exc))
            return
        finally:
            exchange.keep_partial()
            self._note_if_stopped(exchange, saved, session)
            # Never raise from here: this also runs while the turn is being cancelled.
            unsaved = await self._keep_reply(session, exchange, replaces)
        self._stopped_before_changes = None
        if unsaved is not None:
            yield storage_failure(unsaved, "the reply")
            return
        facts = [result.stored for result in exchange.results.values() if result.stored]
        if not session.incognito:
            async for event in self.facts.of_the_message(saved, facts, session):
                yield event
        async for event in self._after_reply(exchange, user_text, session, started):
            yield event

    async def _keep_reply(
        self, session: Session, exchange: Exchange, replaces: int | None
    ) -> OSError | None:
        """Save what the turn produced (after the replies it replaces); the error, if any."""
        try:
            if replaces is not None and exchange.produced and not exchange.failed_by_model:
                # The file keeps the replaced replies as history (a rewind record). A
                # regenerated reply the server cut off stands beside the one it was to
                # replace: a fragment took the place of a longer reply (an adversary).
                await self.sessions.take_back(session, replaces)
            await self.sessions.save(session, exchange.produced)
        except OSError as exc:
            return exc
        if exchange.produced:
            self.keeper.answered()
        return None

    async def _start(
        self, exchange: Exchange, history: list[ChatMessage], user_text: str, block: str
    ) -> None:
        """The first request of the exchange; a notice, said first, if it overflows."""
        await self._describe()
        exchange.mode = self.tool_mode
        exchange.tools = self.tools.specs() if exchange.mode != "off" else []
        exchange.request = self._request(history, user_text, block, bool(exchange.tools))
        too_long = over_the_context(exchange.request, self.num_ctx)
        if too_long:
            exchange.notices.append(Notice(too_long, "warning", about_reply=True))

    async def _model_round(
        self, exchange: Exchange, history: list[ChatMessage], user_text: str, block: str
    ) -> AsyncGenerator[TurnEvent, None]:
        """One model call; marks the exchange done unless the model asked for tools."""
        for notice in exchange.notices:
            yield notice
        exchange.notices.clear()
        current = exchange.new_round(self.model.name)
        try:
            async with contextlib.aclosing(
                stream_round(
                    self._chat_model(exchange),
                    exchange.messages(),
                    exchange.tools,
                    self._round_options(),
                    current,
                )
            ) as stream:
                async for event in stream:
                    yield event
        except ToolsUnsupportedError as refusal:
            if exchange.mode != "native" or current.text:
                raise
            # Asked again; later turns of this agent go the same way.
            self._tools_refused = True
            exchange.mode = self.tool_mode
            if exchange.mode == "structured":
                yield Notice(
                    f"{self.model.name} has no tool calling here ({refusal}); memchat asks "
                    "it for tool calls as JSON instead (tool_mode = structured)."
                )
                return
            exchange.tools = []
            exchange.request = self._request(history, user_text, block, False)
            yield Notice(
                f"{self.model.name} cannot use tools here ({refusal}), so it cannot "
                "store memories itself; use /remember, /recall and /forget "
                '(or set [model] tool_mode = "auto" to use JSON tool calls).'
            )
            return
        exchange.close_round()
        if current.looped:
            exchange.reason, exchange.done = "repetition", True
            yield Notice(
                "The reply was stopped: the model kept repeating itself. "
                "Regenerate, or ask differently.",
                "warning",
                about_reply=True,
            )
        elif not current.calls:
            exchange.done = True

    async def _tool_round(
        self, exchange: Exchange, read_only: bool
    ) -> AsyncGenerator[TurnEvent, None]:
        """Run the calls of the last round; at the round limit, ask for the answer."""
        exchange.tool_rounds += 1
        async with contextlib.aclosing(
            run_calls(
                self.tools, exchange.current.calls, exchange.results, exchange.produced, read_only
            )
        ) as tool_events:
            async for event in tool_events:
                yield event
        if exchange.tool_rounds < self.config.agent.max_tool_iterations:
            return
        exchange.reason, exchange.done = "tool_limit", True
        yield Notice(
            f"The model used all {exchange.tool_rounds} rounds of tool calls "
            "(agent.max_tool_iterations), so it was asked to answer without tools.",
            "warning",
            about_reply=True,
        )
        final = exchange.told_to_answer()
        current = exchange.new_round(self.model.name)
        async with contextlib.aclosing(
            stream_round(self._chat_model(exchange), final, [], self._round_options(), current)
        ) as stream:
            async for event in stream:
                yield event
        # Calls it still makes have no round left to run in; kept, they would stand
        # unanswered in the history the next turn sends.
        current.calls = []
        exchange.close_round()
        if not current.text:
            yield Notice(
                "The model gave no answer after its tool calls.", "warning", about_reply=True
            )

    async def _after_reply(
        self, exchange: Exchange, user_text: str, session: Session, started: float
    ) -> AsyncGenerator[TurnEvent, None]:
        """Once the reply is saved: procedural memory, consolidation, the turn's figures."""
        procedure = await remember_procedure(
            self.memory, self.config, user_text, exchange.produced, session, self.namespace
        )
        if procedure is not None:
            yield MemorySaved(procedure)
        self._consolidate_later(user_text, exchange.reply_text(), session)
        stats = turn_stats(exchange.current.stats, exchange.tool_rounds, started, self.num_ctx)
        if stats.done_reason == "length":
            exchange.reason = "length"
            yield Notice("The reply stopped at the length limit.", "warning", about_reply=True)
        yield TurnFinished(stats, exchange.reason)
