"""The data a memory holds, and the scores that explain why it was recalled."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

DEFAULT_NAMESPACE = "default"
MAX_KEY_CHARS = 512
MAX_CATEGORY_CHARS = 64
MAX_EMBEDDING_DIMENSIONS = 16_384


class MemoryCategory(StrEnum):
    """The built-in categories; any other non-empty string is a custom category."""

    CORE = "core"
    DAILY = "daily"
    CONVERSATION = "conversation"
    PROCEDURAL = "procedural"


class MemorySource(StrEnum):
    """Who wrote an entry."""

    USER = "user"
    TOOL = "tool"
    AUTOSAVE = "autosave"
    IMPORT = "import"
    CONSOLIDATION = "consolidation"
    LUCID = "lucid"
    """Offered by the lucid CLI at recall time; never stored locally."""


RecallLane = Literal["keyword", "vector", "both", "like", "recent", "context", "lucid"]
RecallMode = Literal["hybrid", "keyword", "keyword-early", "recent", "off", "skipped"]
"""How a recall was answered; "skipped": the message asks about nothing ("ok", "thanks")."""


def normalize_category(value: str) -> str:
    """Return the canonical spelling of a category, rejecting empty or oversized names."""
    name = value.strip().lower()
    if not name:
        raise ValueError("category must not be empty")
    if len(name) > MAX_CATEGORY_CHARS:
        raise ValueError(f"category is longer than {MAX_CATEGORY_CHARS} characters")
    return name


def valid_category(value: str) -> str:
    """`normalize_category`, also refusing a name no person could read or type.

    A built-in name or a custom one of printable characters: a control character (an
    escape sequence would recolour a terminal), a bidirectional or other invisible format
    character, or a line break is refused. Applied where entries are written and imported;
    reading stays tolerant, so a store written before this rule still opens.
    """
    name = normalize_category(value)
    bad = next((char for char in name if not char.isprintable()), None)
    if bad is not None:
        raise ValueError(
            f"category {name!r} contains the character U+{ord(bad):04X}, which cannot be "
            "shown; use one of core, daily, conversation, procedural or a plain name"
        )
    return name


def utc_now() -> datetime:
    """Current time in UTC; the one clock every backend reads, so tests can patch it."""
    return datetime.now(UTC)


VECTOR_SHARE_OF_KEYWORD = 0.3
"""In fusion, a memory's vector relevance counts as at least this share of its keyword
score: a model that finds no closeness of meaning (a weak or unusual one, or a short
message) costs a keyword match part of its score, not all of the vector lane's weight.
Chosen on LoCoMo dev conversations 0-2 (bench/order_methods.py `soft_veto`)."""


def counted_vector(vector: float, keyword: float | None) -> float:
    """The vector relevance fusion counts (see `VECTOR_SHARE_OF_KEYWORD`)."""
    return max(vector, VECTOR_SHARE_OF_KEYWORD * (keyword or 0.0))


class RecallScores(BaseModel):
    """Why an entry was recalled: each component is an absolute score in [0, 1]."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    keyword: float | None = None
    """IDF-weighted share of the query's terms that the entry contains."""
    vector: float | None = None
    """Vector relevance: the cosine placed in `band` (0 = as close as unrelated text gets)."""
    cosine: float | None = None
    """The raw cosine similarity between the query and the entry embeddings."""
    band: tuple[float, float] | None = None
    """The cosines at which vector relevance starts and is full, for this query and model."""
    band_calibrated: bool = True
    """False when the band is the fixed one from vector_baseline / vector_ceiling."""
    fused: float
    """The score used for ranking and for the relevance floor."""
    lane: RecallLane
    """Which retrieval lane found the entry ("both" when the two lanes agreed)."""
    low_confidence: bool = False
    """True for substring (LIKE) fallback hits, which carry no real relevance signal."""
    context_of: str | None = None
    """For lane "context": the id of the recalled message this one followed."""
    held_back: str | None = None
    """Why an entry scored above the floor was not used (a saved question says no fact)."""
    part: str | None = None
    """For a message that asks about several things: the part it was recalled for."""
    part_mode: RecallMode | None = None
    """How that part's search recalled, which may differ from the whole message's."""

    def explanation(self, mode: str | None = None) -> str:
        """The components in words, for the inspector, the recall line and the CLI.

        E.g. `fused 0.55 · keyword 0.50 · vector 0.62 (cosine 0.841 in this query's band
        0.790-0.860) · found by both lanes`.
        """
        mode = self.part_mode or mode
        if self.lane == "recent":
            return "listed, not searched: what is remembered, the newest first"
        parts = [f"fused {self.fused:.2f}"]
        parts.append("keyword —" if self.keyword is None else f"keyword {self.keyword:.2f}")
        if self.vector is None and mode == "keyword-early":
            if self.keyword is not None and self.fused < round(self.keyword, 6):
                share = round(VECTOR_SHARE_OF_KEYWORD * 100)
                parts.append(
                    "vector — (not searched: a stronger keyword match settled it; counted "
                    f"at its least, {share}% of keyword)"
                )
            else:
                parts.append(
                    "vector — (not searched: the keyword match settled it, fused = keyword)"
                )
        elif self.vector is None and mode == "keyword":
            # Nothing to mix with: the fused score is the keyword score on its own. Said
            # plainly: "none to compare" puzzled a new user.
            parts.append("vector — (no meaning search this time, so fused = keyword)")
        elif self.vector is None:
            parts.append("vector — (this memory has no vector, so fused = keyword)")
        elif self.cosine is not None and self.band is not None:
            which = "this query's band" if self.band_calibrated else "the fixed band"
            parts.append(
                f"vector {self.vector:.2f} (cosine {self.cosine:.3f} in {which} "
                f"{self.band[0]:.3f}-{self.band[1]:.3f}{self._counted()})"
            )
        else:
            parts.append(f"vector {self.vector:.2f}{self._counted()}")
        lane = {
            "both": "found by both lanes",
            "keyword": "found by keywords",
            "vector": "found by meaning",
            "context": "the message after a recalled one",
        }.get(self.lane, self.lane)
        if self.lane == "vector" and not self.vector and self.keyword:
            # Among the nearest by meaning, yet no closer than unrelated text: its words
            # are what scored it.
            lane = "found by the meaning search, scored by its words"
        parts.append(lane + (" (low confidence)" if self.low_confidence else ""))
        if self.part is not None:
            parts.append(f"recalled for the part {self.part!r} of the message")
        if self.held_back:
            parts.append(f"not used: {self.held_back}")
        return " · ".join(parts)

    def _counted(self) -> str:
        if self.vector is None or counted_vector(self.vector, self.keyword) <= self.vector:
            return ""
        share = round(VECTOR_SHARE_OF_KEYWORD * 100)
        return f"; counted as {counted_vector(self.vector, self.keyword):.2f}, {share}% of keyword"


