"""Work whose result matters only while memchat runs, on a thread quitting does not wait for.

Found by an adversary: hygiene's judging of a large store ran on asyncio's default
executor, whose threads `asyncio.run` joins on the way out. Ctrl+Q during it left a blank
terminal for minutes. What such work decides is written afterwards, on the store's own
thread, so a judging dropped half-way loses nothing: the next start judges again.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TypeVar, cast

T = TypeVar("T")


async def run_abandonable(func: Callable[..., T], *args: object) -> T:
    """`func(*args)` on a daemon thread, awaited; a cancelled wait leaves it to finish alone."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if done.done():
            return  # the wait was cancelled (the app quit or moved on)
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(cast(T, result))

    def work() -> None:
        result: T | None = None
        error: BaseException | None = None
        try:
            result = func(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
            error = exc
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:
            pass  # the loop has closed: nobody waits for this any more

    threading.Thread(target=work, name="memchat-judging", daemon=True).start()
    return await done
