"""Long-term memory: entries, backends, embedders and recall. Never imports agent or textual."""

from __future__ import annotations

from memory.entry import (
    HealthReport,
    MemoryCategory,
    MemoryEntry,
    MemorySource,
    RecallResult,
    RecallScores,
)
from memory.errors import MemoryStoreError
from memory.protocol import Capabilities, Memory, MemoryStats

__all__ = [
    "Capabilities",
    "HealthReport",
    "Memory",
    "MemoryCategory",
    "MemoryEntry",
    "MemorySource",
    "MemoryStats",
    "MemoryStoreError",
    "RecallResult",
    "RecallScores",
]