class MemoryEntry(BaseModel):
    """One remembered item."""

    model_config = ConfigDict(extra="forbid")

    id: str
    key: str
    content: str
    category: str = MemoryCategory.CORE.value
    timestamp: datetime
    """When the entry was first created (UTC)."""
    updated_at: datetime
    session_id: str | None = None
    namespace: str = DEFAULT_NAMESPACE
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    superseded_by: str | None = None
    pinned: bool = False
    source: str = MemorySource.USER.value
    score: float | None = None
    """The fused recall score, set on recall results only."""
    scores: RecallScores | None = None
    """Component scores, set on recall results only."""
    supersedes: list[str] = Field(default_factory=list, exclude=True)
    """Set on a store result: ids of the entries this write superseded (not stored)."""

    @field_validator("category")
    @classmethod
    def _canonical_category(cls, value: str) -> str:
        return normalize_category(value)

    @field_validator("timestamp", "updated_at")
    @classmethod
    def _as_utc(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        try:
            return value.astimezone(UTC)
        except OverflowError:
            # Raised as ValueError so validation names the field instead of a traceback.
            raise ValueError(
                f"{value.isoformat()} is out of range: it has no UTC equivalent between "
                "years 1 and 9999"
            ) from None


class RecallResult(BaseModel):
    """Entries found for a query, plus how the search ran."""

    model_config = ConfigDict(extra="forbid")

    entries: list[MemoryEntry]
    mode: RecallMode
    """How the results were found; "keyword" with `degraded` set means embeddings failed."""
    cached: bool = False
    """True when the result came from the hot cache."""
    degraded: str | None = None
    """Why the vector lane was skipped, when it should have run but could not."""
    below_floor: list[MemoryEntry] = Field(default_factory=list)
    """Candidates dropped by the relevance floor, best first (for the inspector)."""
    calibration: str | None = None
    """Set on the recall that first calibrated the embedding model (it took longer)."""

    def weaker_matches(self) -> list[MemoryEntry]:
        """The entries under the floor that matched at all: a score of 0 is no match."""
        return [entry for entry in self.below_floor if (entry.score or 0.0) > 0]


class HealthReport(BaseModel):
    """Outcome of a backend health check."""

    model_config = ConfigDict(extra="forbid")

    ok: bool
    backend: str
    detail: str
