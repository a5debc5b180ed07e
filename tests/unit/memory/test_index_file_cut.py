"""A vector file cut short by another program while memchat has it mapped.

Reading a mapped page past the end of a file kills the process with SIGBUS, which no
Python code can catch: the store must notice before it reads. The scenario runs in a
child process, so a relapse fails this test instead of killing the test run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

_SCENARIO = textwrap.dedent(
    """
    import asyncio, dataclasses, os, sys
    from pathlib import Path
    from memory.settings import MemorySettings
    from memory.sqlite.store import SqliteMemory
    from memory.write_rules import NewMemory
    from memory.testing import CountingEmbedder
    from memory.vector_files import index_folder

    DIMS = 64
    TEXTS = [f"note {i} about topic {i % 9} and item {i * 7 % 31}" for i in range(80)]

    async def main(path: Path) -> None:
        settings = MemorySettings(
            embedding_provider="hashing", embedding_dimensions=DIMS,
            index_file_min_vectors=0, min_relevance_score=0.0,
        )
        embedder = CountingEmbedder(DIMS)
        store = await SqliteMemory.open(path, settings, embedder)
        await store.bulk_store([NewMemory(key=f"k{i}", content=t) for i, t in enumerate(TEXTS)])
        await store.close()  # writes the index files
        store = await SqliteMemory.open(path, settings, embedder)
        query = (await embedder.embed([TEXTS[30]]))[0]
        await store.recall("warm", limit=1, query_vector=query)
        core = store._core
        assert core.index.base is not None, "the index did not start from its files"
        verifier = core._verifier
        if verifier is not None:
            verifier._done.wait(timeout=120)  # its own read of every row is over
        os.truncate(next(index_folder(path).glob("*.vectors")), 4096)
        if sys.argv[2] == "check":
            base = core.index.base  # as if the cut came after the size check:
            base.mapped = dataclasses.replace(base.mapped, whole=lambda: None)
            print("check", await store.health_check())
            print("warnings", " | ".join(core.warnings))
            await store.close()
            return
        for what in ("recall", "again"):
            found = await store.recall(TEXTS[30], limit=3, query_vector=query)
            print(what, found.entries[0].key)
        print("warnings", " | ".join(core.warnings))
        await store.close()

    asyncio.run(main(Path(sys.argv[1])))
    """
)


def _run(tmp_path: Path, mode: str) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[3]
    return subprocess.run(
        [sys.executable, "-c", _SCENARIO, str(tmp_path / "brain.db"), mode],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=300,
    )


def test_a_vector_file_cut_short_while_mapped_is_reported_not_a_crash(tmp_path: Path) -> None:
    done = _run(tmp_path, "recall")
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    lines = done.stdout.splitlines()
    assert "recall k30" in lines and "again k30" in lines
    warnings = next(line for line in lines if line.startswith("warnings"))
    assert "cut short by another program" in warnings and "rebuilt" in warnings


def test_the_full_check_reads_the_file_itself_so_a_cut_mid_check_is_reported(
    tmp_path: Path,
) -> None:
    # `stats --check` reads every row for seconds: a size check before each read cannot
    # close that window, so it reads the file with pread, where a cut is a short read.
    done = _run(tmp_path, "check")
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    check = next(line for line in done.stdout.splitlines() if line.startswith("check"))
    assert "cut short by another program" in check
