"""A second memchat app on the same data folder is told about the first."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.config import Config
from agent.other_windows import RUNNING_FOLDER, OpenHere, open_here
from agent.paths import data_dir
from agent.runtime import open_runtime
from agent.testing import ScriptedModel

_HOLD = """
import sys
from pathlib import Path
from agent.other_windows import open_here
here = open_here(Path(sys.argv[1]))
print("open", here.others, flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


def _another_app(folder: Path) -> subprocess.Popen[str]:
    """A process holding the folder as an app does, until its stdin closes."""
    process = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline().startswith("open"), "the other app took its lock"
    return process


@pytest.fixture
def other(folder: Path) -> Iterator[subprocess.Popen[str]]:
    process = _another_app(folder)
    yield process
    _end(process)


def _end(process: subprocess.Popen[str]) -> None:
    assert process.stdin is not None
    process.stdin.close()
    process.wait()


def test_the_only_app_is_told_nothing(folder: Path) -> None:
    here = open_here(folder)
    assert here.others == []
    assert here.warning is None
    here.close()


def test_an_app_already_open_is_named_with_its_process(
    folder: Path, other: subprocess.Popen[str]
) -> None:
    here = open_here(folder)
    assert here.others == [other.pid]
    assert here.warning is not None
    assert f"Another memchat app (process {other.pid}) has this memory open" in here.warning
    here.close()


def test_an_app_that_ended_is_not_named_and_its_file_goes(folder: Path) -> None:
    process = _another_app(folder)
    left = folder / RUNNING_FOLDER / f"{process.pid}.lock"
    assert left.exists()
    _end(process)  # it ends without closing anything itself, as a killed app would
    here = open_here(folder)
    assert here.others == []
    assert not left.exists(), "a lock no live app holds is cleared"
    here.close()


def test_the_next_app_sees_this_one_until_it_closes(folder: Path) -> None:
    here = open_here(folder)
    process = subprocess.run(
        [sys.executable, "-c", _HOLD, str(folder)], input="\n", capture_output=True, text=True
    )
    assert process.stdout.startswith(f"open [{os.getpid()}]")
    here.close()
    process = subprocess.run(
        [sys.executable, "-c", _HOLD, str(folder)], input="\n", capture_output=True, text=True
    )
    assert process.stdout.startswith("open []")


def test_two_others_are_both_named(folder: Path) -> None:
    first, second = _another_app(folder), _another_app(folder)
    try:
        warning = open_here(folder).warning
        assert warning is not None
        assert "Other memchat apps (process" in warning
        assert str(first.pid) in warning
        assert str(second.pid) in warning
    finally:
        _end(first)
        _end(second)


def test_a_folder_that_cannot_hold_the_lock_keeps_the_app_starting(folder: Path) -> None:
    (folder / RUNNING_FOLDER).write_text("a file where the folder goes")
    here = open_here(folder)
    assert here == OpenHere()


@pytest.mark.asyncio
async def test_the_app_warns_of_another_open_on_its_memory() -> None:
    config = Config()
    config.memory.embedding_provider = "none"
    data = data_dir()
    data.mkdir(parents=True, exist_ok=True)
    process = _another_app(data)
    try:
        runtime = await open_runtime(config, model=ScriptedModel())
        try:
            assert any(f"(process {process.pid})" in warning for warning in runtime.warnings)
        finally:
            await runtime.memory.close()
            runtime.open_here.close()
    finally:
        _end(process)
