"""Write-time decisions: exact duplicates, near-duplicates and conflicting core facts.

"Same subject" is judged lexically: the share of the shorter text's words (stemmed, stop
words dropped) that the other contains. "The user prefers Rust" and "The user prefers
Python" share two of three words, so the newer supersedes the older; "… cat is Miso" and
"… dog is Rex" share one, so both stay. A lexical test cannot tell that a sister and a
brother who both live in Porto are different facts: superseded entries are kept as
history and restorable for that reason.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass

from memory.text import analyze, fts_match_expression

_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"\w+")
_END_MARKS = " .!?…"


def content_hash(text: str) -> str:
    """Identity of a text for exact-duplicate detection: case, spacing and end marks ignored."""
    # After the spaces are made single, stripping end marks is what `[\s.!?…]+$` did.
    normal = _SPACE.sub(" ", text.casefold()).strip().rstrip(_END_MARKS)
    return hashlib.sha256(normal.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def overlap(a: str, b: str) -> tuple[float, int]:
    """Share of the smaller text's distinct terms found in the other, and how many."""
    left, right = set(analyze(a)), set(analyze(b))
    if not left or not right:
        return 0.0, 0
    shared = len(left & right)
    return shared / min(len(left), len(right)), shared


def adds_nothing(new: str, old: str) -> bool:
    """Whether storing `new` beside `old` would add no information.

    True when every word of `new` (case aside; stop words, numbers and word forms count, so
    "not", "2019" or "worked" are never dropped) is in `old`, and `new` is not the same
    words in another order ("Ana owes Bob" is not "Bob owes Ana").
    """
    new_words = _WORD.findall(new.casefold())
    old_words = _WORD.findall(old.casefold())
    if not set(new_words) <= set(old_words):
        return False
    return set(new_words) != set(old_words) or new_words == old_words


@dataclass(frozen=True)
class Similar:
    """An active entry that resembles the one being written."""

    seq: int
    id: str
    key: str
    content: str
    overlap: float
    shared: int


def similar_active(
    conn: sqlite3.Connection,
    namespace: str,
    category: str,
    content: str,
    exclude_key: str,
    limit: int = 10,
) -> list[Similar]:
    """Active entries of the same namespace and category that share words, most similar first."""
    terms = list(dict.fromkeys(analyze(content)))
    if not terms:
        return []
    rows = conn.execute(
        "SELECT m.seq, m.id, m.key, m.content FROM memories_fts JOIN memories m "
        "ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ? AND m.namespace = ? "
        "AND m.category = ? AND m.superseded_by IS NULL AND m.key != ? "
        "ORDER BY memories_fts.rank LIMIT ?",
        (fts_match_expression(terms), namespace, category, exclude_key, limit),
    ).fetchall()
    found = []
    for seq, entry_id, key, other in rows:
        ratio, shared = overlap(content, other)
        found.append(Similar(seq, entry_id, key, other, ratio, shared))
    return sorted(found, key=lambda s: (-s.overlap, -s.shared))
