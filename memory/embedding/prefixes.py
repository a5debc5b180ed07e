"""Task prefixes that embedding model families expect before queries and documents.

Many retrieval embedders were trained with an instruction in front of each text
("search_query: …" for nomic, "query: …" / "passage: …" for e5) and rank noticeably worse
without it; Ollama and OpenAI-compatible servers add none. The scheme is part of the
embedding identity, so vectors made with and without a prefix are never compared: a change
of scheme asks for `memchat memory reindex` like a change of model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.lazy_patterns import lazy_compile

_SEARCH_INSTRUCTION = "Represent this sentence for searching relevant passages: "


@dataclass(frozen=True)
class TaskPrefixes:
    """What goes before a query and before a stored document for one model family."""

    scheme: str
    """Short name recorded in the embedding identity."""
    query: str
    document: str = ""

    def queries(self, texts: list[str]) -> list[str]:
        """Queries as the model expects them."""
        return [self.query + text for text in texts]

    def documents(self, texts: list[str]) -> list[str]:
        """Stored texts as the model expects them."""
        return [self.document + text for text in texts]


# Matched against the model name without its tag or registry namespace, lower-case; first
# match wins, so the specific spellings come before the general ones.
_FAMILIES: list[tuple[re.Pattern[str], TaskPrefixes | None]] = [
    (lazy_compile(r"^nomic-embed"), TaskPrefixes("nomic", "search_query: ", "search_document: ")),
    (lazy_compile(r"^mxbai-embed"), TaskPrefixes("mxbai", _SEARCH_INSTRUCTION)),
    # Arctic-embed 2.x was trained with e5-style prefixes, 1.x with the BGE instruction.
    (lazy_compile(r"^snowflake-arctic-embed2"), TaskPrefixes("arctic2", "query: ")),
    (lazy_compile(r"^snowflake-arctic-embed"), TaskPrefixes("arctic", _SEARCH_INSTRUCTION)),
    # BGE-M3 needs no instruction; the English v1.5 models want one for queries.
    (lazy_compile(r"^bge-m3"), None),
    (lazy_compile(r"^bge-(small|base|large)"), TaskPrefixes("bge", _SEARCH_INSTRUCTION)),
    (lazy_compile(r"(^|[-_.])e5([-_.]|$)"), TaskPrefixes("e5", "query: ", "passage: ")),
    (
        lazy_compile(r"^embeddinggemma"),
        TaskPrefixes("gemma", "task: search result | query: ", "title: none | text: "),
    ),
    (
        lazy_compile(r"^qwen3-embedding"),
        TaskPrefixes(
            "qwen3",
            "Instruct: Given a question, retrieve passages that answer it\nQuery:",
        ),
    ),
]


def family_name(model: str) -> str:
    """`hf.co/intfloat/Multilingual-E5-Small:Q8_0` → `multilingual-e5-small`."""
    base = model.strip().lower().rsplit("/", 1)[-1]
    return base.split(":", 1)[0]


def prefixes_for(model: str) -> TaskPrefixes | None:
    """The task prefixes of the model's family, or None for models that need none."""
    name = family_name(model)
    for pattern, prefixes in _FAMILIES:
        if pattern.search(name):
            return prefixes
    return None
