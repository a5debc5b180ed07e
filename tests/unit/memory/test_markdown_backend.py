from __future__ import annotations

import stat
from pathlib import Path

from memory.markdown_backend import MarkdownMemory
from memory.settings import MemorySettings


async def test_files_are_readable_append_only_and_survive_a_reopen(tmp_path: Path) -> None:
    memory = await MarkdownMemory.open(
        tmp_path / "brain.db", MemorySettings(min_relevance_score=0.0)
    )
    core = await memory.store("user `editor` #1", "The user edits in Helix\n```\ncode\n```")
    daily = await memory.store("lunch", "Had ramen", "daily")
    await memory.store("user `editor` #1", "The user edits in Zed")
    text = (tmp_path / "MEMORY.md").read_text()
    assert text.count("## user `editor` #1") == 2  # the old version stays, as history
    assert "The user edits in Helix" in text and "The user edits in Zed" in text
    assert (tmp_path / "memory" / f"{daily.timestamp:%Y-%m-%d}.md").read_text().count(
        "Had ramen"
    ) == 1
    assert stat.S_IMODE((tmp_path / "MEMORY.md").stat().st_mode) == 0o600

    reopened = await MarkdownMemory.open(tmp_path, MemorySettings(min_relevance_score=0.0))
    got = await reopened.get("user `editor` #1")
    assert got is not None and got.id == core.id and got.content == "The user edits in Zed"
    assert await reopened.count() == 2
    assert [e.key for e in (await reopened.recall("Zed editor")).entries] == ["user `editor` #1"]
