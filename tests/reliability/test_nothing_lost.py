"""Nothing lost: crashes, concurrent processes, a full store, a damaged file."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memory.errors import DatabaseCorruptError, StorageFullError
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = MemorySettings(embedding_provider="hashing", embedding_dimensions=64)

pytestmark = pytest.mark.slow


def writer(path: Path, prefix: str, count: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.helpers.writer_process",
            str(path),
            prefix,
            str(count),
            "embed",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )


def check_file(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')")
    finally:
        conn.close()


async def check_index_matches_file(path: Path) -> set[str]:
    store = await SqliteMemory.open(path, SETTINGS, CountingEmbedder(64))
    try:
        index = store._core.index  # noqa: SLF001 - the test compares the derived index
        conn = sqlite3.connect(path)
        rows = conn.execute(
            "SELECT seq, embedding FROM memory_vectors WHERE model = ?", (store._core.identity,)
        ).fetchall()  # noqa: SLF001
        conn.close()
        assert index.seqs() == {seq for seq, _ in rows}
        for seq, blob in rows:
            stored = index.vector(seq)
            assert stored is not None
            assert np.array_equal(stored, np.frombuffer(blob, dtype="<f4"))
        return {e.key for e in await store.list(limit=1_000_000)}
    finally:
        await store.close()


async def test_sigkilled_writers_lose_no_acknowledged_write(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    rng = random.Random(11)
    acknowledged: set[str] = set()
    for run in range(5):
        child = writer(path, f"run{run}", 1000)
        assert child.stdout is not None
        # Killed after a chosen number of acknowledged writes (a state, not a time: on a
        # busy machine a time holds any number of writes).
        wanted = rng.randint(11, 120)
        for _ in range(wanted):
            line = child.stdout.readline()
            assert line.startswith("ack "), f"run {run}: the writer stopped early ({line!r})"
            acknowledged.add(line.split()[1])
        child.send_signal(signal.SIGKILL)
        rest = child.communicate()[0]
        acknowledged.update(line.split()[1] for line in rest.splitlines() if line)
        check_file(path)
        present = await check_index_matches_file(path)
        missing = acknowledged - present
        assert not missing, f"run {run}: {len(missing)} acknowledged writes lost"
    assert len(acknowledged) > 50
    print(f"\ncrash: {len(acknowledged)} acknowledged writes over 5 SIGKILLed runs, all present")


async def test_app_and_cli_share_the_file_without_locks_or_losses(tmp_path: Path) -> None:
    """The app (this process) stores and recalls while CLI processes import and search."""
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, MEMCHAT_HOME=str(home), MEMCHAT_CONFIG=str(tmp_path / "c.toml"))
    (tmp_path / "c.toml").write_text(
        '[memory]\nembedding_provider = "hashing"\nembedding_dimensions = 64\n'
    )
    store = await SqliteMemory.open(home / "brain.db", SETTINGS, CountingEmbedder(64))
    exports = []
    for batch in range(3):
        path = tmp_path / f"batch{batch}.jsonl"
        path.write_text(
            "\n".join(
                json.dumps(
                    {
                        "id": f"cli-{batch}-{i}",
                        "key": f"cli-{batch}-{i}",
                        "content": f"cli note {i}",
                        "timestamp": "2026-11-30T09:00:00Z",
                        "updated_at": "2026-11-30T09:00:00Z",
                    }
                )
                for i in range(50)
            )
            + "\n"
        )
        exports.append(path)

    async def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "tui", "memory", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    async def app() -> None:
        for i in range(300):
            await store.store(f"app-{i}", f"app message {i} about the garden", "daily")
            if i % 10 == 0:
                await store.recall("garden message")

    async def cli_side() -> list[subprocess.CompletedProcess[str]]:
        results = []
        for path in exports:
            results.append(await cli("import", str(path)))
            results.append(await cli("search", "garden note"))
        return results

    try:
        _, results = await asyncio.gather(app(), cli_side())
        for result in results:
            assert result.returncode == 0, result.stderr
            assert "locked" not in result.stderr + result.stdout
        keys = {e.key for e in await store.list(limit=10_000)}
        assert {f"app-{i}" for i in range(300)} <= keys
        assert {f"cli-{b}-{i}" for b in range(len(exports)) for i in range(50)} <= keys
        assert len((await store.recall("cli note 7", limit=3)).entries) >= 1
    finally:
        await store.close()


async def test_a_store_that_cannot_grow_fails_clearly_and_keeps_earlier_data(
    tmp_path: Path,
) -> None:
    store = await SqliteMemory.open(tmp_path / "brain.db", SETTINGS, CountingEmbedder(64))
    try:
        for i in range(20):
            await store.store(f"early-{i}", f"an early memory number {i}", "daily")
        pages = store._db.call(
            lambda: store._core.conn.execute(  # noqa: SLF001
                "PRAGMA page_count"
            ).fetchone()[0]
        )
        store._db.call(
            lambda: store._core.conn.execute(  # noqa: SLF001
                f"PRAGMA max_page_count = {pages}"
            )
        )
        with pytest.raises(StorageFullError, match="nothing was saved, earlier memories"):
            for i in range(500):
                await store.store(f"late-{i}", f"filler {i} " + os.urandom(600).hex(), "daily")
        assert {f"early-{i}" for i in range(20)} <= {e.key for e in await store.list(limit=999)}
        assert (await store.health_check()).ok
    finally:
        await store.close()
    check_file(tmp_path / "brain.db")


async def test_a_full_store_keeps_the_users_message_in_the_input(tmp_path: Path) -> None:
    from agent.config import Config
    from agent.runtime import Runtime, open_runtime
    from agent.testing import ScriptedModel
    from tui.app import MemchatApp
    from tui.widgets.prompt_input import PromptInput

    settings = MemorySettings(embedding_provider="none")
    store = await SqliteMemory.open(tmp_path / "brain.db", settings)
    for i in range(10):
        await store.store(f"early-{i}", f"kept memory {i}", "daily")
    model = ScriptedModel(["never used"], name="qwen3:8b")

    async def factory(config: Config) -> Runtime:
        return await open_runtime(config, model=model, memory=store)

    app = MemchatApp(Config(memory=settings), runtime_factory=factory, blink=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await app.ready.wait()
        pages = store._db.call(
            lambda: store._core.conn.execute(  # noqa: SLF001
                "PRAGMA page_count"
            ).fetchone()[0]
        )
        store._db.call(
            lambda: store._core.conn.execute(  # noqa: SLF001
                f"PRAGMA max_page_count = {pages}"
            )
        )
        app.query_one(PromptInput).text = "a message that cannot be stored " * 600
        await pilot.press("enter")
        from tests.tui.conftest import settle

        await settle(pilot)
        assert app.query_one(PromptInput).text.startswith("a message that cannot be stored")
        assert any("full" in n.message for n in app._notifications)
        assert model.requests == []
    reopened = await SqliteMemory.open(tmp_path / "brain.db", settings)
    try:
        assert await reopened.count() == 10
    finally:
        await reopened.close()


@pytest.mark.parametrize(
    "content",
    [
        b"\x00" * 4096,
        b"SQLite format 3\x00" + b"\xff" * 9000,
        b"PK\x03\x04 a zip file, not a database",
    ],
)
async def test_a_corrupt_or_foreign_file_is_named_untouched_and_explained(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "brain.db"
    path.write_bytes(content)
    with pytest.raises(DatabaseCorruptError) as info:
        await SqliteMemory.open(path)
    message = str(info.value)
    assert str(path) in message and "left untouched" in message
    assert "memchat memory import" in message
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["brain.db"]
