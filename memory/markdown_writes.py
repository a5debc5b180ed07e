"""The shared write rules (`memory.write_rules`) over the Markdown backend's loaded entries."""

from __future__ import annotations

from memory.entry import MemoryEntry
from memory.markdown_import import revised
from memory.write_policy import SIMILAR_LIMIT, content_hash, lookup_terms
from memory.write_rules import Vector


class MarkdownRules:
    """`RuleEngine` over every entry's newest version, kept in step with what it writes.

    The versions a write makes are collected in `pending`, for the backend to append in
    one go: each file is replaced once, atomically, so a new version and the old one's
    step aside land together or not at all. Markdown keeps no vectors.
    """

    def __init__(self, latest: dict[str, MemoryEntry]) -> None:
        self.latest = latest
        self.pending: list[MemoryEntry] = []

    def _active(self, namespace: str, category: str) -> list[MemoryEntry]:
        return [
            e
            for e in self.latest.values()
            if e.namespace == namespace and e.category == category and e.superseded_by is None
        ]

    async def key_holder(self, namespace: str, key: str) -> MemoryEntry | None:
        """See `RuleEngine.key_holder`."""
        found = [e for e in self.latest.values() if e.namespace == namespace and e.key == key]
        found.sort(key=lambda e: (e.superseded_by is not None, -e.updated_at.timestamp(), e.id))
        return found[0] if found else None

    async def exact_duplicate(
        self, namespace: str, category: str, digest: str
    ) -> MemoryEntry | None:
        """See `RuleEngine.exact_duplicate`."""
        same = [e for e in self._active(namespace, category) if content_hash(e.content) == digest]
        return min(same, key=lambda e: (e.timestamp, e.id), default=None)

    async def sharing_words(
        self, namespace: str, category: str, content: str, exclude_key: str
    ) -> list[MemoryEntry]:
        """See `RuleEngine.sharing_words`: most shared terms first, then newest."""
        terms = set(lookup_terms(content))
        if not terms:
            return []
        scored = []
        for entry in self._active(namespace, category):
            # Its predicate's wordings count, as in the other backends' index ("I work at
            # Acme" is found by "employer").
            shared = len(terms & set(lookup_terms(entry.content)))
            if shared and entry.key != exclude_key:
                scored.append((-shared, -entry.updated_at.timestamp(), entry.id, entry))
        return [item[-1] for item in sorted(scored, key=lambda item: item[:3])[:SIMILAR_LIMIT]]

    async def put(self, entry: MemoryEntry, vector: Vector | None, *, keep_vector: bool) -> None:
        """See `RuleEngine.put`: the entry's next version, to append."""
        del vector, keep_vector  # no vectors here
        self.pending.append(entry)
        self.latest[entry.id] = entry

    async def mark_superseded(self, entries: list[MemoryEntry], successor: str) -> None:
        """See `RuleEngine.mark_superseded`: a superseded version of each, to append."""
        changed = [revised(entry, successor) for entry in entries]
        self.pending.extend(changed)
        self.latest.update((entry.id, entry) for entry in changed)
