"""Talking to the external `lucid` command-line memory tool, defensively.

The interface we rely on (as ZeroClaw uses it):

    lucid store "KEY: CONTENT" --type CATEGORY     exit 0 when stored
    lucid context "QUERY"                          memories, one per line

`context` output is parsed loosely: list lines ("- text", "* text"), each optionally
starting with a "[type]" tag, are memories; everything else (XML-ish wrappers, headings,
blank lines, banners) is ignored, and bytes that are not UTF-8 are replaced. Any failure (the
command missing, a non-zero exit, a timeout) starts a cooldown during which lucid is not
asked at all, so a broken tool costs one timeout per cooldown, not one per turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from memory.lazy_patterns import lazy_compile

_MAX_OUTPUT = 256 * 1024
_MAX_LINE = 2000
_LIST_LINE = lazy_compile(r"^\s*[-*•]\s+(?:\[(?P<kind>[\w -]{1,40})\]\s*)?(?P<text>\S.*)$")
_CONTROL = lazy_compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class LucidHit:
    """One memory lucid returned: its text and the type tag it carried, if any."""

    text: str
    kind: str | None


def parse_context(output: str, limit: int) -> list[LucidHit]:
    """The memories in `lucid context` output, at most `limit`, duplicates dropped."""
    hits: list[LucidHit] = []
    seen: set[str] = set()
    for line in output.splitlines():
        match = _LIST_LINE.match(_CONTROL.sub(" ", line))
        if match is None:
            continue
        text = match["text"].strip()[:_MAX_LINE]
        if text.casefold() in seen:
            continue
        seen.add(text.casefold())
        kind = (match["kind"] or "").strip().lower() or None
        hits.append(LucidHit(text, kind))
        if len(hits) >= limit:
            break
    return hits


class LucidBridge:
    """Runs lucid with a timeout; after a failure, stays quiet for `cooldown_s`."""

    def __init__(
        self,
        command: str,
        *,
        timeout_s: float = 3.0,
        cooldown_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.command = command
        self.timeout_s = timeout_s
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._quiet_until = float("-inf")
        self.last_error: str | None = None
        self.calls = 0
        self._pending: set[asyncio.Task[str | None]] = set()

    def cooling_down(self) -> bool:
        """True while a recent failure keeps lucid from being asked."""
        return self._clock() < self._quiet_until

    def _fail(self, reason: str) -> None:
        self.last_error = f"lucid {reason}"
        self._quiet_until = self._clock() + self.cooldown_s

    async def run(self, *args: str) -> str | None:
        """The stdout of lucid, or None when it failed or is cooling down."""
        if self.cooling_down():
            return None
        self.calls += 1
        # argv cannot carry NUL bytes or lone surrogates; lucid gets the closest text.
        argv = [arg.replace("\x00", " ").encode("utf-8", "replace").decode("utf-8") for arg in args]
        try:
            process = await asyncio.create_subprocess_exec(
                self.command,
                *argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            self._fail(f"could not start ({self.command}: {reason})")
            return None
        try:
            out, err = await asyncio.wait_for(process.communicate(), self.timeout_s)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
            self._fail(f"timed out after {self.timeout_s:g}s")
            return None
        if process.returncode != 0:
            detail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            self._fail(f"exited with status {process.returncode}: {detail[0][:200]}")
            return None
        self.last_error = None
        return out[:_MAX_OUTPUT].decode("utf-8", "replace")

    def store_in_background(self, key: str, content: str, category: str) -> None:
        """Send one memory to lucid without making the caller wait for it."""
        task = asyncio.get_running_loop().create_task(
            self.run("store", f"{key}: {content}", "--type", category)
        )
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def context(self, query: str, limit: int) -> list[LucidHit]:
        """The memories lucid offers for `query` (empty on any failure)."""
        output = await self.run("context", query)
        return [] if output is None else parse_context(output, limit)

    async def drain(self) -> None:
        """Let background stores finish (each is bounded by the timeout)."""
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=self.timeout_s + 1)
        for task in list(self._pending):
            task.cancel()
