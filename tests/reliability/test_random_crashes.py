"""Random operations, random crashes: no acknowledged memory is ever lost, and the store
always opens.

A forked child (tests/reliability/random_ops_process.py) stores, forgets, imports,
re-imports its own export, runs hygiene and supersedes-then-restores, at random; a quarter
of its operations get an exception injected at a random statement of their transaction.
The test kills it (SIGKILL) at a random point, between operations or inside one, then
checks the file: every key holds what the last acknowledged operation left, or what the
operation in flight would have left.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
from pathlib import Path

import pytest

from memory.sqlite.store import SqliteMemory
from tests.reliability.random_ops_process import KEYS, NAMESPACES, SETTINGS, run_forked

RUNS = 8

pytestmark = pytest.mark.slow

Place = tuple[str, str]


def _apply(
    allowed: dict[Place, set[str | None]], changes: list[list[object]], *, sure: bool
) -> None:
    """Record an operation's changes: certain once acknowledged, possible while in flight."""
    for namespace, key, content in changes:
        place = (str(namespace), str(key))
        value = None if content is None else str(content)
        if sure:
            allowed[place] = {value}
        else:
            allowed[place].add(value)


def _run_child(
    path: Path, seed: int, kill_after: int, allowed: dict[Place, set[str | None]]
) -> dict[str, int]:
    """Run one child until `kill_after` protocol lines; return what happened.

    Forked, not started: the child needs no start-up, so the test spends its time on
    operations and crashes. The test itself is synchronous, so no event loop is running
    in the process being forked.
    """
    read_end, write_end = os.pipe()
    go_read, go_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.close(go_write)
        run_forked(str(path), seed, 400, write_end, go_read)
    os.close(write_end)
    os.close(go_read)
    counts = {"ack": 0, "fail": 0}
    pending: list[list[object]] = []
    lines = 0
    killed = False
    try:
        with os.fdopen(read_end) as stream:
            for line in stream:
                message = json.loads(line)
                assert "error" not in message, message["error"]
                if "begin" in message:
                    pending = message["begin"]
                    # In flight: either outcome may be on disk if the child dies now.
                    _apply(allowed, pending, sure=False)
                elif "ack" in message:
                    _apply(allowed, pending, sure=True)
                    counts["ack"] += 1
                else:
                    counts["fail"] += 1  # injected: rolled back, or committed before it hit
                lines += 1
                if lines == kill_after:
                    if "begin" in message:
                        os.write(go_write, b"g")  # killed inside the operation
                    os.kill(pid, signal.SIGKILL)
                    killed = True
                    break
                os.write(go_write, b"g")  # read: the child may go on
    except BaseException:
        os.kill(pid, signal.SIGKILL)  # a failed check must not leave the child running
        os.waitpid(pid, 0)
        raise
    finally:
        os.close(go_write)
    _, status = os.waitpid(pid, 0)
    if killed:
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    else:
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"child failed ({status})"
    return counts


async def _check(path: Path, allowed: dict[Place, set[str | None]]) -> None:
    """The file is sound and opens, and every key holds an allowed value."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    store = await SqliteMemory.open(path, SETTINGS)  # never unopenable
    try:
        for place, values in allowed.items():
            entry = await store.get(place[1], place[0])
            actual = None if entry is None else entry.content
            assert actual in values, f"{place}: {actual!r} is not one of {values!r}"
            allowed[place] = {actual}  # settled: the next run starts from what is there
        assert not store.warnings, store.warnings
    finally:
        await store.close()


def test_random_operations_and_crashes_lose_no_acknowledged_memory(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    rng = random.Random(20261201)
    allowed: dict[Place, set[str | None]] = {
        (namespace, key): {None} for namespace in NAMESPACES for key in KEYS
    }
    totals = {"ack": 0, "fail": 0}
    for _ in range(RUNS):
        counts = _run_child(path, rng.getrandbits(32), rng.randint(20, 160), allowed)
        for name, value in counts.items():
            totals[name] += value
        asyncio.run(_check(path, allowed))
    assert totals["ack"] > 30 and totals["fail"] > 0, totals
    print(f"\nrandom crashes: {totals} over {RUNS} SIGKILLed runs, nothing lost")
