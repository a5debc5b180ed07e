"""The lucid backend against a fake `lucid` executable: slow, failing, garbage, missing."""

from __future__ import annotations

import asyncio
import stat
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from memory.factory import open_memory
from memory.lucid_backend import LucidMemory
from memory.lucid_bridge import LucidBridge, parse_context
from memory.settings import MemorySettings

FAKE = f"""#!{sys.executable}
import os, sys, time
mode = os.environ.get("FAKE_LUCID_MODE", "ok")
with open(os.environ["FAKE_LUCID_LOG"], "a", encoding="utf-8") as log:
    log.write(repr(sys.argv[1:]) + "\\n")
if mode == "slow":
    time.sleep(30)
if mode == "fail":
    sys.stderr.write("lucid: database is locked\\n")
    sys.exit(3)
if mode == "garbage":
    sys.stdout.buffer.write(bytes(range(256)) * 50 + b"\\n- [fact] \\xff survived garbage\\n")
    sys.exit(0)
if sys.argv[1] == "context":
    print("<lucid-context>")
    print("## Relevant memories")
    print("- [fact] The user's sister lives in Porto")
    print("* The user prefers window seats")
    print("- The user prefers window seats")
    print("- [decision] Use Postgres for the shared store")
    print("</lucid-context>")
"""


@pytest.fixture
def fake_lucid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    script = tmp_path / "lucid"
    script.write_text(FAKE)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "lucid.log"
    log.touch()
    monkeypatch.setenv("FAKE_LUCID_LOG", str(log))
    return script


def calls(fake: Path, verb: str) -> list[str]:
    lines = (fake.parent / "lucid.log").read_text().splitlines()
    return [line for line in lines if line.startswith(f"['{verb}'")]


@pytest.fixture
async def memory(fake_lucid: Path, tmp_path: Path) -> AsyncIterator[LucidMemory]:
    settings = MemorySettings(
        backend="lucid",
        embedding_provider="none",
        lucid_command=str(fake_lucid),
        # The fake is a real Python process: on a busy machine it may take seconds to
        # answer, and the tests wait for its answer, not for a time. The slow-lucid test
        # sets a short timeout itself.
        lucid_timeout_s=60,
        lucid_cooldown_s=60,
        min_relevance_score=0.0,
    )
    store = await open_memory(settings, tmp_path / "data", None)
    assert isinstance(store, LucidMemory)
    try:
        yield store
    finally:
        await store.close()


async def test_store_lands_in_sqlite_and_is_sent_to_lucid(
    memory: LucidMemory, fake_lucid: Path
) -> None:
    await memory.store("pet", "The cat is called Miso", "core")
    await memory.bridge.drain()
    assert calls(fake_lucid, "store") == [
        "['store', 'pet: The cat is called Miso', '--type', 'core']"
    ]
    assert (await memory.get("pet")) is not None


async def test_lucid_fills_in_only_when_sqlite_finds_too_little(
    memory: LucidMemory, fake_lucid: Path
) -> None:
    await memory.store("seat", "The user prefers window seats", "core")
    result = await memory.recall("window seats sister Porto", limit=5)
    assert calls(fake_lucid, "context") == ["['context', 'window seats sister Porto']"]
    contents = [e.content for e in result.entries]
    assert contents == [
        "The user prefers window seats",
        "The user's sister lives in Porto",
        "Use Postgres for the shared store",
    ], "local hit first, lucid's duplicate dropped, wrapper lines ignored"
    sister = result.entries[1]
    assert sister.category == "fact" and sister.source == "lucid"
    assert sister.scores is not None and sister.scores.lane == "lucid"
    assert result.degraded is None
    assert (await memory.get_by_id(sister.id)) is None, "lucid's memories are not copied"
    facts = await memory.recall("sister", limit=5, category="fact")
    assert [e.content for e in facts.entries] == ["The user's sister lives in Porto"]

    notes = {
        "flight": "Booked window seats on the Lisbon flight",
        "train": "Reserved window seats for the night train",
        "bus": "Window seats make the coach trip bearable",
    }
    for key, note in notes.items():
        await memory.store(key, note, "daily")
    await memory.bridge.drain()
    before = len(calls(fake_lucid, "context"))
    enough = await memory.recall("window seats", limit=5)
    assert len(enough.entries) >= 3
    assert all(e.source != "lucid" for e in enough.entries)
    assert len(calls(fake_lucid, "context")) == before, "three local hits: lucid not asked"


