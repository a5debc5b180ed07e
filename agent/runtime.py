"""Everything a chat needs, built from the config: memory, model, agent, sessions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from agent.config import Config
from agent.model import ChatModel, ModelServer
from agent.ollama_model import OllamaChatModel
from agent.other_windows import OpenHere, open_here
from agent.paths import data_dir, ensure_private_dir, resolve_ollama_host
from agent.sessions import Session, SessionStore
from agent.turn import Agent
from agent.wiring import build_embedder, open_store
from memory.errors import MemoryStoreError
from memory.factory import data_left_behind, vectors_missing
from memory.none_backend import NoneMemory
from memory.protocol import Memory


class ServedModel(ChatModel, ModelServer, Protocol):
    """A chat model whose server can also list, pull and unload models."""


@dataclass
class Runtime:
    """The live objects behind the app."""

    config: Config
    memory: Memory
    model: ServedModel
    agent: Agent
    sessions: SessionStore
    session: Session
    memory_problem: str | None = None
    """Why memory is off although the config asks for it (a damaged file, say)."""
    embeddings: str = "keyword-only"
    warnings: list[str] = field(default_factory=list)
    open_here: OpenHere = field(default_factory=OpenHere)
    """This app's mark in the data folder, which tells the next app it is open."""

    def new_session(self) -> Session:
        """Start a fresh conversation (incognito carries over)."""
        incognito = self.session.incognito
        self.session = self.sessions.new()
        self.session.incognito = incognito
        return self.session


def make_model(config: Config) -> ServedModel:
    """The configured chat model: Ollama's, or one behind an OpenAI-compatible server."""
    ollama = config.ollama
    if config.model.provider == "openai":
        from agent.openai_model import OpenAIChatModel

        return OpenAIChatModel(
            config.model.name,
            config.model.base_url,
            api_key=config.model.api_key,
            parallel_tool_calls=config.model.parallel_tool_calls,
            connect_timeout_s=config.model.connect_timeout_s,
            read_timeout_s=config.model.read_timeout_s,
        )
    return OllamaChatModel(
        ollama.model,
        resolve_ollama_host(ollama.host),
        connect_timeout_s=config.model.connect_timeout_s,
        read_timeout_s=config.model.read_timeout_s,
    )


async def open_runtime(
    config: Config,
    *,
    model: ServedModel | None = None,
    memory: Memory | None = None,
    namespace: str = "default",
) -> Runtime:
    """Open the store and wire the agent; a store that cannot open leaves memory off."""
    data = ensure_private_dir(data_dir())
    problem = None
    embedder = build_embedder(config)
    if memory is None:
        try:
            memory = await open_store(config, data, embedder)
        except MemoryStoreError as exc:
            problem = str(exc)
            memory = NoneMemory()
    chosen: ServedModel = model if model is not None else make_model(config)
    sessions = SessionStore(data / "sessions")
    warnings = []
    here = open_here(data)
    if here.warning:
        warnings.append(here.warning)
    if memory.hydration:
        warnings.append(memory.hydration)
    if problem is None:
        left_behind = await data_left_behind(config.memory, data, memory, embedder)
        if left_behind:
            warnings.append(left_behind)
        unembedded = await vectors_missing(memory, embedder)
        if unembedded:
            warnings.append(unembedded)
    embeddings = "keyword-only"
    if embedder is not None and memory.capabilities.supports_vectors:
        embeddings = f"embeddings: {embedder.model}"
    return Runtime(
        config=config,
        memory=memory,
        model=chosen,
        agent=Agent(chosen, memory, config, sessions, namespace=namespace),
        sessions=sessions,
        session=sessions.new(),
        memory_problem=problem,
        embeddings=embeddings,
        warnings=warnings,
        open_here=here,
    )
