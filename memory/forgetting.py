"""What a forget keeps: the facts under other keys that the forgotten one had replaced.

Forgetting a key deletes every version stored under it, and the saved messages they
replaced (the message a fact was made from goes with the fact: it may hold the same
secret). A fact it had replaced under another key ("I live in Porto", replaced by "I moved
to Lisbon") is a fact of its own the user once stated: it comes back into effect instead
of going with it. Found by an adversary: "I moved to Neovim" wrongly replaced the user's
home, and forgetting the mistake deleted the home too. Every backend applies the same
plan (`split_history`, then `plan_rehoming`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from memory.entry import MemoryEntry

GOES_WITH_ITS_REPLACEMENT = "conversation"
"""The category that goes with what replaced it: a saved message is the source of the fact
made from it, or an earlier wording of an edited message."""


@dataclass(frozen=True)
class Link:
    """What a forget needs of one entry: where it is and what replaced it.

    Read without the rest of the row, so a damaged row (an unreadable time, say) can still
    be forgotten. `recency` sorts as the entry's last update does, within one store.
    """

    id: str
    namespace: str
    key: str
    category: str
    superseded_by: str | None
    recency: str

    @classmethod
    def of(cls, entry: MemoryEntry) -> Link:
        """The link of a whole entry."""
        recency = f"{entry.updated_at.isoformat()} {entry.timestamp.isoformat()}"
        return cls(
            entry.id, entry.namespace, entry.key, entry.category, entry.superseded_by, recency
        )


def split_history(
    history: Iterable[Link], namespace: str, key: str
) -> tuple[list[Link], list[Link]]:
    """What forgetting `key` deletes, and the entries it had replaced that stay.

    `history`: the key's versions and, step by step, every entry they superseded (more is
    harmless). Deleted: the key's chain (its versions, but for those another key's fact
    replaced), and the saved messages they replaced, step by step. Kept: the other entries
    they replaced directly; what those replaced is left alone.
    """
    links = list(history)
    versions = {link.id: link for link in links if (link.namespace, link.key) == (namespace, key)}
    # The key's own chain: the version in effect and those its versions replaced. A version
    # another key's fact replaced is that fact's history, and stays with it (found by a
    # new user: "I live in Porto", replaced by "I moved to Lisbon", went when a later,
    # wrong fact stored under Porto's key was forgotten).
    gone = {link.id: link for link in versions.values() if link.superseded_by is None}
    while chained := [
        link for link in versions.values() if link.id not in gone and link.superseded_by in gone
    ]:
        gone.update((link.id, link) for link in chained)
    kept: dict[str, Link] = {}
    frontier = set(gone)
    while frontier:
        replaced = [link for link in links if link.superseded_by in frontier]
        frontier = set()
        for link in replaced:
            if link.id in gone:
                continue
            if link.category == GOES_WITH_ITS_REPLACEMENT:
                gone[link.id] = link
                frontier.add(link.id)
            else:
                kept[link.id] = link
    return list(gone.values()), [link for link in kept.values() if link.id not in gone]


@dataclass(frozen=True)
class Rehoming:
    """One entry a forget had replaced, and what it is history of afterwards.

    `successor` None: it is in effect again, as it was before it was replaced (its times
    too, so an undo of the forget is exact).
    """

    link: Link
    successor: str | None


def plan_rehoming(
    gone: Iterable[str],
    replaced: Iterable[Link],
    holders: Mapping[tuple[str, str], str],
) -> list[Rehoming]:
    """Where each entry replaced by a `gone` one goes; the revived ones first.

    `replaced`: the entries (not themselves gone) whose `superseded_by` is gone. `holders`:
    the id in effect under each (namespace, key) that is not gone. Per key, the newest
    replaced version comes back when the key is free, its older ones become its history;
    when another entry holds the key, they all become its history.
    """
    gone_ids = set(gone)
    by_key: dict[tuple[str, str], list[Link]] = {}
    for link in replaced:
        if link.id not in gone_ids and link.superseded_by in gone_ids:
            by_key.setdefault((link.namespace, link.key), []).append(link)
    revived: list[Rehoming] = []
    history: list[Rehoming] = []
    for place, versions in by_key.items():
        versions.sort(key=lambda link: (link.recency, link.id), reverse=True)
        heir = holders.get(place)
        if heir is None:
            newest, *versions = versions
            revived.append(Rehoming(newest, None))
            heir = newest.id
        history.extend(Rehoming(link, heir) for link in versions)
    return revived + history


def revived_ids(plan: Iterable[Rehoming]) -> list[str]:
    """The ids of the entries a plan brings back into effect."""
    return [step.link.id for step in plan if step.successor is None]
