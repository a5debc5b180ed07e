"""`memchat memory history | restore`: a memory's earlier versions, and bringing one back.

The inspector's history view and Restore button, from the command line: the same rules
(`agent.memory_editing.MemoryEditor`), so a key whose versions are all history (the fact
that replaced them was forgotten or expired) can be brought back without the app.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from agent.bringing_back import bring_back, deleted_record
from agent.cli.entry_commands import local_day
from agent.cli.store import MemoryArgs, addressed, opened_memory, say
from agent.memory_editing import MemoryEditor, key_versions
from agent.terminal_text import safe_json
from memory.errors import MemoryStoreError
from memory.front import in_effect_after
from memory.wording import counted

if TYPE_CHECKING:
    from agent.config import Config
    from memory.entry import MemoryEntry
    from memory.protocol import Memory

_CONTENT_CHARS = 80


def _version_lines(entry: MemoryEntry, key: str, by_id: dict[str, MemoryEntry]) -> list[str]:
    """Two lines: the version, then its state (each written escaped, as one line)."""
    if entry.superseded_by is None:
        state = "in effect"
    else:
        successor = by_id.get(entry.superseded_by)
        named = f" ({successor.key})" if successor is not None and successor.key != key else ""
        state = f"replaced by {entry.superseded_by}{named}"
    content = entry.content
    if len(content) > _CONTENT_CHARS:
        content = content[: _CONTENT_CHARS - 1] + "…"
    other_key = f"{entry.key}: " if entry.key != key else ""
    return [
        f"{entry.id}  {local_day(entry.updated_at)}  {entry.category}  {other_key}{content}",
        f"    {state}" + ("  [pinned]" if entry.pinned else ""),
    ]


def newest_first(chain: Sequence[MemoryEntry]) -> list[MemoryEntry]:
    """The versions from the one in effect back, each after the version that replaced it.

    By time alone a replaced version could come first: a copy between backends writes the
    replaced version's row again after the one that replaced it (found by a new user after
    a migrate, "newest first" showed 10mg above the 20mg in effect). Among versions as many
    replacements from the one in effect, the most recent first.
    """
    by_id = {entry.id: entry for entry in chain}

    def replacements(entry: MemoryEntry) -> int:
        seen = {entry.id}
        steps = 0
        while entry.superseded_by in by_id and entry.superseded_by not in seen:
            entry = by_id[entry.superseded_by]
            seen.add(entry.id)  # an imported chain may loop: counted once round
            steps += 1
        return steps

    return sorted(
        chain,
        key=lambda entry: (-replacements(entry), entry.updated_at, entry.id),
        reverse=True,
    )


async def cmd_history(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Every version of one memory, and what each was replaced by, newest first."""
    async with opened_memory(config, reading_only=True) as memory:
        named = await addressed(memory, args)
        if named is None:
            return 1
        key, namespace = named
        versions = await key_versions(memory, key, namespace)
        chain = await MemoryEditor(memory).history(versions[0]) if versions else ()
        by_id = {entry.id: entry for entry in chain}
        # What replaced a version from outside its key's history (a fact under another
        # key): named, so "replaced by" says by what.
        for successor in {e.superseded_by for e in chain if e.superseded_by} - set(by_id):
            found = await memory.get_by_id(successor)
            if found is not None:
                by_id[successor] = found
    if not chain:
        say(sys.stderr, f"memchat: no memory with key {key!r}, in effect or earlier")
        return 1
    ordered = newest_first(chain)
    if args.json:
        for entry in ordered:
            out.write(safe_json(entry.model_dump_json()) + "\n")
        return 0
    in_effect = [entry for entry in ordered if entry.superseded_by is None]
    say(
        out,
        f"{key}: {counted(len(ordered), 'version', 'versions')}, newest first"
        + ("" if in_effect else " (none in effect)"),
    )
    for entry in ordered:
        # Line by line: a line break in the content is shown escaped by `say`, so text
        # cannot pass for a line of its own ("in effect", found by an adversary).
        for line in _version_lines(entry, key, by_id):
            say(out, line)
    if len(ordered) > len(in_effect):
        say(out, "`memchat memory restore ID` brings an earlier version back into effect")
    return 0


async def cmd_restore(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Bring an earlier version back; what holds its key now is kept as history."""
    async with opened_memory(config, create=False) as memory:
        if not memory.capabilities.supports_supersede:
            say(sys.stderr, f"memchat: the {memory.name} backend keeps no earlier versions")
            return 2
        entry = await memory.get_by_id(args.key)
        if entry is None:
            return await _from_the_audit_log(memory, args.key, out)
        if entry.superseded_by is None:
            say(out, f"{entry.key!r} ({entry.id}) is already in effect; nothing changed")
            return 0
        in_effect = await _in_effect_around(memory, entry)
        try:
            restored = await MemoryEditor(memory).restore(entry)
        except MemoryStoreError as exc:
            say(sys.stderr, f"memchat: {exc}")
            return 1
        set_aside = [
            found
            for found in [await memory.get_by_id(other.id) for other in in_effect]
            if found is not None and found.superseded_by == restored.id
        ]
    say(out, f"restored {restored.key!r} ({restored.id}): {restored.content}")
    for other in set_aside:
        say(out, f"{other.key!r} ({other.id}) steps aside, kept as its history: {other.content}")
    return 0


async def _from_the_audit_log(memory: Memory, entry_id: str, out: TextIO) -> int:
    """Bring back a deleted memory the audit log holds (`agent.bringing_back`)."""
    record = await deleted_record(memory, entry_id)
    if record is None:
        say(
            sys.stderr,
            f"memchat: no memory with id {entry_id!r}, in memory or deleted "
            "(`memchat memory history KEY` lists a memory's versions with their ids, "
            "`memchat memory audit` the deleted ones)",
        )
        return 1
    try:
        back = await bring_back(memory, record)
    except MemoryStoreError as exc:
        say(sys.stderr, f"memchat: {exc}")
        return 1
    entry = back.entry
    if back.already:
        say(out, f"already in memory as {entry.key!r}: {entry.content}; nothing was added")
        return 0
    say(out, f"brought back {entry.key!r} ({entry.id}) from the audit log: {entry.content}")
    for note in back.notes:
        say(out, f"({note})")
    for old in back.replaced:
        say(out, f"it replaces {old.key!r}, kept as history: {old.content}")
        say(out, f"(`memchat memory restore {old.id}` brings it back into effect)")
    return 0


async def _in_effect_around(memory: Memory, entry: MemoryEntry) -> list[MemoryEntry]:
    """What may step aside when `entry` comes back: its key's holder, its chain's end."""
    found = [
        other
        for other in (
            await memory.get(entry.key, entry.namespace),
            await in_effect_after(entry, memory.get_by_id),
        )
        if other is not None
    ]
    return list({other.id: other for other in found}.values())
