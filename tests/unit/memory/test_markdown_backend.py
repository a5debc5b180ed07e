from __future__ import annotations

import asyncio
import stat
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from memory.entry import MAX_KEY_CHARS, MemoryEntry
from memory.markdown_backend import MarkdownMemory
from memory.protocol import ImportSummary
from memory.settings import MemorySettings
from tests.helpers.hostile import SURFACE_TEXT


async def test_files_are_readable_append_only_and_survive_a_reopen(tmp_path: Path) -> None:
    memory = await MarkdownMemory.open(
        tmp_path / "brain.db", MemorySettings(min_relevance_score=0.0)
    )
    core = await memory.store("user `editor` #1", "The user edits in Helix\n```\ncode\n```")
    daily = await memory.store("lunch", "Had ramen", "daily")
    zed = await memory.store("user `editor` #1", "The user edits in Zed")
    assert zed.supersedes == [core.id]
    text = (tmp_path / "MEMORY.md").read_text()
    # The old version, the new one, and the old one marked superseded (history).
    assert text.count("## user `editor` #1") == 3
    assert "The user edits in Helix" in text and "The user edits in Zed" in text
    assert (tmp_path / "memory" / f"{daily.timestamp:%Y-%m-%d}.md").read_text().count(
        "Had ramen"
    ) == 1
    assert stat.S_IMODE((tmp_path / "MEMORY.md").stat().st_mode) == 0o600

    reopened = await MarkdownMemory.open(tmp_path, MemorySettings(min_relevance_score=0.0))
    got = await reopened.get("user `editor` #1")
    assert got is not None and got.id == zed.id and got.content == "The user edits in Zed"
    assert await reopened.count() == 3
    assert await reopened.count(include_superseded=False) == 2
    assert [e.key for e in (await reopened.recall("Zed editor")).entries] == ["user `editor` #1"]


NOW = datetime(2026, 3, 1, 9, tzinfo=UTC)


def _record(entry_id: str, key: str, content: str, **fields: object) -> MemoryEntry:
    return MemoryEntry.model_validate(
        {
            "id": entry_id,
            "key": key,
            "content": content,
            "timestamp": NOW,
            "updated_at": NOW + timedelta(hours=1),
            **fields,
        }
    )


async def _markdown(root: Path) -> MarkdownMemory:
    return await MarkdownMemory.open(root, MemorySettings(embedding_provider="none"))


async def test_importing_what_the_store_holds_appends_nothing(tmp_path: Path) -> None:
    memory = await _markdown(tmp_path)
    records = [
        _record("a", "editor", "Helix\r\nand Zed", pinned=True, importance=0.9),
        _record("b", "lunch", "ramen", category="daily", session_id="s1", source="autosave"),
        _record("c", "old", "superseded", superseded_by="a"),
    ]
    assert await memory.import_(records) == ImportSummary(added=3)
    files = {p: p.read_bytes() for p in tmp_path.rglob("*.md")}
    assert await memory.import_(records) == ImportSummary(unchanged=3)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*.md")} == files


async def test_a_changed_record_appends_its_new_version_and_keeps_the_old(
    tmp_path: Path,
) -> None:
    memory = await _markdown(tmp_path)
    await memory.import_([_record("a", "home", "Ana lives in Porto")])
    # An older updated_at still wins: imported rows win, whatever their times say.
    changed = _record("a", "home", "Ana lives in Lisbon", updated_at=NOW)
    # As in SQLite: the version it replaces stays as a superseded entry of its own.
    assert await memory.import_([changed]) == ImportSummary(
        replaced=1, kept_as_history=1, older_than_replaced=1
    )
    text = (tmp_path / "MEMORY.md").read_text()
    assert "Ana lives in Porto" in text and "Ana lives in Lisbon" in text
    reopened = await _markdown(tmp_path)
    assert await reopened.get_by_id("a") == changed
    history = await reopened.list(namespace=None, include_superseded=True)
    assert [(e.content, e.superseded_by) for e in history if e.id != "a"] == [
        ("Ana lives in Porto", "a")
    ]


async def test_an_import_sets_aside_the_entry_holding_its_key_and_renumbers_foreign_ids(
    tmp_path: Path,
) -> None:
    memory = await _markdown(tmp_path)
    mine = await memory.store("home", "Ana lives in Porto")
    elsewhere = await memory.store_with_metadata("note", "a work note", namespace="work")
    summary = await memory.import_(
        [
            _record("imported", "home", "Ana lives in Lisbon"),
            _record(elsewhere.id, "note", "same id, other namespace"),
        ]
    )
    # As in SQLite: a renumbered record is also counted as added, and one that takes its
    # key from a stored entry as replacing it.
    assert summary == ImportSummary(
        added=1, replaced=1, renumbered=1, kept_as_history=1, older_than_replaced=1
    )
    assert (await memory.get("home")).id == "imported"  # type: ignore[union-attr]
    set_aside = await memory.get_by_id(mine.id)
    assert set_aside is not None and set_aside.superseded_by == "imported"
    assert await memory.get_by_id(elsewhere.id) == elsewhere
    renumbered = await memory.get("note")
    assert renumbered is not None and renumbered.id != elsewhere.id


async def test_restore_and_supersede_round_trip_through_the_files(tmp_path: Path) -> None:
    memory = await _markdown(tmp_path)
    old = await memory.store("office", "third floor")
    new = await memory.store("office new", "fifth floor")
    assert await memory.supersede([old.id, old.id], new.id) == 1
    restored = await memory.restore(old.id)
    reopened = await _markdown(tmp_path)
    assert await reopened.get_by_id(old.id) == restored and restored.superseded_by is None
    assert (await reopened.get_by_id(new.id)).superseded_by == old.id  # type: ignore[union-attr]


@given(
    content=SURFACE_TEXT,
    key=SURFACE_TEXT.filter(lambda k: k.strip() != "" and len(k) <= MAX_KEY_CHARS),
)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_text_survives_the_files(tmp_path: Path, content: str, key: str) -> None:
    async def check() -> None:
        root = Path(tempfile.mkdtemp(dir=tmp_path))
        memory = await _markdown(root)
        stored = await memory.store_with_metadata(key, content, namespace=key, source=content)
        assert await (await _markdown(root)).get_by_id(stored.id) == stored
        assert memory.warnings == []

    asyncio.run(check())
