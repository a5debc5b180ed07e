"""Project-level guarantees: layering, the README's commands, the example config."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def test_memory_and_agent_import_without_textual() -> None:
    code = (
        "import sys, memory, agent, agent.config, agent.config_file, agent.cli.memory_commands, "
        "agent.cli.entry_commands, memory.sqlite.store, memory.embedding.ollama\n"
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


def test_declared_dependency_ranges_are_the_series_the_suite_runs_on() -> None:
    """A user who installs memchat gets a release series the tests ran on, not any since
    the first that happened to have the name (an older Textual lacks the API the app uses)."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for line in declared:
        requirement = Requirement(line)
        installed = Version(version(requirement.name))
        assert installed in requirement.specifier, f"{line}: tests run on {installed}"
        lower = [Version(s.version) for s in requirement.specifier if s.operator == ">="]
        upper = [s for s in requirement.specifier if s.operator == "<"]
        assert lower and upper, f"{line}: needs a lower and an upper bound"
        # Same major series (same minor for 0.x, where minors break).
        series = 1 if installed.major else 2
        assert lower[0].release[:series] == installed.release[:series], (
            f"{line}: declares {lower[0]}, the tests run on {installed}"
        )


def test_the_readme_picture_is_the_app_as_the_snapshot_test_draws_it() -> None:
    """The README shows the very SVG the snapshot test compares the app against.

    `tests/tui/test_snapshots.py::test_readme_screenshot` fails when the app's look changes,
    so the picture cannot drift from what the app looks like.
    """
    picture = "tests/tui/__snapshots__/test_snapshots/test_readme_screenshot.svg"
    assert f"]({picture})" in (ROOT / "README.md").read_text()
    svg = (ROOT / picture).read_text()
    assert svg.lstrip().startswith("<svg") and "memchat" in svg


def test_the_app_module_leaves_the_heavy_imports_for_after_the_first_paint() -> None:
    """`tui.app` is imported before the screen is drawn; the model client, numpy, the store
    and the tools load in a worker afterwards (tui/app.py `_default_runtime`)."""
    heavy = ("agent.runtime", "agent.turn", "agent.tools", "numpy", "httpx", "ollama", "sqlite3")
    code = f"import sys, tui.app\nprint([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"
