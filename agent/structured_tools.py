"""Tool calls through structured output, for models and servers without native tool calling.

The tools are described in the system prompt, and the reply is constrained by a JSON schema
(Ollama's `format`, the OpenAI-compatible `response_format`) to one object: either
`{"answer": "..."}` or `{"tool": NAME, "arguments": {...}}`. `StructuredToolModel` wraps any
`ChatModel` so the turn sees what a native model gives it: answer text streamed as it is
generated, then tool calls. History goes out as the model would have written it (its tool
calls as JSON, their results as the user's next message), since a template without tool
support has no place for tool messages.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from typing import Any

from agent.messages import ChatMessage, ToolCall, ToolSpec
from agent.model import DEFAULT_OPTIONS, ChatModel, ChatOptions, ModelChunk, ModelInfo
from agent.structured_reply import ReplyParser

INVALID_REPLY = "invalid_reply"
"""The name of the call a reply that fits neither form becomes: its result is the error."""

_call_ids = itertools.count(1)


def invalid_reply_error(call: ToolCall) -> str | None:
    """The error to send back for a reply that fit neither form (None for a real call)."""
    if call.name != INVALID_REPLY:
        return None
    arguments = call.arguments if isinstance(call.arguments, dict) else {}
    return str(arguments.get("error", "the reply was not a valid JSON answer or tool call"))


def reply_schema(tools: Sequence[ToolSpec]) -> dict[str, Any]:
    """The JSON schema of one reply: an answer, or a call of one of `tools`."""
    answer = {
        "type": "object",
        "properties": {"answer": {"type": "string"}},
        "required": ["answer"],
        "additionalProperties": False,
    }
    calls = [
        {
            "type": "object",
            "properties": {"tool": {"enum": [tool.name]}, "arguments": tool.parameters},
            "required": ["tool", "arguments"],
            "additionalProperties": False,
        }
        for tool in tools
    ]
    return {"anyOf": [answer, *calls]} if calls else answer


def _argument_lines(parameters: dict[str, Any]) -> list[str]:
    required = set(parameters.get("required", []))
    lines = []
    for name, schema in parameters.get("properties", {}).items():
        kinds = [part.get("type") for part in schema.get("anyOf", [schema])]
        kind = "/".join(str(k) for k in kinds if k and k != "null") or "any"
        need = "required" if name in required else "optional"
        about = f": {schema['description']}" if schema.get("description") else ""
        lines.append(f"    {name} ({kind}, {need}){about}")
    return lines


def format_guide(tools: Sequence[ToolSpec]) -> str:
    """What the system prompt adds: the two reply forms and each tool's arguments."""
    if not tools:
        return '\n\nReply with one JSON object: {"answer": "your reply to the user"}.'
    lines = [
        "",
        "",
        "Reply with exactly one JSON object, in one of two forms:",
        '- to answer the user: {"answer": "your reply"}',
        '- to use a tool: {"tool": "tool name", "arguments": {...}}',
        "After a tool call you get its result and reply again. The tools:",
    ]
    for tool in tools:
        lines.append(f"- {tool.name}: {tool.description}")
        lines.extend(_argument_lines(tool.parameters))
    examples = [(tool.name, tool.example) for tool in tools if tool.example is not None]
    if examples:
        lines.append("For example:")
    for name, example in examples:
        call = {"tool": name, "arguments": example.arguments}
        lines.append(
            f"- the user says {json.dumps(example.request, ensure_ascii=False)}; you reply "
            f"{json.dumps(call, ensure_ascii=False)}"
        )
    if examples:
        lines.append('- the user says "Hello!"; you reply {"answer": "Hello! How can I help?"}')
    return "\n".join(lines)


def _as_written(call: ToolCall) -> str:
    return json.dumps({"tool": call.name, "arguments": call.arguments}, ensure_ascii=False)


def _joined(messages: list[ChatMessage], message: ChatMessage) -> None:
    """Append, merging into the previous message of the same role (templates alternate)."""
    if messages and messages[-1].role == message.role and message.role != "system":
        last = messages[-1]
        messages[-1] = last.model_copy(update={"content": f"{last.content}\n\n{message.content}"})
    else:
        messages.append(message)


def as_structured(messages: Sequence[ChatMessage], guide: str) -> list[ChatMessage]:
    """The conversation as a model without tool support reads it.

    Its tool calls are the JSON it writes, their results the user's next message, and the
    format guide ends the system message.
    """
    out: list[ChatMessage] = []
    for message in messages:
        if message.role == "assistant":
            written = [_as_written(call) for call in message.tool_calls]
            if not written or message.content:
                answer = json.dumps({"answer": message.content}, ensure_ascii=False)
                written.insert(0, answer)
            plain = message.model_copy(update={"content": "\n".join(written), "tool_calls": []})
            _joined(out, plain)
        elif message.role == "tool":
            label = "error" if message.error else "result"
            text = f"Tool {label} ({message.tool_name or 'tool'}): {message.content}"
            _joined(out, ChatMessage(role="user", content=text))
        else:
            _joined(out, message)
    if out and out[0].role == "system":
        out[0] = out[0].model_copy(update={"content": out[0].content + guide})
    else:
        out.insert(0, ChatMessage(role="system", content=guide.lstrip()))
    return out


class StructuredToolModel:
    """A `ChatModel` whose tool calls come through a JSON-schema-constrained reply."""

    def __init__(self, inner: ChatModel) -> None:
        self.inner = inner
        self.name = inner.name
        self.supports_tools = True
        self.supports_thinking = inner.supports_thinking

    async def describe(self) -> ModelInfo:
        """The inner model's description (tool calls are this wrapper's own)."""
        return await self.inner.describe()

    async def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[ToolSpec] = (),
        options: ChatOptions = DEFAULT_OPTIONS,
    ) -> AsyncIterator[ModelChunk]:
        """Stream the answer as text; a tool call arrives on the final chunk."""
        constrained = replace(options, format=reply_schema(tools))
        sent = as_structured(messages, format_guide(tools))
        parser = ReplyParser()
        stats = None
        chunks = self.inner.chat(sent, options=constrained)
        try:
            async for chunk in chunks:
                text = parser.feed(chunk.text) if chunk.text else ""
                if text or chunk.thinking:
                    yield ModelChunk(text=text, thinking=chunk.thinking)
                stats = chunk.stats or stats
                if parser.runaway is not None:
                    break  # whitespace or a call without end: the model hears why
        finally:
            # A turn that stops this stream early (Esc, a looping reply) ends the inner
            # HTTP stream now, not when the garbage collector gets to it.
            close = getattr(chunks, "aclose", None)
            if close is not None:
                await close()
        ending = parser.finish()
        calls = []
        if ending.call is not None:
            name, arguments = ending.call
            calls = [ToolCall(id=f"structured_{next(_call_ids)}", name=name, arguments=arguments)]
        elif ending.problem is not None:
            problem = {"error": ending.problem, "reply": ending.raw[:400]}
            call_id = f"structured_{next(_call_ids)}"
            calls = [ToolCall(id=call_id, name=INVALID_REPLY, arguments=problem)]
        yield ModelChunk(text=ending.text, tool_calls=calls, done=True, stats=stats)
