"""SQLite's hygiene judges off the store's thread: recall goes on meanwhile.

Found by an adversary: with 5,000 messages, hygiene at the app's start held the store's
one thread for minutes, and a chat message waited that long for its recall.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memory.lifecycle import Doomed
from memory.sqlite import hygiene as hygiene_run
from memory.sqlite.store import SqliteMemory
from tests.helpers.entries import written_entry

NOW = datetime(2026, 11, 1, tzinfo=UTC)


async def test_recall_answers_while_hygiene_judges(
    store: SqliteMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = NOW - timedelta(days=400)
    await store.import_(
        [
            written_entry("old", "had lunch with Ana", "conversation", old),
            written_entry("cat", "My cat is called Tom", "core", old),
        ]
    )
    judging, recalled = threading.Event(), threading.Event()
    gave_up: list[bool] = []
    judge = hygiene_run.judge_retention

    def held_judge(read: Any, now: datetime) -> list[Doomed]:
        judging.set()
        # Held until the recall below answers: were the store's thread held as well, it
        # never would, and this gives up.
        gave_up.append(not recalled.wait(timeout=60))
        return judge(read, now)

    monkeypatch.setattr(hygiene_run, "judge_retention", held_judge)
    running = asyncio.create_task(store.hygiene(now=NOW))
    await asyncio.to_thread(judging.wait, 60)
    found = await store.recall("what is my cat called?")
    recalled.set()
    report = await running
    assert gave_up == [False]
    assert [entry.key for entry in found.entries][:1] == ["cat"]
    assert [entry.key for entry, _ in report.removed] == ["old"]


async def test_an_entry_pinned_while_judged_stays(
    store: SqliteMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judged off the store's thread, an entry pinned meanwhile is judged as it now is."""
    old = NOW - timedelta(days=400)
    entry = written_entry("old", "had lunch with Ana", "conversation", old)
    await store.import_([entry])
    judge = hygiene_run.judge_retention
    loop = asyncio.get_running_loop()

    def judge_then_pin(read: Any, now: datetime) -> list[Doomed]:
        doomed = judge(read, now)
        pinning = store.store_with_metadata("old", entry.content, "conversation", pinned=True)
        asyncio.run_coroutine_threadsafe(pinning, loop).result(timeout=60)
        return doomed

    monkeypatch.setattr(hygiene_run, "judge_retention", judge_then_pin)
    report = await store.hygiene(now=NOW)
    assert report.removed == []
    kept = await store.get("old")
    assert kept is not None and kept.pinned
