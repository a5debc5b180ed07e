"""The memory demo, played against a scripted model and a real store."""

from __future__ import annotations

from pathlib import Path

from agent.commands import key_for
from agent.config import Config
from agent.injection import FENCE_CLOSE
from agent.runtime import Runtime, open_runtime
from agent.testing import Reply, ScriptedModel, call
from memory.settings import MemorySettings
from tests.tui.conftest import settle
from tui.app import MemchatApp
from tui.demo import STEPS


async def test_the_demo_stores_recalls_supersedes_and_forgets(tmp_path: Path) -> None:
    store_cat = call("memory_store", key="cat", content="The user's cat is called Miso")
    model = ScriptedModel(
        ["Tea it is.", Reply(tool_calls=[store_cat]), "Noted.", "Coffee it is."],
        name="qwen3:8b",
    )
    settings = MemorySettings(embedding_provider="none")

    async def factory(config: Config) -> Runtime:
        return await open_runtime(config, model=model, namespace="demo-test")

    app = MemchatApp(Config(memory=settings), runtime_factory=factory, blink=False, demo_pause=0.0)
    async with app.run_test(size=(140, 40)) as pilot:
        await app.ready.wait()
        while any(w.group == "demo" and not w.is_finished for w in app.workers):
            await pilot.pause()
        await settle(pilot)
        assert app.runtime is not None
        memory = app.runtime.memory
        assert len(STEPS) == 7 and len(model.requests) == 4
        before, after = (model.requests[i].messages[-1].content for i in (0, 3))
        assert "My favourite drink is tea" in before.split(FENCE_CLOSE)[0]
        block = after.split(FENCE_CLOSE)[0]
        assert "My favourite drink is coffee" in block and "drink is tea" not in block
        assert await memory.get("my_favourite_drink_is_coffee", "demo-test") is None
        cat = await memory.get("cat", "demo-test")
        assert cat is not None and cat.source == "tool"  # the model's own call landed
        tea = await memory.get(key_for("My favourite drink is tea"), "demo-test")
        assert tea is not None and tea.content == "My favourite drink is tea"
        facts = await memory.list(namespace="demo-test", category="core", include_superseded=True)
        assert {fact.id for fact in facts} == {cat.id, tea.id}  # what coffee replaced is back
        deleted = await memory.audit_log()  # type: ignore[attr-defined]
        assert [r.content for r in deleted] == ["My favourite drink is coffee"]
        assert await memory.count(namespace="default") == 0  # nothing outside the demo
        assert app.inspector.namespace == "demo-test"
        assert any("Demo finished" in n.message for n in app._notifications)
