"""Running the model's tool calls, and the user's memory commands, which are tool calls too."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncGenerator

from agent.commands import MemoryCommand
from agent.events import (
    MemoryForgotten,
    MemorySaved,
    Notice,
    ToolCallFinished,
    ToolCallStarted,
    TurnEvent,
    TurnFinished,
)
from agent.messages import ChatMessage, CommandNote, ToolCall
from agent.sessions import Session, SessionStore
from agent.structured_tools import invalid_reply_error
from agent.tools import LIST_THE_KEYS, WRITING_TOOLS, MemoryTools, ToolResult


async def run_calls(
    tools: MemoryTools,
    calls: list[ToolCall],
    results: dict[str, ToolResult],
    produced: list[ChatMessage],
    read_only: bool,
) -> AsyncGenerator[TurnEvent, None]:
    """Run each call once; a call repeated in the exchange gets its first result again."""
    for call in calls:
        yield ToolCallStarted(call.id, call.name, call.arguments)
        signature = call.name + json.dumps(call.arguments, sort_keys=True, default=str)
        repeated = signature in results
        broken_reply = invalid_reply_error(call)
        if repeated:
            result = results[signature]
        elif broken_reply is not None:
            result = results[signature] = ToolResult.failed(broken_reply)
        else:
            result = results[signature] = await tools.run(call, read_only=read_only)
            if result.stored is not None:
                yield MemorySaved(result.stored)
            if result.forgotten is not None:
                yield MemoryForgotten(result.forgotten)
        yield ToolCallFinished(call.id, call.name, result.content, result.error, repeated)
        produced.append(
            ChatMessage(
                role="tool",
                content=result.content,
                tool_name=call.name,
                tool_call_id=call.id,
                error=result.error,
            )
        )


async def run_command(
    tools: MemoryTools,
    sessions: SessionStore,
    command: MemoryCommand | str,
    session: Session,
    command_text: str,
) -> AsyncGenerator[TurnEvent, None]:
    """A /command typed by the user (or why it could not be read), kept with the chat."""
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
    finished: ToolCallFinished | None = None
    async for event in run_calls(tools, [command.call], {}, [], False):
        if isinstance(event, ToolCallFinished) and event.error:
            # Told to the user, not the model: no tool name they cannot type (a new user).
            result = event.result.replace(LIST_THE_KEYS, "the memory inspector (F2) lists the keys")
            event = dataclasses.replace(event, result=result)
        if isinstance(event, ToolCallFinished):
            finished = event
        yield event
    if finished is not None:
        # Kept in the session file: a reopened chat shows the command and its outcome.
        note = CommandNote(
            text=command_text,
            tool=command.call.name,
            arguments=command.call.arguments,
            result=finished.result,
            error=finished.error,
        )
        try:
            await sessions.keep_command(session, note)
        except OSError as exc:
            yield Notice(
                f"{command.name} ran, but its line could not be written to the session "
                f"file ({exc.strerror or exc}): a reopened chat will not show it.",
                "warning",
            )
    yield TurnFinished(stopped_reason="command")
