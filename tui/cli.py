"""The `memchat` command: the app by default, `memchat memory …` for the store.

Only argparse is imported up front so that start-up stays fast; everything else is
imported by the branch that needs it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent.config import Config
    from agent.runtime import Runtime


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memchat", description="A terminal chat agent with long-term memory."
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="area")
    demo = commands.add_parser(
        "demo", help="play a short conversation that shows how memory behaves"
    )
    demo.add_argument("--pause", type=float, default=3.0, help="seconds between steps")
    memory = commands.add_parser("memory", help="inspect and manage long-term memory")
    sub = memory.add_subparsers(dest="command", required=True)

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=help_text)
        command.add_argument("--namespace", default="default", help="namespace (default: default)")
        return command

    listing = add("list", "list memories, most recent first")
    listing.add_argument("--category")
    listing.add_argument("--limit", type=int, default=50)
    listing.add_argument("--offset", type=int, default=0)
    listing.add_argument("--all", action="store_true", help="include superseded entries")
    listing.add_argument("--json", action="store_true")
    search = add("search", "recall memories for a query, with scores")
    search.add_argument("query")
    search.add_argument("--limit", type=int, default=10)
    search.add_argument("--json", action="store_true")
    add("get", "show every field of one memory").add_argument("key")
    add("forget", "delete one memory").add_argument("key")
    add("stats", "counts, sizes and embedding state").add_argument("--json", action="store_true")
    export = add("export", "write all memories as JSON lines (stdout without FILE)")
    export.add_argument("file", nargs="?")
    export.set_defaults(namespace=None)
    add("import", "load memories from an export file").add_argument("file")
    reindex = add("reindex", "re-embed entries whose vectors are missing or stale")
    reindex.add_argument("--batch-size", type=int, default=64)
    hygiene = add("hygiene", "apply retention and budgets now (audited), then write the snapshot")
    hygiene.add_argument("--dry-run", action="store_true", help="only list what would go")
    add("snapshot", "write MEMORY_SNAPSHOT.md (core memories, restorable)").add_argument(
        "file", nargs="?"
    )
    add("audit", "deletions, newest first").add_argument("--limit", type=int, default=50)
    migration = sub.add_parser(
        "migrate", help="copy every memory to another backend (verified; the source is kept)"
    )
    migration.add_argument("--to", required=True, help="target backend")
    migration.add_argument("--from", dest="source", help="source backend (default: memory.backend)")
    migration.add_argument("--dry-run", action="store_true", help="count, write nothing")
    migration.add_argument("--batch-size", type=int, default=500)
    return parser


def _run_memory(namespace: argparse.Namespace) -> int:
    from agent.config_file import load_config
    from agent.errors import AgentError
    from agent.memory_commands import COMMANDS, MemoryArgs
    from memory.errors import MemoryStoreError

    fields = MemoryArgs.__dataclass_fields__
    args = MemoryArgs(**{k: v for k, v in vars(namespace).items() if k in fields})
    try:
        config = load_config()
        return asyncio.run(COMMANDS[args.command](config, args, sys.stdout))
    except (AgentError, MemoryStoreError, OSError) as exc:
        sys.stderr.write(f"memchat: error: {exc}\n")
        return 2


def _run_app(demo_pause: float | None = None) -> int:
    from agent.config_file import load_config
    from agent.errors import AgentError

    try:
        config = load_config()
    except AgentError as exc:
        sys.stderr.write(f"memchat: error: {exc}\n")
        return 2
    from tui.app import MemchatApp

    if demo_pause is None:
        MemchatApp(config).run()
        return 0
    from datetime import UTC, datetime

    namespace = f"demo-{datetime.now(UTC):%Y%m%d-%H%M%S}"

    async def demo_runtime(config: Config) -> Runtime:
        from agent.runtime import open_runtime

        return await open_runtime(config, namespace=namespace)

    MemchatApp(config, runtime_factory=demo_runtime, demo_pause=demo_pause).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `memchat` console script."""
    namespace = _parser().parse_args(argv)
    if namespace.version:
        from importlib.metadata import version

        print(f"memchat {version('memchat')}")
        return 0
    if namespace.area == "memory":
        return _run_memory(namespace)
    if namespace.area == "demo":
        return _run_app(demo_pause=max(namespace.pause, 0.0))
    return _run_app()


if __name__ == "__main__":
    raise SystemExit(main())
