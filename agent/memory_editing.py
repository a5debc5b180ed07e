"""The rules for editing memory by hand: save, pin, restore, forget and undo forget.

The inspector and any other front end call these; none of them needs a user interface, so
they are tested without one. Every method raises `MemoryStoreError` when the store refuses,
with the store unchanged.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory.claims_elsewhere import said_in_english
from memory.errors import MemoryStoreError
from memory.fact_subjects import change_terms
from memory.fact_values import home_moved_to
from memory.forgetting import Link, plan_rehoming, revived_ids, split_history
from memory.predicates import a_home_elsewhere, claim_of, clause_claims
from memory.text import analyze

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from memory.protocol import AuditRecord, Lifecycle, ListOrder, Memory

HISTORY_PAGE = 500
"""Rows read per page where a whole listing is read (`every_listed`)."""


async def every_listed(
    memory: Memory,
    namespace: str | None,
    *,
    category: str | None = None,
    session_id: str | None = None,
    prefix: str | None = None,
    include_superseded: bool = False,
    order: ListOrder = "recent",
) -> list[MemoryEntry]:
    """Every entry `Memory.list` gives for these filters, read page by page.

    No cap: a capped read would forget versions an undo could then never bring back, or
    leave a copy of an erased secret unnamed.
    """
    found: list[MemoryEntry] = []
    while True:
        page = await memory.list(
            namespace=namespace,
            category=category,
            session_id=session_id,
            prefix=prefix,
            include_superseded=include_superseded,
            order=order,
            limit=HISTORY_PAGE,
            offset=len(found),
        )
        found.extend(page)
        if len(page) < HISTORY_PAGE:
            return found


_AUDIT_PAGE = 1_000


async def whole_audit_log(lifecycle: Lifecycle, namespace: str | None = None) -> list[AuditRecord]:
    """Every audit record, newest first (only `namespace`'s when given), read page by page."""
    records: list[AuditRecord] = []
    while page := await lifecycle.audit_log(
        limit=_AUDIT_PAGE, offset=len(records), namespace=namespace
    ):
        records += page
    return records


@dataclass(frozen=True)
class ForgetPlan:
    """What forgetting a key does: its versions go, the facts they replaced stay.

    `revived`: facts under other keys that come back into effect (`memory.forgetting`).
    `kept`: every entry under another key that a version had replaced, as it was before.
    """

    versions: tuple[MemoryEntry, ...]
    kept: tuple[MemoryEntry, ...]
    revived: tuple[MemoryEntry, ...]


@dataclass(frozen=True)
class Forgotten:
    """What one forget removed (every version under the key) and what it brought back.

    Kept by the caller so that `MemoryEditor.undo_forget` can put back exactly this.
    """

    key: str
    entries: tuple[MemoryEntry, ...]
    kept: tuple[MemoryEntry, ...] = ()
    """The entries under other keys the versions had replaced, as they were before."""
    revived: tuple[MemoryEntry, ...] = ()
    """Those of `kept` the forget brought back into effect."""


class EarlierVersionError(MemoryStoreError):
    """An edit asked of a superseded version, which would overwrite the current fact."""


class ChangedElsewhereError(MemoryStoreError):
    """The entry was forgotten or replaced (another window, a command) since it was shown."""


class MemoryEditor:
    """Hand edits of one store, with the history a forget needs to be undone."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    @staticmethod
    def _current_only(entry: MemoryEntry, action: str) -> None:
        # Every write goes to the key: on an earlier version it would replace the fact
        # in effect with the old text.
        if entry.superseded_by:
            raise EarlierVersionError(
                f"{entry.key}: this is an earlier version; restore it before you {action} it"
            )

    async def _still_current(self, entry: MemoryEntry, action: str) -> None:
        """Refuse to write over a key whose entry changed since it was shown.

        Every write goes to the key: had another process forgotten the entry, a pin or a
        save would bring it back as new, undoing a deletion the user asked for.
        """
        self._current_only(entry, action)
        now = await self.memory.get_by_id(entry.id)
        if now is None:
            raise ChangedElsewhereError(
                f"{entry.key}: this memory was forgotten since it was shown (by another "
                "window or a command); nothing was changed"
            )
        if now.superseded_by:
            raise ChangedElsewhereError(
                f"{entry.key}: this memory was changed since it was shown (by another "
                "window or a command); nothing was changed. Open it again to see it as it is"
            )

    async def save(
        self,
        entry: MemoryEntry,
        content: str,
        category: str,
        importance: float,
        *,
        store_again: bool = False,
    ) -> MemoryEntry:
        """Replace an entry's text, category and importance (the old text stays history).

        The text is now the user's own (source "user"); a pin is kept. A saved message's
        secrets are redacted, as when it was said. `store_again`: the user was told the
        entry was forgotten elsewhere and saves the edit all the same.
        """
        # Here, not at the top: the write rules bring numpy, which the first paint of the
        # inspector does not need.
        from agent.commands import MAX_FACT_CHARS
        from agent.redact import redact
        from memory.write_rules import NewMemory

        longest = max(MAX_FACT_CHARS, len(entry.content))
        if len(content) > longest:
            # An adversary saved 18,896 characters where /remember takes 10,000.
            raise MemoryStoreError(
                f"{entry.key}: a memory takes at most {longest:,} characters (this text has "
                f"{len(content):,}); nothing was changed"
            )
        if category == "conversation":
            # What the user said is saved with its secrets redacted, edited or not: an
            # adversary's edit "the door code is 4747 and the wifi password is owl3636"
            # was shown to the model for "tell me about the Salzburg flat".
            content = redact(content)[0]
        if store_again:
            self._current_only(entry, "edit")
        else:
            await self._still_current(entry, "edit")
        return await self.memory.write(
            NewMemory(
                key=entry.key,
                content=content,
                category=category,
                session_id=entry.session_id,
                namespace=entry.namespace,
                importance=importance,
                by_hand=True,
            )
        )

    async def set_pinned(self, entry: MemoryEntry, pinned: bool) -> MemoryEntry:
        """Pin (never expired by hygiene, always kept by budgets) or unpin an entry."""
        await self._still_current(entry, "pin")
        return await self.memory.store_with_metadata(
            entry.key,
            entry.content,
            entry.category,
            entry.session_id,
            namespace=entry.namespace,
            pinned=pinned,
            source=entry.source,
        )

    async def restore(self, entry: MemoryEntry) -> MemoryEntry:
        """Bring a superseded version back as the current one.

        A pin belongs to the fact, not to one wording: if the version in effect was
        pinned, the restored one is too (an old version's pin is no reason to unpin).
        """
        replacing = entry.superseded_by
        current = await self.memory.get_by_id(replacing) if replacing else None
        restored = await self.memory.restore(entry.id)
        if current is not None and current.pinned and not restored.pinned:
            restored = await self.set_pinned(restored, True)
        return restored

    async def history(self, entry: MemoryEntry) -> tuple[MemoryEntry, ...]:
        """The key's rows and every entry they superseded, however long the chain.

        The whole namespace is read (`every_listed`).
        """
        rows = await every_listed(
            self.memory, entry.namespace, include_superseded=True, order="created"
        )
        chain = [row for row in rows if row.key == entry.key]
        ids = {row.id for row in chain}
        while more := [row for row in rows if row.superseded_by in ids and row.id not in ids]:
            chain.extend(more)
            ids.update(row.id for row in more)
        return tuple(chain)

    async def forget_plan(self, entry: MemoryEntry) -> ForgetPlan:
        """What `forget` of `entry` removes and what it brings back, before it does."""
        chain = {row.id: row for row in await self.history(entry)}
        going, staying = split_history(map(Link.of, chain.values()), entry.namespace, entry.key)
        versions = tuple(chain[link.id] for link in going) or (entry,)
        kept = tuple(chain[link.id] for link in staying)
        gone = {row.id for row in versions}
        holders: dict[tuple[str, str], str] = {}
        for place in {(row.namespace, row.key) for row in kept}:
            holder = await self.memory.get(place[1], place[0])
            if holder is not None and holder.id not in gone:
                holders[place] = holder.id
        plan = plan_rehoming(gone, staying, holders)
        return ForgetPlan(versions, kept, tuple(chain[i] for i in revived_ids(plan)))

    async def forget(self, entry: MemoryEntry) -> Forgotten:
        """Forget an entry's key and return what `undo_forget` needs to put it back."""
        self._current_only(entry, "forget")
        plan = await self.forget_plan(entry)
        if not await self.memory.forget(entry.key, entry.namespace):
            raise MemoryStoreError(f"{entry.key!r} was already forgotten")
        revived = []
        for before in plan.kept:
            now = await self.memory.get_by_id(before.id)
            if now is not None and now.superseded_by is None:
                revived.append(now)
        return Forgotten(entry.key, plan.versions, plan.kept, tuple(revived))

    async def _refuse_if_erased(self, forgotten: Forgotten) -> None:
        """Refuse an undo of a forget that was erased for good since.

        Found by an adversary: `memchat memory forget KEY --erase` in a terminal, then Undo
        forget in the open app, put the erased secret back from the app's memory.
        """
        lifecycle = self.memory.lifecycle
        if lifecycle is None or not forgotten.entries:
            return
        wanted = {entry.id for entry in forgotten.entries}
        logged = {record.entry_id for record in await whole_audit_log(lifecycle)}
        if not wanted & logged:
            raise MemoryStoreError(
                f"{forgotten.key!r} was erased for good since it was forgotten: there is "
                "nothing to put back"
            )

    async def undo_forget(self, forgotten: Forgotten) -> MemoryEntry:
        """Put a forgotten entry and its history back exactly (ids, times, supersession).

        The import embeds the entries it adds; only when that failed are the entries still
        without vectors embedded again (that one namespace, not the whole store).

        When the key was stored again since, what comes back is history of that newer
        memory, which stays in effect: the undo made the forgotten version current over it
        (found by an adversary). So when a fact the forget brought back was replaced since.
        Returns the entry in effect for the key, or the one put back.
        """
        entries = forgotten.entries
        await self._refuse_if_erased(forgotten)
        newer = await self.memory.get(forgotten.key, entries[0].namespace) if entries else None
        # An id stored again since (an import of a newer version, say) belongs to that
        # newer entry: the forgotten version comes back beside it under a fresh id, not
        # over it (found by an adversary: the undo made the older text current).
        renamed = {
            entry.id: uuid.uuid4().hex
            for entry in entries
            if await self.memory.get_by_id(entry.id) is not None
        }

        def as_history(entry: MemoryEntry) -> MemoryEntry:
            update: dict[str, object] = {"score": None, "scores": None}
            update["id"] = renamed.get(entry.id, entry.id)
            successor = entry.superseded_by
            if successor is not None:
                update["superseded_by"] = renamed.get(successor, successor)
            elif newer is not None and update["id"] != newer.id:
                update["superseded_by"] = newer.id
            return entry.model_copy(update=update)

        back = [as_history(entry) for entry in entries]
        await self.memory.import_(back)
        back_in_effect = next((e for e in back if e.superseded_by is None), None)
        # What the forget brought back into effect is again history of what replaced it.
        for before in forgotten.revived:
            successor = next((e.superseded_by for e in forgotten.kept if e.id == before.id), None)
            now = await self.memory.get_by_id(before.id)
            if successor is None or now is None:
                continue
            if now.superseded_by is None:
                await self.memory.supersede([before.id], renamed.get(successor, successor))
                continue
            # Replaced since ("I live in Paris" after the forget brought back Porto): the
            # fact put back is history of what holds that subject now, or two would be in
            # effect (found by an adversary).
            from memory.front import in_effect_after  # numpy: not before the first paint

            holder = await in_effect_after(now, self.memory.get_by_id)
            if holder is not None and back_in_effect is not None and newer is None:
                await self.memory.supersede([back_in_effect.id], holder.id)
        await embed_missing(self.memory, entries[0].namespace)
        if newer is not None:
            return newer
        chosen = back_in_effect or back[-1]
        return await self.memory.get_by_id(chosen.id) or chosen

    async def audit_log(self, limit: int = 200) -> list[AuditRecord]:
        """The deletions the store recorded, newest first; empty where it keeps none."""
        lifecycle = self.memory.lifecycle
        return list(await lifecycle.audit_log(limit=limit)) if lifecycle is not None else []


async def key_versions(memory: Memory, key: str, namespace: str) -> list[MemoryEntry]:
    """The stored versions under `key` itself (in effect or history), read by its prefix."""
    found = await every_listed(memory, namespace, prefix=key, include_superseded=True)
    return [entry for entry in found if entry.key == key]


async def replaced_versions(memory: Memory, entry: MemoryEntry) -> list[MemoryEntry]:
    """The memories a write of `entry` replaced (`entry.supersedes`), still held as history."""
    replaced = []
    for entry_id in entry.supersedes:
        old = await memory.get_by_id(entry_id)
        if old is not None:
            replaced.append(old)
    return replaced


async def replaced_under_other_keys(memory: Memory, entry: MemoryEntry) -> list[MemoryEntry]:
    """The facts under other keys that a write of `entry` replaced (`entry.supersedes`).

    Said by the CLI's store and the memory_store tool: a fact about the same subject
    stepping aside went unsaid (found by an adversary).
    """
    return [old for old in await replaced_versions(memory, entry) if old.key != entry.key]


_OTHERS_READ = 1_000
"""How many of the newest facts a write looks through for one that still says otherwise."""


async def still_saying_otherwise(memory: Memory, entry: MemoryEntry) -> list[MemoryEntry]:
    """Facts in effect with a clause that gives `entry`'s home or employer another value.

    Found by a new user: after "My name is Dana and I live in Porto", "I moved to Lisbon"
    left the old home in effect. Such a fact says more than the home, so it is not
    replaced (the name would go with it): the write says it still says otherwise.
    """
    return await saying_otherwise(memory, entry.content, entry.namespace, but=entry.id)


async def saying_otherwise(
    memory: Memory, text: str, namespace: str, but: str | None = None, *, plain: bool = False
) -> list[MemoryEntry]:
    """Facts in effect (not `but`) with a clause giving `text`'s home or employer another value.

    `plain`: the facts that say only that (`claim_of` the whole fact) instead.
    """
    claim = claim_of(said_in_english(text))
    if claim is None:
        return []
    owner, predicate, value = claim
    value_terms = set(analyze(value)) - change_terms()

    def differs(other: str) -> bool:
        # "Lisbon, Portugal" or "Meta now" agree with "Lisbon" and "Meta" (found by an
        # adversary: such facts were said to disagree).
        terms = set(analyze(other)) - change_terms()
        return not (terms <= value_terms or value_terms <= terms)

    facts = await memory.list(namespace=namespace, limit=_OTHERS_READ)
    return [
        fact
        for fact in facts
        if fact.id != but
        and fact.category != "conversation"
        and any(
            other is not None and other[:2] == (owner, predicate) and differs(other[2])
            for other in (
                [claim_of(_in_english(fact.content))]
                if plain
                else clause_claims(_in_english(fact.content))
            )
        )
    ]


def _in_english(text: str) -> str:
    """`text` as `said_in_english`, or a home with its address elsewhere as "I live at …".

    "ik woon op de Oudegracht 112, Utrecht" was no home a move in Dutch replaced (a new
    user, a teacher in Utrecht).
    """
    home = home_moved_to(text) if a_home_elsewhere(text) else None
    return home or said_in_english(text)


async def embed_missing(memory: Memory, namespace: str) -> None:
    """Embed what came back without a vector (an import writes none of its own).

    Found by a new user: a memory brought back from the log of deletions had none, so
    meaning search passed it by and every start said "1 memory has no vector".
    """
    reindexing = memory.reindexing
    if reindexing is not None:
        stats = await memory.stats()
        if stats.embedding_identity is not None and stats.stale_embedding:
            await reindexing.reindex(namespace=namespace)