async def test_a_slow_lucid_costs_one_timeout_then_cools_down(
    memory: LucidMemory, fake_lucid: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await memory.store("seat", "The user prefers window seats", "core")
    await memory.bridge.drain()
    monkeypatch.setenv("FAKE_LUCID_MODE", "slow")
    memory.bridge.timeout_s = 0.5
    result = await memory.recall("window seats", limit=5)
    # The fake sleeps 30 s: "timed out" proves recall stopped waiting for it, without
    # measuring a wall-clock time that a busy machine can stretch.
    assert [e.content for e in result.entries] == ["The user prefers window seats"]
    assert result.degraded is not None and "timed out after 0.5s" in result.degraded
    asked = len(calls(fake_lucid, "context"))
    again = await memory.recall("window seats", limit=5)
    assert len(calls(fake_lucid, "context")) == asked, "cooling down: lucid not asked"
    assert [e.content for e in again.entries] == ["The user prefers window seats"]
    await memory.store("new", "stored while lucid is down", "daily")
    assert (await memory.get("new")) is not None


async def test_a_failing_lucid_is_reported_and_loses_nothing(
    memory: LucidMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_LUCID_MODE", "fail")
    await memory.store("pet", "The cat is called Miso", "core")
    await memory.bridge.drain()
    assert memory.bridge.last_error == "lucid exited with status 3: lucid: database is locked"
    assert memory.bridge.cooling_down()
    result = await memory.recall("cat Miso", limit=5)
    assert [e.key for e in result.entries] == ["pet"]


async def test_garbage_output_is_survived(
    memory: LucidMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_LUCID_MODE", "garbage")
    result = await memory.recall("anything at all", limit=5)
    assert result.degraded is None
    assert [e.content for e in result.entries] == ["\ufffd survived garbage"]


async def test_a_missing_command_is_named(tmp_path: Path) -> None:
    bridge = LucidBridge(str(tmp_path / "no-such-lucid"), timeout_s=1, cooldown_s=5)
    assert await bridge.context("q", 5) == []
    assert bridge.last_error is not None and "could not start" in bridge.last_error
    assert "no-such-lucid" in bridge.last_error


async def test_the_cooldown_ends(tmp_path: Path) -> None:
    now = [100.0]
    bridge = LucidBridge(str(tmp_path / "absent"), cooldown_s=30, clock=lambda: now[0])
    await bridge.run("context", "q")
    assert bridge.calls == 1 and bridge.cooling_down()
    await bridge.run("context", "q")
    assert bridge.calls == 1
    now[0] += 30.5
    assert not bridge.cooling_down()
    await bridge.run("context", "q")
    assert bridge.calls == 2


async def test_close_waits_for_background_stores(fake_lucid: Path, tmp_path: Path) -> None:
    settings = MemorySettings(
        backend="lucid", embedding_provider="none", lucid_command=str(fake_lucid)
    )
    store = await open_memory(settings, tmp_path / "d", None)
    for i in range(4):
        await store.store(f"k{i}", f"fact {i}", "core")
    await store.close()
    assert len(calls(fake_lucid, "store")) == 4


def test_parse_context_is_defensive() -> None:
    output = "\n".join(
        [
            "lucid v9 banner",
            "- [Fact] first\x07 memory",
            "- " + "x" * 5000,
            "-not a list item",
            "-    ",
            "* FIRST memory",
            "• [  ] bullet with empty tag",
            *[f"- item {i}" for i in range(50)],
        ]
    )
    hits = parse_context(output, limit=6)
    assert hits[0].text == "first  memory" and hits[0].kind == "fact"
    assert len(hits[1].text) == 2000
    assert [h.text for h in hits[2:]] == [
        "FIRST memory",
        "bullet with empty tag",
        "item 0",
        "item 1",
    ]
    assert hits[3].kind is None


async def test_runs_do_not_block_each_other(memory: LucidMemory) -> None:
    await asyncio.gather(*(memory.store(f"k{i}", f"parallel {i}") for i in range(5)))
    await memory.bridge.drain()
    assert await memory.count() == 5
