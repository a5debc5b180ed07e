"""`OllamaChatModel`: the only agent module that imports `ollama`."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx
import ollama
import pydantic

from agent import model as model_module
from agent.messages import ChatMessage, ToolCall, ToolSpec, encodable, without_lone_surrogates
from agent.model import (
    DEFAULT_OPTIONS,
    ChatOptions,
    ChunkStats,
    InstalledModel,
    ModelChunk,
    ModelError,
    ModelInfo,
    ModelNotFoundError,
    ModelTimeoutError,
    PullProgress,
    RunningModel,
    ServerUnavailableError,
    StreamCutError,
    ToolsUnsupportedError,
    brief_error,
)
from memory.wording import without_password

_call_ids = itertools.count(1)


def _wire_message(message: ChatMessage) -> dict[str, Any]:
    wire: dict[str, Any] = {
        "role": message.role,
        "content": without_lone_surrogates(message.content),
    }
    if message.tool_calls:
        wire["tool_calls"] = [
            {"function": {"name": call.name, "arguments": encodable(_as_mapping(call.arguments))}}
            for call in message.tool_calls
        ]
    if message.tool_name:
        wire["tool_name"] = message.tool_name
    return wire


def _as_mapping(arguments: Any) -> dict[str, Any]:
    if isinstance(arguments, dict):
        return arguments
    return {"_raw": arguments if isinstance(arguments, str) else json.dumps(arguments)}


def _wire_tool(spec: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": spec.parameters,
        },
    }


def _seconds(nanoseconds: int | None) -> float | None:
    return None if nanoseconds is None else nanoseconds / 1e9


def _capabilities(shown: Any) -> tuple[frozenset[str], int | None]:
    """Capabilities and context length from an /api/show answer.

    Servers older than the capabilities field list none: they did tools for every model.
    """
    capabilities = frozenset(shown.capabilities or ["completion", "tools"])
    context = None
    for key, value in (shown.modelinfo or {}).items():
        if key.endswith(".context_length") and isinstance(value, int):
            context = value
    return capabilities, context


class OllamaChatModel:
    """A model served by Ollama, through `ollama.AsyncClient` with explicit timeouts."""

    def __init__(
        self,
        model: str,
        host: str,
        *,
        connect_timeout_s: float = 5.0,
        read_timeout_s: float = 300.0,
    ) -> None:
        self.name = model
        self.host = without_password(host)
        """The server as shown in messages (a password in it masked); the client has it whole."""
        self.supports_tools = True
        self.supports_thinking = False
        timeout = httpx.Timeout(read_timeout_s, connect=connect_timeout_s)
        self._client = ollama.AsyncClient(host=host, timeout=timeout)

    def _check_allowed(self) -> None:
        model_module.check_requests_allowed(self.host)

    def _translate(self, exc: BaseException) -> ModelError:
        if isinstance(exc, ModelError):
            return exc
        if isinstance(exc, ConnectionError | httpx.ConnectError):
            return ServerUnavailableError(self.host)
        if isinstance(exc, ollama.ResponseError):
            text = str(exc.error)
            if exc.status_code == 404 or ("not found" in text and "model" in text):
                return ModelNotFoundError(self.name)
            if "does not support tools" in text:
                return ToolsUnsupportedError(text)
            return ModelError(f"Ollama answered with an error: {text}")
        if isinstance(exc, httpx.TimeoutException):
            return ModelTimeoutError(
                f"{self.name} at {self.host} stopped answering (timed out); the model may "
                "still be loading, try again or raise model.read_timeout_s"
            )
        if isinstance(exc, httpx.TransportError | json.JSONDecodeError):
            return StreamCutError(f"the reply from {self.host} was cut off ({exc})")
        if isinstance(exc, pydantic.ValidationError) and exc.errors():
            # Found by an adversary: a tool call whose arguments were a JSON string (as an
            # OpenAI-style server sends them) failed the turn with the library's whole text.
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            return ModelError(
                f"the reply from {self.host} is not in Ollama's format ({where}: "
                f"{first['msg']}), so none of it was used; try again, or use a server that "
                'speaks Ollama\'s API (for an OpenAI-style one, set model.provider = "openai")'
            )
        return ModelError(f"unexpected error talking to Ollama: {brief_error(exc)}")

    async def describe(self) -> ModelInfo:
        """Read capabilities and context length from /api/show."""
        self._check_allowed()
        try:
            shown = await self._client.show(self.name)
        except Exception as exc:  # noqa: BLE001 - every failure is translated
            raise self._translate(exc) from exc
        capabilities, context = _capabilities(shown)
        self.supports_tools = "tools" in capabilities
        self.supports_thinking = "thinking" in capabilities
        return ModelInfo(self.name, self.supports_tools, self.supports_thinking, context)

    async def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[ToolSpec] = (),
        options: ChatOptions = DEFAULT_OPTIONS,
    ) -> AsyncIterator[ModelChunk]:
        """Stream /api/chat as chunks; see `ChatModel.chat`."""
        self._check_allowed()
        generation: dict[str, Any] = {"num_ctx": options.num_ctx}
        if options.temperature is not None:
            generation["temperature"] = options.temperature
        if options.seed is not None:
            generation["seed"] = options.seed
        if options.max_tokens:
            generation["num_predict"] = options.max_tokens
        think = options.think if self.supports_thinking else None
        try:
            stream = await self._client.chat(
                model=self.name,
                messages=[_wire_message(m) for m in messages],
                tools=[_wire_tool(t) for t in tools] or None,
                stream=True,
                think=think,
                options=generation,
                keep_alive=options.keep_alive,
                format=options.format,
            )
            finished = False
            async for part in stream:
                message = part.message
                calls = [
                    ToolCall(
                        id=f"call_{next(_call_ids)}",
                        name=call.function.name,
                        arguments=dict(call.function.arguments),
                    )
                    for call in message.tool_calls or []
                ]
                stats = None
                if part.done:
                    finished = True
                    stats = ChunkStats(
                        prompt_tokens=part.prompt_eval_count or 0,
                        completion_tokens=part.eval_count or 0,
                        eval_seconds=_seconds(part.eval_duration),
                        load_seconds=_seconds(part.load_duration),
                        done_reason=part.done_reason,
                    )
                yield ModelChunk(
                    text=message.content or "",
                    thinking=message.thinking or "",
                    tool_calls=calls,
                    done=bool(part.done),
                    stats=stats,
                )
        except Exception as exc:  # noqa: BLE001 - every failure is translated
            raise self._translate(exc) from exc
        if not finished:
            raise StreamCutError(f"the reply from {self.host} ended before the model finished")

    async def list_models(self) -> list[str]:
        """Names of installed models (/api/tags)."""
        self._check_allowed()
        try:
            listed = await self._client.list()
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from exc
        return sorted(m.model for m in listed.models if m.model)

    async def describe_installed(self) -> list[InstalledModel]:
        """/api/tags for names and sizes, then /api/show for each one's capabilities.

        A model whose /api/show fails is listed with its capabilities unknown.
        """
        self._check_allowed()
        try:
            listed = await self._client.list()
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from exc
        gate = asyncio.Semaphore(4)

        async def one(name: str, size: int | None) -> InstalledModel:
            async with gate:
                try:
                    shown = await self._client.show(name)
                except Exception:  # noqa: BLE001 - a picker line without capabilities
                    return InstalledModel(name, size)
            capabilities, context = _capabilities(shown)
            return InstalledModel(name, size, capabilities, context)

        models = sorted((m.model, m.size) for m in listed.models if m.model)
        return list(await asyncio.gather(*(one(n, int(s) if s else None) for n, s in models)))

    async def running(self) -> list[RunningModel]:
        """Loaded models and their VRAM share (/api/ps)."""
        self._check_allowed()
        try:
            loaded = await self._client.ps()
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from exc
        return [
            RunningModel(m.name or m.model or "?", int(m.size or 0), int(m.size_vram or 0))
            for m in loaded.models
        ]

    async def pull(self, model: str | None = None) -> AsyncIterator[PullProgress]:
        """Pull a model, yielding progress (/api/pull)."""
        self._check_allowed()
        try:
            async for part in await self._client.pull(model or self.name, stream=True):
                yield PullProgress(part.status or "", part.completed, part.total)
        except Exception as exc:  # noqa: BLE001
            error = self._translate(exc)
            if isinstance(error, ModelNotFoundError):
                # "Not installed, pull it" would send the user back to what just failed
                # (found by a new user).
                error = ModelError(
                    f"{self.host} found nothing to download under the name "
                    f"{model or self.name!r}: check the name (ollama.com/library lists them)"
                )
            raise error from exc

    def with_model(self, name: str) -> OllamaChatModel:
        """The same server and timeouts, another model."""
        clone = OllamaChatModel.__new__(OllamaChatModel)
        clone.__dict__.update(self.__dict__)
        clone.name = name
        clone.supports_tools, clone.supports_thinking = True, False
        return clone

    async def unload(self) -> None:
        """Unload the model now (a request with keep_alive 0)."""
        self._check_allowed()
        try:
            await self._client.generate(model=self.name, keep_alive=0)
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from exc
