"""Start-up in the app: open memory and the model, first-run screens, server polling."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from agent.errors import AgentError
from agent.model import ModelError, ModelNotFoundError, ServerUnavailableError
from memory.errors import MemoryStoreError
from memory.lazy_patterns import compile_every_pattern
from tui.quitting import unless_quitting

if TYPE_CHECKING:
    from agent.config import Config
    from agent.runtime import Runtime
    from tui.app import MemchatApp

RuntimeFactory = Callable[["Config"], Awaitable["Runtime"]]
SERVER_POLL_SECONDS = 15


async def default_runtime(config: Config) -> Runtime:
    """The real runtime (`agent.runtime.open_runtime`)."""
    # Imported in a thread after the first paint: the screen is up and typing works while
    # pydantic, httpx, numpy and the store load.
    module = await asyncio.to_thread(importlib.import_module, "agent.runtime")
    # The patterns that read messages compile on first use; here they compile beside the
    # store's opening, so the first message sent is not the one that waits for them.
    compiling = asyncio.ensure_future(asyncio.to_thread(compile_every_pattern))
    try:
        runtime: Runtime = await module.open_runtime(config)
    finally:
        await compiling
    return runtime


class StartUp:
    """Bring memory and the model up behind a screen that is already usable."""

    def __init__(self, app: MemchatApp, runtime_factory: RuntimeFactory | None = None) -> None:
        self.app = app
        self.runtime_factory = runtime_factory or default_runtime

    async def run(self) -> None:
        """Open memory and the model; report what is missing without stopping the app."""
        app = self.app
        try:
            runtime = await self.runtime_factory(app.config)
        except (AgentError, MemoryStoreError, OSError) as exc:
            app.notify(f"memchat could not start: {exc}", severity="error", timeout=60)
            app.turns.put_back()  # what was sent while it started: back, not lost
            return
        app.runtime = runtime
        app.inspector.attach(
            runtime.memory, runtime.session.id, runtime.memory_problem, runtime.agent.namespace
        )
        app.status.set(
            embeddings=runtime.embeddings,
            memory_off=not runtime.memory.capabilities.persistent,
            incognito=runtime.session.incognito,
        )
        if runtime.memory_problem:
            app.notify(runtime.memory_problem, title="Memory is off", severity="error", timeout=60)
        app.memory_view.show_warnings(runtime.warnings)
        if runtime.embeddings.startswith("embeddings:"):
            app.run_worker(unless_quitting(app, app.memory_view.calibrate()), group="calibrate")
        self._start_hygiene()
        minutes = app.config.memory.hygiene_interval_minutes
        if minutes:
            app.set_interval(minutes * 60, self._start_hygiene)
        await app.memory_view.refresh_count()
        connected = await self.check_model()
        app.set_interval(SERVER_POLL_SECONDS, self.poll_server_on_timer)
        app.ready.set()
        # What was sent while it started: now, or back in the input with no model to answer.
        if connected:
            app.turns.send_waiting()
        else:
            app.turns.put_back()

    def _start_hygiene(self) -> None:
        hygiene = unless_quitting(self.app, self.app.memory_view.run_hygiene())
        self.app.run_worker(hygiene, group="hygiene", exclusive=True)

    async def check_model(self) -> bool:
        """Reach the model; show the first-run screens when it is not there.

        Returns whether the model answered.
        """
        app = self.app
        assert app.runtime is not None
        model = app.runtime.model
        try:
            await model.describe()
        except ServerUnavailableError as exc:
            from tui.screens.server_down import ServerDownScreen

            app.status.set(server="not running")
            app.push_screen(
                ServerDownScreen(exc.host, self.probe_server, exc.server, exc.hint),
                callback=self._after_server_screen,
            )
            return False
        except ModelNotFoundError as exc:
            from tui.screens.model_pull import ModelPullScreen

            app.status.set(server="model missing")
            if app.config.model.provider == "openai":
                # Nothing to pull: pick one of the models the server has.
                app.notify(str(exc), severity="warning", timeout=10)
                app.models.pick()
                return False
            pull = ModelPullScreen(model, model.name, missing=True, switch=app.models.pick)
            app.push_screen(pull, callback=self.after_pull)
            return False
        except ModelError as exc:
            app.notify(str(exc), severity="error")
            return False
        tools = app.runtime.agent.tool_mode
        app.status.set(server="connected", model=model.name, tools=tools)
        if tools == "off" and app.config.model.tool_mode == "native":
            app.notify(
                f"{model.name} has no native tool calling and [model] tool_mode is "
                '"native", so it cannot store or recall memories itself: use /remember, '
                '/recall and /forget, or set tool_mode = "auto" to have it call tools as JSON.',
                title="Memory tools are off",
                severity="warning",
                timeout=20,
            )
        return True

    async def probe_server(self) -> bool:
        """True once something answers (a missing model is handled next)."""
        assert self.app.runtime is not None
        try:
            await self.app.runtime.model.describe()
        except ServerUnavailableError:
            return False
        except ModelError:
            return True
        return True

    def _after_server_screen(self, back: bool | None) -> None:
        if back:
            self.app.run_worker(self.check_model(), group="startup")
        else:
            runtime = self.app.runtime
            forgets = runtime is None or runtime.memory.capabilities.supports_delete
            commands = "/remember, /recall, /forget" if forgets else "/remember, /recall"
            self.app.notify(
                f"No model: the memory inspector (F2) and {commands} still work.", timeout=10
            )

    def after_pull(self, pulled: str | None) -> None:
        """The pull screen closed: check the model again when one came down."""
        if pulled:
            self.app.notify(f"Pulled {pulled}")
            self.app.run_worker(self.check_model(), group="startup")

    async def poll_server_on_timer(self) -> None:
        """`poll_server` from the timer, which can fire while the app shuts down."""
        await unless_quitting(self.app, self.poll_server())

    async def poll_server(self) -> None:
        """Keep the server state and the model's VRAM share current."""
        app = self.app
        if app.runtime is None:
            return
        model = app.runtime.model
        try:
            loaded = await model.running()
        except ServerUnavailableError:
            app.status.set(server="not running", gpu_share=None)
            return
        except ModelError:
            return
        mine = next((m for m in loaded if m.name == model.name), None)
        app.status.set(server="connected", gpu_share=None if mine is None else mine.gpu_share)
