"""A process killed between a commit to brain.db and the update of the vector index files:
the next open serves exactly what the database holds.

The child is forked (no start-up to pay), loads the index from its files, changes the
store, and dies by SIGKILL at one of three points: right after its commits (the files
were never updated), after writing a new generation but before recording its token in the
database, and after recording the token but before making the generation current.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import memory.sqlite.saved_index as saved_index
import memory.vector_files as vector_files
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from memory.vector_files import read_index
from memory.write_rules import NewMemory

DIMS = 64
SETTINGS = MemorySettings(
    embedding_provider="hashing",
    embedding_dimensions=DIMS,
    index_file_min_vectors=0,
    min_relevance_score=0.0,
)
TEXTS = [f"entry {i} about topic {i % 9} and detail {i * 11 % 37}" for i in range(80)]
NEW_TEXT = "written just before the crash: the user adopted a parrot"


async def _vector(text: str) -> npt.NDArray[np.float32]:
    vectors = await CountingEmbedder(DIMS).embed([text])
    first: npt.NDArray[np.float32] = vectors[0]
    return first


async def _open_loaded(path: Path) -> SqliteMemory:
    store = await SqliteMemory.open(path, SETTINGS, CountingEmbedder(DIMS))
    await store.recall("load", limit=1, query_vector=await _vector("load"))
    return store


async def _fill(path: Path) -> None:
    store = await _open_loaded(path)
    await store.bulk_store([NewMemory(key=f"k{i}", content=t) for i, t in enumerate(TEXTS)])
    await store.close()
    loaded = read_index(path)
    assert not isinstance(loaded, str) and loaded.header.rows == len(TEXTS)


def _die(*_: Any, **__: Any) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


async def _child(path: Path, point: str) -> None:
    store = await _open_loaded(path)
    await store.store("new", NEW_TEXT)
    await store.forget("k3")
    if point == "after-commit":
        _die()
    real_write = vector_files.write_generation
    if point == "before-token":

        def write_then_die(*args: Any, **kwargs: Any) -> Any:
            real_write(*args, **kwargs)
            _die()

        setattr(saved_index, "write_generation", write_then_die)  # noqa: B010 - the name it calls
    else:
        setattr(saved_index, "publish", _die)  # noqa: B010
    core = store._core  # noqa: SLF001 - the test forces the save it interrupts
    await store._db.run(lambda: core.save_index(force=True))  # noqa: SLF001


def _run_child(path: Path, point: str) -> None:
    pid = os.fork()
    if pid == 0:
        try:
            asyncio.run(_child(path, point))
        finally:
            os._exit(3)  # only reached if the child failed to die where it should
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status


async def _check(path: Path) -> None:
    plain = path.with_name("plain.db")
    _copy_database(path, plain)  # the database alone: its index is built from it
    store, reference = await _open_loaded(path), await _open_loaded(plain)
    try:
        result = await store.recall("zz", limit=3, query_vector=await _vector(NEW_TEXT))
        assert result.entries[0].key == "new"
        result = await store.recall("zz", limit=90, query_vector=await _vector(TEXTS[3]))
        assert "k3" not in [entry.key for entry in result.entries]
        ours, theirs = store._core.index, reference._core.index  # noqa: SLF001
        assert ours.seqs() == theirs.seqs()
        for seq in ours.seqs():
            np.testing.assert_array_equal(ours.vector(seq), theirs.vector(seq))
    finally:
        await store.close()
        await reference.close()


@pytest.mark.parametrize("point", ["after-commit", "before-token", "before-publish"])
def test_a_kill_between_commit_and_index_update_loses_nothing(tmp_path: Path, point: str) -> None:
    path = tmp_path / "brain.db"
    asyncio.run(_fill(path))
    _run_child(path, point)
    asyncio.run(_check(path))


def _copy_database(path: Path, target: Path) -> None:
    """The database with its write-ahead log, without the index files."""
    for tail in ("", "-wal"):
        if Path(f"{path}{tail}").exists():
            shutil.copy(f"{path}{tail}", f"{target}{tail}")
