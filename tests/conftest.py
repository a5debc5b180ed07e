"""Isolation for every test: private config and data dirs, and no real network."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.helpers import network_guard
from tests.helpers.fake_ollama import FakeOllama

network_guard.install()

# Property tests check behaviour, not speed: on a busy machine hypothesis's default 200 ms
# deadline per example fails runs for no reason (speed is the benchmarks' business).
settings.register_profile("memchat", deadline=None)
settings.load_profile("memchat")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than the cores, at most four (`--maxprocesses`).

    Many tests wait on a subprocess, a server or the store's thread: with one worker per
    core, a quarter of the CPU time stayed unused on two cores (measured: 10:39 with two
    workers, 9:57 with three).
    """
    return len(os.sched_getaffinity(0)) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests first, so the workers share them from the start.

    Collected in file order, the longest (the TUI's hostile corpus) came last and ran alone
    on one core for minutes after the other had finished.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def block_model_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reaches a real model unless it opts in (the fake-server tests do)."""
    import agent.model

    monkeypatch.setattr(agent.model, "ALLOW_MODEL_REQUESTS", False)


@pytest.fixture
def allow_model_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Opt in: this test talks to a fake server it started."""
    import agent.model

    monkeypatch.setattr(agent.model, "ALLOW_MODEL_REQUESTS", True)


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point config and data at the test's temp dir; no test sees the user's files."""
    home = tmp_path / "home"
    monkeypatch.setenv("MEMCHAT_HOME", str(home / "data"))
    monkeypatch.setenv("MEMCHAT_CONFIG", str(home / "config.toml"))
    # A refused loopback port: anything that ignores the guard still reaches no model.
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    return home


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """One event loop for a module's hypothesis tests (they cannot be async themselves)."""
    event_loop = asyncio.new_event_loop()
    yield event_loop
    event_loop.close()


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    """A started fake Ollama server, stopped after the test."""
    server = FakeOllama().start()
    try:
        yield server
    finally:
        server.stop()
