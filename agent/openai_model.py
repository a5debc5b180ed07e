"""`OpenAIChatModel`: servers that speak `/v1/chat/completions` with server-sent events.

llama.cpp's llama-server, LM Studio, vLLM and others, through httpx. Same events, errors
and capability flags as the Ollama provider, so the agent and the UI do not change.
Pulling and unloading are Ollama features; here they say so.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any
from urllib.parse import quote

import httpx

from agent import model as model_module
from agent.messages import ChatMessage, ToolCall, ToolSpec, without_lone_surrogates
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

_ids = itertools.count(1)
HINT = (
    "Start your OpenAI-compatible server (llama-server, LM Studio, vLLM …) or set "
    "model.base_url to where it runs."
)


_TOOL_REFUSALS = ("support", "not enabled", "requires", "--jinja", "enable-auto-tool-choice")


def _first_length(*values: object) -> int | None:
    """The first value that is a usable context length."""
    return next((v for v in values if type(v) is int and v > 0), None)


def wire_message(message: ChatMessage) -> dict[str, Any]:
    """A message in the OpenAI chat format."""
    wire: dict[str, Any] = {
        "role": message.role,
        "content": without_lone_surrogates(message.content),
    }
    if message.tool_calls:
        wire["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": without_lone_surrogates(
                        call.arguments
                        if isinstance(call.arguments, str)
                        else json.dumps(call.arguments, ensure_ascii=False)
                    ),
                },
            }
            for call in message.tool_calls
        ]
    if message.role == "tool":
        wire["tool_call_id"] = message.tool_call_id or ""
    return wire


def _arguments(raw: str) -> Any:
    try:
        return json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError:
        return raw  # the tool rejects it, and the model sees why


class _ToolCallBuffer:
    """Tool calls arrive in pieces (id and name first, arguments in fragments)."""

    def __init__(self) -> None:
        self.calls: dict[int, dict[str, str]] = {}

    def add(self, deltas: list[dict[str, Any]]) -> None:
        for delta in deltas:
            slot = self.calls.setdefault(
                int(delta.get("index", len(self.calls))), {"id": "", "name": "", "arguments": ""}
            )
            slot["id"] = delta.get("id") or slot["id"]
            function = delta.get("function") or {}
            slot["name"] += function.get("name") or ""
            slot["arguments"] += function.get("arguments") or ""

    def drain(self) -> list[ToolCall]:
        calls = [
            ToolCall(
                id=c["id"] or f"call_{next(_ids)}",
                name=c["name"],
                arguments=_arguments(c["arguments"]),
            )
            for _, c in sorted(self.calls.items())
        ]
        self.calls.clear()
        return calls


class OpenAIChatModel:
    """A model behind an OpenAI-compatible endpoint."""

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key: str = "",
        parallel_tool_calls: bool = True,
        connect_timeout_s: float = 5.0,
        read_timeout_s: float = 300.0,
    ) -> None:
        self.name = model
        self.base_url = base_url.rstrip("/")
        self.supports_tools = True
        self.supports_thinking = False
        self.parallel_tool_calls = parallel_tool_calls
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.AsyncClient(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(read_timeout_s, connect=connect_timeout_s),
        )

    def _check_allowed(self) -> None:
        model_module.check_requests_allowed(self.base_url)

    def _translate(self, exc: BaseException) -> ModelError:
        if isinstance(exc, ModelError):
            return exc
        if isinstance(exc, httpx.ConnectError):
            return ServerUnavailableError(self.base_url, "The model server", HINT)
        if isinstance(exc, httpx.TimeoutException):
            return ModelTimeoutError(
                f"{self.name} at {self.base_url} stopped answering "
                "(timed out); raise model.read_timeout_s if it is slow"
            )
        if isinstance(exc, httpx.TransportError | json.JSONDecodeError):
            return StreamCutError(f"the reply from {self.base_url} was cut off ({exc})")
        return ModelError(f"unexpected error talking to {self.base_url}: {brief_error(exc)}")

    async def _error_for(self, response: httpx.Response) -> ModelError:
        text = (await response.aread()).decode("utf-8", "replace")
        try:
            detail = json.loads(text).get("error", text)
            message = detail.get("message", str(detail)) if isinstance(detail, dict) else detail
        except (json.JSONDecodeError, AttributeError):
            message = text
        lowered = str(message).lower()
        if response.status_code == 404 or "model" in lowered and "not found" in lowered:
            return ModelNotFoundError(
                self.name, f"the server at {self.base_url} has no such model; pick one with /model"
            )
        if "tool" in lowered and any(word in lowered for word in _TOOL_REFUSALS):
            # llama-server started with --no-jinja, vLLM without tool parsing, and so on.
            return ToolsUnsupportedError(f"the server said: {message}")
        return ModelError(f"the server answered {response.status_code}: {message}")

    async def describe(self) -> ModelInfo:
        """Check the model is served (GET /models) and find its context window."""
        cards = await self._model_cards()
        names = sorted(str(card["id"]) for card in cards)
        if self.name and names and self.name not in names:
            raise ModelNotFoundError(
                self.name,
                f"the server at {self.base_url} serves {', '.join(names)}; pick one with /model",
            )
        if not self.name and names:
            self.name = names[0]
        card = next((c for c in cards if c["id"] == self.name), {})
        return ModelInfo(
            self.name,
            self.supports_tools,
            self.supports_thinking,
            await self._context_length(card),
        )

    async def _context_length(self, card: dict[str, Any]) -> int | None:
        """The context the server runs the model with, wherever this kind of server says it.

        vLLM puts `max_model_len` in the model card, llama.cpp's `/props` has `n_ctx`, LM
        Studio's own API has the loaded context. Without it, requests are sized by
        `generation.num_ctx`, which may be more than the server holds.
        """
        found = _first_length(card.get("max_model_len"), card.get("context_length"))
        if found is not None:
            return found
        root = self.base_url.removesuffix("/v1")
        props = await self._get_json(root + "/props") or {}
        settings = props.get("default_generation_settings")
        found = _first_length(
            settings.get("n_ctx") if isinstance(settings, dict) else None, props.get("n_ctx")
        )
        if found is not None:
            return found
        studio = await self._get_json(f"{root}/api/v0/models/{quote(self.name, safe='')}") or {}
        return _first_length(studio.get("loaded_context_length"), studio.get("max_context_length"))

    async def _get_json(self, url: str) -> dict[str, Any] | None:
        """A JSON object from an optional endpoint; None when the server lacks it."""
        try:
            reply = await self._client.get(url)
            body = reply.json() if reply.status_code == 200 else None
        except (httpx.HTTPError, ValueError):
            return None
        return body if isinstance(body, dict) else None

    def _payload(
        self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], options: ChatOptions
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.name,
            "stream": True,
            "messages": [wire_message(m) for m in messages],
            "stream_options": {"include_usage": True},
        }
        if tools:
            payload["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": t.parameters,
                    },
                }
                for t in tools
            ]
            if not self.parallel_tool_calls:
                # Sent only when off: true is the API's default, so servers that lack
                # the option never see it.
                payload["parallel_tool_calls"] = False
        if options.temperature is not None:
            payload["temperature"] = options.temperature
        if options.seed is not None:
            payload["seed"] = options.seed
        if options.max_tokens:
            payload["max_tokens"] = options.max_tokens
        if options.format is not None:
            payload["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": options.format},
            }
        return payload

    async def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[ToolSpec] = (),
        options: ChatOptions = DEFAULT_OPTIONS,
    ) -> AsyncIterator[ModelChunk]:
        """Stream /chat/completions (SSE) as chunks; see `ChatModel.chat`."""
        self._check_allowed()
        buffer = _ToolCallBuffer()
        finish: str | None = None
        usage: dict[str, Any] = {}
        timings: dict[str, Any] = {}
        try:
            async with self._client.stream(
                "POST", "/chat/completions", json=self._payload(messages, tools, options)
            ) as reply:
                if reply.status_code >= 400:
                    raise await self._error_for(reply)
                async for line in reply.aiter_lines():
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        break
                    event = json.loads(data)
                    if "error" in event:
                        error = event["error"]
                        raise ModelError(
                            str(error.get("message", error) if isinstance(error, dict) else error)
                        )
                    usage = event.get("usage") or usage
                    timings = event.get("timings") or timings
                    for choice in event.get("choices") or []:
                        delta = choice.get("delta") or {}
                        buffer.add(delta.get("tool_calls") or [])
                        finish = choice.get("finish_reason") or finish
                        text = delta.get("content") or ""
                        thinking = delta.get("reasoning_content") or ""
                        if text or thinking:
                            yield ModelChunk(text=text, thinking=thinking)
        except Exception as exc:  # noqa: BLE001 - every failure is translated
            raise self._translate(exc) from exc
        if finish is None:
            raise StreamCutError(f"the reply from {self.base_url} ended before the model finished")
        completion = int(usage.get("completion_tokens") or 0)
        speed = timings.get("predicted_per_second")
        yield ModelChunk(
            tool_calls=buffer.drain(),
            done=True,
            stats=ChunkStats(
                prompt_tokens=int(usage.get("prompt_tokens") or 0),
                completion_tokens=completion,
                eval_seconds=completion / speed if speed else None,
                done_reason="length" if finish == "length" else "stop",
            ),
        )

    async def list_models(self) -> list[str]:
        """Model ids the server offers (GET /models)."""
        return sorted(str(card["id"]) for card in await self._model_cards())

    async def describe_installed(self) -> list[InstalledModel]:
        """The server's model ids; capabilities unknown (it does not say them).

        llama-server also gives the training context length, which is shown.
        """
        models = []
        for card in await self._model_cards():
            meta = card.get("meta")
            context = meta.get("n_ctx_train") if isinstance(meta, dict) else None
            valid = isinstance(context, int) and not isinstance(context, bool) and context > 0
            length = context if valid else None
            models.append(InstalledModel(str(card["id"]), context_length=length))
        return sorted(models, key=lambda model: model.name)

    async def _model_cards(self) -> list[dict[str, Any]]:
        self._check_allowed()
        try:
            reply = await self._client.get("/models")
            if reply.status_code >= 400:
                raise await self._error_for(reply)
            data = reply.json().get("data", [])
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from exc
        return [card for card in data if isinstance(card, dict) and "id" in card]

    async def running(self) -> list[RunningModel]:
        """OpenAI-compatible servers do not report where models sit."""
        return []

    async def pull(self, model: str | None = None) -> AsyncIterator[PullProgress]:
        """Pulling is an Ollama feature."""
        raise ModelError("pulling models is an Ollama feature; load the model in your server")
        yield  # pragma: no cover - makes this an async generator

    async def unload(self) -> None:
        """Unloading is an Ollama feature."""
        raise ModelError("unloading is an Ollama feature; stop the model in your server")

    def with_model(self, name: str) -> OpenAIChatModel:
        """The same server, another model."""
        clone = OpenAIChatModel.__new__(OpenAIChatModel)
        clone.__dict__.update(self.__dict__)
        clone.name = name
        return clone
