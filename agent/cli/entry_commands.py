"""`memchat memory list | search | get | store | forget`: the commands about single memories.

Every line printed goes through `say` (stored text is escaped) or `safe_json`; the store-wide
commands live in `agent.cli.memory_commands`, files in `agent.cli.file_commands`.
"""

from __future__ import annotations

import json
import shlex
import sys
from datetime import datetime
from typing import TYPE_CHECKING, TextIO

from agent.cli.store import IDS_SHOWN, MemoryArgs, addressed, opened_memory, say, warn
from agent.commands import MAX_FACT_CHARS, key_for
from agent.dropped_values import values_dropped
from agent.erasing import erase_forgotten, memories_holding
from agent.memory_editing import (
    MemoryEditor,
    key_versions,
    replaced_under_other_keys,
    still_saying_otherwise,
)
from agent.paths import data_dir
from agent.redact import redact
from agent.session_scrub import ERASED
from agent.terminal_text import one_line, one_line_key, safe_json
from agent.tools import keys_meant, no_fact_in
from memory.date_term_names import local_time
from memory.entry import utc_now
from memory.wording import counted, new_category_note, without_vectors
from memory.write_rules import keys_of_its_own

if TYPE_CHECKING:
    from agent.config import Config
    from memory.entry import MemoryEntry
    from memory.protocol import Memory

_CONTENT_CHARS = 100


def local_day(moment: datetime) -> str:
    """The calendar day in this machine's time zone, as dates are searched (YYYY-MM-DD)."""
    local = local_time(moment)
    return f"{local.year:04d}-{local.month:02d}-{local.day:02d}"


def _shortened(content: str) -> str:
    return content if len(content) <= _CONTENT_CHARS else content[: _CONTENT_CHARS - 1] + "…"


def _line(entry: MemoryEntry) -> str:
    flags = " [superseded]" if entry.superseded_by else ""
    flags += " [pinned]" if entry.pinned else ""
    # A key no command line can hold (a NUL, a line break: imported) is named by its id.
    flags += f" [--id {entry.id}]" if one_line(entry.key) != entry.key else ""
    score = f"{entry.score:.3f} " if entry.score is not None else ""
    saved = local_day(entry.timestamp)
    return f"{score}{entry.key}  ({entry.category}, {saved}){flags}  {_shortened(entry.content)}"


def _print_entries(entries: list[MemoryEntry], as_json: bool, out: TextIO) -> None:
    for entry in entries:
        if as_json:
            out.write(safe_json(entry.model_dump_json()) + "\n")
        else:
            say(out, _line(entry))


