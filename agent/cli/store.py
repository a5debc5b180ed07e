"""What every `memchat memory` command shares: its arguments, the open store, safe output."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from agent.paths import data_dir, ensure_private_dir
from agent.terminal_text import one_line
from agent.wiring import build_embedder, open_store

if TYPE_CHECKING:
    from agent.config import Config
    from memory.protocol import Memory


@dataclass
class MemoryArgs:
    """Arguments of the `memchat memory` subcommands."""

    command: str
    query: str = ""
    key: str = ""
    file: str | None = None
    namespace: str | None = None
    """One namespace; None means every namespace (or, for import, each record's own)."""
    category: str | None = None
    limit: int = 50
    offset: int = 0
    all: bool = False
    json: bool = False
    check: bool = False
    batch_size: int = 64
    dry_run: bool = False
    to: str = ""
    source: str | None = None
    yes: bool = False
    """Do without asking first (forget, at a terminal)."""
    erase: bool = False
    """Forget for good: erase the audit records too (forget)."""
    by_id: bool = False
    """KEY is a memory's id (get, forget, history): for a key no command line can hold."""
    force: bool = False
    """Replace a file that is not a memchat export (export)."""
    include_erased: bool = False
    """Import the records erased for good since the file was written too (import)."""


def say(stream: TextIO, text: object) -> None:
    """Write one line with every control, bidi and separator character made visible."""
    if stream is sys.stderr:
        # Piped, stdout is written in blocks: a note on stderr landed inside its last line
        # ("…[REDACTED:card-code]showing 1-3 of 68", an adversary).
        sys.stdout.flush()
    stream.write(one_line(text) + "\n")


def warn(text: object) -> None:
    """A one-line warning on stderr, escaped."""
    say(sys.stderr, f"memchat: warning: {text}")


class ProgressBar:
    """A progress callback: a bar redrawn in place on a terminal, one final line elsewhere.

    A carriage return is only written to a terminal; a log file or a pipe gets the last
    state once, as a plain line.
    """

    width = 30

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.redraw = bool(isatty is not None and isatty())
        self.last: tuple[int, int] | None = None

    def _bar(self, done: int, total: int) -> str:
        filled = self.width * min(done, total) // max(total, 1)
        return f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total}"

    def __call__(self, done: int, total: int) -> None:
        """Record (and on a terminal, draw) how far the work is."""
        self.last = (done, total)
        if self.redraw:
            self.stream.write("\r" + self._bar(done, total))
            self.stream.flush()

    def finish(self) -> None:
        """End the bar's line (or print it once, off a terminal); nothing if never called."""
        if self.last is None:
            return
        self.stream.write("\n" if self.redraw else self._bar(*self.last) + "\n")
        self.stream.flush()  # before what the command prints next, on the other stream


def store_folder() -> Path:
    """The data directory; created (private) only when missing.

    An existing folder is used as it is: a read-only one must still serve the reading
    commands, and `mkdir` on it would fail first on some filesystems.
    """
    folder = data_dir()
    return folder if folder.is_dir() else ensure_private_dir(folder)


@asynccontextmanager
async def opened_memory(
    config: Config, *, reading_only: bool = False, create: bool = True
) -> AsyncIterator[Memory]:
    """The configured store, closed on exit; its warnings then go to stderr, escaped.

    `reading_only` for commands that never write, `create=False` for those that write
    only to a store that exists: see `agent.wiring.open_store`.
    """
    # A command that finds no store creates nothing, not even the data folder.
    folder = store_folder() if create and not reading_only else data_dir()
    memory = await open_store(
        config, folder, build_embedder(config), reading_only=reading_only, create=create
    )
    try:
        yield memory
    finally:
        try:
            await memory.close()
        finally:
            if memory.hydration:
                say(sys.stderr, f"memchat: note: {memory.hydration}")
            for line in dict.fromkeys(memory.warnings):
                warn(line)


IDS_SHOWN = "`memchat memory list --json` and `history KEY` show ids"


async def addressed(memory: Memory, args: MemoryArgs) -> tuple[str, str] | None:
    """(key, namespace) the arguments name: KEY, or with --id the key of that memory.

    Found by an adversary: an imported key holding a NUL or a line break could be listed
    but not named on a command line. None, said on stderr, when no memory has the id.
    """
    if not args.by_id:
        return args.key, args.namespace or "default"
    entry = await memory.get_by_id(args.key)
    if entry is None:
        say(sys.stderr, f"memchat: no memory with id {args.key!r} ({IDS_SHOWN})")
        return None
    return entry.key, entry.namespace
