"""Bad command-line arguments are one clear argparse line; nothing ever prints a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

import agent.cli.entry_commands
import agent.cli.memory_commands
from agent.cli.store import MemoryArgs
from agent.config import Config
from tests.unit.agent.cli_harness import run_cli, write_config

HUGE = "99999999999999999999"

# (argv before the bad value, option, the value, what the error must say)
NUMERIC = [
    (["memory", "list"], "--limit", HUGE, "argument --limit: must be between 1 and"),
    (["memory", "list"], "--limit", "0", "argument --limit: must be between 1 and"),
    (["memory", "list"], "--limit", "-5", "argument --limit: must be between 1 and"),
    (["memory", "list"], "--limit", "ten", "argument --limit: expected a whole number, got 'ten'"),
    (["memory", "list"], "--limit", "9" * 5000, "argument --limit: must be between 1 and"),
    (["memory", "list"], "--offset", HUGE, "argument --offset: must be between 0 and"),
    (["memory", "list"], "--offset", "-1", "argument --offset: must be between 0 and"),
    (["memory", "search", "q"], "--limit", HUGE, "argument --limit: must be between 1 and"),
    (["memory", "audit"], "--limit", HUGE, "argument --limit: must be between 1 and"),
    (["memory", "audit"], "--limit", "0", "argument --limit: must be between 1 and"),
    (["memory", "reindex"], "--batch-size", "0", "argument --batch-size: must be between 1 and"),
    (["memory", "reindex"], "--batch-size", HUGE, "argument --batch-size: must be between 1"),
    (["memory", "migrate", "--to", "markdown"], "--batch-size", "0", "--batch-size: must be"),
    (["demo"], "--pause", "nan", "argument --pause: must be between 0 and 3600, got 'nan'"),
    (["demo"], "--pause", "inf", "argument --pause: must be between 0 and 3600"),
    (["demo"], "--pause", "-1", "argument --pause: must be between 0 and 3600"),
]


@pytest.mark.parametrize(("argv", "option", "value", "message"), NUMERIC)
def test_numeric_options_are_bounded(
    isolated_dirs: Path, argv: list[str], option: str, value: str, message: str
) -> None:
    ran = run_cli(*argv, option, value).clean(2)
    assert ran.out == ""
    assert message in ran.err
    assert ran.err.count("\n") <= 4  # the usage, then one error line


TEXT_ARGS = [
    ["memory", "get", "caf\udce9"],
    ["memory", "forget", "caf\udce9"],
    ["memory", "search", "caf\udce9"],
    ["memory", "list", "--namespace", "caf\udce9"],
    ["memory", "list", "--category", "caf\udce9"],
    ["memory", "export", "--namespace", "caf\udce9"],
    ["memory", "migrate", "--to", "caf\udce9"],
]


@pytest.mark.parametrize("argv", TEXT_ARGS)
def test_undecodable_text_arguments_are_refused(isolated_dirs: Path, argv: list[str]) -> None:
    ran = run_cli(*argv).clean(2)
    assert "is not valid UTF-8 text (byte 0xe9 at character 4)" in ran.err


def test_blank_namespace_is_refused(isolated_dirs: Path) -> None:
    assert (
        "argument --namespace: must not be empty"
        in run_cli("memory", "list", "--namespace", "  ").clean(2).err
    )


def test_argparse_errors_quote_hostile_input_escaped(isolated_dirs: Path) -> None:
    ran = run_cli("memory", "list", "\x1b[2J\x07\rfake error\u202e").clean(2)
    assert "unrecognized arguments: \\x1b[2J\\x07\\rfake error\\u202e" in ran.err


def test_valid_numbers_still_work(isolated_dirs: Path) -> None:
    write_config()
    run_cli("memory", "reindex").clean()  # a writing command creates the store
    assert run_cli("memory", "list", "--limit", "1000000000", "--offset", "5").clean().out == (
        "no memories\n"
    )
    assert run_cli("memory", "audit", "--limit", "1").clean().out == "no deletions recorded\n"


def test_an_unexpected_exception_is_one_line_naming_a_bug(
    isolated_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config()

    async def broken(config: Config, args: MemoryArgs, out: object) -> int:
        raise RuntimeError("boom\x1b[2J")

    monkeypatch.setattr(agent.cli.memory_commands, "cmd_stats", broken)
    ran = run_cli("memory", "stats").clean(70)
    assert ran.err == (
        "memchat: internal error (a bug; please report it): RuntimeError: boom\\x1b[2J\n"
    )


def test_ctrl_c_exits_130_quietly(isolated_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_config()

    async def interrupted(config: Config, args: MemoryArgs, out: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(agent.cli.entry_commands, "cmd_list", interrupted)
    ran = run_cli("memory", "list").clean(130)
    assert ran.out == ran.err == ""


def test_a_closed_pipe_is_quiet(isolated_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_config()

    async def reader_gone(config: Config, args: MemoryArgs, out: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(agent.cli.entry_commands, "cmd_list", reader_gone)
    ran = run_cli("memory", "list").clean(1)
    assert ran.err == ""


def test_os_errors_name_the_file(isolated_dirs: Path) -> None:
    write_config()
    ran = run_cli("memory", "import", str(isolated_dirs / "missing\x1b.jsonl")).clean(2)
    assert ran.err.startswith("memchat: error: cannot read ")
    assert "missing\\x1b.jsonl: No such file or directory" in ran.err


def test_a_config_error_lists_each_problem_on_its_own_line(isolated_dirs: Path) -> None:
    write_config('embeding_provider = "hashing"\nrecall_limit = "five"\n')
    ran = run_cli("memory", "list").clean(2)
    assert "⏎" not in ran.err
    problems = ran.err.splitlines()[1:]
    assert any("embeding_provider" in line for line in problems)
    assert any("recall_limit" in line for line in problems)


def test_a_stored_newline_in_an_error_stays_on_one_line(isolated_dirs: Path) -> None:
    write_config()
    ran = run_cli("memory", "forget", "no\nsuch key").clean(0, 1, 2)
    assert all("no" not in line or "such key" in line for line in (ran.out + ran.err).splitlines())
