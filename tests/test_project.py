"""Project-level guarantees: layering, the README's commands, the example config."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_memory_and_agent_import_without_textual() -> None:
    code = (
        "import sys, memory, agent, agent.config, agent.config_file, agent.memory_commands, "
        "memory.sqlite.store, memory.embedding.ollama\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(loaded)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_memory_does_not_import_agent() -> None:
    code = "import sys, memory.sqlite.store, memory.factory\nprint('agent' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "False"


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(python3 -m venv[^\n]*)\n```", text)


def test_readme_gives_exactly_two_fresh_machine_commands() -> None:
    commands = _readme_commands()
    assert len(commands) == 2
    app, tests = commands
    assert app.endswith(".venv/bin/memchat")
    assert "pytest" in tests


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    tests_command = _readme_commands()[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert tests_command in ci.splitlines()
    assert "set -euo pipefail" in ci
