"""Commands that only read find no store: they say so and create nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.agent.cli_harness import run_cli, write_config

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
