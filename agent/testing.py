"""Model doubles for tests and demos: scripted replies and a function model."""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agent.messages import ChatMessage, ToolCall, ToolSpec
from agent.model import (
    DEFAULT_OPTIONS,
    ChatOptions,
    ChunkStats,
    InstalledModel,
    ModelChunk,
    ModelError,
    ModelInfo,
    PullProgress,
    RunningModel,
)

_ids = itertools.count(1)


def call(name: str, arguments: Any = None, **kwargs: Any) -> ToolCall:
    """A tool call as a model would send it."""
    return ToolCall(
        id=f"scripted_{next(_ids)}", name=name, arguments=kwargs if arguments is None else arguments
    )


@dataclass
class Reply:
    """One scripted model response."""

    text: str = ""
    thinking: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    error: ModelError | None = None
    """Raised after `error_after` chunks (0 = before anything streams)."""
    error_after: int = 0
    done_reason: str = "stop"
    hold: asyncio.Event | None = None
    """When set, the stream waits for this event after its first chunk (to test Esc)."""
    chunk_chars: int = 8

    def chunks(self) -> list[ModelChunk]:
        """The reply as the stream of chunks a server would send, stats last."""
        pieces = [
            ModelChunk(thinking=self.thinking[i : i + self.chunk_chars])
            for i in range(0, len(self.thinking), self.chunk_chars)
        ]
        pieces += [
            ModelChunk(text=self.text[i : i + self.chunk_chars])
            for i in range(0, len(self.text), self.chunk_chars)
        ]
        if self.tool_calls:
            pieces.append(ModelChunk(tool_calls=list(self.tool_calls)))
        completion = max(1, len(self.text) // 4)
        pieces.append(
            ModelChunk(
                done=True,
                stats=ChunkStats(
                    prompt_tokens=100,
                    completion_tokens=completion,
                    eval_seconds=completion / 50,
                    load_seconds=0.01,
                    done_reason=self.done_reason,
                ),
            )
        )
        return pieces


@dataclass(frozen=True)
class ModelRequest:
    """What the agent sent to the model."""

    messages: list[ChatMessage]
    tools: list[ToolSpec]
    options: ChatOptions


class _RecordingModel:
    def __init__(
        self, name: str, supports_tools: bool, supports_thinking: bool, context_length: int | None
    ) -> None:
        self.name = name
        self.supports_tools = supports_tools
        self.supports_thinking = supports_thinking
        self.context_length = context_length
        self.requests: list[ModelRequest] = []
        self.failure: ModelError | None = None
        """Raised by `describe` while set (a server that is down, a model that is missing)."""
        self.installed: list[str] = [name]
        self.loaded: list[RunningModel] = []
        self.pull_steps: list[PullProgress] = [
            PullProgress("pulling manifest"),
            PullProgress("pulling layer", 50, 100),
            PullProgress("pulling layer", 100, 100),
            PullProgress("success"),
        ]
        self.pull_failure: ModelError | None = None
        """Raised by `pull` after its steps while set (a name the registry does not know)."""
        self.unloads = 0

    async def list_models(self) -> list[str]:
        """See `ModelServer.list_models`."""
        return sorted(self.installed)

    async def describe_installed(self) -> list[InstalledModel]:
        """See `ModelServer.describe_installed`.

        Every installed name shares this double's flags and context length.
        """
        capabilities = {"completion"}
        capabilities |= {"tools"} if self.supports_tools else set()
        capabilities |= {"thinking"} if self.supports_thinking else set()
        return [
            InstalledModel(name, 4_920_000_000, frozenset(capabilities), self.context_length)
            for name in sorted(self.installed)
        ]

    async def running(self) -> list[RunningModel]:
        """See `ModelServer.running`; a server that is down does not answer it either."""
        if self.failure is not None:
            raise self.failure
        return list(self.loaded)

    async def pull(self, model: str | None = None) -> AsyncIterator[PullProgress]:
        """See `ModelServer.pull`; the model counts as installed afterwards."""
        for step in self.pull_steps:
            await asyncio.sleep(0)
            yield step
        if self.pull_failure is not None:
            raise self.pull_failure
        self.installed.append(model or self.name)
        if self.failure is not None and self.failure.code == "model_not_found":
            self.failure = None

    async def unload(self) -> None:
        """See `ModelServer.unload`."""
        self.unloads += 1

    def with_model(self, name: str) -> _RecordingModel:
        """The same double (and its queued replies), now answering as `name`."""
        self.name = name
        return self

    async def describe(self) -> ModelInfo:
        """See `ChatModel.describe`."""
        if self.failure is not None:
            raise self.failure
        return ModelInfo(
            self.name, self.supports_tools, self.supports_thinking, self.context_length
        )

    def _reply(self, request: ModelRequest) -> Reply:
        raise NotImplementedError

    async def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[ToolSpec] = (),
        options: ChatOptions = DEFAULT_OPTIONS,
    ) -> AsyncIterator[ModelChunk]:
        """Record the request, then stream the reply (see `ChatModel.chat`)."""
        request = ModelRequest([m.model_copy(deep=True) for m in messages], list(tools), options)
        self.requests.append(request)
        reply = self._reply(request)
        for position, chunk in enumerate(reply.chunks()):
            if reply.error is not None and position == reply.error_after:
                raise reply.error
            yield chunk
            await asyncio.sleep(0)
            if reply.hold is not None and position == 0:
                await reply.hold.wait()


class ScriptedModel(_RecordingModel):
    """Answers with queued replies, in order, and records every request."""

    __test__ = False

    def __init__(
        self,
        replies: Iterable[Reply | str] = (),
        *,
        name: str = "scripted",
        supports_tools: bool = True,
        supports_thinking: bool = False,
        context_length: int | None = None,
    ) -> None:
        super().__init__(name, supports_tools, supports_thinking, context_length)
        self.replies: deque[Reply] = deque(Reply(r) if isinstance(r, str) else r for r in replies)

    def add(self, *replies: Reply | str) -> None:
        """Queue more replies."""
        self.replies.extend(Reply(r) if isinstance(r, str) else r for r in replies)

    def _reply(self, request: ModelRequest) -> Reply:
        if not self.replies:
            raise AssertionError("ScriptedModel ran out of replies")
        return self.replies.popleft()


class FunctionModel(_RecordingModel):
    """Answers with whatever a function returns for the messages and tools it sees."""

    __test__ = False

    def __init__(
        self,
        function: Callable[[list[ChatMessage], list[ToolSpec]], Reply | str],
        *,
        name: str = "function",
        supports_tools: bool = True,
        supports_thinking: bool = False,
        context_length: int | None = None,
    ) -> None:
        super().__init__(name, supports_tools, supports_thinking, context_length)
        self.function = function

    def _reply(self, request: ModelRequest) -> Reply:
        reply = self.function(request.messages, request.tools)
        return Reply(reply) if isinstance(reply, str) else reply
