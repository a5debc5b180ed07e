"""How the configured embedder and store are built: one place for the app and every command.

The app (`agent.runtime.open_runtime`), `memchat memory …` and `memchat memory migrate` all
open memory through `open_store`, so a setting that reaches one reaches all of them: the
Ollama host, the OpenAI-compatible server's address and API key, timeouts and task prefixes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent.paths import resolve_ollama_host
from memory.embedding import make_embedder
from memory.factory import open_memory

if TYPE_CHECKING:
    from pathlib import Path

    from agent.config import Config
    from memory.embedding.base import Embedder
    from memory.protocol import Memory


def build_embedder(config: Config) -> Embedder | None:
    """The configured embedder; None when embeddings are off (keyword-only recall)."""
    return make_embedder(
        config.memory,
        resolve_ollama_host(config.ollama.host),
        openai_base_url=config.model.base_url,
        api_key=config.model.api_key,
    )


async def open_store(
    config: Config,
    folder: Path,
    embedder: Embedder | None,
    *,
    backend: str | None = None,
    reading_only: bool = False,
    create: bool = True,
) -> Memory:
    """Open the configured store (or the named `backend`'s) in the data folder.

    `reading_only`: the caller never writes, so the store need not read every page first.
    It and `create=False` find a missing SQLite store an error instead of making one.

    Raises:
        MemoryStoreError: the store cannot be opened; nothing in it was changed.
    """
    settings = config.memory
    if backend is not None and backend != settings.backend:
        settings = settings.model_copy(update={"backend": backend})
    return await open_memory(settings, folder, embedder, reading_only=reading_only, create=create)
