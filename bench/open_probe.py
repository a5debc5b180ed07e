"""Started by bench/recall_latency.py in a fresh process: open a store as a command would.

    python -m bench.open_probe STORE DIMS QUERY.npy

Prints one JSON object: the time `memchat memory stats` takes (an open for reading only,
then stats), and for an open as the app does it (every page checked) the time to open, to
the first recall, and the resident memory after each, so the figures are of a process
that has loaded nothing before.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import numpy as np


def resident_mib(field: str = "VmRSS") -> float:
    """This process's resident set (VmRSS), or its part not backed by files (RssAnon), MiB.

    The index's vectors are a memory-mapped file: pages a search reads count in VmRSS but
    are page cache the kernel can drop at any time, so both are reported.
    """
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def probe(path: Path, dims: int, query: np.ndarray) -> dict[str, float]:
    from bench.recall_latency import FixedIdentityEmbedder
    from memory.settings import MemorySettings
    from memory.sqlite.store import SqliteMemory

    settings = MemorySettings(
        embedding_provider="hashing", embedding_dimensions=dims, hot_cache_size=0
    )
    started = time.perf_counter()
    reader = await SqliteMemory.open(path, settings, FixedIdentityEmbedder(dims), reading_only=True)
    await reader.stats()
    await reader.close()
    stats_done = time.perf_counter()
    started_app = time.perf_counter()
    store = await SqliteMemory.open(path, settings, FixedIdentityEmbedder(dims))
    opened = time.perf_counter()
    rss_open = resident_mib()
    await store.recall("what did we talk about", limit=10, query_vector=query)
    recalled = time.perf_counter()
    figures = {
        "open_ms": (opened - started_app) * 1000,
        "stats_command_ms": (stats_done - started) * 1000,
        "open_to_first_recall_ms": (recalled - started_app) * 1000,
        "rss_open_mib": rss_open,
        "rss_after_recall_mib": resident_mib(),
        "anon_after_recall_mib": resident_mib("RssAnon"),
    }
    await store.close()
    return figures


def main() -> None:
    path, dims, query_file = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    query = np.load(query_file).astype(np.float32)
    print(json.dumps(asyncio.run(probe(path, dims, query))))


if __name__ == "__main__":
    main()
