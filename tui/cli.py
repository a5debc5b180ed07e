"""The `memchat` command: the app by default, `memchat memory …` for the store.

Only argparse and the small argument module are imported up front so that start-up stays
fast; everything else is imported by the branch that needs it. No command prints a
traceback: expected failures are one `memchat: error: …` line (exit 2), anything else one
line that names it as a bug (exit 70), Ctrl+C exits 130 quietly.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agent.cli_arguments import (
    MAX_COUNT,
    CliParser,
    bounded_float,
    bounded_int,
    file_path,
    filled_text,
    namespace_name,
)
from agent.terminal_text import lines, one_line

if TYPE_CHECKING:
    from agent.config import Config
    from agent.runtime import Runtime

EXIT_BUG = 70  # sysexits' EX_SOFTWARE
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it

_ONE = "default: default"
_ALL = "default: all namespaces"


def _memory_parser(sub: argparse._SubParsersAction[CliParser]) -> None:
    def add(name: str, help_text: str, namespace_help: str, default: str | None) -> CliParser:
        command = sub.add_parser(name, help=help_text)
        command.add_argument(
            "--namespace", type=namespace_name, default=default, help=namespace_help
        )
        return command

    limit = bounded_int(1, MAX_COUNT)
    listing = add("list", "list memories, most recent first", f"namespace ({_ONE})", "default")
    listing.add_argument("--category", type=filled_text)
    listing.add_argument("--limit", type=limit, default=50, help="at most this many (1 or more)")
    listing.add_argument("--offset", type=bounded_int(0, MAX_COUNT), default=0)
    listing.add_argument("--all", action="store_true", help="include superseded entries")
    listing.add_argument("--json", action="store_true")
    search = add(
        "search", "recall memories for a query, with scores", f"namespace ({_ONE})", "default"
    )
    search.add_argument("query", type=filled_text)
    search.add_argument(
        "--limit",
        type=limit,
        default=0,
        help="at most this many (default: memory.recall_limit, as many as a turn recalls)",
    )
    search.add_argument("--json", action="store_true")
    add("get", "show every field of one memory", f"namespace ({_ONE})", "default").add_argument(
        "key", type=filled_text
    )
    add("forget", "delete one memory", f"namespace ({_ONE})", "default").add_argument(
        "key", type=filled_text
    )
    stats = add("stats", "counts, sizes and embedding state", f"count only this one ({_ALL})", None)
    stats.add_argument("--json", action="store_true")
    export = add(
        "export",
        "write memories as JSON lines (stdout without FILE or with -)",
        f"only this namespace ({_ALL})",
        None,
    )
    export.add_argument("file", nargs="?", type=file_path)
    add(
        "import",
        "load memories from an export file (UTF-8, or UTF-16/32 with a BOM)",
        "put every record into this namespace (default: each record keeps its own)",
        None,
    ).add_argument("file", type=file_path)
    reindex = add(
        "reindex",
        "re-embed entries whose vectors are missing or stale",
        f"only this namespace ({_ALL})",
        None,
    )
    reindex.add_argument("--batch-size", type=bounded_int(1, 10_000), default=64)
    hygiene = add(
        "hygiene",
        "apply retention and budgets now (audited), then write the snapshot",
        f"only this namespace; budgets always count each namespace apart ({_ALL})",
        None,
    )
    hygiene.add_argument("--dry-run", action="store_true", help="only list what would go")
    add(
        "snapshot",
        "write MEMORY_SNAPSHOT.md (core memories, restorable)",
        f"only this namespace, into FILE ({_ALL})",
        None,
    ).add_argument("file", nargs="?", type=file_path)
    add("audit", "deletions, newest first", f"only this namespace ({_ALL})", None).add_argument(
        "--limit", type=limit, default=50
    )
    migration = sub.add_parser(
        "migrate", help="copy every memory to another backend (verified; the source is kept)"
    )
    migration.add_argument("--to", required=True, type=filled_text, help="target backend")
    migration.add_argument(
        "--from", dest="source", type=filled_text, help="source backend (default: memory.backend)"
    )
    migration.add_argument("--dry-run", action="store_true", help="count, write nothing")
    migration.add_argument("--batch-size", type=bounded_int(1, 100_000), default=500)


def _parser() -> CliParser:
    parser = CliParser(prog="memchat", description="A terminal chat agent with long-term memory.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="area")
    demo = commands.add_parser(
        "demo", help="play a short conversation that shows how memory behaves"
    )
    demo.add_argument(
        "--pause", type=bounded_float(0.0, 3600.0), default=3.0, help="seconds between steps"
    )
    memory = commands.add_parser("memory", help="inspect and manage long-term memory")
    _memory_parser(memory.add_subparsers(dest="command", required=True))
    return parser


def _error(message: object) -> int:
    from agent.errors import ConfigError

    # A config error lists one problem per line (ours); anything else may quote stored
    # text, whose newlines must not start a line that looks like our own output.
    shown = lines(message) if isinstance(message, ConfigError) else one_line(message)
    sys.stderr.write(f"memchat: error: {shown}\n")
    return 2


def _run_memory(namespace: argparse.Namespace) -> int:
    from agent.config_file import load_config
    from agent.errors import AgentError
    from agent.memory_commands import COMMANDS, MemoryArgs
    from memory.errors import MemoryStoreError

    fields = MemoryArgs.__dataclass_fields__
    args = MemoryArgs(**{k: v for k, v in vars(namespace).items() if k in fields})
    try:
        notes: list[str] = []
        config = load_config(notes=notes)
        for note in notes:
            sys.stderr.write(f"memchat: note: {one_line(note)}\n")
        return asyncio.run(COMMANDS[args.command](config, args, sys.stdout))
    except (AgentError, MemoryStoreError) as exc:
        return _error(exc)
    except BrokenPipeError:
        raise
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        return _error(f"{exc.strerror or exc}{where}")


def _run_app(demo_pause: float | None = None) -> int:
    from agent.config_file import load_config
    from agent.errors import AgentError

    notes: list[str] = []
    try:
        config = load_config(notes=notes)
    except AgentError as exc:
        return _error(exc)
    from tui.app import MemchatApp

    if demo_pause is None:
        MemchatApp(config, notes=notes).run()
        return 0
    from datetime import UTC, datetime

    namespace = f"demo-{datetime.now(UTC):%Y%m%d-%H%M%S}"

    async def demo_runtime(config: Config) -> Runtime:
        from agent.runtime import open_runtime

        return await open_runtime(config, namespace=namespace)

    MemchatApp(config, runtime_factory=demo_runtime, demo_pause=demo_pause, notes=notes).run()
    return 0


def _dispatch(argv: Sequence[str] | None) -> int:
    namespace = _parser().parse_args(argv)
    if namespace.version:
        from importlib.metadata import version

        print(f"memchat {version('memchat')}")
        return 0
    if namespace.area == "memory":
        return _run_memory(namespace)
    if namespace.area == "demo":
        return _run_app(demo_pause=namespace.pause)
    return _run_app()


def _tolerant_output() -> None:
    """A terminal that cannot show a character gets an escape, not a crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a closed or unusual stream: leave it as it is
                pass


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `memchat` console script; never lets a traceback through."""
    _tolerant_output()
    try:
        return _dispatch(argv)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`memchat memory list | head`): stop quietly, and keep Python
        # from complaining while it flushes stdout at exit.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is no real file (a test's capture)
            pass
        return 1
    except Exception as exc:  # noqa: BLE001 - the last resort: one line, never a traceback
        sys.stderr.write(
            f"memchat: internal error (a bug; please report it): {type(exc).__name__}: "
            f"{one_line(exc)}\n"
        )
        return EXIT_BUG


if __name__ == "__main__":
    raise SystemExit(main())
