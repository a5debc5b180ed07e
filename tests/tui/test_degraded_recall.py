"""A recall that falls back to keywords says so in the status bar, until one works again;
the embedding model being calibrated at start-up shows there too."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from agent.config import Config
from agent.runtime import Runtime, open_runtime
from agent.testing import ScriptedModel
from memory.calibration import anchor_texts
from memory.embedding.base import FloatMatrix
from memory.embedding.hashing import HashingEmbedder
from memory.entry import RecallResult
from memory.errors import EmbeddingError
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from tests.tui.conftest import MakeApp, seed_entry, settle
from tui.app import MemchatApp
from tui.widgets.status_bar import StatusBar


async def test_the_status_bar_names_a_keyword_only_fallback_and_clears_it(
    make_app: MakeApp,
) -> None:
    h = make_app(seed=[seed_entry("pet", "The user's cat is called Miso")])
    async with h.app.run_test(size=(160, 36)) as pilot:
        await h.app.ready.wait()
        assert h.app.runtime is not None
        memory = h.app.runtime.memory
        real_recall = memory.recall
        reason = "keyword-only: embedding with 'nomic-embed-text' failed: connection refused"

        async def failing(*args: Any, **kwargs: Any) -> RecallResult:
            result = await real_recall(*args, **kwargs)
            return result.model_copy(update={"mode": "keyword", "degraded": reason})

        memory.recall = failing  # type: ignore[method-assign]
        h.model.add("ok")
        await pilot.press(*"what is my cat called", "enter")
        await settle(pilot)
        shown = str(h.app.status.render())
        assert "keyword-only: embedding with" in shown

        memory.recall = real_recall  # type: ignore[method-assign]
        h.model.add("ok")
        await pilot.press(*"and my dog", "enter")
        await settle(pilot)
        assert "keyword-only: embedding" not in str(h.app.status.render())


async def test_a_long_reason_is_said_whole_once(make_app: MakeApp) -> None:
    """Found by a new user: the status bar cut the reason at 60 characters, before its fix."""
    h = make_app(seed=[seed_entry("pet", "The user's cat is called Miso")])
    async with h.app.run_test(size=(80, 24)) as pilot:
        await h.app.ready.wait()
        assert h.app.runtime is not None
        memory = h.app.runtime.memory
        real_recall = memory.recall
        reason = (
            "keyword-only: Ollama model 'nomic-embed-text' returned vectors of size 768, but "
            "the store expects 384; set memory.embedding_dimensions to the model's size"
        )

        async def failing(*args: Any, **kwargs: Any) -> RecallResult:
            result = await real_recall(*args, **kwargs)
            return result.model_copy(update={"mode": "keyword", "degraded": reason})

        memory.recall = failing  # type: ignore[method-assign]
        for asked in ("what is my cat called", "and my dog"):
            h.model.add("ok")
            await pilot.press(*asked, "enter")
            await settle(pilot)
        said = [n.message for n in h.app._notifications if n.message == reason]  # noqa: SLF001
        assert said == [reason]
        assert "embedding_dimensions" not in str(h.app.status.render())


class GatedEmbedder(HashingEmbedder):
    """Holds the calibration batch until the test lets it through, or fails it."""

    def __init__(self) -> None:
        super().__init__(32)
        self.gate = asyncio.Event()
        self.fail = False

    async def embed(self, texts: Sequence[str]) -> FloatMatrix:
        if len(texts) == len(anchor_texts()):
            await self.gate.wait()
            if self.fail:
                raise EmbeddingError("embedding model 'gated' did not answer")
        return await super().embed(texts)


def gated_app(tmp_path: Path, embedder: GatedEmbedder) -> MemchatApp:
    settings = MemorySettings(embedding_provider="hashing", embedding_dimensions=32)

    async def runtime_factory(cfg: Config) -> Runtime:
        store = await SqliteMemory.open(tmp_path / "brain.db", settings, embedder)
        runtime = await open_runtime(cfg, model=ScriptedModel(name="qwen3:8b"), memory=store)
        runtime.embeddings = "embeddings: gated"
        return runtime

    return MemchatApp(Config(memory=settings), runtime_factory=runtime_factory, blink=False)


async def _status_shows(pilot: Any, text: str) -> None:
    for _ in range(2000):
        if text in str(pilot.app.status.render()):
            return
        await pilot.pause()
    raise AssertionError(f"status bar never showed {text!r}: {pilot.app.status.render()}")


@pytest.mark.parametrize("fails", [False, True])
async def test_the_status_bar_shows_the_model_being_calibrated(tmp_path: Path, fails: bool) -> None:
    embedder = GatedEmbedder()
    app = gated_app(tmp_path, embedder)
    async with app.run_test(size=(160, 36)) as pilot:
        await app.ready.wait()
        await _status_shows(pilot, "embeddings: gated · calibrating")
        embedder.fail = fails
        embedder.gate.set()
        await settle(pilot)
        shown = str(app.status.render())
        assert "calibrating" not in shown
        if fails:
            assert "keyword-only: gated could not be calibrated" in shown
        else:
            assert "embeddings: gated" in shown and "keyword-only" not in shown
            assert app.runtime is not None and await app.runtime.memory.calibrate()


async def test_the_server_poll_after_the_widgets_are_gone_stops_quietly(make_app: MakeApp) -> None:
    # The 15-second poll can fire while the app shuts down, after its widgets are removed.
    h = make_app()
    async with h.app.run_test(size=(160, 36)):
        await h.app.ready.wait()
        h.app.exit()
        await h.app.screen_stack[0].query_one(StatusBar).remove()
        # Raised NoMatches before the guard. No pause after it: the app is exiting, and
        # waiting for its screen to go idle can time out on a busy machine.
        await h.app.startup.poll_server_on_timer()
        assert h.app.runtime is not None
