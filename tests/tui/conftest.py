"""Apps over a scripted model and a temporary store, deterministic for snapshots."""

from __future__ import annotations

import difflib
import html
import pickle
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.worker import WorkerCancelled, WorkerState

from agent.config import Config
from agent.model import ServerUnavailableError
from agent.runtime import Runtime, open_runtime
from agent.testing import ScriptedModel
from memory.entry import MemoryEntry
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from tui.app import MemchatApp

FIXED = datetime(2026, 11, 30, 9, 30, tzinfo=UTC)


def seed_entry(key: str, content: str, category: str = "core", **fields: Any) -> MemoryEntry:
    """An entry with a fixed id and times (snapshots must not change between runs)."""
    values: dict[str, Any] = {
        "id": f"id-{key}",
        "key": key,
        "content": content,
        "category": category,
        "timestamp": FIXED,
        "updated_at": FIXED,
    }
    values.update(fields)
    return MemoryEntry(**values)


@dataclass
class AppHarness:
    app: MemchatApp
    model: ScriptedModel
    path: Path

    @property
    def runtime(self) -> Runtime:
        assert self.app.runtime is not None
        return self.app.runtime


MakeApp = Callable[..., AppHarness]


def build_app(
    folder: Path,
    model: ScriptedModel | None = None,
    seed: list[MemoryEntry] | None = None,
    backend: str = "sqlite",
    prepare: Callable[[Runtime], None] | None = None,
    **memory: Any,
) -> AppHarness:
    """An app over `folder`/brain.db (the same folder twice: a restart on the same store).

    `prepare` sees the runtime before the app does (to plant a store warning, say).
    """
    settings = MemorySettings(embedding_provider="none", backend=backend, **memory)
    config = Config(memory=settings)
    scripted = model or ScriptedModel(name="qwen3:8b")
    path = folder / "brain.db"

    async def runtime_factory(cfg: Config) -> Runtime:
        store = None
        if backend == "sqlite":
            store = await SqliteMemory.open(path, settings)
            if seed:
                await store.import_(seed)
        runtime = await open_runtime(cfg, model=scripted, memory=store)
        runtime.agent.clock = lambda: FIXED
        if prepare is not None:
            prepare(runtime)
        return runtime

    app = MemchatApp(config, runtime_factory=runtime_factory, blink=False)
    return AppHarness(app, scripted, path)


def server_down(make_app: MakeApp, **memory: Any) -> AppHarness:
    """An app whose Ollama does not answer: it opens on the server-down screen."""
    model = ScriptedModel(name="qwen3:8b")
    model.failure = ServerUnavailableError("http://127.0.0.1:11434")
    return make_app(model, **memory)


@pytest.fixture
def make_app(tmp_path: Path) -> MakeApp:
    def factory(
        model: ScriptedModel | None = None,
        seed: list[MemoryEntry] | None = None,
        backend: str = "sqlite",
        **memory: Any,
    ) -> AppHarness:
        return build_app(tmp_path, model, seed, backend, **memory)

    return factory


async def settle(pilot: Any) -> None:
    """Wait until every worker has finished, then for the messages they posted.

    An exclusive worker (the inspector's reload, hygiene) is cancelled when a newer one
    starts: that is the app working as designed, so a cancellation is not a failure here,
    while a worker that raised still fails the test. Workers started by finishing ones are
    waited for too; the bound only stops a runaway loop of new workers.
    """
    app = pilot.app
    for _ in range(1000):
        await pilot.pause()
        unfinished = [worker for worker in app.workers if not worker.is_finished]
        if not unfinished:
            await pilot.pause()
            return
        started = [worker for worker in unfinished if worker.state != WorkerState.PENDING]
        for worker in started:
            try:
                await worker.wait()
            except WorkerCancelled:
                pass
    raise AssertionError("workers kept starting new workers")


async def steady(pilot: Any) -> None:
    """Settle, then wait until the screen is drawn the same twice in a row.

    A message still on its way when the workers are done (a result bubbling up to the app,
    a focus change) can redraw after `settle`: on a loaded machine one snapshot in many
    pictured the screen before it (seen in CI, once in 14 busy runs here). The screen that
    has stopped changing is the state to picture.
    """
    previous = None
    for _ in range(100):
        await settle(pilot)
        await pilot.wait_for_scheduled_animations()
        screen = pilot.app.export_screenshot()
        if screen == previous:
            return
        previous = screen
    raise AssertionError("the screen kept changing")


def screen_text(svg: str, styled: bool = False) -> list[str]:
    """The characters of an SVG screenshot, row by row (for a readable mismatch).

    `styled` puts each run's style class before it, for a difference in colour alone.
    """
    rows: dict[float, list[tuple[float, str]]] = {}
    pattern = r'<text class="([^"]*)" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>'
    for match in re.finditer(pattern, svg):
        text = html.unescape(match[4]).replace("\xa0", " ")
        style = match[1].rsplit("-", 1)[-1]  # without the per-run prefix
        rows.setdefault(float(match[3]), []).append(
            (float(match[2]), f"[{style}]{text}" if styled else text)
        )
    return ["".join(text for _, text in sorted(row)) for _, row in sorted(rows.items())]


@pytest.fixture
def snap_compare(
    snap_compare: Callable[..., bool], request: pytest.FixtureRequest
) -> Callable[..., bool]:
    """The plugin's comparison, printing which screen rows differ when it fails.

    The plugin's own report is an HTML file on the machine that ran the tests; CI keeps
    only the output, so a mismatch seen only there (a race on a busy machine) must say
    what it was in the output.
    """
    from pytest_textual_snapshot import node_to_report_path  # type: ignore[import-untyped]

    def compare(*args: Any, **kwargs: Any) -> bool:
        same = snap_compare(*args, **kwargs)
        if not same:
            report = pickle.loads(node_to_report_path(request.node).read_bytes())
            for styled in (False, True):
                expected = screen_text(report[1], styled)
                actual = screen_text(report[2], styled)
                print(f"screen rows that differ{' in style' if styled else ''}:")
                print("\n".join(difflib.unified_diff(expected, actual, lineterm="", n=0)))
        return same

    return compare
