"""The vector lane on a thread of its own while the keyword lane reads the full-text index.

With the query vector at hand (given by the caller, or cached from an earlier recall),
the two lanes do not depend on each other: the vector scan is numpy and SQLite's full-text
query is C, and both let go of the GIL, so on two cores they overlap. At 10,000 memories
that took the scan (about 0.8 ms) off the recall's path. Without the vector (the usual
turn: it is embedded after the keyword lane, which may settle the recall alone), nothing
runs here.

The search only reads the index; the database thread does nothing to the index until the
search is taken back (`take`), so no write can change it underneath.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from functools import cache

import numpy as np
import numpy.typing as npt

from memory.layered_index import LayeredIndex
from memory.vector_files import IndexFileDamagedError
from memory.vector_index import VectorFilter

Hits = list[tuple[int, float]]


@cache
def _lane_thread() -> ThreadPoolExecutor:
    # One for the process: stores searched at once take turns, as on one core.
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="memchat-vector-lane")


def start(
    index: LayeredIndex, query: npt.NDArray[np.float32], k: int, flt: VectorFilter
) -> Future[Hits]:
    """Search `index` on the lane's thread; `take` the answer on the database thread."""
    return _lane_thread().submit(index.search, query, k, flt)


def take(pending: Future[Hits]) -> Hits | None:
    """The search's answer; None when the index files were damaged.

    The caller then searches again on the database thread, which sets them aside and
    rebuilds the index from the store.
    """
    try:
        return pending.result()
    except IndexFileDamagedError:
        return None


def settle(pending: Future[Hits] | None) -> None:
    """Wait for a search whose answer is not needed, before the index may change.

    The keyword lane settled the recall, or the recall failed.
    """
    if pending is not None:
        with suppress(Exception):  # its answer was not wanted, nor its error
            pending.result()
