"""A child process that stores entries and acknowledges each on stdout after it commits.

Usage: python -m tests.helpers.writer_process DB_PATH PREFIX COUNT [EMBED]
"""

from __future__ import annotations

import asyncio
import sys

from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder


async def main(path: str, prefix: str, count: int, embed: bool) -> None:
    settings = MemorySettings(embedding_provider="hashing", embedding_dimensions=64)
    store = await SqliteMemory.open(path, settings, CountingEmbedder(64) if embed else None)
    try:
        for i in range(count):
            await store.store(
                f"{prefix}-{i}", f"{prefix} wrote entry number {i} about sailing", "daily"
            )
            sys.stdout.write(f"ack {prefix}-{i}\n")
            sys.stdout.flush()
            if i % 20 == 0:
                await store.recall(f"{prefix} sailing {i}")
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), len(sys.argv) > 4))
