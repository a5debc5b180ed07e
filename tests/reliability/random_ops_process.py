"""A child process that runs random memory operations and reports each one.

Usage: python -m tests.reliability.random_ops_process DB_PATH SEED STEPS
(the test forks and calls `run_forked` instead, which saves the start-up of a process).

For every operation it prints a JSON line `{"begin": CHANGES}` before it starts, then
`{"ack": true}` once the store acknowledged it, or `{"fail": TEXT}` when an exception
injected into its transaction stopped it. CHANGES lists `[namespace, key, content]`
(content null: the key has no active entry afterwards). The parent kills this process
at any moment and checks the file against what was acknowledged.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

from memory.errors import MemoryStoreError
from memory.records import MemoryRecord
from memory.settings import BudgetSettings, MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder

NAMESPACES = ("default", "work")
KEYS = tuple(f"k{i}" for i in range(10))
SETTINGS = MemorySettings(
    embedding_provider="hashing",
    embedding_dimensions=64,
    budgets=BudgetSettings(daily_max_entries=12),
)
Change = list[object]


class Injected(sqlite3.OperationalError):
    """The failure a test injects into a transaction (as SQLite would raise one)."""


class FailingConnection:
    """Delegates to a connection; its `fail_at`-th statement raises `Injected`."""

    def __init__(self, conn: sqlite3.Connection, fail_at: int) -> None:
        self._conn = conn
        self._left = fail_at

    def _tick(self) -> None:
        self._left -= 1
        if self._left == 0:
            raise Injected("injected failure")

    def execute(self, *args: Any) -> sqlite3.Cursor:
        self._tick()
        return self._conn.execute(*args)

    def executemany(self, *args: Any) -> sqlite3.Cursor:
        self._tick()
        return self._conn.executemany(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


OUT: list[TextIO] = [sys.stdout]
GO: list[int | None] = [None]
"""Forked: where the parent says to go on after each line it has read."""


def emit(message: dict[str, object]) -> None:
    """Report one line; forked, wait until the parent has read it.

    Without the wait the child ran ahead of what the parent had read, and a kill left
    changes of operations the parent never heard of (a false loss on a busy machine).
    """
    OUT[0].write(json.dumps(message) + "\n")
    OUT[0].flush()
    if GO[0] is not None:
        os.read(GO[0], 1)


def words(rng: random.Random) -> str:
    """Text sharing no word with any other (no merge, no supersede by similarity)."""
    return " ".join(f"{rng.getrandbits(40):010x}" for _ in range(4))


class Runner:
    """Chooses and runs operations; each returns the changes it makes."""

    def __init__(self, store: SqliteMemory, rng: random.Random) -> None:
        self.store = store
        self.rng = rng

    async def run(self, name: str) -> None:
        if name == "supersede_restore":
            await self.supersede_restore()
            return
        operation = getattr(self, name)
        changes, act = await operation()
        await self.step(changes, act)

    async def step(self, changes: list[Change], act: Any) -> Any:
        emit({"begin": changes})
        core = self.store._core  # noqa: SLF001 - the injection seam
        real = core.conn
        if self.rng.random() < 0.25:
            core.conn = FailingConnection(real, self.rng.randint(1, 12))  # type: ignore[assignment]
        try:
            result = await act()
        except (MemoryStoreError, sqlite3.Error) as exc:
            emit({"fail": str(exc)})
            return None
        finally:
            core.conn = real
        emit({"ack": True})
        return result

    def place(self) -> tuple[str, str]:
        return self.rng.choice(NAMESPACES), self.rng.choice(KEYS)

    async def store_one(self) -> tuple[list[Change], Any]:
        namespace, key = self.place()
        content = words(self.rng)
        return [[namespace, key, content]], lambda: self.store.store_with_metadata(
            key, content, "daily", namespace=namespace
        )

    async def forget(self) -> tuple[list[Change], Any]:
        namespace, key = self.place()
        return [[namespace, key, None]], lambda: self.store.forget(key, namespace)

    async def import_records(self) -> tuple[list[Change], Any]:
        now = datetime.now(UTC)
        records: list[MemoryRecord] = []
        changes: list[Change] = []
        for _ in range(self.rng.randint(1, 3)):
            namespace, key = self.place()
            current = await self.store.get(key, namespace)
            content = words(self.rng)
            if current is not None and self.rng.random() < 0.5:
                record = MemoryRecord(**current.model_dump(exclude={"supersedes"}))
                record = record.model_copy(update={"content": content})  # same id, edited
            else:
                record = MemoryRecord(
                    id=f"imp-{self.rng.getrandbits(64):016x}",
                    key=key,
                    content=content,
                    category="daily",
                    namespace=namespace,
                    timestamp=now,
                    updated_at=now,
                )
            if any(r.id == record.id for r in records):
                continue
            records.append(record)
            changes.append([namespace, key, content])
        return changes, lambda: self.store.import_(records)

    async def reimport(self) -> tuple[list[Change], Any]:
        exported = [r async for r in self.store.export()]

        async def act() -> None:
            summary = await self.store.import_(exported)
            if summary.unchanged != len(exported) or summary.added or summary.replaced:
                emit({"error": f"re-import of an export changed the store: {summary}"})
                sys.exit(2)

        return [], act

    async def hygiene(self) -> tuple[list[Change], Any]:
        now = datetime.now(UTC)
        plan = await self.store.hygiene(dry_run=True, now=now)
        gone: list[Change] = [
            [entry.namespace, entry.key, None]
            for entry, _reason in plan.removed
            if entry.superseded_by is None
        ]
        return gone, lambda: self.store.hygiene(now=now)

    async def supersede_restore(self) -> None:
        namespace, key = self.place()
        current = await self.store.get(key, namespace)
        if current is None:
            return
        content = words(self.rng)
        newer = await self.step(
            [[namespace, key, content]],
            lambda: self.store.store_with_metadata(key, content, "core", namespace=namespace),
        )
        if newer is None or current.id not in newer.supersedes:
            return
        await self.step([[namespace, key, current.content]], lambda: self.store.restore(current.id))


OPERATIONS = (
    ["store_one"] * 6
    + ["forget"] * 2
    + ["import_records"] * 2
    + ["reimport", "hygiene", "supersede_restore"]
)


async def main(path: str, seed: int, steps: int) -> None:
    store = await SqliteMemory.open(path, SETTINGS, CountingEmbedder(64))
    rng = random.Random(seed)
    runner = Runner(store, rng)
    try:
        for _ in range(steps):
            await runner.run(rng.choice(OPERATIONS))
    finally:
        await store.close()


def run_forked(path: str, seed: int, steps: int, descriptor: int, go: int) -> None:
    """The body of a forked child: run, report on `descriptor`, and never return.

    After each line it waits for a byte on `go`: the parent has read that line.
    """
    code = 0
    try:
        OUT[0] = os.fdopen(descriptor, "w")
        GO[0] = go
        asyncio.run(main(path, seed, steps))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported through the exit status
        code = 1
    finally:
        os._exit(code)  # never run the parent's (pytest's) clean-up in the child


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
