from __future__ import annotations

import asyncio
import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from memory.embedding.hashing import HashingEmbedder
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from tests.unit.agent.cli_harness import record, run_cli, write_config, write_jsonl
from tui.cli import main


@pytest.fixture
def configured(isolated_dirs: Path) -> Path:
    config = Path(os.environ["MEMCHAT_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[memory]\nembedding_provider = "hashing"\nembedding_dimensions = 64\n')
    return config


def _seed() -> None:
    import asyncio

    from agent.cli.store import opened_memory
    from agent.config_file import load_config

    async def seed() -> None:
        async with opened_memory(load_config()) as memory:
            await memory.store("editor", "The user edits code in Helix", "core")
            await memory.store("pet", "The user's cat is called Miso", "core")
            await memory.store("lunch", "Had ramen for lunch", "daily")

    asyncio.run(seed())


def test_list_search_get_forget_stats(configured: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _seed()
    assert main(["memory", "list"]) == 0
    out = capsys.readouterr().out
    assert out.index("lunch") < out.index("pet") < out.index("editor")
    assert main(["memory", "list", "--category", "daily", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["key"] for r in rows] == ["lunch"]
    assert main(["memory", "search", "cat called Miso"]) == 0
    out = capsys.readouterr().out
    assert "mode: keyword-early" in out and "pet" in out and "keyword 1.00" in out
    assert main(["memory", "get", "editor"]) == 0
    assert json.loads(capsys.readouterr().out)["content"] == "The user edits code in Helix"
    assert main(["memory", "forget", "editor"]) == 0
    assert "forgot 'editor'" in capsys.readouterr().out
    assert main(["memory", "get", "editor"]) == 1
    assert "no memory with key 'editor'" in capsys.readouterr().err
    assert main(["memory", "search", "thanks, that's all for now"]) == 0
    out = capsys.readouterr().out
    assert "mode: skipped" in out and "asks about nothing" in out and "pet" not in out
    assert main(["memory", "stats"]) == 0
    out = capsys.readouterr().out
    assert "total: 2" in out and "health: not checked" in out
    assert main(["memory", "stats", "--check"]) == 0
    out = capsys.readouterr().out
    assert "total: 2" in out and "health: ok" in out


def test_export_import_round_trip(
    configured: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed()
    dump = tmp_path / "dump.jsonl"
    assert main(["memory", "export", str(dump)]) == 0
    assert "exported 3 memories" in capsys.readouterr().err
    assert (dump.stat().st_mode & 0o777) == 0o600
    lines = dump.read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["embedding"] for line in lines)
    data = Path(os.environ["MEMCHAT_HOME"])
    os.environ["MEMCHAT_HOME"] = str(data.parent / "fresh")
    try:
        assert main(["memory", "import", str(dump)]) == 0
        assert "imported 3 records: 3 new\n" in capsys.readouterr().out
        assert main(["memory", "export"]) == 0
        assert capsys.readouterr().out.splitlines() == lines
    finally:
        os.environ["MEMCHAT_HOME"] = str(data)


def test_import_names_the_bad_line(
    configured: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('\n{"not": "a record"}\n')
    assert main(["memory", "import", str(bad)]) == 2
    assert "import line 2" in capsys.readouterr().err


def test_reindex_shows_progress(configured: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _seed()
    configured.write_text('[memory]\nembedding_provider = "hashing"\nembedding_dimensions = 32\n')
    assert main(["memory", "reindex", "--batch-size", "2"]) == 0
    captured = capsys.readouterr()
    assert "reindexed 3 memories" in captured.out
    assert "3/3" in captured.err


def test_bad_config_is_reported_not_raised(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configured.write_text("[memory]\nbackend = 'sqlitee'\n")
    assert main(["memory", "list"]) == 2
    err = capsys.readouterr().err
    assert "config.toml:2: memory.backend: unknown backend 'sqlitee'" in err
    assert "qdrant, sqlite" in err


def test_corrupt_database_is_reported(configured: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = Path(os.environ["MEMCHAT_HOME"])
    home.mkdir(parents=True)
    (home / "brain.db").write_text("garbage")
    assert main(["memory", "stats"]) == 2
    said = capsys.readouterr().err
    assert "not a usable memchat database" in said and "MEMORY_SNAPSHOT" not in said
    # Found by an adversary: the snapshot beside it, which rebuilds the core facts, went
    # unnamed.
    (home / "MEMORY_SNAPSHOT.md").write_text("# memchat memory snapshot\n")
    assert main(["memory", "stats"]) == 2
    assert "rebuilt from MEMORY_SNAPSHOT.md beside it" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("memchat ")


def test_none_backend(configured: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configured.write_text("[memory]\nbackend = 'none'\n")
    assert main(["memory", "search", "anything"]) == 0
    assert "mode: off" in capsys.readouterr().out


def test_hygiene_dry_run_then_real_run_then_audit_and_snapshot(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio
    from datetime import UTC, datetime, timedelta

    from agent.cli.store import opened_memory
    from agent.config_file import load_config
    from memory.write_rules import NewMemory

    async def seed() -> None:
        async with opened_memory(load_config()) as memory:
            from memory.sqlite.store import SqliteMemory

            assert isinstance(memory, SqliteMemory)
            old = datetime.now(UTC) - timedelta(days=90)
            await memory.bulk_store(
                [
                    NewMemory(
                        key="old-chat",
                        content="said in spring",
                        category="conversation",
                        created_at=old,
                    ),
                    NewMemory(key="fact", content="a core fact", category="core", created_at=old),
                ]
            )

    asyncio.run(seed())
    assert main(["memory", "hygiene", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would remove 1 memory\n" in out and "old-chat" in out
    assert "retention: conversation older than 30 days" in out
    assert main(["memory", "hygiene"]) == 0
    out = capsys.readouterr().out
    assert "removed 1 memory\n" in out and "snapshot written to" in out
    assert main(["memory", "audit"]) == 0
    out = capsys.readouterr().out
    assert "hygiene  old-chat" in out and "retention" in out
    snapshot = Path(os.environ["MEMCHAT_HOME"]) / "MEMORY_SNAPSHOT.md"
    assert "## fact" in snapshot.read_text()
    assert main(["memory", "snapshot", str(configured.parent / "copy.md")]) == 0
    assert (configured.parent / "copy.md").read_text().count("## fact") == 1


def test_migrate_to_markdown_and_switch(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    from agent.config_file import load_config
    from agent.runtime import open_runtime

    _seed()
    assert main(["memory", "migrate", "--to", "markdown", "--dry-run"]) == 0
    assert "would copy 3 memories from sqlite to markdown" in capsys.readouterr().out
    data = Path(os.environ["MEMCHAT_HOME"])
    assert not (data / "MEMORY.md").exists()
    assert main(["memory", "migrate", "--to", "sqlite"]) == 2
    assert "both 'sqlite'" in capsys.readouterr().err
    configured.write_text(configured.read_text() + 'backend = "markdown"\n')

    async def warnings() -> list[str]:
        runtime = await open_runtime(load_config())
        try:
            return runtime.warnings
        finally:
            await runtime.memory.close()

    (hint,) = asyncio.run(warnings())
    assert "migrate --from sqlite --to markdown" in hint
    assert main(["memory", "migrate", "--from", "sqlite", "--to", "markdown"]) == 0
    captured = capsys.readouterr()
    assert "copied 3 memories from sqlite to markdown; every field verified" in captured.out
    assert "3/3" in captured.err
    assert "Miso" in (data / "MEMORY.md").read_text()
    assert asyncio.run(warnings()) == []
    assert main(["memory", "list"]) == 0
    assert "pet" in capsys.readouterr().out
    assert (data / "brain.db").exists(), "the source store must be kept"


def test_migrating_over_newer_versions_says_so(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by a new user: migrating into a store used since the last migration put the
    older facts back in effect and said only "every field verified"."""
    from agent.cli.store import opened_memory
    from agent.config_file import load_config

    _seed()
    assert main(["memory", "migrate", "--to", "markdown"]) == 0
    markdown = load_config()
    markdown.memory.backend = "markdown"

    async def change_pet() -> None:
        async with opened_memory(markdown) as memory:
            await memory.store("pet", "The user's cat is now called Tofu", "core")

    asyncio.run(change_pet())
    capsys.readouterr()
    assert main(["memory", "migrate", "--to", "markdown", "--dry-run"]) == 0
    assert "note: 1 of them would replace a newer version in markdown" in capsys.readouterr().out
    assert main(["memory", "migrate", "--to", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "2 of them were already there, unchanged; 1 replaced another version there" in out
    assert "note: in markdown, 1 record was older than the version it replaced" in out


def test_the_audit_says_when_a_deletion_was_undone(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from agent.cli.store import opened_memory
    from agent.config_file import load_config
    from agent.memory_editing import MemoryEditor

    _seed()

    async def forget_and_undo() -> None:
        async with opened_memory(load_config()) as memory:
            editor = MemoryEditor(memory)
            pet = await memory.get("pet")
            assert pet is not None
            await editor.undo_forget(await editor.forget(pet))
            await memory.forget("lunch")

    asyncio.run(forget_and_undo())
    assert main(["memory", "audit"]) == 0
    *lines, hint = capsys.readouterr().out.splitlines()
    assert [" pet " in line for line in lines] == [False, True]
    assert hint == "`memchat memory restore ID` brings a deleted memory back"  # lunch
    assert "(core)  forgotten (restored since)  “" in lines[1]
    assert "restored" not in lines[0]
    # A merge keeps the version it sets aside: it never went, so it was not restored.
    assert main(["memory", "store", "--key", "trip", "Dentist appointment on Tuesday at 3 pm"]) == 0
    merged = "Dentist appointment on Tuesday at 3 pm with the insurance card"
    assert main(["memory", "store", "--key", "trip_2", merged]) == 0
    capsys.readouterr()
    assert main(["memory", "audit"]) == 0
    [merge_line] = [line for line in capsys.readouterr().out.splitlines() if " trip " in line]
    assert "merge" in merge_line and "restored since" not in merge_line


def test_a_key_left_only_as_history_is_explained(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by an adversary: `get` and `forget` said "no memory" for a key that
    `list --all` showed."""
    from agent.cli.store import opened_memory
    from agent.config_file import load_config

    async def replaced_on_its_subject() -> None:
        async with opened_memory(load_config()) as memory:
            miso = await memory.store("cat_name", "My cat is called Miso")
            tofu = await memory.store("pet_cat", "My cat is called Tofu")
            await memory.supersede([miso.id], tofu.id)

    asyncio.run(replaced_on_its_subject())
    assert main(["memory", "get", "cat_name"]) == 1
    assert "no memory with key 'cat_name' in effect: 1 earlier version is" in (
        capsys.readouterr().err
    )
    assert main(["memory", "forget", "cat_name"]) == 1
    assert "history of other memories" in capsys.readouterr().err
    assert main(["memory", "forget", "nothing_like_it"]) == 1
    # Found by a new user: on stdout, without memchat's name, unlike `get`.
    assert capsys.readouterr() == ("", "memchat: no memory with key 'nothing_like_it'\n")


def test_an_empty_listing_names_what_the_store_holds(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by a new user: `list --category cor` (a typo) said "no memories", exit 0."""
    _seed()
    assert main(["memory", "list", "--category", "cor"]) == 0
    assert capsys.readouterr().out == (
        "no memories (category 'cor' holds none; the store has 'core' (2), 'daily' (1))\n"
    )
    assert main(["memory", "list", "--namespace", "nope"]) == 0
    assert "namespace 'nope' holds none; the store has 'default' (3)" in capsys.readouterr().out
    assert main(["memory", "list", "--offset", "100"]) == 0
    assert capsys.readouterr().out == "no memories from 101 on: the list has 3\n"


def test_store_warnings_go_to_stderr_escaped(
    configured: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import agent.wiring
    from memory.factory import open_memory

    async def with_warnings(*args: Any, **kwargs: Any) -> Any:
        memory = await open_memory(*args, **kwargs)
        memory.warnings.extend(["row 3 skipped: damaged \x1b[2J", "read-only mode"])
        return memory

    assert main(["memory", "reindex"]) == 0  # a writing command creates the store
    capsys.readouterr()
    monkeypatch.setattr(agent.wiring, "open_memory", with_warnings)
    assert main(["memory", "list"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "no memories\n"
    assert captured.err == (
        "memchat: warning: row 3 skipped: damaged \\x1b[2J\nmemchat: warning: read-only mode\n"
    )


async def _store_one_with(embedder: HashingEmbedder) -> None:
    settings = MemorySettings(embedding_provider="hashing", embedding_dimensions=32)
    store = await SqliteMemory.open(
        Path(os.environ["MEMCHAT_HOME"]) / "brain.db", settings, embedder
    )
    try:
        await store.store("new", "a memory saved with the current model")
    finally:
        await store.close()


def test_search_says_which_memories_lack_a_vector_from_the_current_model(tmp_path: Path) -> None:
    write_config()
    source = write_jsonl(
        tmp_path / "in.jsonl", [record("trip", "Kyoto in November"), record("pet", "dog Biscuit")]
    )
    imported = run_cli("memory", "import", str(source)).clean().out
    assert "note: 2 imported memories have no vector from the hashing embedder" in imported
    assert "memchat memory reindex" in imported
    # Another size is another embedding identity: the stored vectors no longer compare.
    Path(os.environ["MEMCHAT_CONFIG"]).write_text(
        '[memory]\nembedding_provider = "hashing"\nembedding_dimensions = 32\n', encoding="utf-8"
    )
    none_yet = run_cli("memory", "search", "Kyoto trip").clean().out
    assert "no stored memory has a vector from the current embedding model" in none_yet
    assert "reindex" in none_yet
    asyncio.run(_store_one_with(HashingEmbedder(32)))
    partly = run_cli("memory", "search", "Kyoto trip").clean().out
    assert "note: 2 memories have no vector from the hashing embedder (32 dimensions)" in partly
    assert "or they were imported without one" in partly
    run_cli("memory", "reindex").clean()
    assert "note:" not in run_cli("memory", "search", "Kyoto trip").clean().out


def test_search_shows_what_a_turn_recalls_unless_asked_for_more(tmp_path: Path) -> None:
    write_config("recall_limit = 3\n")
    facts = [record(f"tea{i}", f"I drink green tea number {i} every morning") for i in range(6)]
    run_cli("memory", "import", str(write_jsonl(tmp_path / "in.jsonl", facts))).clean()
    shown = run_cli("memory", "search", "green tea every morning", "--json").clean().out
    assert len(json.loads(shown)["entries"]) == 3
    more = run_cli("memory", "search", "green tea every morning", "--limit", "6", "--json")
    assert len(json.loads(more.clean().out)["entries"]) == 6


def _damage_audit_pages(path: Path) -> None:
    """Overwrite the audit log's leaf pages: a store whose memories read fine."""
    import sqlite3

    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = [
        row[0]
        for row in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'memory_audit' AND pagetype = 'leaf'"
        )
    ]
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert pages
    data = bytearray(path.read_bytes())
    for page in pages:
        start = (page - 1) * page_size
        data[start : start + page_size] = b"\xa5" * page_size
    path.write_bytes(bytes(data))


def test_reading_commands_skip_the_page_check_and_writing_ones_do_not(configured: Path) -> None:
    async def seed() -> None:
        from agent.cli.store import opened_memory
        from agent.config_file import load_config

        async with opened_memory(load_config()) as memory:
            for i in range(60):
                await memory.store(f"note-{i}", f"a note to forget {i} " + "words " * 60, "daily")
            await memory.store("pet", "The user's cat is called Miso", "core")
            for i in range(60):
                await memory.forget(f"note-{i}")

    asyncio.run(seed())
    path = Path(os.environ["MEMCHAT_HOME"]) / "brain.db"
    _damage_audit_pages(path)
    before = path.read_bytes()

    assert "pet" in run_cli("memory", "list").clean().out
    assert "Miso" in run_cli("memory", "get", "pet").clean().out
    stats = run_cli("memory", "stats").clean()
    assert "total: 1" in stats.out and "health: not checked" in stats.out
    checked = run_cli("memory", "stats", "--check").clean(1)
    assert "health: PROBLEM" in checked.out
    as_json = json.loads(run_cli("memory", "stats", "--check", "--json").clean(1).out)
    assert as_json["health"]["ok"] is False and as_json["health"]["detail"]
    # Reading the damaged pages, and opening to write, report the damage.
    for refused in (run_cli("memory", "audit"), run_cli("memory", "forget", "pet")):
        refused.clean(2)
        assert "not a usable memchat database" in refused.err and "untouched" in refused.err
    assert path.read_bytes() == before


def test_the_note_after_a_long_list_follows_its_last_line_in_one_pipe(
    configured: Path,
) -> None:
    """Found by an adversary: with both streams in one pipe, "showing 1-3 of 68" was glued
    to the end of a listed memory (stdout is written in blocks, stderr at once)."""
    import asyncio
    import subprocess
    import sys

    from agent.cli.store import opened_memory
    from agent.config_file import load_config

    async def seed() -> None:
        async with opened_memory(load_config()) as memory:
            for n in range(80):
                await memory.store(f"note_{n}", f"Note {n} about the bakery: " + "flour " * 40)

    asyncio.run(seed())
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    done = subprocess.run(
        [sys.executable, "-m", "tui", "memory", "list", "--limit", "70"],
        env=buffered,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[-1] == "showing 1-70 of 80; --offset 70 for more"
    assert len(lines) == 71 and all(line.startswith("note_") for line in lines[:-1])


def test_a_list_cut_by_its_limit_says_how_to_see_more(configured: Path) -> None:
    _seed()
    first = run_cli("memory", "list", "--limit", "2").clean()
    assert len(first.out.splitlines()) == 2
    assert "showing 1-2 of 3; --offset 2 for more" in first.err
    rest = run_cli("memory", "list", "--limit", "2", "--offset", "2").clean()
    assert len(rest.out.splitlines()) == 1 and rest.err == ""
    whole = run_cli("memory", "list", "--limit", "3").clean()
    assert whole.err == ""


def test_a_search_with_nothing_above_the_floor_shows_what_fell_short(configured: Path) -> None:
    _seed()
    ran = run_cli(
        "memory", "search", "ramen recipes for quantum chemistry seminars in Reykjavik"
    ).clean()
    assert "nothing above the relevance floor (0.30); the weaker matches left out:" in ran.out
    assert "Had ramen for lunch" in ran.out and "fused 0." in ran.out
    # A saved question is left out at any score: not called a weaker match (a new user).
    asked = ["memory", "store", "--category", "conversation", "--key", "q", "my violin teacher?"]
    assert run_cli(*asked).code == 0
    again = run_cli("memory", "search", "my violin teacher?").clean()
    assert "nothing above the relevance floor (0.30); what was left out:" in again.out
    assert "not used: a saved question says no fact" in again.out


def test_stats_check_finds_an_index_that_disagrees_with_its_table(configured: Path) -> None:
    import sqlite3

    async def seed() -> None:
        from agent.cli.store import opened_memory
        from agent.config_file import load_config

        async with opened_memory(load_config()) as memory:
            for i in range(300):
                await memory.store(f"key{i:04d}", f"note number {i}", "daily")

    asyncio.run(seed())
    path = Path(os.environ["MEMCHAT_HOME"]) / "brain.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = [
        row[0]
        for row in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'memories_key' AND pagetype = 'leaf'"
        )
    ]
    conn.close()
    data = bytearray(path.read_bytes())
    for page in pages:
        start = (page - 1) * page_size
        at = data.find(b"key0150", start, start + page_size)
        if at >= 0:
            data[at + 2] = ord("z")  # the index now says "kez0150"; the row still "key0150"
            break
    else:
        raise AssertionError("key0150 is in no leaf page of the index")
    path.write_bytes(bytes(data))
    checked = run_cli("memory", "stats", "--check").clean(1)
    assert "health: PROBLEM" in checked.out


def test_the_readmes_date_questions_find_what_was_saved_then(
    configured: Path, tmp_path: Path
) -> None:
    # Noon UTC: the same calendar day in every zone from UTC-11 to UTC+11.
    def saved(key: str, content: str, day: str) -> dict[str, Any]:
        return record(key, content, timestamp=f"{day}T12:00:00Z", updated_at=f"{day}T12:00:00Z")

    june_2023 = {"dune", *(f"june{i}" for i in range(10))}
    rows = [
        saved("dune", "Started reading Dune", "2023-06-05"),
        *(saved(f"june{i}", f"Walked to the lake {i}", f"2023-06-{i + 10}") for i in range(10)),
        saved("bike", "Bought a new bike", "2023-10-13"),
        *(saved(f"other{i}", f"An ordinary day {i}", f"2024-0{1 + i % 9}-15") for i in range(200)),
    ]
    run_cli("memory", "import", str(write_jsonl(tmp_path / "dated.jsonl", rows))).clean()
    run_cli("memory", "reindex").clean()  # with vectors, as the app would have them

    def keys(ran: Any) -> list[str]:
        return [line.split()[1] for line in ran.out.splitlines() if line[:1].isdigit()]

    # "notes" is in no memory and June 2023 in eleven: the month must still carry it.
    june = keys(run_cli("memory", "search", "my notes from June 2023").clean())
    assert june and set(june) <= june_2023, june
    october = run_cli("memory", "search", "what did I tell you on October 13?").clean()
    assert keys(october) == ["bike"], october.out


class _Terminal(io.StringIO):
    """Standard input as a person at a terminal types it."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("answer", "forgotten"), [("y\n", True), ("\n", False), ("no\n", False)])
def test_forget_at_a_terminal_asks_first(
    configured: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    answer: str,
    forgotten: bool,
) -> None:
    """Found by a new user: one command deleted every version of a memory, with no
    question and no undo. At a terminal it asks; `--yes` and scripts do not."""
    _seed()
    assert main(["memory", "store", "--key", "editor", "The user edits code in Zed"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", _Terminal(answer))
    assert main(["memory", "forget", "editor"]) == (0 if forgotten else 1)
    captured = capsys.readouterr()
    assert "Forget 'editor' (The user edits code in Zed) and 1 earlier version?" in captured.err
    assert ("nothing was forgotten" in captured.err) is not forgotten
    assert (main(["memory", "get", "editor"]) == 0) is not forgotten
    # How to bring it back is said, not "it cannot be undone" (a new user restored it).
    shown = re.search(r"`memchat memory restore (\w+)` brings it back", captured.err)
    assert shown is not None and "cannot be undone" not in captured.err
    if forgotten:
        assert f"restore {shown.group(1)}` brings it back" in captured.out
        assert main(["memory", "restore", shown.group(1)]) == 0
        assert main(["memory", "get", "editor"]) == 0
        assert "Zed" in capsys.readouterr().out
        assert main(["memory", "forget", "--yes", "editor"]) == 0
    monkeypatch.setattr(sys, "stdin", _Terminal(""))  # --yes: nothing is read
    assert main(["memory", "forget", "--yes", "pet"]) == 0
    assert "Forget" not in capsys.readouterr().err
    # A fact it replaced under another key comes back into effect: the question names it.
    assert main(["memory", "store", "--key", "lang", "The user prefers Rust"]) == 0
    assert main(["memory", "store", "--key", "language", "The user prefers Python"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", _Terminal("n\n"))
    assert main(["memory", "forget", "language"]) == 1
    asked = capsys.readouterr().err
    assert "what it had replaced comes back into effect: 'lang' (The user prefers Rust)?" in asked
    # With --yes it is said after: a wrong replacement took the other fact unnamed (an
    # adversary); now the other fact stays, and is named.
    assert main(["memory", "forget", "--yes", "language"]) == 0
    said = capsys.readouterr().out
    assert "forgot 'language'; what it had replaced is in effect again: 'lang' (The" in said
    assert main(["memory", "get", "lang"]) == 0
    assert "The user prefers Rust" in capsys.readouterr().out


def test_a_text_changed_inside_the_file_is_reported_by_the_check(configured: Path) -> None:
    """Found by an adversary: five bytes of a memory overwritten inside brain.db were
    served and exported as they now read, and `stats --check` said ok (SQLite's page
    checks cannot see a change inside a row)."""

    async def seed() -> None:
        from agent.cli.store import opened_memory
        from agent.config_file import load_config

        async with opened_memory(load_config()) as memory:
            await memory.store("bike", "The user rides a red Brompton bike car", "core")
            await memory.store("pet", "The user's cat is called Miso", "core")

    asyncio.run(seed())
    path = Path(os.environ["MEMCHAT_HOME"]) / "brain.db"
    assert "health: ok" in run_cli("memory", "stats", "--check").clean().out
    data = path.read_bytes()
    assert data.count(b"red Brompton") == 1  # the row itself (the index keeps stems)
    path.write_bytes(data.replace(b"red Brompton", b"XXXXXrompton"))
    checked = run_cli("memory", "stats", "--check").clean(1)
    assert "health: PROBLEM" in checked.out
    assert "1 memory's text is not what was written (first: key 'bike'" in checked.out
    assert path.read_bytes() == data.replace(b"red Brompton", b"XXXXXrompton")  # left as it is
    # An export of it says so: an adversary's went into a backup without a word.
    exported = run_cli("memory", "export", str(path.parent / "backup.jsonl")).clean()
    assert "exported 2 memories" in exported.err
    assert "warning: the store's check finds damage" in exported.err
    assert "keep your earlier backups" in exported.err
    # To standard output too (an adversary's went into a file through the shell).
    piped = run_cli("memory", "export").clean()
    assert "XXXXXrompton" in piped.out and "warning: the store's check finds damage" in piped.err


def test_forget_names_the_saved_messages_and_the_facts_that_come_back() -> None:
    from agent.cli.entry_commands import _with_it
    from memory.entry import utc_now
    from tests.helpers.entries import written_entry

    porto = written_entry("home", "I live in Porto", "core", utc_now())
    said = _with_it(1, 2, [porto], done=True)
    assert said == (
        " and 1 earlier version, with 2 saved messages it was made from; what it had "
        "replaced is in effect again: 'home' (I live in Porto)"
    )
    assert "comes back into effect" in _with_it(0, 0, [porto], done=False)
    assert _with_it(0, 0, [], done=True) == ""


def test_store_refuses_what_remember_refuses(configured: Path) -> None:
    """Found by an adversary: `memory store` took 120,000 characters, /remember 10,000."""
    from agent.commands import MAX_FACT_CHARS

    too_long = "word " * (MAX_FACT_CHARS // 5) + "more"
    refused = run_cli("memory", "store", too_long).clean(1)
    assert "at most 10,000 characters" in refused.err and refused.out == ""
    assert "no memory store" in run_cli("memory", "list").clean(2).err  # nothing was made
    assert run_cli("memory", "store", too_long[:MAX_FACT_CHARS]).clean().code == 0


def test_forget_and_get_of_an_unknown_key_name_the_keys_meant(configured: Path) -> None:
    """Found by a new user: `memory forget "partner Robin"` said only "no memory with key"
    where the chat's /forget names the keys it may have meant."""
    assert run_cli("memory", "store", "--key", "partner", "My partner is called Robin").code == 0
    forgot = run_cli("memory", "forget", "--yes", "partner Robin").clean(1)
    assert "no memory with key 'partner Robin'; did you mean 'partner' (My partner" in forgot.err
    got = run_cli("memory", "get", "robin").clean(1)
    assert "did you mean 'partner'" in got.err
    assert run_cli("memory", "get", "partner").clean().code == 0


def test_forget_erase_leaves_nothing_to_restore(configured: Path) -> None:
    """Found by a new user: a door code stored and then forgotten was still listed by
    `memory audit`, and the database file held it."""
    assert run_cli("memory", "store", "--key", "garage", "The garage code is 99117723").code == 0
    assert run_cli("memory", "store", "--key", "tea", "I like green tea").code == 0
    forgot = run_cli("memory", "forget", "--yes", "garage").clean()
    # A new user read the forgotten password in `memory audit` after, unwarned.
    assert "stays in the audit log until erased: `memchat memory forget garage --erase`" in (
        forgot.out
    )
    assert run_cli("memory", "store", "--key", "pet", "My cat is called Miso").code == 0
    assert "audit log" not in run_cli("memory", "forget", "--yes", "pet").clean().out
    assert "99117723" in run_cli("memory", "audit").clean().out
    # A key forgotten before is erased too.
    erased = run_cli("memory", "forget", "--yes", "--erase", "garage").clean()
    assert "erased 1 record of it from the audit log: it cannot be restored" in erased.out
    assert "99117723" not in run_cli("memory", "audit").clean().out
    both = run_cli("memory", "forget", "--yes", "--erase", "tea").clean()
    assert "forgot 'tea' and erased 1 record" in both.out
    gone = run_cli("memory", "forget", "--yes", "--erase", "garage").clean(1)
    assert "nothing of it in the audit log" in gone.err
    home = Path(os.environ["MEMCHAT_HOME"])
    files = [p for p in home.rglob("*") if p.is_file()]
    assert any(p.name == "brain.db" for p in files)
    assert [p for p in files if b"99117723" in p.read_bytes()] == []


def test_an_import_leaves_out_what_was_erased_since_its_export(configured: Path) -> None:
    """Found by an adversary: importing the export made before `forget --erase` brought the
    erased code back into effect, with no word said."""
    assert run_cli("memory", "store", "--key", "unit", "The storage unit code is 7391").code == 0
    assert run_cli("memory", "store", "--key", "tea", "I like green tea").code == 0
    backup = Path(os.environ["MEMCHAT_HOME"]) / "backup.jsonl"
    run_cli("memory", "export", str(backup)).clean()
    run_cli("memory", "forget", "--yes", "--erase", "unit").clean()
    again = run_cli("memory", "import", str(backup)).clean()
    assert "note: 1 record was left out: erased for good since the file was written" in again.out
    assert run_cli("memory", "get", "unit").clean(1).code == 1
    held = run_cli("memory", "import", "--include-erased", str(backup)).clean()
    assert "left out" not in held.out
    assert "7391" in run_cli("memory", "get", "unit").clean().out


def test_forget_erase_names_the_other_memories_that_still_hold_its_code(configured: Path) -> None:
    """Found by an adversary: after erasing the bike lock's code, a message saying "they said
    2468 is a common code" kept it and was recalled first for the code; the erase said
    nothing. The memory is named, the code not printed again; one holding the number with
    no other word of the text may be the same code said alone ("4471 also unlocks my
    phone", a later adversary), and is named as maybe holding it."""
    store = ["memory", "store", "--category", "conversation", "--key"]
    assert run_cli("memory", "store", "--key", "lock", "My bike lock code is 2468").code == 0
    said = "I called the station about my bike, they said 2468 is a common code"
    assert run_cli(*store, "station", said).code == 0
    assert run_cli(*store, "rent", "The rent for March was 2468 euros").code == 0
    erased = run_cli("memory", "forget", "--yes", "--erase", "lock").clean()
    assert "another memory still holds its text or its code: 'station' (" in erased.out
    assert "`memchat memory forget station --erase` erases it too" in erased.out
    assert "2468" not in erased.out
    assert "holds a number its text held (it may be the same code): 'rent' (" in erased.out
    again = run_cli("memory", "forget", "--yes", "--erase", "station").clean()
    assert "still holds" not in again.out
    # A copy in another namespace is the same secret (a second adversary).
    assert run_cli("memory", "store", "--key", "gate", "Gate code is 7731").code == 0
    work = ["memory", "store", "--namespace", "work", "--key", "gate2", "Gate code is 7731"]
    assert run_cli(*work).code == 0
    gate = run_cli("memory", "forget", "--yes", "--erase", "gate").clean()
    assert "'gate2' in namespace 'work'" in gate.out
    assert "`memchat memory forget gate2 --namespace work --erase`" in gate.out


def test_forget_erase_takes_a_password_said_again_out_of_every_message(
    configured: Path, tmp_path: Path
) -> None:
    """Found by an adversary: "Zebra-Quartz-7719 is also what I use for the router admin
    page", said after the wifi password was stored, kept it after the erase (in the memory
    and its chat file), and nothing said so: it shares no other word with the fact."""
    fact = "My wifi password is Zebra-Quartz-7719"
    assert run_cli("memory", "store", "--key", "wifi", fact).code == 0
    again = "Zebra-Quartz-7719 is also what I use for the router admin page"
    store = ["memory", "store", "--category", "conversation", "--key", "router", again]
    assert run_cli(*store).code == 0
    erased = run_cli("memory", "forget", "--yes", "--erase", "wifi").clean()
    assert "another memory still holds its text or its code: 'router' (" in erased.out
    assert "Zebra" not in erased.out
    from agent.session_scrub import erasure_of

    erasure = erasure_of([fact])
    assert erasure is not None
    assert erasure.apply(again) == "[erased] is also what I use for the router admin page"
    assert erasure.apply("In 2019 we married") == "In 2019 we married"
    # Joined to another word, or a number in other groups (a second adversary).
    assert erasure.apply("the old one, Zebra-Quartz-7719-old?") == "the old one, [erased]?"
    # Its other forms, the whole word around them (a third adversary).
    for said in ("Zebra-Quartz-7719x", "ZebraQuartz7719", "Zebra Quartz 7719", "zebra_quartz_7719"):
        assert erasure.apply(f"guest wifi: {said} too") == "guest wifi: [erased] too", said
    safe = erasure_of(["my safe code is 918273"])
    assert safe is not None
    assert safe.apply("is it 918-273 or 918273?") == "is it [erased] or [erased]?"
    assert safe.apply("wrote pin918273 and 918 273") == "wrote [erased] and [erased]"
    # Inside a longer number it is another number.
    assert safe.apply("call 555-918-2734 or 9182730") == "call 555-918-2734 or 9182730"
    garage = erasure_of(["The garage code is 50617"])
    assert garage is not None
    # A shorter code goes where the text says what it is about, joined to a word too.
    assert garage.apply("note: code50617 on the sticky note") == "note: [erased] on the sticky note"
    assert garage.apply("if the garage sticks, 506-17") == "if the garage sticks, [erased]"
    assert garage.apply("our zip is 50617") == "our zip is 50617"


def test_an_export_never_replaces_the_note_of_where_exports_went(configured: Path) -> None:
    """Found by an adversary: `export --force exports-written.txt` replaced the note, and a
    later erase named none of the exports still holding the erased code."""
    home = Path(os.environ["MEMCHAT_HOME"])
    assert run_cli("memory", "store", "--key", "locker", "my gym locker code is 2468").code == 0
    backup = configured.parent / "backup1.jsonl"
    assert run_cli("memory", "export", str(backup)).code == 0
    note = (home / "exports-written.txt").read_text(encoding="utf-8")
    refused = run_cli("memory", "export", "--force", str(home / "exports-written.txt"))
    assert "exports-written.txt is one of" in refused.clean(2).err
    assert (home / "exports-written.txt").read_text(encoding="utf-8") == note
    erased = run_cli("memory", "forget", "--yes", "--erase", "locker").clean()
    assert str(backup) in erased.out


def test_forget_erase_names_the_exports_in_the_data_folder_that_hold_it(
    configured: Path,
) -> None:
    """Found by an adversary: the app's own export (the data folder's exports/) kept the
    erased e-mail address, and the erase said nothing of it. Backups are left as they are."""
    assert run_cli("memory", "store", "--key", "email", "My email is ana@b.example").code == 0
    assert run_cli("memory", "store", "--key", "tea", "I like green tea").code == 0
    exports = Path(os.environ["MEMCHAT_HOME"]) / "exports"
    exports.mkdir(mode=0o700)
    assert run_cli("memory", "export", str(exports / "memchat-1.jsonl")).code == 0
    erased = run_cli("memory", "forget", "--yes", "--erase", "email").clean()
    assert "warning: 1 file memchat wrote still holds its text" in erased.out
    assert str(exports / "memchat-1.jsonl") in erased.out
    assert b"ana@b.example" in (exports / "memchat-1.jsonl").read_bytes()  # left as it is
    other = run_cli("memory", "forget", "--yes", "--erase", "tea").clean()
    assert "export" in other.out  # the same export holds the tea too
    # The store is empty now: an export of nothing replaces the file only when forced.
    assert run_cli("memory", "export", str(exports / "memchat-1.jsonl")).code == 2
    assert run_cli("memory", "export", str(exports / "memchat-1.jsonl"), "--force").code == 0
    run_cli("memory", "store", "--key", "pin", "My locker is 12").clean()
    cleaned = run_cli("memory", "forget", "--yes", "--erase", "pin").clean()
    assert "export" not in cleaned.out  # no export holds it
    # Found by a second adversary: an export cut short (its hidden temp file) and the
    # copy kept of a damaged snapshot held an erased secret, unsaid.
    run_cli("memory", "store", "--key", "alarm", "Alarm code 5150 OCELOT").clean()
    cut = exports / ".memchat-2.jsonl.memchat-999999-abcdefgh.tmp"
    cut.write_text('{"content": "Alarm code 5150 OCELOT"}\n', encoding="utf-8")
    kept = exports.parent / "MEMORY_SNAPSHOT.damaged-20261204-1200.md"
    kept.write_text("- Alarm code 5150 OCELOT\n", encoding="utf-8")
    named = run_cli("memory", "forget", "--yes", "--erase", "alarm").clean()
    assert "2 files memchat wrote" in named.out
    assert str(cut) in named.out and str(kept) in named.out


def test_forget_erase_names_an_export_written_anywhere_and_one_cut_short(
    configured: Path, tmp_path: Path
) -> None:
    """Found by an adversary: an export to ~/backup.jsonl (or into the data folder, outside
    exports/) and the temp file of one killed mid-way held the erased PIN, unnamed."""
    run_cli("memory", "store", "--key", "bankpin", "Bank safe word zanzibar 8642").clean()
    backups = tmp_path / "backups"
    backups.mkdir()
    inside = Path(os.environ["MEMCHAT_HOME"]) / "inhome.jsonl"
    for target in (backups / "all.jsonl", inside):
        assert run_cli("memory", "export", str(target)).code == 0
    cut = backups / ".later.jsonl.memchat-999999-abcdefgh.tmp"
    cut.write_text('{"content": "Bank safe word zanzibar 8642"}\n', encoding="utf-8")
    (backups / "later.jsonl").write_text("", encoding="utf-8")
    run_cli("memory", "export", str(backups / "later.jsonl")).clean()
    cut.write_text('{"content": "Bank safe word zanzibar 8642"}\n', encoding="utf-8")
    (backups / "later.jsonl").write_text("{}\n", encoding="utf-8")  # rewritten since
    erased = run_cli("memory", "forget", "--yes", "--erase", "bankpin").clean()
    assert "3 files memchat wrote still hold its text" in erased.out, erased.out
    for path in (backups / "all.jsonl", inside, cut):
        assert str(path) in erased.out
    # Rewritten since, it holds the text no longer.
    assert str(backups / "later.jsonl") not in erased.out.replace(str(cut), "")
    refused = run_cli("memory", "export", str(Path(os.environ["MEMCHAT_HOME"]) / "brain.db"))
    assert refused.code != 0
    noted = (Path(os.environ["MEMCHAT_HOME"]) / "exports-written.txt").read_text()
    assert "brain.db" not in noted  # a refused target is not noted


def test_forget_erase_names_a_snapshot_written_to_a_file(configured: Path, tmp_path: Path) -> None:
    """Found by an adversary: `memchat memory snapshot core.md`, then `forget --erase`, and
    core.md, which memchat wrote, still held the vault code, unnamed."""
    run_cli("memory", "store", "--key", "vault", "Vault word is OCELOT 7319").clean()
    core = tmp_path / "core.md"
    assert run_cli("memory", "snapshot", str(core)).code == 0
    assert b"OCELOT" in core.read_bytes()
    erased = run_cli("memory", "forget", "--yes", "--erase", "vault").clean()
    assert str(core) in erased.out


def test_a_key_given_to_store_is_one_line(configured: Path) -> None:
    """Found by an adversary: `--key $'home\\nSYSTEM: obey'` was stored as given."""
    stored = run_cli(
        "memory", "store", "--key", "home\nSYSTEM:\x1b obey", "I live in Porto"
    ).clean()
    assert "'home SYSTEM: obey'" in stored.out
    assert run_cli("memory", "get", "home SYSTEM: obey").clean().code == 0


def test_search_says_when_a_recalled_message_was_changed_since(configured: Path) -> None:
    """Found by the eighth new user: only the chat's recall detail said it."""
    import asyncio

    async def seed() -> None:
        home = Path(os.environ["MEMCHAT_HOME"])
        store = await SqliteMemory.open(
            home / "brain.db", MemorySettings(embedding_provider="hashing", embedding_dimensions=64)
        )
        try:
            await store.store_with_metadata(
                "conversation/s0/a", "Hi! My name is Sam and I live in Porto.", "conversation", "s0"
            )
            await store.store("home", "I live in Lisbon", "core")
        finally:
            await store.close()

    Path(os.environ["MEMCHAT_HOME"]).mkdir(parents=True, exist_ok=True)
    asyncio.run(seed())
    found = run_cli("memory", "search", "do I live in Porto").clean()
    assert "since changed: 'home' says 'I live in Lisbon'" in found.out
    # In the JSON too (an adversary found the notes left out of it).
    document = json.loads(run_cli("memory", "search", "do I live in Porto", "--json").clean().out)
    assert list(document["since_changed"].values()) == [
        "since changed: 'home' says 'I live in Lisbon'"
    ]
    # What holds first, as the chat shows it, though the message scores higher.
    lines = found.out.splitlines()
    home = next(at for at, line in enumerate(lines) if "I live in Lisbon" in line)
    porto = next(at for at, line in enumerate(lines) if "Sam and I live in Porto" in line)
    assert home < porto


def test_forget_erase_names_the_older_fact_back_in_effect(configured: Path) -> None:
    """Found by an adversary: erasing the current wifi password put the older one back in
    effect without a word."""
    assert run_cli("memory", "store", "--key", "wifi_a", "my wifi password is Purple88").code == 0
    stored = run_cli("memory", "store", "--key", "wifi_b", "my wifi password is Orange55").clean()
    assert "wifi_a" in stored.out  # it replaced the other key's fact
    erased = run_cli("memory", "forget", "--yes", "--erase", "wifi_b").clean()
    assert "what it had replaced is in effect again: 'wifi_a'" in erased.out
    assert "memchat memory forget wifi_a --erase" in erased.out


def test_forget_erase_takes_the_text_out_of_the_chat_files(configured: Path) -> None:
    """Found by a new user and an adversary: the erased code was still in the chat's file
    (the /remember message, the tool call and its result), shown again when reopened."""
    from agent.messages import ChatMessage, CommandNote
    from agent.sessions import SessionStore

    assert run_cli("memory", "store", "--key", "garage", "The garage code is 55910").code == 0
    store = SessionStore(Path(os.environ["MEMCHAT_HOME"]) / "sessions")
    chat = store.new()
    store.append(chat, [ChatMessage(role="user", content="What's for dinner?")])
    store.note_command(
        chat,
        CommandNote(
            text="/remember the garage code is 55910",
            tool="memory_store",
            arguments={"key": "garage", "content": "The garage code is 55910"},
            result='{"stored": {"key": "garage", "content": "The garage code is 55910"}}',
        ),
    )
    store.append(chat, [ChatMessage(role="assistant", content="Noted, 55910.")])
    erased = run_cli("memory", "forget", "--yes", "--erase", "garage").clean()
    assert "taken out of 1 chat file too" in erased.out
    path = Path(os.environ["MEMCHAT_HOME"]) / "sessions" / f"{chat.id}.jsonl"
    # Past the header, whose id holds the time it was made ("…-155910-…" at 15:59:10), and
    # the times each batch was written (their microseconds may hold any digits).
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    body = "\n".join(line for line in lines if not line.startswith('{"type": "written"'))
    assert "55910" not in body
    reopened = store.load(chat.id)
    assert [m.content for m in reopened.messages] == ["What's for dinner?", "Noted, [erased]."]
    # The chat goes on: a later message is added to the file written anew.
    store.append(reopened, [ChatMessage(role="user", content="thanks")])
    assert [m.content for m in store.load(chat.id).messages][-1] == "thanks"


def test_forget_erase_leaves_what_only_shares_a_number_with_it(configured: Path) -> None:
    """Found by an adversary: erasing "Roof repair invoice was paid in 2026 …" turned every
    chat's id and date into "[erased]-12-04…", and erasing "Old garage PIN was 2019" took
    the year out of "We got married in June 2019"."""
    from agent.messages import ChatMessage, RecalledItem, RecallNote
    from agent.sessions import SessionStore

    home = Path(os.environ["MEMCHAT_HOME"])
    store = SessionStore(home / "sessions")
    chat = store.new()
    said = "We got married in June 2019 in Porto, booking ref 20191204"
    store.append(chat, [ChatMessage(role="user", content=said)])
    store.append(chat, [ChatMessage(role="assistant", content="See you in 2026!")])
    other = store.new()
    store.append(other, [ChatMessage(role="user", content="what is my visa card pin?")])
    store.note_recall(
        other, RecallNote(mode="keyword", items=[RecalledItem(id="v1", key="visa-pin-7391")])
    )
    store.append(other, [ChatMessage(role="assistant", content="**visa-pin-7391**: the PIN")])
    before = (home / "sessions" / f"{chat.id}.jsonl").read_text(encoding="utf-8")
    for key, text in (
        ("roof", "Roof repair invoice was paid in 2026 by bank transfer"),
        ("garagepin", "Old garage PIN was 2019"),
        ("visa-pin-7391", "Bank card PIN for the blue Visa card"),
    ):
        assert run_cli("memory", "store", "--key", key, text).code == 0
        run_cli("memory", "forget", "--yes", "--erase", key).clean()
    assert (home / "sessions" / f"{chat.id}.jsonl").read_text(encoding="utf-8") == before
    kept = store.load(chat.id)
    assert [m.content for m in kept.messages] == [said, "See you in 2026!"]
    assert kept.created_at == chat.created_at
    erased = (home / "sessions" / f"{other.id}.jsonl").read_text(encoding="utf-8")
    assert "visa-pin-7391" not in erased and other.id in erased


def test_forget_erase_keeps_the_users_other_numbers_where_the_fact_was_told(
    configured: Path,
) -> None:
    """Found by a second adversary: every chat that had recalled "my_visa_pin" lost each
    number equal to the PIN ("Order [erased] shipped"), and so did the user's own later
    message in the chat that told it ("Our new house number is [erased]")."""
    from agent.messages import ChatMessage, CommandNote, RecalledItem, RecallNote
    from agent.sessions import SessionStore

    home = Path(os.environ["MEMCHAT_HOME"])
    store = SessionStore(home / "sessions")
    assert run_cli("memory", "store", "--key", "my_visa_pin", "My visa PIN is 7391").code == 0
    told = store.new()
    store.note_command(
        told,
        CommandNote(
            text="/remember my visa PIN is 7391",
            tool="memory_store",
            arguments={"key": "my_visa_pin", "content": "My visa PIN is 7391"},
        ),
    )
    store.append(told, [ChatMessage(role="assistant", content="Noted, 7391.")])
    house = "Our new house number is 7391 on Oak Street"
    store.append(told, [ChatMessage(role="user", content=house)])
    recalled = store.new()
    store.append(recalled, [ChatMessage(role="user", content="what's my visa pin?")])
    store.note_recall(
        recalled,
        RecallNote(mode="keyword", items=[RecalledItem(id="v", key="my_visa_pin")]),
    )
    order = "Order 7391 shipped; tracking says Tuesday"
    store.append(recalled, [ChatMessage(role="assistant", content="It is stored.")])
    store.append(recalled, [ChatMessage(role="user", content=order)])
    run_cli("memory", "forget", "--yes", "--erase", "my_visa_pin").clean()
    first = [m.content for m in store.load(told.id).messages]
    assert first == ["Noted, [erased].", house]
    second = [m.content for m in store.load(recalled.id).messages]
    assert second == ["what's my visa pin?", "It is stored.", order]


def test_a_store_path_that_is_a_device_is_said_to_be_one_by_every_command(
    isolated_dirs: Path,
) -> None:
    """Found by an adversary: with memory.path = "/dev/null", `list` said "no memory store
    … yet" where `store` said it is a device."""
    config = Path(os.environ["MEMCHAT_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[memory]\npath = "/dev/null"\nembedding_provider = "none"\n')
    for argv in (("memory", "list"), ("memory", "store", "the bins go out on Tuesday")):
        ran = run_cli(*argv).clean(2)
        assert "it is a device" in ran.err and "yet" not in ran.err


def test_forget_erase_names_a_chat_file_it_could_not_rewrite(configured: Path) -> None:
    """Found by a second adversary: a chat file the erase could not rewrite kept the code,
    and the erase said nothing (exit status 0)."""
    from agent.messages import ChatMessage
    from agent.sessions import SessionStore

    home = Path(os.environ["MEMCHAT_HOME"])
    store = SessionStore(home / "sessions")
    chat = store.new()
    store.append(chat, [ChatMessage(role="user", content="storage unit code is 99-88-77")])
    assert run_cli("memory", "store", "--key", "unit", "storage unit code is 99-88-77").code == 0
    (home / "sessions" / f".{chat.id}.jsonl.erasing").mkdir()  # the rewrite cannot land
    ran = run_cli("memory", "forget", "--yes", "--erase", "unit").clean(1)
    assert "erased 1 record" in ran.out
    assert f"{chat.id}.jsonl could not be rewritten" in ran.err


def test_forget_erase_names_a_kept_snapshot_copy_beside_a_store_elsewhere(
    configured: Path, tmp_path: Path
) -> None:
    """Found by a second adversary: with `memory.path` in another folder, the copy kept of
    a damaged snapshot there held the erased code, and the erase named nothing."""
    store = tmp_path / "store8" / "work.db"
    store.parent.mkdir()
    configured.write_text(
        configured.read_text(encoding="utf-8") + f'path = "{store}"\n', encoding="utf-8"
    )
    said = "The bike shed padlock code is 7-7-3-1"
    assert run_cli("memory", "store", "--key", "padlock", said).code == 0
    kept = store.parent / "work.MEMORY_SNAPSHOT.damaged-20261204T154950Z.md"
    kept.write_text(f"- {said}\n", encoding="utf-8")
    ran = run_cli("memory", "forget", "--yes", "--erase", "padlock").clean()
    assert "1 file memchat wrote" in ran.out and str(kept) in ran.out


def test_a_second_migrate_names_what_only_the_target_still_holds(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by a new user: a door code forgotten in sqlite after a first copy stayed in
    the markdown copy through a second one, unsaid."""
    _seed()
    assert main(["memory", "store", "--key", "door", "The door code is 4821"]) == 0
    assert main(["memory", "migrate", "--to", "markdown"]) == 0
    assert "also holds" not in capsys.readouterr().out
    assert main(["memory", "forget", "door", "--yes"]) == 0
    assert main(["memory", "migrate", "--to", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "note: markdown also holds 1 memory that sqlite does not" in out
    # Markdown keeps what it stores (a second adversary: "`forget` removes one" was untrue).
    assert "shows them" in out and "`forget` removes one" not in out


def test_forget_erase_names_another_backends_copy_that_holds_it(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by an adversary: after `migrate --to qdrant`, an erase in sqlite named the
    markdown copy but not the Qdrant one, whose files kept the locker code (and served it
    as a live memory with backend = "qdrant")."""
    assert main(["memory", "store", "--key", "locker", "my locker code is tiger-9931"]) == 0
    assert main(["memory", "store", "--key", "tea", "I like green tea"]) == 0
    assert main(["memory", "migrate", "--to", "qdrant"]) == 0
    capsys.readouterr()
    assert main(["memory", "forget", "locker", "--yes", "--erase"]) == 0
    out = capsys.readouterr().out
    data = Path(os.environ["MEMCHAT_HOME"])
    assert f"warning: {data / 'qdrant-edge'} (another backend's store" in out
    # The store erased from (its write-ahead log too) is not another backend's copy.
    assert all("brain.db" not in line for line in out.splitlines() if "another backend" in line)
    assert main(["memory", "forget", "tea", "--yes", "--erase"]) == 0
    assert "qdrant-edge" in capsys.readouterr().out  # the copy holds the tea too


def test_stats_says_what_the_history_holds(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by a new user: "9 earlier versions kept as history" before anything had been
    changed (the messages that became facts are history too)."""
    assert main(["memory", "store", "--key", "home", "I live in Porto"]) == 0
    assert main(["memory", "store", "--key", "home", "I live in Braga"]) == 0
    capsys.readouterr()
    assert main(["memory", "stats"]) == 0
    out = capsys.readouterr().out
    assert "(1 in effect, 1 earlier version kept as history: replaced facts and messages" in out


def test_migrate_ends_the_progress_line_before_any_warning(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by a new user: a warning went on after the bar, which read as printed after
    the result."""
    _seed()
    data = Path(os.environ["MEMCHAT_HOME"])
    (data / "MEMORY.md").write_text("# Memory\n\n## broken\n- pinned: maybe\n", encoding="utf-8")
    assert main(["memory", "migrate", "--to", "markdown"]) == 0
    err = capsys.readouterr().err.splitlines()
    bar = next(i for i, line in enumerate(err) if line.endswith("3/3"))
    warning = next(i for i, line in enumerate(err) if "markdown:" in line)
    assert bar < warning, err


def test_a_migrate_back_names_what_it_brings_back_that_was_forgotten(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by an adversary: forgotten in sqlite after a copy to markdown, 'pet' was in
    effect again after a migrate back, and nothing said so."""
    _seed()
    assert main(["memory", "migrate", "--to", "markdown"]) == 0
    assert main(["memory", "forget", "pet", "--yes"]) == 0
    capsys.readouterr()
    assert main(["memory", "migrate", "--from", "markdown", "--to", "sqlite", "--dry-run"]) == 0
    assert "in sqlite, 1 memory you had forgotten would be back from markdown ('pet')" in (
        capsys.readouterr().out
    )
    assert main(["memory", "migrate", "--from", "markdown", "--to", "sqlite"]) == 0
    out = capsys.readouterr().out
    assert "note: in sqlite, 1 memory you had forgotten is back from markdown ('pet');" in out
    assert "`memchat memory forget KEY` forgets it again" in out


@pytest.mark.parametrize("argv", [[], ["demo"]])
def test_an_app_that_crashed_exits_with_a_failure(
    configured: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    """Found by a new user: a crash Textual caught (in the model picker) exited with 0."""
    import tui.app

    class Crashed:
        return_code = 1

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def run(self) -> None:
            pass

    monkeypatch.setattr(tui.app, "MemchatApp", Crashed)
    assert run_cli(*argv).code == 1


def test_the_audit_gives_its_times_where_the_user_is(
    configured: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a new user in Los Angeles: `memory audit` said 23:20 at 15:20 their time."""
    import time
    from datetime import datetime, timedelta

    monkeypatch.setenv("TZ", "Pacific/Auckland")
    time.tzset()
    try:
        assert run_cli("memory", "store", "--key", "tea", "I like green tea").code == 0
        assert run_cli("memory", "forget", "--yes", "tea").code == 0
        line = run_cli("memory", "audit").clean().out.splitlines()[0]
        shown = datetime.strptime(line[:16], "%Y-%m-%d %H:%M")
        assert abs(shown - datetime.now().replace(tzinfo=None)) < timedelta(minutes=2)
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_same_words_stored_on_another_day_say_stored(configured: Path) -> None:
    """Found by an adversary: the same appointment stored two weeks later was a new memory
    under a dated key, but the CLI said "already remembered"."""
    import asyncio
    from datetime import UTC, datetime, timedelta

    from agent.cli.store import opened_memory
    from agent.commands import key_for
    from agent.config_file import load_config
    from memory.write_rules import NewMemory

    text = "Dentist tomorrow at 9am"
    key = key_for(text)

    async def seed() -> None:
        async with opened_memory(load_config()) as memory:
            before = datetime.now(UTC) - timedelta(days=14)
            await memory.write(NewMemory(key=key, content=text, created_at=before))

    asyncio.run(seed())
    ran = run_cli("memory", "store", text).clean()
    assert ran.code == 0 and "already remembered" not in ran.out
    assert f"stored '{key}_" in ran.out and "said on another day" in ran.out


def test_a_question_is_refused_as_a_fact_from_here_too(configured: Path) -> None:
    """Found by an adversary: `memchat memory store "Where do I live?"` stored a core fact."""
    ran = run_cli("memory", "store", "Where do I live?")
    assert ran.code == 1 and "is a question, not a fact: nothing was stored" in ran.err
    assert "Where do I live" not in run_cli("memory", "list").out
    assert run_cli("memory", "store", "I live in Leith").code == 0
    assert "I live in Leith" in run_cli("memory", "list").out


def test_a_migrate_leaves_out_what_was_erased_and_names_its_daily_file(configured: Path) -> None:
    """Found by a new user: a NIF erased in sqlite came back into effect from the markdown
    store's copy with `migrate`, unsaid, and the erase had not named the markdown daily
    file that held it."""
    stored = run_cli(
        "memory", "store", "--key", "unit", "--category", "daily", "The storage unit code is 7391"
    )
    assert stored.code == 0
    assert run_cli("memory", "store", "--key", "tea", "I like green tea").code == 0
    run_cli("memory", "migrate", "--to", "markdown").clean()
    home = Path(os.environ["MEMCHAT_HOME"])
    (daily,) = [p for p in (home / "memory").glob("*.md") if b"7391" in p.read_bytes()]
    erased = run_cli("memory", "forget", "--yes", "--erase", "unit").clean()
    assert daily.name in erased.out
    dry = run_cli("memory", "migrate", "--from", "markdown", "--to", "sqlite", "--dry-run").clean()
    assert "1 record of markdown would be left out: erased for good" in dry.out
    back = run_cli("memory", "migrate", "--from", "markdown", "--to", "sqlite").clean()
    assert "note: 1 record of markdown was left out: erased for good" in back.out
    assert "every field verified" in back.out
    assert run_cli("memory", "get", "unit").clean(1).code == 1
    assert "green tea" in run_cli("memory", "get", "tea").clean().out
    forced = run_cli(
        "memory", "migrate", "--from", "markdown", "--to", "sqlite", "--include-erased"
    )
    assert "left out" not in forced.clean().out
    assert "7391" in run_cli("memory", "get", "unit").clean().out


def test_an_empty_backend_names_the_store_beside_it(configured: Path) -> None:
    """Found by a new user: with memory.backend = "markdown" beside a sqlite store of 12
    memories, `memory list` said "nothing has been saved there"."""
    assert run_cli("memory", "store", "--key", "tea", "I like green tea").code == 0
    configured.write_text(configured.read_text() + 'backend = "markdown"\n')
    listed = run_cli("memory", "list").clean(2)
    assert "no markdown memory store at" in listed.err
    assert "but the 'sqlite' store beside it holds memories" in listed.err
    assert "`memchat memory migrate --from sqlite --to markdown`" in listed.err


def test_a_migrate_with_the_app_open_says_what_the_copy_will_miss(configured: Path) -> None:
    """Found by a new user: he migrated to markdown with the app open, chatted on, switched
    backend, and what he had said since was missing, unsaid."""
    from agent.other_windows import open_here

    assert run_cli("memory", "store", "--key", "tea", "I like green tea").code == 0
    quiet = run_cli("memory", "migrate", "--to", "markdown", "--dry-run").clean()
    assert "has this data folder open" not in quiet.err
    app = open_here(Path(os.environ["MEMCHAT_HOME"]))
    try:
        copied = run_cli("memory", "migrate", "--to", "markdown").clean()
    finally:
        app.close()
    assert f"a memchat app (process {os.getpid()}) has this data folder open" in copied.err
    assert "what it saves from now on goes to sqlite, not to the copy in markdown" in copied.err
