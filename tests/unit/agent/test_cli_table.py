"""The command table: every `memchat memory` command is listed, parsed and runnable."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

from agent.cli.table import COMMANDS
from tests.unit.agent.cli_harness import run_cli


def test_every_command_resolves_to_an_async_handler() -> None:
    assert len({command.name for command in COMMANDS}) == len(COMMANDS)
    for command in COMMANDS:
        handler = command.resolve()
        assert inspect.iscoroutinefunction(handler), command.name
        assert list(inspect.signature(handler).parameters) == ["config", "args", "out"]


def test_help_lists_every_command_with_its_help() -> None:
    shown = run_cli("memory", "--help").clean()
    for command in COMMANDS:
        assert command.name in shown.out and command.help[:30] in " ".join(shown.out.split())


def test_help_loads_no_handler_module() -> None:
    code = (
        "import sys\nfrom tui.cli import main\n"
        "try:\n    main(['memory', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('agent.cli.', 'memory.'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = done.stdout.strip().splitlines()[-1]
    assert loaded == "['agent.cli.arguments', 'agent.cli.table']"


def test_stats_loads_neither_the_turn_nor_the_stemmer(tmp_path: Path) -> None:
    # Start-up is most of what `stats` costs a user: it should not pay for what it never
    # runs (the turn's modules, the stemmer).
    code = (
        "import sys\nfrom tui.cli import main\n"
        "main(['memory', 'reindex'])\n"  # creates the store; it loads no stemmer either
        "code = main(['memory', 'stats'])\n"
        "print(code, sorted(m for m in sys.modules if m.startswith(('Stemmer', "
        "'snowballstemmer', 'agent.injection', 'agent.turn', 'agent.events'))))"
    )
    environment = {
        **os.environ,
        "MEMCHAT_HOME": str(tmp_path / "home"),
        "MEMCHAT_CONFIG": str(tmp_path / "absent.toml"),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environment
    )
    assert done.stdout.strip().splitlines()[-1] == "0 []"
