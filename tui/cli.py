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

from agent.cli.arguments import CliParser, bounded_float
from agent.cli.table import BY_NAME, add_memory_commands
from agent.terminal_text import lines, one_line

if TYPE_CHECKING:
    from agent.config import Config
    from agent.runtime import Runtime

EXIT_BUG = 70  # sysexits' EX_SOFTWARE
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def _parser() -> CliParser:
    parser = CliParser(
        prog="memchat",
        description="A terminal chat agent with long-term memory. Without a command, "
        "memchat opens the chat app.",
        epilog="Files: the config is $MEMCHAT_CONFIG (default ~/.config/memchat/config.toml), "
        "data is in $MEMCHAT_HOME (default ~/.local/share/memchat); Ollama is reached at "
        "ollama.host, else $OLLAMA_HOST, else http://127.0.0.1:11434.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="area")
    demo = commands.add_parser(
        "demo", help="play a short conversation that shows how memory behaves"
    )
    demo.add_argument(
        "--pause", type=bounded_float(0.0, 3600.0), default=3.0, help="seconds between steps"
    )
    memory = commands.add_parser("memory", help="inspect and manage long-term memory")
    add_memory_commands(memory.add_subparsers(dest="command", required=True))
    return parser


def _error(message: object) -> int:
    from agent.errors import ConfigError

    # A config error lists one problem per line (ours); anything else may quote stored
    # text, whose newlines must not start a line that looks like our own output.
    shown = lines(message) if isinstance(message, ConfigError) else one_line(message)
    sys.stderr.write(f"memchat: error: {shown}\n")
    return 2


def _run_memory(namespace: argparse.Namespace) -> int:
    from agent.cli.store import MemoryArgs
    from agent.config_file import load_config
    from agent.errors import AgentError
    from memory.errors import MemoryStoreError

    fields = MemoryArgs.__dataclass_fields__
    args = MemoryArgs(**{k: v for k, v in vars(namespace).items() if k in fields})
    try:
        notes: list[str] = []
        config = load_config(notes=notes)
        for note in notes:
            sys.stderr.write(f"memchat: note: {one_line(note)}\n")
        handler = BY_NAME[args.command].resolve()
        return asyncio.run(handler(config, args, sys.stdout))
    except (AgentError, MemoryStoreError) as exc:
        return _error(exc)
    except BrokenPipeError:
        raise
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        return _error(f"{exc.strerror or exc}{where}")


def _run_app(demo_pause: float | None = None) -> int:
    from agent.config_file import load_config, unused_settings
    from agent.errors import AgentError

    notes: list[str] = []
    try:
        config = load_config(notes=notes)
    except AgentError as exc:
        return _error(exc)
    notes += unused_settings(config)
    from tui.app import MemchatApp
    from tui.lenient_input import read_input_leniently

    read_input_leniently()

    if demo_pause is None:
        app = MemchatApp(config, notes=notes)
        app.run()
        # A crash Textual caught ends the app with 1: a script or a shell must see it (a
        # new user's crash in the model picker exited with 0).
        return app.return_code or 0
    from datetime import UTC, datetime

    namespace = f"demo-{datetime.now(UTC):%Y%m%d-%H%M%S}"

    async def demo_runtime(config: Config) -> Runtime:
        from agent.runtime import open_runtime

        return await open_runtime(config, namespace=namespace)

    demo = MemchatApp(config, runtime_factory=demo_runtime, demo_pause=demo_pause, notes=notes)
    demo.run()
    return demo.return_code or 0


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
