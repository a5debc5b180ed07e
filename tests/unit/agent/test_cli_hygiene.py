"""Hygiene takes any retention the config allows; reindex refuses a batch size below 1."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.errors import MemoryStoreError
from memory.settings import MemorySettings, RetentionSettings
from memory.sqlite.hygiene import cutoff_text
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from memory.write_rules import NewMemory
from tests.unit.agent.cli_harness import record, run_cli, write_config, write_jsonl

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
# Large enough to reach back before year 1000 (strftime would write "216-…", which sorts
# after "2026-…"), before year 1, beyond timedelta, and TOML's largest integer.
EXTREME_DAYS = [661_000, 739_000, 1_000_000, 999_999_999, 1_000_000_000, 2**63 - 1]


@pytest.mark.parametrize("days", EXTREME_DAYS)
def test_extreme_retention_expires_nothing_through_the_cli(isolated_dirs: Path, days: int) -> None:
    write_config(f"[memory.retention_days]\nconversation = {days}\ncore = {days}\n")
    old = record("old-chat", "said in 1999", category="conversation")
    old.update(timestamp="1999-01-01T00:00:00Z", updated_at="1999-01-01T00:00:00Z")
    source = write_jsonl(isolated_dirs / "in.jsonl", [old, record("fact", "a core fact")])
    run_cli("memory", "import", str(source)).clean()
    assert run_cli("memory", "hygiene", "--dry-run").clean().out == "would remove 0 memories\n"
    assert run_cli("memory", "hygiene").clean().out.startswith("removed 0 memories\n")
    assert len(run_cli("memory", "export").clean().out.splitlines()) == 2


def test_ordinary_retention_still_expires(isolated_dirs: Path) -> None:
    write_config("[memory.retention_days]\nconversation = 30\n")
    old = record("old-chat", "said in 1999", category="conversation")
    old.update(timestamp="1999-01-01T00:00:00Z", updated_at="1999-01-01T00:00:00Z")
    run_cli("memory", "import", str(write_jsonl(isolated_dirs / "in.jsonl", [old]))).clean()
    planned = run_cli("memory", "hygiene", "--dry-run").clean().out
    assert "old-chat" in planned
    # Its text too: a key alone did not say which message would go (an adversary).
    assert "“said in 1999”" in planned


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        (1, "2026-11-29T12:00:00.000000Z"),
        (661_000, "0217-02-27T12:00:00"),
        (739_000, "0003-08-08T12:00:00"),
        (739_950, None),
        (10**6, None),
        (2**63 - 1, None),
    ],
)
def test_cutoff_text_sorts_with_stored_times(days: int, expected: str | None) -> None:
    cutoff = cutoff_text(NOW, days)
    if expected is None:
        assert cutoff is None
    else:
        assert cutoff is not None and cutoff.startswith(expected)
        assert cutoff < "1970-01-01T00:00:00.000000Z" or days == 1


async def test_extreme_retention_at_the_store(tmp_path: Path) -> None:
    settings = MemorySettings(
        embedding_provider="none",
        retention_days=RetentionSettings(conversation=2**63 - 1, daily=661_000),
    )
    store = await SqliteMemory.open(tmp_path / "brain.db", settings)
    try:
        await store.bulk_store(
            [
                NewMemory(key="c", content="chat", category="conversation", created_at=NOW),
                NewMemory(key="d", content="note", category="daily", created_at=NOW),
            ]
        )
        assert (await store.hygiene(now=NOW)).removed == []
        assert await store.count() == 2
    finally:
        await store.close()


@pytest.mark.parametrize("batch_size", [0, -1, True, 1.5])
async def test_reindex_refuses_a_batch_size_below_one(tmp_path: Path, batch_size: object) -> None:
    store = await SqliteMemory.open(
        tmp_path / "brain.db",
        MemorySettings(embedding_provider="hashing", embedding_dimensions=8),
        CountingEmbedder(8),
    )
    try:
        await store.store("k", "some text")
        with pytest.raises(MemoryStoreError, match="batch_size must be a whole number of at least"):
            await store.reindex(batch_size=batch_size)  # type: ignore[arg-type]
        assert await store.reindex(batch_size=10**30) == 0  # huge is fine: one batch
    finally:
        await store.close()
