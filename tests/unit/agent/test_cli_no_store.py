"""Commands that only read find no store: they say so and create nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.unit.agent.cli_harness import record, run_cli, write_config, write_jsonl

FACT = record("pet", "a cat called Miso")
READING = [["stats"], ["list"], ["get", "pet"], ["search", "cat"], ["audit"], ["export"]]


@pytest.mark.parametrize("command", READING, ids=lambda c: c[0])
def test_a_reading_command_without_a_store_says_so_and_creates_nothing(
    isolated_dirs: Path, command: list[str]
) -> None:
    write_config()
    data = isolated_dirs / "data"
    ran = run_cli("memory", *command).clean(2)
    assert f"no memory store at {data / 'brain.db'} yet" in ran.err
    assert "MEMCHAT_HOME" in ran.err and ran.out == ""
    assert not data.exists(), "a command that only reads created the data folder"


@pytest.mark.parametrize("backend", ["qdrant", "markdown"])
@pytest.mark.parametrize("command", [["stats"], ["list"], ["search", "cat"]], ids=lambda c: c[0])
def test_other_local_backends_create_nothing_either(
    isolated_dirs: Path, backend: str, command: list[str]
) -> None:
    write_config(f'backend = "{backend}"\n')
    data = isolated_dirs / "data"
    ran = run_cli("memory", *command).clean(2)
    store = data / "qdrant-edge" / "memchat" if backend == "qdrant" else data
    assert f"no memory store at {store} yet" in ran.err and ran.out == ""
    assert not data.exists(), "a command that only reads created the data folder"


def test_an_empty_file_is_not_written_into_by_a_reading_command(isolated_dirs: Path) -> None:
    write_config()
    data = isolated_dirs / "data"
    data.mkdir(parents=True)
    (data / "brain.db").write_bytes(b"")
    run_cli("memory", "stats").clean(2)
    assert (data / "brain.db").read_bytes() == b""
    assert sorted(p.name for p in data.iterdir()) == ["brain.db"]
    run_cli("memory", "reindex").clean()  # a writing command makes the store there
    assert "total: 0 memories" in run_cli("memory", "stats").clean().out


@pytest.mark.parametrize("snapshot", ["# not a snapshot\n", None], ids=["unusable", "real"])
def test_a_snapshot_without_a_store_is_restored_only_by_a_writing_command(
    isolated_dirs: Path, snapshot: str | None
) -> None:
    write_config()
    data = isolated_dirs / "data"
    if snapshot is None:
        run_cli("memory", "import", str(write_jsonl(isolated_dirs / "in.jsonl", [FACT]))).clean()
        run_cli("memory", "snapshot").clean()
        (data / "brain.db").unlink()
        for side in data.glob("brain.db-*"):
            shutil.rmtree(side) if side.is_dir() else side.unlink()
    else:
        data.mkdir(parents=True)
        (data / "MEMORY_SNAPSHOT.md").write_text(snapshot)
    before = sorted(p.name for p in data.iterdir())
    for command in READING:
        ran = run_cli("memory", *command).clean(2)
        assert "MEMORY_SNAPSHOT.md is beside it" in ran.err and "reindex" in ran.err
    assert sorted(p.name for p in data.iterdir()) == before
    if snapshot is None:
        run_cli("memory", "reindex").clean()
        assert "pet" in run_cli("memory", "list").clean().out


def test_a_check_on_unusable_index_files_reports_them_until_a_writing_command(
    isolated_dirs: Path,
) -> None:
    write_config("index_file_min_vectors = 0\n")
    data = isolated_dirs / "data"
    records = [record(f"k{i}", f"note {i} about tea and Lisbon") for i in range(30)]
    run_cli("memory", "import", str(write_jsonl(isolated_dirs / "in.jsonl", records))).clean()
    run_cli("memory", "reindex").clean()
    run_cli("memory", "search", "tea").clean()  # loads the vectors; the close saves files
    (vectors,) = (data / "brain.db-vectors").glob("*.vectors")
    vectors.write_bytes(vectors.read_bytes()[:100])
    for _ in range(2):  # a check only reads: it reports, and changes nothing
        checked = run_cli("memory", "stats", "--check").clean(1)
        assert "health: PROBLEM" in checked.out and "could not be used" in checked.out
        assert "the next open that can write rebuilds it" in checked.out
        assert vectors.stat().st_size == 100
    run_cli("memory", "search", "tea").clean()  # a writing open rebuilds them
    assert "health: ok" in run_cli("memory", "stats", "--check").clean().out


def test_a_mistyped_qdrant_collection_is_no_store(isolated_dirs: Path) -> None:
    write_config('backend = "qdrant"\n')
    run_cli("memory", "import", str(write_jsonl(isolated_dirs / "in.jsonl", [FACT]))).clean()
    write_config('backend = "qdrant"\nqdrant_collection = "memchta"\n')
    data = isolated_dirs / "data"
    ran = run_cli("memory", "list").clean(2)
    assert f"no memory store at {data / 'qdrant-edge' / 'memchta'} yet" in ran.err
    assert not (data / "qdrant-edge" / "memchta").exists()


def test_facts_stored_before_the_app_ever_ran_survive_the_loss_of_the_store(
    isolated_dirs: Path,
) -> None:
    """Found in a trial: no MEMORY_SNAPSHOT.md existed until hygiene (the app's start) or
    `snapshot` wrote one, so facts stored from the command line were lost with brain.db."""
    write_config()
    data = isolated_dirs / "data"
    run_cli("memory", "store", "--key", "pet", "My cat is called Miso").clean()
    assert "My cat is called Miso" in (data / "MEMORY_SNAPSHOT.md").read_text()
    run_cli("memory", "store", "--key", "tea", "Green tea in the morning", "--category", "daily")
    assert "Green tea" not in (data / "MEMORY_SNAPSHOT.md").read_text()  # core facts only
    (data / "brain.db").unlink()
    run_cli("memory", "reindex").clean()  # a writing command rebuilds it from the snapshot
    assert "My cat is called Miso" in run_cli("memory", "get", "pet").clean().out


def test_no_snapshot_is_started_when_snapshots_are_off(isolated_dirs: Path) -> None:
    write_config("snapshot_after_hygiene = false\n")
    run_cli("memory", "store", "--key", "pet", "My cat is called Miso").clean()
    assert not (isolated_dirs / "data" / "MEMORY_SNAPSHOT.md").exists()
