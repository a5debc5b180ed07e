"""`memchat memory export | import | snapshot`: the commands that write or read user files.

Export and snapshot write through `atomic_writer`: the target is created 0600 from its first
byte and replaced only once the new content is complete and on disk, so a damaged store, a
full disk or an interrupted run leaves an existing backup exactly as it was. The store's own
files and targets that are not regular files are refused before anything is opened.
"""

from __future__ import annotations

import asyncio
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from agent.cli.store import MemoryArgs, opened_memory, say
from agent.erased_ids import erased_ids
from agent.export_file import (
    FileWriteError,
    damage_found,
    export_to_file,
    ids_in_export,
    not_an_export,
    protected_files,
    write_records,
)
from agent.export_log import note_export
from agent.import_file import read_export
from agent.imported_secrets import redacted_messages
from agent.maintenance import past_retention
from agent.memory_editing import every_listed, whole_audit_log
from agent.paths import data_dir
from memory.errors import MemoryStoreError, UnsafeTargetError, in_words
from memory.files import check_target
from memory.record_checks import check_records
from memory.wording import (
    counted,
    memories,
    new_category_note,
    older_than_replaced,
    without_vectors,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from agent.config import Config
    from memory.entry import MemoryEntry
    from memory.protocol import ImportSummary, Memory


async def _held(memory: Memory, namespace: str | None) -> bool:
    """Whether the export has anything to write: an entry of `namespace`, or of the store."""
    found = await memory.list(namespace=namespace, include_superseded=True, limit=1)
    return bool(found)


async def _no_such_namespace(memory: Memory, namespace: str) -> MemoryStoreError:
    stats = await memory.stats()
    held = ", ".join(sorted(name for name, count in stats.by_namespace.items() if count))
    where = f" (memories are in: {held})" if held else ""
    return MemoryStoreError(f"no memory is in namespace {namespace!r}{where}; nothing was written")


async def cmd_export(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Write every entry (of one namespace with --namespace), every field and vector.

    A namespace that holds nothing is refused, and so is an export of nothing over a file
    that holds memories: found by an adversary, `--namespace` mistyped replaced a backup of
    44 memories with an empty file and said "exported 0 memories".
    """
    async with opened_memory(config, reading_only=True) as memory:
        held = await _held(memory, args.namespace)
        if args.namespace is not None and not held:
            raise await _no_such_namespace(memory, args.namespace)
        if args.file in (None, "-"):
            try:
                await write_records(memory, args.namespace, out)
                out.flush()
            except OSError as exc:
                # "> /dev/full" said only "No space left on device" (an adversary).
                raise MemoryStoreError(
                    f"cannot write the export to standard output: {in_words(exc)}; what was "
                    "written there is incomplete (the store is untouched)"
                ) from None
            _warn_of_damage(await damage_found(memory))
            return 0
        target = Path(str(args.file))
        # Noted first (once the target is known to be one an export may write): an export
        # killed mid-way leaves a temp file holding what it wrote.
        check_target(target, protected_files(memory, target))
        if not args.force and await asyncio.to_thread(_made_read_only, target):
            raise UnsafeTargetError(
                f"{target} is read-only: nothing was written (make it writable, or pass "
                "--force to replace it)"
            )
        if not args.force and await asyncio.to_thread(not_an_export, target):
            raise UnsafeTargetError(
                f"{target} exists and is not a memchat export; nothing was written (choose "
                "another file, or pass --force to replace it)"
            )
        if not held and not args.force and await asyncio.to_thread(_holds_something, target):
            raise UnsafeTargetError(
                f"{target} holds memories and the store holds none: nothing was written "
                "(pass --force to replace it with an empty export)"
            )
        if not args.force and (others := await _of_another_store(memory, target)):
            raise UnsafeTargetError(
                f"{target} holds {memories(others)}, none of them this store's (another "
                "store's export?): nothing was written (choose another file, import it "
                "first, or pass --force to replace it)"
            )
        if not args.force and (left := await _other_namespaces_in(memory, target, args.namespace)):
            raise UnsafeTargetError(
                f"{target} holds {memories(left)} of other namespaces, still in the store, "
                f"that an export of namespace {args.namespace!r} leaves out: nothing was "
                "written (choose another file, export without --namespace, or pass --force "
                "to replace it)"
            )
        gone = await _no_longer_stored(memory, target, args.namespace)
        unnoted = await asyncio.to_thread(note_export, data_dir(), target)
        count = await export_to_file(memory, target, args.namespace)
        damage = await damage_found(memory)
    say(sys.stderr, f"exported {memories(count)} to {target}")
    if gone:
        # Found by an adversary: a backup of 14 replaced by 13, the forgotten one gone from
        # it too, without a word.
        say(
            sys.stderr,
            f"note: the file it replaced held {memories(gone)} no longer stored (forgotten "
            "since); this export leaves them out (`memchat memory audit` lists what was "
            "forgotten)",
        )
    _warn_of_damage(damage)
    if unnoted is not None:
        say(
            sys.stderr,
            f"warning: memchat could not note where this export is ({unnoted}): a later "
            "`forget --erase` will not name it if it holds the erased text",
        )
    return 0


def _warn_of_damage(damage: str | None) -> None:
    """On stderr, what the store's check found wrong after an export (to a file or stdout).

    Of the whole store: a namespace's export may hold none of it.
    """
    if damage is not None:
        say(
            sys.stderr,
            f"warning: the store's check finds damage ({damage}); the export holds the "
            "memories as the store has them now (what --namespace left out aside): keep your "
            "earlier backups",
        )


async def _of_another_store(memory: Memory, target: Path) -> int:
    """How many memories an export at `target` holds when none is this store's; else 0.

    Found by an adversary: an export of another store's 3 memories replaced a backup of
    13 without a word. One memory of this store in it, held or deleted since (its audit
    log), makes it this store's earlier export: a secret erased since is out of both, and
    replacing that export is how it leaves the backup.
    """
    held = await asyncio.to_thread(ids_in_export, target)
    if not held:
        return 0
    if held & {e.id for e in await every_listed(memory, None, include_superseded=True)}:
        return 0
    if memory.lifecycle is not None:
        deleted = {record.entry_id for record in await whole_audit_log(memory.lifecycle)}
        if held & deleted:
            return 0
    return len(held)


async def _other_namespaces_in(memory: Memory, target: Path, namespace: str | None) -> int:
    """How many memories of other namespaces, still stored, an export at `target` holds.

    Found by an adversary: `export full.jsonl --namespace tiny` replaced a backup of the
    whole store's 20 memories with one, without a word. None without `namespace`.
    """
    if namespace is None:
        return 0
    held = await asyncio.to_thread(ids_in_export, target)
    if not held:
        return 0
    stored = await every_listed(memory, None, include_superseded=True)
    return len(held & {e.id for e in stored if e.namespace != namespace})


async def _no_longer_stored(memory: Memory, target: Path, namespace: str | None) -> int:
    """How many memories an export at `target` holds that the store holds no more."""
    held = await asyncio.to_thread(ids_in_export, target)
    if not held:
        return 0
    stored = await every_listed(memory, None, include_superseded=True)
    return len(held - {e.id for e in stored}) if namespace is None else 0


def _made_read_only(target: Path) -> bool:
    """Whether `target` is a file its owner may not write: kept from changes on purpose.

    Found by an adversary: an export over a `chmod 444` backup replaced it (as root, the
    bits stop no rename), and the new file was `-rw-------`.
    """
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) and not mode & stat.S_IWUSR


def _holds_something(target: Path) -> bool:
    try:
        return target.stat().st_size > 0
    except OSError:
        return False


def _import_message(summary: ImportSummary) -> str:
    """What an import did, counts grouped with commas; kinds that did not happen left out."""
    total = summary.added + summary.replaced + summary.unchanged
    kinds = [
        (summary.added, "new"),
        (summary.replaced, "replacing a stored entry (same id or key)"),
        (summary.unchanged, "identical to what was stored"),
        (summary.renumbered, "given a new id because their id was taken in another namespace"),
        (summary.kept_as_history, "earlier versions kept as history (restorable)"),
    ]
    said = [f"{count:,} {what}" for count, what in kinds if count]
    return f"imported {counted(total, 'record', 'records')}" + (
        ": " + "; ".join(said) if said else ""
    )


async def cmd_import(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Load an export file; nothing is written unless the whole file parses.

    With --namespace every record goes into that namespace; without it each keeps its own.
    """
    records = read_export(Path(str(args.file)))
    erased = set() if args.include_erased else erased_ids(data_dir())
    left_out = [record for record in records if record.id in erased]
    records = [record for record in records if record.id not in erased]
    if args.namespace is not None:
        records = [record.model_copy(update={"namespace": args.namespace}) for record in records]
    records, secrets_redacted = redacted_messages(records)
    # Checked before the store opens: refused, the import left a new, empty store behind
    # (found by a new user).
    check_records(records)
    async with opened_memory(config) as memory:
        before = await memory.stats()
        stale_before = before.stale_embedding
        held = sorted(name for name, count in before.by_namespace.items() if count)
        categories_held = [name for name, count in before.by_category.items() if count]
        forgotten = await forgotten_in(memory, records)
        summary = await memory.import_(records)
        # What this import left without a vector; older ones are the start-up's to report.
        added = (await memory.stats()).stale_embedding - stale_before
        orphans = await _replaced_by_nothing(memory, records)
        reindexable = memory.reindexing is not None
        due = await past_retention(memory, records, config.memory)
    say(out, _import_message(summary))
    if secrets_redacted:
        say(
            out,
            f"note: {counted(secrets_redacted, 'saved message', 'saved messages')} held a "
            "secret (a password, a code, an ID number …): redacted as a message you type is",
        )
    if left_out:
        # Found by an adversary: an export made before `forget --erase` brought the
        # erased codes back into effect, unsaid.
        say(
            out,
            f"note: {counted(len(left_out), 'record was', 'records were')} left out: "
            "erased for good since the file was written (`forget --erase`); "
            "--include-erased imports them too",
        )
    if args.namespace is not None and held and args.namespace not in held and records:
        # Said, not refused: a namespace of its own is a way to keep an import apart. A
        # mistyped one made a namespace unsaid (found by an adversary: "defualt").
        say(
            out,
            f"note: namespace {args.namespace!r} is new: this store's others are "
            f"{', '.join(held)}; `memchat memory list --namespace {args.namespace}` shows "
            "what went there",
        )
    for category in dict.fromkeys(record.category for record in records):
        if (note := new_category_note(category, categories_held)) is not None:
            say(out, f"note: {note}")
    if summary.older_than_replaced:
        say(out, f"note: {older_than_replaced(summary.older_than_replaced)}")
    if orphans:
        say(
            out,
            f"note: {counted(orphans, 'record is', 'records are')} marked as replaced "
            "(superseded_by) by an entry this store does not hold: "
            f"{'it is' if orphans == 1 else 'they are'} history of nothing, never recalled. "
            "To have such a record in effect, remove its superseded_by from the file and "
            "import it again",
        )
    if forgotten:
        say(out, f"note: {back_again(forgotten)}")
    if added > 0:
        model = config.memory.embedding_model_name
        note = without_vectors(added, model, imported=True, reindexable=reindexable)
        say(out, f"note: {note}")
    if due:
        say(out, f"note: {_retention_warning(due, config)}")
    return 0


_NAMED_KEYS = 5


def back_again(keys: list[str], source: str = "the file", *, done: bool = True) -> str:
    """What to say of `keys` this store had forgotten and a copy or a file brought back.

    `done`: brought back already; else it would be (a dry run).
    """
    named = ", ".join(repr(key) for key in keys[:_NAMED_KEYS])
    more = f" and {len(keys) - _NAMED_KEYS} more" if len(keys) > _NAMED_KEYS else ""
    one, many = ("is", "are") if done else ("would be", "would be")
    what = counted(
        len(keys), f"memory you had forgotten {one}", f"memories you had forgotten {many}"
    )
    again = "it" if len(keys) == 1 else "each"
    return (
        f"{what} back from {source} ({named}{more}); "
        f"`memchat memory forget KEY` forgets {again} again"
    )


async def forgotten_in(memory: Memory, records: Sequence[MemoryEntry]) -> list[str]:
    """Keys of records this store forgot (its audit log says so) and no longer holds.

    An older export brought back what the user had forgotten, without a word (found by a
    new user).
    """
    lifecycle = memory.lifecycle
    if lifecycle is None:
        return []
    wanted = {(record.id, record.namespace): record.key for record in records}
    found: dict[tuple[str, str], str] = {}
    for entry in await whole_audit_log(lifecycle):
        place = (entry.entry_id, entry.namespace)
        if entry.action == "forget" and place in wanted:
            found[place] = wanted[place]
    held = [place for place in found if await memory.get_by_id(place[0]) is not None]
    for place in held:
        del found[place]
    return sorted(set(found.values()))


async def _replaced_by_nothing(memory: Memory, records: Sequence[MemoryEntry]) -> int:
    """Records whose successor is neither in the file nor in the store.

    A line deleted from an export leaves the one before it superseded by nothing (found by
    an adversary).
    """
    in_file = {record.id for record in records}
    missing = {
        record.superseded_by
        for record in records
        if record.superseded_by is not None and record.superseded_by not in in_file
    }
    absent = {entry_id for entry_id in missing if await memory.get_by_id(entry_id) is None}
    return sum(record.superseded_by in absent for record in records)


def _retention_warning(due: dict[str, int], config: Config) -> str:
    days = config.memory.retention_days.model_dump()
    categories = sorted(due)
    kinds = ", ".join(f"{c}: {counted(days[c], 'day', 'days')}" for c in categories)
    count = sum(due.values())
    one = count == 1
    settings = " and ".join(f"memory.retention_days.{c} = 0" for c in categories)
    return (
        f"{memories(count)} in this import {'is' if one else 'are'} older than "
        f"memory.retention_days keeps {'it' if one else 'them'} ({kinds}): the next memory "
        f"hygiene removes {'it' if one else 'them'} (the app runs it when it starts; "
        f"`memchat memory hygiene --dry-run` lists them). To keep {'it' if one else 'them'}, "
        f"pin {'it' if one else 'them'} or set {settings} in the config."
    )


async def cmd_snapshot(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Write MEMORY_SNAPSHOT.md (or FILE): core memories, readable and restorable."""
    if args.file == "-":
        # Unlike an export, a snapshot is a file the store may be rebuilt from.
        raise FileWriteError("a snapshot is written to a file: name one (`-` is not a file)")
    target = Path(args.file) if args.file else None
    async with opened_memory(config) as memory:
        lifecycle = memory.lifecycle
        if lifecycle is None:
            raise MemoryStoreError(f"the {memory.name!r} backend cannot write snapshots")
        if target is None and lifecycle.snapshot_path is None:
            raise MemoryStoreError(
                f"the {memory.name!r} backend keeps no MEMORY_SNAPSHOT.md of its own (only "
                "SQLite is rebuilt from one): name a file, as in `memchat memory snapshot "
                "core-memories.md`"
            )
        # A snapshot elsewhere holds what an erase must name, as an export does (found by
        # an adversary: `snapshot core.md`, then `forget --erase`, named no core.md).
        unnoted = (
            None if target is None else await asyncio.to_thread(note_export, data_dir(), target)
        )
        try:
            path = await lifecycle.write_snapshot(target, namespace=args.namespace)
        except OSError as exc:
            shown = target or "the snapshot"
            raise FileWriteError(f"cannot write {shown}: {exc.strerror or exc}") from None
    say(out, f"snapshot written to {path}")
    if unnoted is not None:
        say(
            sys.stderr,
            f"warning: memchat could not note where this snapshot is ({unnoted}): a later "
            "`forget --erase` will not name it if it holds the erased text",
        )
    return 0
