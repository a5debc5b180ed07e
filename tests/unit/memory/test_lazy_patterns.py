"""Patterns compile on first use, behave as compiled ones, and all of them are valid."""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

from memory import lazy_patterns
from memory.lazy_patterns import compile_every_pattern, lazy_compile

ROOT = Path(__file__).resolve().parents[3]


def _every_module() -> list[str]:
    names = []
    for package in ("agent", "memory", "tui"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
            if not info.name.endswith("__main__"):
                names.append(info.name)
    return names


def test_every_pattern_of_every_module_compiles() -> None:
    """A typo in a pattern's source would only show when it is first used: not here."""
    for name in _every_module():
        importlib.import_module(name)
    compile_every_pattern()
    made = lazy_patterns._MADE
    assert len(made) > 800
    assert all("search" in lazy.__dict__ for lazy in made)
    assert compile_every_pattern() == 0


def test_a_pattern_compiles_on_first_use_and_answers_as_a_compiled_one() -> None:
    lazy = lazy_compile(r"(?P<word>\w+)-(\d+)", re.IGNORECASE)
    assert "search" not in vars(lazy)
    assert lazy.pattern == r"(?P<word>\w+)-(\d+)"
    found = lazy.search("see Item-42 here")
    assert found is not None and found.group("word") == "Item"
    eager = re.compile(r"(?P<word>\w+)-(\d+)", re.IGNORECASE)
    text = "a-1 B-22 c-333"
    assert lazy.findall(text) == eager.findall(text)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
    assert lazy.sub(r"\2", text) == eager.sub(r"\2", text)
    assert lazy.subn("x", text) == eager.subn("x", text)
    assert lazy.split(text) == eager.split(text)
    assert lazy.fullmatch("A-1") is not None and lazy.match(" A-1") is None
    assert lazy.flags == eager.flags and lazy.groupindex == eager.groupindex
    assert {"flags", "groupindex"} <= set(vars(lazy))  # read once, not compiled each time
    # From now on its methods are the compiled pattern's own: no wrapper call per use.
    assert vars(lazy)["search"].__self__ is eager


def test_a_bad_pattern_fails_when_compiled_not_silently() -> None:
    lazy = lazy_compile(r"(unclosed")
    with pytest.raises(re.error):
        lazy.search("text")


def test_no_module_asks_a_match_which_pattern_it_is_by_identity() -> None:
    """`match.re` is the compiled pattern: `match.re is _RULE` is never true, and an amount
    of rent was redacted as a garage's code until that was found."""
    told_by_identity = re.compile(r"\.re\s+is\b")
    for package in ("agent", "memory", "tui"):
        for path in (ROOT / package).rglob("*.py"):
            if path.name == "lazy_patterns.py":
                continue
            assert not told_by_identity.search(path.read_text()), path


def test_the_cli_compiles_only_what_its_command_uses(tmp_path: Path) -> None:
    """`memchat memory stats` and `list` need a handful of the patterns, not nine hundred:
    compiling them all was most of a second of every command."""
    code = (
        "import sys\n"
        "from tui.cli import main\n"
        "from memory import lazy_patterns\n"
        "for command in (['memory', 'stats'], ['memory', 'list']):\n"
        "    sys.argv = ['memchat', *command]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as exc:\n"
        "        assert not exc.code, exc.code\n"
        "made = lazy_patterns._MADE\n"
        "print(len(made), sum('search' in vars(lazy) for lazy in made))\n"
    )
    env = {
        **os.environ,
        "MEMCHAT_HOME": str(tmp_path / "home"),
        "MEMCHAT_CONFIG": str(tmp_path / "config.toml"),
        "OLLAMA_HOST": "http://127.0.0.1:9",
    }
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert out.returncode == 0, out.stderr
    made, compiled = map(int, out.stdout.split()[-2:])
    assert made > 500
    assert compiled < 50, f"{compiled} of {made} patterns compiled by stats and list"
