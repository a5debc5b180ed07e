"""The model boundary: the `ChatModel` protocol, its stream chunks and its errors."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from agent.errors import AgentError
from agent.messages import ChatMessage, ToolCall, ToolSpec, without_lone_surrogates


@dataclass(frozen=True)
class ChatOptions:
    """Generation settings passed through to the provider."""

    num_ctx: int = 8192
    temperature: float | None = None
    seed: int | None = None
    keep_alive: str | None = None
    think: bool | str = False
    max_tokens: int | None = None
    """Stop the reply after this many tokens."""
    format: dict[str, Any] | None = None
    """A JSON schema the reply must follow (Ollama's structured outputs)."""


DEFAULT_OPTIONS = ChatOptions()


@dataclass(frozen=True)
class ChunkStats:
    """Counters the provider reports on its final chunk."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    eval_seconds: float | None = None
    load_seconds: float | None = None
    done_reason: str | None = None


@dataclass(frozen=True)
class ModelChunk:
    """One piece of a streamed reply."""

    text: str = ""
    thinking: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    done: bool = False
    stats: ChunkStats | None = None

    def __post_init__(self) -> None:
        # Whatever the server sent, the text that reaches the chat and its file encodes.
        object.__setattr__(self, "text", without_lone_surrogates(self.text))
        object.__setattr__(self, "thinking", without_lone_surrogates(self.thinking))


@dataclass(frozen=True)
class ModelInfo:
    """What the model can do, as the server describes it."""

    name: str
    supports_tools: bool
    supports_thinking: bool
    context_length: int | None = None


@runtime_checkable
class ChatModel(Protocol):
    """A chat model: one streaming method plus capability flags."""

    name: str
    supports_tools: bool
    supports_thinking: bool

    async def describe(self) -> ModelInfo:
        """Ask the server what the model supports (and update the flags)."""
        ...

    def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[ToolSpec] = (),
        options: ChatOptions = DEFAULT_OPTIONS,
    ) -> AsyncIterator[ModelChunk]:
        """Stream a reply; raises `ModelError` subclasses a person can act on."""
        ...


@dataclass(frozen=True)
class PullProgress:
    """One status line of a model download."""

    status: str
    completed: int | None = None
    total: int | None = None


@dataclass(frozen=True)
class RunningModel:
    """A model loaded in the server, and where it sits (VRAM or system memory)."""

    name: str
    size: int
    size_vram: int

    @property
    def gpu_share(self) -> float:
        """Fraction of the model held in VRAM (1.0 = entirely on the GPU)."""
        return self.size_vram / self.size if self.size else 0.0


CAPABILITIES_SHOWN = ("tools", "thinking", "vision")


def same_model(first: str, second: str) -> bool:
    """Whether two names are one model ("qwen3" is Ollama's "qwen3:latest")."""

    def tagged(name: str) -> str:
        last = name.rsplit("/", 1)[-1]
        return name if ":" in last else f"{name}:latest"

    return tagged(first) == tagged(second)


def size_text(size: int) -> str:
    """Bytes as people read a download size: 397 MB, 4.9 GB."""
    if size >= 1_000_000_000:
        return f"{size / 1_000_000_000:.1f} GB"
    return f"{max(size, 0) / 1_000_000:.0f} MB"


@dataclass(frozen=True)
class InstalledModel:
    """A model the server has, with what it can do when the server says."""

    name: str
    size: int | None = None
    """Bytes on disk."""
    capabilities: frozenset[str] | None = None
    """Ollama's capability names (completion, tools, thinking, vision, …); None: unknown."""
    context_length: int | None = None

    def label(self) -> str:
        """One line for a model picker: name, size, capabilities, context length."""
        details = [size_text(self.size)] if self.size else []
        if self.capabilities is not None:
            details.extend(c for c in CAPABILITIES_SHOWN if c in self.capabilities)
            if "tools" not in self.capabilities:
                details.append("tools by JSON, not native")
        if self.context_length:
            # The most it takes; the status bar shows the window memchat asks for
            # (generation.num_ctx): a new user read "40k" beside "ctx 854/8,192" as a fault.
            details.append(f"up to {self.context_length // 1024}k context")
        return f"{self.name}  ({', '.join(details)})" if details else self.name


@runtime_checkable
class ModelServer(Protocol):
    """What the app asks of the server beside chat: installed, loaded, pull, unload."""

    async def list_models(self) -> list[str]:
        """Installed model names."""
        ...

    async def describe_installed(self) -> list[InstalledModel]:
        """Installed models with size and capabilities, by name (unknown ones left None)."""
        ...

    async def running(self) -> list[RunningModel]:
        """Models loaded now."""
        ...

    def pull(self, model: str | None = None) -> AsyncIterator[PullProgress]:
        """Download a model, reporting progress."""
        ...

    async def unload(self) -> None:
        """Ask the server to free the model's memory now."""
        ...

    def with_model(self, name: str) -> ModelServer:
        """The same server, chatting with another model."""
        ...


class ModelError(AgentError):
    """The model call failed; `code` names the kind for the UI."""

    code = "model_error"


class ServerUnavailableError(ModelError):
    """Nothing answers at the configured host."""

    code = "server_unavailable"

    def __init__(self, host: str, server: str = "Ollama", hint: str = "") -> None:
        self.server = server
        self.hint = hint or (
            "Start it with `ollama serve` (or open the Ollama app), or set "
            "ollama.host / OLLAMA_HOST to where it runs."
        )
        super().__init__(f"{server} is not running at {host}. {self.hint}")
        self.host = host


class ModelNotFoundError(ModelError):
    """The server does not have the model."""

    code = "model_not_found"

    def __init__(self, model: str, hint: str = "") -> None:
        hint = hint or f"Pull it with `ollama pull {model}` or from the command palette."
        super().__init__(f"The model {model!r} is not installed. {hint}")
        self.model = model


class ToolsUnsupportedError(ModelError):
    """The model rejects requests that carry tools."""

    code = "tools_unsupported"


class ModelTimeoutError(ModelError):
    """The server stopped answering within the configured timeout."""

    code = "timeout"


class StreamCutError(ModelError):
    """The reply stream ended before the model said it was done."""

    code = "stream_cut"


class BlockedModelRequestError(ModelError):
    """A test tried to reach a real model without opting in."""

    code = "blocked"


ALLOW_MODEL_REQUESTS = True
"""Tests set this False so nothing reaches a real model unless a test opts in."""


def check_requests_allowed(target: str) -> None:
    """Refuse a model request while tests have not opted in (see ALLOW_MODEL_REQUESTS)."""
    if not ALLOW_MODEL_REQUESTS:
        raise BlockedModelRequestError(
            f"model requests are blocked (tried {target}); tests must opt in"
        )


def brief_error(exc: BaseException, limit: int = 300) -> str:
    """An unexpected exception, short enough to read in a notice.

    Some carry a whole request body in their text (an encoding error quotes what it could
    not encode); the start says what went wrong.
    """
    text = repr(exc)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"
