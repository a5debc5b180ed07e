"""An empty value on the command line is an error, never "no filter" or the current folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.agent.cli_harness import run_cli, write_config


@pytest.mark.parametrize(
    "argv",
    [
        ("memory", "list", "--category", ""),
        ("memory", "list", "--category", "  "),
        ("memory", "search", ""),
        ("memory", "get", ""),
        ("memory", "forget", ""),
        ("memory", "migrate", "--to", ""),
    ],
)
def test_empty_values_are_refused(isolated_dirs: Path, argv: tuple[str, ...]) -> None:
    write_config()
    ran = run_cli(*argv).clean(2)
    assert "must not be empty" in ran.err
    assert ran.out == ""


@pytest.mark.parametrize("command", ["export", "import", "snapshot"])
def test_an_empty_path_says_so(isolated_dirs: Path, command: str) -> None:
    write_config()
    ran = run_cli("memory", command, "").clean(2)
    assert "the path is empty" in ran.err
    assert "regular file" not in ran.err


def test_zero_width_characters_in_a_key_are_shown_escaped(isolated_dirs: Path) -> None:
    write_config()
    run_cli("memory", "import", "/dev/null")  # opens (and creates) the store
    source = isolated_dirs / "in.jsonl"
    source.write_text(
        '{"id": "z1", "key": "pass\\u200bword", "content": "zero\\u2060width\\ufeff", '
        '"category": "core", "timestamp": "2026-01-01T00:00:00Z", '
        '"updated_at": "2026-01-01T00:00:00Z"}\n'
    )
    run_cli("memory", "import", str(source)).clean()
    ran = run_cli("memory", "list").clean()
    assert "pass\\u200bword" in ran.out and "zero\\u2060width\\ufeff" in ran.out