async def cmd_list(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Print one page of entries."""
    async with opened_memory(config, reading_only=True) as memory:
        entries = await memory.list(
            namespace=args.namespace,
            category=args.category,
            include_superseded=args.all,
            limit=args.limit,
            offset=args.offset,
        )
        total = (
            await memory.count(
                namespace=args.namespace, category=args.category, include_superseded=args.all
            )
            if len(entries) == args.limit and not args.json
            else 0
        )
        held = await _held_elsewhere(memory, args) if not entries and not args.json else ""
    _print_entries(entries, args.json, out)
    if not entries and not args.json:
        say(out, f"no memories{held}")
    if total > args.offset + len(entries):
        shown = f"{args.offset + 1}-{args.offset + len(entries)}"
        say(
            sys.stderr,
            f"showing {shown} of {total:,}; --offset {args.offset + len(entries)} for more",
        )
    return 0


async def _held_elsewhere(memory: Memory, args: MemoryArgs) -> str:
    """For an empty listing with a filter: what the store does hold (a typo shows)."""
    if args.offset:
        count = await memory.count(
            namespace=args.namespace, category=args.category, include_superseded=args.all
        )
        if count:
            return f" from {args.offset + 1:,} on: the list has {count:,}"
    if args.category is None and args.namespace is None:
        return ""
    stats = await memory.stats()
    if not stats.total:
        return ""
    kinds = [
        (args.namespace, "namespace", stats.by_namespace),
        (args.category, "category", stats.by_category),
    ]
    said = [
        f"{kind} {asked!r} holds none; the store has "
        + (", ".join(f"{name!r} ({count:,})" for name, count in sorted(counts.items())) or "none")
        for asked, kind, counts in kinds
        if asked is not None and asked not in counts
    ]
    return f" ({'; '.join(said)})" if said else ""


async def cmd_search(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Recall exactly as the agent does, and show why each entry matched."""
    # Here, not at the top: every other command would pay for the turn's modules.
    from agent.injection import SKIPPED_NOTE, recall_for_message
    from agent.recall_notes import in_shown_order
    from agent.since_changed import since_changed

    namespace = args.namespace or "default"
    async with opened_memory(config, create=False) as memory:
        # Unless asked for more, what a turn would recall: the same question, the same answer.
        limit = args.limit or config.memory.recall_limit
        result = await recall_for_message(
            memory, args.query, limit, None, exclude_ids=[], namespace=namespace
        )
        # As the chat's recall detail says it (a new user saw it only there).
        changed = await since_changed(memory, result.entries, namespace)
        stale = (await memory.stats()).stale_embedding if not args.json else 0
        reindexable = memory.reindexing is not None
    if args.json:
        # The notes too, as the plain output shows them (an adversary found them left out).
        document = json.loads(result.model_dump_json())
        document["since_changed"] = changed
        out.write(safe_json(json.dumps(document)) + "\n")
        return 0
    say(out, f"mode: {result.mode}" + (f" ({result.degraded})" if result.degraded else ""))
    if result.mode == "skipped":
        say(out, SKIPPED_NOTE)
        return 0
    if result.calibration:
        say(out, result.calibration)
    if stale and not result.degraded:
        model = config.memory.embedding_model_name
        say(out, f"note: {without_vectors(stale, model, reindexable=reindexable)}")
    for entry in in_shown_order(result.entries, changed):
        say(out, _line(entry))
        if entry.scores is not None:
            say(out, f"    {entry.scores.explanation(result.mode)}")
        if entry.id in changed:
            say(out, f"    {changed[entry.id]}")
    if not result.entries:
        floor = config.memory.min_relevance_score
        weaker = result.weaker_matches()
        # A saved question is left out whatever its score (a new user read "weaker matches"
        # over questions at 1.000).
        asked = any(e.scores is not None and e.scores.held_back for e in weaker)
        left_out = "what was left out" if asked else "the weaker matches left out"
        out.write(
            f"nothing above the relevance floor ({floor:.2f})"
            + (f"; {left_out}:\n" if weaker else "\n")
        )
        for entry in weaker:
            say(out, "  " + _line(entry))
            if entry.scores is not None:
                say(out, f"      {entry.scores.explanation(result.mode)}")
    return 0


async def _only_history(memory: Memory, key: str, namespace: str) -> str:
    """Why a key shown by `list --all` is not found: none of its versions is in effect."""
    versions = await key_versions(memory, key, namespace)
    if not versions:
        return ""
    return (
        f" in effect: {counted(len(versions), 'earlier version is', 'earlier versions are')} "
        "history of other memories (`memchat memory history KEY` lists them; "
        "`memchat memory restore ID` brings one back; forgetting the memory that replaced "
        "them brings the newest back)"
    )


async def cmd_get(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Print every field of one entry."""
    namespace = args.namespace or "default"
    async with opened_memory(config, reading_only=True) as memory:
        if args.by_id:  # that version itself, in effect or not
            entry = await memory.get_by_id(args.key)
            why = f" ({IDS_SHOWN})"
        else:
            entry = await memory.get(args.key, namespace)
            why = "" if entry is not None else await _only_history(memory, args.key, namespace)
            if entry is None and not why:
                why = await keys_meant(memory, args.key, namespace)
    if entry is None:
        named = "id" if args.by_id else "key"
        say(sys.stderr, f"memchat: no memory with {named} {args.key!r}{why}")
        return 1
    out.write(safe_json(entry.model_dump_json(indent=2)) + "\n")
    return 0


async def _going_with(memory: Memory, entry: MemoryEntry) -> tuple[int, int, list[MemoryEntry]]:
    """Earlier versions and saved messages that go with `entry`, and the facts that come back."""
    plan = await MemoryEditor(memory).forget_plan(entry)
    earlier = sum(1 for e in plan.versions if e.key == entry.key and e.id != entry.id)
    messages = sum(1 for e in plan.versions if e.key != entry.key)
    return earlier, messages, list(plan.revived)


def _with_it(earlier: int, messages: int, revived: list[MemoryEntry], *, done: bool) -> str:
    parts = []
    if earlier:
        parts.append(f" and {counted(earlier, 'earlier version', 'earlier versions')}")
    if messages:
        said = counted(messages, "saved message", "saved messages")
        parts.append(f", with {said} it was made from")
    if revived:
        named = "; ".join(f"{e.key!r} ({_shortened(e.content)})" for e in revived[:3])
        more = f" and {len(revived) - 3} more" if len(revived) > 3 else ""
        back = "is in effect again" if done else "comes back into effect"
        parts.append(f"; what it had replaced {back}: {named}{more}")
    return "".join(parts)


def _confirmed(entry: MemoryEntry, going: str, *, erase: bool = False) -> bool:
    """Whether the user, at a terminal, says yes to forgetting `entry`.

    Found by a new user: one command deleted every version, with no undo (the chat's
    inspector has one) and no question asked. What goes with it is named: its earlier
    versions, and the facts under other keys it had replaced, which come back. So is how
    to bring it back from the audit log (a new user read "cannot be undone" and then
    restored it).
    """
    question = f"Forget {entry.key!r} ({_shortened(entry.content)}){going}?"
    after = (
        "It is erased from the audit log too: it cannot be restored."
        if erase
        else f"`memchat memory restore {entry.id}` brings it back."
    )
    sys.stderr.write(one_line(f"{question} {after}") + " [y/N] ")
    sys.stderr.flush()
    answer = sys.stdin.readline()
    return answer.strip().lower() in ("y", "yes")


async def cmd_forget(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Delete one entry (and its earlier versions); at a terminal, asks first.

    What went with it, and what came back into effect, is said after too, also with --yes
    (found by an adversary: a fact that had wrongly replaced another took it along unnamed;
    now the other comes back, named).
    """
    async with opened_memory(config) as memory:
        named = await addressed(memory, args)
        if named is None:
            return 1
        key, namespace = named
        entry = await memory.get(key, namespace)
        if args.by_id and (entry is None or entry.id != args.key):
            say(sys.stderr, _not_in_effect(args.key, key, entry))
            return 1
        going = (0, 0, []) if entry is None else await _going_with(memory, entry)
        if entry is not None and not args.yes and sys.stdin.isatty():
            if not _confirmed(entry, _with_it(*going, done=False), erase=args.erase):
                say(sys.stderr, "memchat: nothing was forgotten")
                return 1
        removed = await memory.forget(key, namespace)
        if args.erase:
            return await _erased(memory, key, namespace, removed, out, going[2])
        why = "" if removed else await _only_history(memory, key, namespace)
        if not removed and not why:
            why = await keys_meant(memory, key, namespace)
    if not removed:
        # As `get` says it: on stderr, named as memchat's, so a script reading stdout
        # does not take it for output.
        say(sys.stderr, f"memchat: no memory with key {key!r}{why}")
        return 1
    back = "" if entry is None else f" (`memchat memory restore {entry.id}` brings it back)"
    say(out, one_line(f"forgot {key!r}{_with_it(*going, done=True)}{back}"))
    if entry is not None and redact(entry.content)[1]:
        # A new user forgot a password and read it, as typed, in `memory audit` after.
        say(
            out,
            "its text, secret and all, stays in the audit log until erased: "
            + one_line(f"`memchat memory forget {shlex.quote(key)} --erase`"),
        )
    return 0


def _not_in_effect(entry_id: str, key: str, current: MemoryEntry | None) -> str:
    """Why `forget --id` of an earlier version forgets nothing: it would take the key."""
    now = f"its id is {current.id}" if current else "none is in effect"
    return (
        f"memchat: {entry_id!r} is an earlier version of {key!r}; forget works on the "
        f"version in effect ({now}), and takes the earlier ones with it"
    )


async def _erased(
    memory: Memory,
    key: str,
    namespace: str,
    removed: bool,
    out: TextIO,
    revived: list[MemoryEntry],
) -> int:
    """`forget --erase`: the key's audit records erased, and what the store still keeps.

    What the forgotten fact had replaced under another key is in effect again: named, with
    how to erase it too (found by an adversary: an older password came back unsaid).
    """
    lifecycle = memory.lifecycle
    if lifecycle is None:
        said = f"forgot {key!r}" if removed else f"memchat: no memory with key {key!r}"
        say(
            out if removed else sys.stderr,
            f"{said}; the {memory.name!r} backend keeps no audit log",
        )
        return 0 if removed else 1
    done_erasing = await erase_forgotten(
        lifecycle,
        key,
        namespace,
        data_dir() / "sessions",
        data_dir() / "exports",
        memory.location,
        data=data_dir(),
    )
    erased = done_erasing.records
    if not removed and not erased:
        # A key holding only history says so, as `get` does (an adversary read "no memory").
        why = await _only_history(memory, key, namespace) or ", and nothing of it in the audit log"
        say(sys.stderr, f"memchat: no memory with key {key!r}{why}")
        return 1
    done = f"forgot {key!r} and erased" if removed else "erased"
    kept = (
        ""
        if memory.capabilities.erases_from_its_files
        else f"; the {memory.name} engine may keep the deleted text in its own files until it "
        "compacts them"
    )
    say(
        out,
        f"{done} {counted(erased, 'record', 'records')} of it from the audit log: it cannot be "
        f"restored{kept}",
    )
    if done_erasing.chats:
        chats = counted(len(done_erasing.chats), "chat file", "chat files")
        say(out, f"its text was taken out of {chats} too (shown there as {ERASED})")
    if done_erasing.unnoted is not None:
        warn(
            f"what was erased could not be noted ({done_erasing.unnoted}): importing an export "
            "made before this would bring it back without a word"
        )
    for path, why in done_erasing.unscrubbed:
        warn(f"the chat file {path} could not be rewritten ({why}): it may still hold the text")
    if done_erasing.kept:
        names = ", ".join(str(path) for path in done_erasing.kept)
        one = len(done_erasing.kept) == 1
        say(
            out,
            f"warning: {counted(len(done_erasing.kept), 'file', 'files')} memchat wrote "
            f"still {'holds' if one else 'hold'} its text, left as "
            f"{'it is' if one else 'they are'} (an export is your backup, a hidden .tmp an "
            f"export cut short, a .md a kept or migrated copy): {names}; delete, or export "
            "again and delete the old, to be rid of it",
        )
    for store in done_erasing.other_stores:
        say(
            out,
            f"warning: {store} (another backend's store in the data folder: a copy `migrate` "
            "made) still holds its text; with memory.backend set to that backend, run "
            f"`memchat memory forget {key} --erase` there too, or delete it",
        )
    for entry in revived:
        say(
            out,
            f"what it had replaced is in effect again: {entry.key!r} ({_shortened(entry.content)});"
            f" `memchat memory forget {entry.key} --erase` erases it too",
        )
    revived_keys = {entry.key for entry in revived}
    erasure = done_erasing.erasure
    holding = await memories_holding(memory, namespace, erasure, {key} | revived_keys)
    for entry, surely in holding:
        # Shown as a chat file now shows it: the terminal is no place to print it again.
        shown = _shortened(erasure.apply(entry.content, discussed=True)) if erasure else ""
        elsewhere = "" if entry.namespace == namespace else f" --namespace {entry.namespace}"
        where = "" if entry.namespace == namespace else f" in namespace {entry.namespace!r}"
        holds = (
            "still holds its text or its code"
            if surely
            else "holds a number its text held (it may be the same code)"
        )
        say(
            out,
            f"warning: another memory {holds}: {entry.key!r}{where} "
            f"({shown}); `memchat memory forget {entry.key}{elsewhere} --erase` erases it too",
        )
    return 1 if done_erasing.unscrubbed else 0


def _not_stored(text: str, category: str) -> str | None:
    """Why `text` is refused, under the rules /remember and the model's memory_store keep."""
    if len(text) > MAX_FACT_CHARS:
        # An adversary stored 120,000 characters from here.
        return (
            f"a memory takes at most {MAX_FACT_CHARS:,} characters (this text has "
            f"{len(text):,}): shorten it or split it in two"
        )
    return no_fact_in(text, category)


def _say_dropped(out: TextIO, earlier: list[str], now: str) -> None:
    """What the earlier text said that the new one does not, as the chat's tool line says.

    Found by a new user: a merge into "ECSA conference abstract due in 6 weeks (around 17
    January 2027)" dropped its date, and the command said only what the text is now.
    """
    if not earlier:
        return
    dropped = values_dropped(redact(earlier[0])[0], redact(now)[0])
    if dropped:
        again = "it" if len(dropped) == 1 else "them"
        say(out, f"(it no longer says {', '.join(dropped)}: store {again} again if still so)")


def _warn_of_a_new_category(category: str, held: dict[str, int]) -> None:
    note = new_category_note(category, [name for name, count in held.items() if count])
    if note is not None:
        warn(note)


async def cmd_store(config: Config, args: MemoryArgs, out: TextIO) -> int:
    """Store one memory, as /remember does in the chat (under the same rules)."""
    if (refused := _not_stored(args.query, args.category or "core")) is not None:
        say(sys.stderr, f"memchat: {refused}")
        return 1
    namespace = args.namespace or "default"
    # One line, as the model's memory_store keys are: a line break or an escape in a key
    # broke every list it is shown in (an adversary).
    key = one_line_key(args.key or "") or key_for(args.query)
    async with opened_memory(config) as memory:
        previous = await memory.get(key, namespace)
        embedded = (
            config.memory.embedding_provider != "none" and memory.capabilities.supports_vectors
        )
        before = await memory.stats()
        unembedded = before.stale_embedding if embedded else 0
        _warn_of_a_new_category(args.category or "core", before.by_category)
        started = utc_now()
        entry = await memory.store_with_metadata(
            key, args.query, args.category or "core", None, namespace=namespace
        )
        others = await replaced_under_other_keys(memory, entry)
        disagreeing = await still_saying_otherwise(memory, entry)
        merged_from = [
            found.content
            for found in [await memory.get_by_id(i) for i in entry.supersedes[:1]]
            if found is not None
        ]
        if embedded and (await memory.stats()).stale_embedding > unembedded:
            # Found by an adversary: with the embedding model down, "stored" said nothing
            # of the missing vector until a search did.
            warn(
                f"the embedding model {config.memory.embedding_model_name} did not answer: "
                "the memory is stored without a vector, so recall finds it by keyword only "
                "until `memchat memory reindex` embeds it"
            )
    if args.json:
        out.write(safe_json(entry.model_dump_json()) + "\n")
        return 0
    if entry.key in keys_of_its_own(key) and entry.timestamp >= started:
        # Another one of its kind than what the key holds ("Flat 3 rent …" under Flat 2's):
        # a key of its own, and a version of what it holds replaced (an adversary read
        # "said on another day" and "merged … nothing stored under" of it).
        earlier = "; its earlier text is kept as history" if entry.supersedes else ""
        say(out, f"stored {entry.key!r} ({entry.category}): {key!r} holds another one")
        say(out, f"of its kind ({previous.content if previous else ''}){earlier}")
    elif entry.key != key and not entry.supersedes and entry.timestamp >= started:
        # The same words said on another day name other days: a new memory under a key of
        # its own (an adversary read "already remembered" of it as nothing stored).
        say(out, f"stored {entry.key!r} ({entry.category}): {key!r} holds the same words")
        say(out, "said on another day, so they meant other days")
    elif entry.key != key:
        # The write rules found it already stored, or merged it into a near-identical one;
        # the key asked for stays free (an adversary took the silence for a lost key).
        asked = f" (nothing stored under {key!r})" if args.key else ""
        if entry.supersedes:
            # A merge rewrote the stored text: "already remembered" was untrue of it (an
            # adversary).
            say(out, f"merged into {entry.key!r}{asked}; its text is now: {entry.content}")
            _say_dropped(out, merged_from, entry.content)
            say(out, f"(the earlier text is kept: `memchat memory history {entry.key}`)")
        else:
            say(out, f"already remembered as {entry.key!r}{asked}: {entry.content}")
    elif previous is not None and previous.content == entry.content:
        moved = previous.category != entry.category
        now = f"; its category is now {entry.category} (was {previous.category})" if moved else ""
        say(out, f"already remembered as {key!r}{now}")
    elif previous is not None:
        say(out, f"stored {key!r} ({entry.category}); it replaces: {previous.content}")
        _say_dropped(out, [previous.content], entry.content)
        say(out, f"(the earlier version is kept: `memchat memory history {key}`)")
    else:
        say(out, f"stored {key!r} ({entry.category})")
    for replaced in others:
        # Another key's fact about the same subject stepped aside: say which, and how to
        # bring it back (an adversary found such a replacement made without a word).
        say(out, f"it replaces {replaced.key!r} (the same subject): {replaced.content}")
        say(out, f"(kept as history: `memchat memory restore {replaced.id}` brings it back)")
    for other in disagreeing:
        # It says more than this, so it was not replaced: said, so the two are not left
        # to disagree unseen (found by a new user).
        say(out, f"{other.key!r} still says otherwise, among other things: {other.content}")
        say(out, "(it stays in effect: edit it in the inspector, or forget it, if that changed)")
    return 0
