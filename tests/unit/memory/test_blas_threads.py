"""Vector search runs numpy's BLAS on one thread (see `memory.blas`), set when the vectors
are first read, so a command that reads no vectors pays nothing for it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys, threading
    from pathlib import Path
    from threadpoolctl import ThreadpoolController, threadpool_info
    from memory.embedding.hashing import HashingEmbedder
    from memory.settings import MemorySettings
    from memory.sqlite.store import SqliteMemory

    def blas_threads():
        blas = [lib for lib in threadpool_info() if lib["user_api"] == "blas"]
        return sorted({lib["num_threads"] for lib in blas})

    async def main():
        # Two threads, as on a two-core machine, set by a thread that is gone by then (the
        # thread that sets a limit first holds it while it lives).
        setter = threading.Thread(
            target=lambda: ThreadpoolController().limit(limits=2, user_api="blas")
        )
        setter.start()
        setter.join()
        settings = MemorySettings(embedding_provider="hashing", embedding_dimensions=64)
        store = await SqliteMemory.open(Path(sys.argv[1]), settings, HashingEmbedder(64))
        print("before", blas_threads())
        await store.store("a", "my sister Ana lives in Porto", "core")
        await store.recall("which city is her home")  # no shared word: the vectors are read
        print("after", blas_threads())
        await store.close()

    asyncio.run(main())
    """
)


def test_the_first_recall_leaves_blas_on_one_thread(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(tmp_path / "brain.db")],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["before [2]", "after [1]"], done.stdout
