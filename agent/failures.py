"""What a turn says when something it did not plan for goes wrong.

`Agent.turn` promises to end with `TurnFinished` or `TurnFailed` and never to raise (only a
cancellation goes through). These build the `TurnFailed` for errors that reach its outer
guard, in words a person can act on.
"""

from __future__ import annotations

import errno

from agent.events import TurnFailed
from memory.errors import MemoryStoreError, StorageFullError

_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG}

KEPT = "Your message is kept; send it again to retry."


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def storage_failure(exc: OSError, what: str, *, sent: bool = True) -> TurnFailed:
    """`what` ("the reply", "your message") could not be written to the session file.

    It stays in the session in RAM and is written ahead of the next message that can be.
    """
    full = exc.errno in _FULL
    advice = "Free some disk space" if full else "Check that the data directory is writable"
    if sent:
        outcome = "; it stays in this conversation and is written once saving works again"
        then = "."
    else:
        outcome = ", so it was not sent, nor kept in memory; it is back in the prompt"
        then = ", then send it again."
    return TurnFailed(
        "storage_full" if full else "storage_error",
        f"{what[:1].upper()}{what[1:]} could not be saved to the conversation file "
        f"({_reason(exc)}){outcome}. {advice}{then}",
    )


def unexpected_failure(exc: Exception) -> TurnFailed:
    """Any other error that escaped the turn."""
    if isinstance(exc, OSError):
        return TurnFailed(
            "storage_full" if exc.errno in _FULL else "storage_error",
            f"Reading or writing a file failed during this turn ({_reason(exc)}). {KEPT}",
        )
    if isinstance(exc, StorageFullError):
        return TurnFailed("storage_full", f"{exc}. Free some space. {KEPT}")
    if isinstance(exc, MemoryStoreError):
        return TurnFailed("memory_error", f"Memory failed during this turn: {exc}. {KEPT}")
    detail = str(exc) or "no details"
    return TurnFailed(
        "internal_error",
        f"Something went wrong in this turn ({type(exc).__name__}: {detail}). {KEPT}",
    )
