"""Every backend, one behavioural contract: backends are chosen by name, skipped by flag.

A new backend joins by adding its name to BACKENDS (and, if it needs a server, starting it
in a fixture here). Tests never test a backend's name; they read its capability flags.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from memory.factory import open_memory
from memory.protocol import Memory
from memory.settings import MemorySettings
from memory.testing import CountingEmbedder
from tests.helpers.postgres import fresh_schema, postgres_url

BACKENDS = ["sqlite", "markdown", "lucid", "qdrant", "postgres", "none"]
__all__ = ["postgres_url"]


@pytest.fixture(scope="session")
def quiet_lucid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A `lucid` that accepts every store and knows nothing, so SQLite alone answers."""
    script = tmp_path_factory.mktemp("lucid") / "lucid"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    return script


async def _open(
    name: str, folder: Path, lucid: Path, request: pytest.FixtureRequest, **overrides: Any
) -> Memory:
    # Only the postgres runs start (or reuse) the session's PostgreSQL server.
    url = request.getfixturevalue("postgres_url") if name == "postgres" else ""
    values: dict[str, Any] = {
        "backend": name,
        "lucid_command": str(lucid),
        "postgres_url": url,
        "postgres_schema": fresh_schema(),
        "embedding_provider": "hashing",
        "embedding_dimensions": 64,
        "min_relevance_score": 0.0,
    }
    settings = MemorySettings(**(values | overrides))
    return await open_memory(settings, folder, CountingEmbedder(64))


OpenStore = Callable[..., Awaitable[Memory]]


@pytest.fixture
async def open_store(
    memory: Memory, tmp_path: Path, quiet_lucid: Path, request: pytest.FixtureRequest
) -> AsyncIterator[OpenStore]:
    """Opens another store: `memory`'s backend (or `backend=`), in a new folder (or `folder=`),
    with setting overrides."""
    opened: list[Memory] = []

    async def opener(
        backend: str | None = None, *, folder: Path | None = None, **overrides: Any
    ) -> Memory:
        where = folder or tmp_path / f"other-{len(opened)}"
        store = await _open(backend or memory.name, where, quiet_lucid, request, **overrides)
        opened.append(store)
        return store

    yield opener
    for store in opened:
        await store.close()


@pytest.fixture(params=BACKENDS)
async def memory(
    request: pytest.FixtureRequest, tmp_path: Path, quiet_lucid: Path
) -> AsyncIterator[Memory]:
    store = await _open(request.param, tmp_path / "main", quiet_lucid, request)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def fresh(
    memory: Memory, tmp_path: Path, quiet_lucid: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Memory]:
    """A second, empty store of the same backend (for import round trips)."""
    store = await _open(memory.name, tmp_path / "fresh", quiet_lucid, request)
    try:
        yield store
    finally:
        await store.close()


def needs(memory: Memory, *flags: str) -> None:
    """Skip unless the backend declares every capability named."""
    missing = [flag for flag in flags if not getattr(memory.capabilities, flag)]
    if missing:
        pytest.skip(f"{memory.name} lacks {', '.join(missing)}")
