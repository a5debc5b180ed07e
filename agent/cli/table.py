"""Every `memchat memory` command, declared once: name, help, arguments and handler.

The parser is built from this table and the handler is looked up in it, so a command cannot
be listed in `--help` without running, or run without being listed. Handlers are named as
"module:function" and imported only when their command runs: `memchat --help` and argument
errors stay fast (only the standard library and the argument module are loaded).
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO, cast

from agent.cli.arguments import MAX_COUNT, CliParser, bounded_int, file_path, filled_text
from agent.cli.arguments import namespace_name as namespace_type

if TYPE_CHECKING:
    from agent.cli.store import MemoryArgs
    from agent.config import Config

Handler = Callable[["Config", "MemoryArgs", TextIO], Coroutine[Any, Any, int]]

ONE = "default: default"
ALL = "default: all namespaces"


def _nothing(parser: CliParser) -> None:
    """A command with no arguments of its own."""


@dataclass(frozen=True)
class Command:
    """One `memchat memory` subcommand."""

    name: str
    help: str
    handler: str
    """"module:function" of an async (config, args, out) -> exit status."""
    namespace: tuple[str, str | None] | None
    """--namespace: (its help, its default; None means every namespace), or None: none."""
    arguments: Callable[[CliParser], None] = _nothing

    def resolve(self) -> Handler:
        """Import and return the handler."""
        module, function = self.handler.split(":")
        return cast("Handler", getattr(importlib.import_module(module), function))


def _limit() -> Callable[[str], int]:
    return bounded_int(1, MAX_COUNT)


def _list_arguments(parser: CliParser) -> None:
    parser.add_argument("--category", type=filled_text)
    parser.add_argument("--limit", type=_limit(), default=50, help="at most this many (1 or more)")
    parser.add_argument("--offset", type=bounded_int(0, MAX_COUNT), default=0)
    parser.add_argument("--all", action="store_true", help="include superseded entries")
    parser.add_argument("--json", action="store_true")


def _search_arguments(parser: CliParser) -> None:
    parser.add_argument("query", type=filled_text)
    parser.add_argument(
        "--limit",
        type=_limit(),
        default=0,
        help="at most this many (default: memory.recall_limit, as many as a turn recalls)",
    )
    parser.add_argument("--json", action="store_true")


def _key_argument(parser: CliParser) -> None:
    parser.add_argument("key", type=filled_text)
    parser.add_argument(
        "--id",
        dest="by_id",
        action="store_true",
        help="KEY is a memory's id, as `list --json` shows it (for a key you cannot type)",
    )


def _forget_arguments(parser: CliParser) -> None:
    _key_argument(parser)
    parser.add_argument(
        "--yes", "-y", action="store_true", help="do not ask first (asked only at a terminal)"
    )
    parser.add_argument(
        "--erase",
        action="store_true",
        help="also erase it from the audit log, for good: it cannot be restored (a secret); "
        "works on a key forgotten before too",
    )


def _store_arguments(parser: CliParser) -> None:
    parser.add_argument("query", metavar="TEXT", type=filled_text, help="what to remember")
    parser.add_argument(
        "--key", type=filled_text, default=None, help="its name (default: made from its words)"
    )
    parser.add_argument("--category", type=filled_text, help="core (default), daily or a word")
    parser.add_argument("--json", action="store_true", help="print the stored memory")


def _history_arguments(parser: CliParser) -> None:
    _key_argument(parser)
    parser.add_argument("--json", action="store_true")


def _id_argument(parser: CliParser) -> None:
    parser.add_argument(
        "key",
        metavar="ID",
        type=filled_text,
        help="the id (`history KEY` lists the versions, `audit` the deleted)",
    )


def _stats_arguments(parser: CliParser) -> None:
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--check",
        action="store_true",
        help="also read every page of the store for damage (seconds on a large store)",
    )


def _optional_file(parser: CliParser) -> None:
    parser.add_argument("file", nargs="?", type=file_path)


def _export_arguments(parser: CliParser) -> None:
    _optional_file(parser)
    parser.add_argument(
        "--force", action="store_true", help="replace FILE even if it is not a memchat export"
    )


def _required_file(parser: CliParser) -> None:
    parser.add_argument("file", type=file_path)


def _import_arguments(parser: CliParser) -> None:
    _required_file(parser)
    parser.add_argument(
        "--include-erased",
        action="store_true",
        help="also import the records erased since (forget --erase) that FILE still holds",
    )


def _reindex_arguments(parser: CliParser) -> None:
    parser.add_argument("--batch-size", type=bounded_int(1, 10_000), default=64)


def _hygiene_arguments(parser: CliParser) -> None:
    parser.add_argument("--dry-run", action="store_true", help="only list what would go")


def _audit_arguments(parser: CliParser) -> None:
    parser.add_argument("--limit", type=_limit(), default=50)


def _migrate_arguments(parser: CliParser) -> None:
    parser.add_argument("--to", required=True, type=filled_text, help="target backend")
    parser.add_argument(
        "--from", dest="source", type=filled_text, help="source backend (default: memory.backend)"
    )
    parser.add_argument("--dry-run", action="store_true", help="count, write nothing")
    parser.add_argument("--batch-size", type=bounded_int(1, 100_000), default=500)
    parser.add_argument(
        "--include-erased",
        action="store_true",
        help="also copy the records erased for good (forget --erase) that the source still holds",
    )


_MEMORY = "agent.cli.memory_commands"
_ENTRIES = "agent.cli.entry_commands"
_FILES = "agent.cli.file_commands"
_HISTORY = "agent.cli.history_commands"

COMMANDS: tuple[Command, ...] = (
    Command(
        "list",
        "list memories, most recent first",
        f"{_ENTRIES}:cmd_list",
        (f"namespace ({ONE})", "default"),
        _list_arguments,
    ),
    Command(
        "search",
        "recall memories for a query, with scores",
        f"{_ENTRIES}:cmd_search",
        (f"namespace ({ONE})", "default"),
        _search_arguments,
    ),
    Command(
        "get",
        "show every field of one memory",
        f"{_ENTRIES}:cmd_get",
        (f"namespace ({ONE})", "default"),
        _key_argument,
    ),
    Command(
        "store",
        "remember one thing, as /remember does in the chat",
        f"{_ENTRIES}:cmd_store",
        (f"namespace ({ONE})", "default"),
        _store_arguments,
    ),
    Command(
        "forget",
        "delete one memory and its earlier versions (at a terminal, asks first)",
        f"{_ENTRIES}:cmd_forget",
        (f"namespace ({ONE})", "default"),
        _forget_arguments,
    ),
    Command(
        "history",
        "every version of one memory, newest first, with the ids restore takes",
        f"{_HISTORY}:cmd_history",
        (f"namespace ({ONE})", "default"),
        _history_arguments,
    ),
    Command(
        "restore",
        "bring an earlier version back into effect, or a deleted one back from the audit log",
        f"{_HISTORY}:cmd_restore",
        None,
        _id_argument,
    ),
    Command(
        "stats",
        "counts, sizes and embedding state",
        f"{_MEMORY}:cmd_stats",
        (f"count only this one ({ALL})", None),
        _stats_arguments,
    ),
    Command(
        "export",
        "write memories as JSON lines (stdout without FILE or with -)",
        f"{_FILES}:cmd_export",
        (f"only this namespace ({ALL})", None),
        _export_arguments,
    ),
    Command(
        "import",
        "load memories from an export file (UTF-8, or UTF-16/32 with a BOM)",
        f"{_FILES}:cmd_import",
        ("put every record into this namespace (default: each record keeps its own)", None),
        _import_arguments,
    ),
    Command(
        "reindex",
        "re-embed entries whose vectors are missing or stale",
        f"{_MEMORY}:cmd_reindex",
        (f"only this namespace ({ALL})", None),
        _reindex_arguments,
    ),
    Command(
        "hygiene",
        "apply retention and budgets now (audited), then write the snapshot",
        f"{_MEMORY}:cmd_hygiene",
        (f"only this namespace; budgets always count each namespace apart ({ALL})", None),
        _hygiene_arguments,
    ),
    Command(
        "snapshot",
        "write MEMORY_SNAPSHOT.md (core memories, restorable)",
        f"{_FILES}:cmd_snapshot",
        (f"only this namespace, into FILE ({ALL})", None),
        _optional_file,
    ),
    Command(
        "audit",
        "deletions, newest first",
        f"{_MEMORY}:cmd_audit",
        (f"only this namespace ({ALL})", None),
        _audit_arguments,
    ),
    Command(
        "migrate",
        "copy every memory to another backend (verified; the source is kept)",
        "agent.cli.migrate:cmd_migrate",
        None,
        _migrate_arguments,
    ),
)
BY_NAME = {command.name: command for command in COMMANDS}


def add_memory_commands(sub: argparse._SubParsersAction[CliParser]) -> None:
    """One subparser per command of the table."""
    for command in COMMANDS:
        parser = sub.add_parser(command.name, help=command.help)
        if command.namespace is not None:
            help_text, default = command.namespace
            parser.add_argument("--namespace", type=namespace_type, default=default, help=help_text)
        command.arguments(parser)
