"""After a turn, ask the model what is worth keeping: a daily summary line and core facts.

Off by default (memory.consolidation). It runs in the background after the reply; any
failure (no answer, broken JSON, a store error) stores nothing derived and loses nothing
raw: the user's message was auto-saved already. New facts pass through the store's
duplicate and conflict rules with source "consolidation".
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.commands import key_words
from agent.messages import ChatMessage
from agent.model import ChatModel, ChatOptions, ModelError
from agent.redact import redact
from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError
from memory.protocol import Memory

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "summary": {"type": "string"},
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"key": {"type": "string"}, "content": {"type": "string"}},
                "required": ["key", "content"],
            },
        },
    },
    "required": ["summary", "facts"],
}

INSTRUCTIONS = (
    "You maintain a personal assistant's long-term memory. Read one exchange and answer "
    'with JSON only: {"summary": one line saying what happened, "facts": [{"key": '
    'short_snake_case, "content": one durable fact about the user}]}. Facts are things the '
    "user stated about themselves, their preferences, plans and people; never guesses, "
    "never the assistant's opinions. Use an empty list when there is nothing durable."
)


class Fact(BaseModel):
    """One fact the model proposes to remember."""

    model_config = ConfigDict(extra="ignore")

    key: str = Field(min_length=1, max_length=80)
    content: str = Field(min_length=1, max_length=500)


class Consolidated(BaseModel):
    """The model's answer, tolerantly read."""

    model_config = ConfigDict(extra="ignore")

    summary: str = Field(default="", max_length=300)
    facts: list[Fact] = Field(default_factory=list, max_length=10)


def _key_for(text: str) -> str:
    return "_".join(key_words(text, 4)) or "fact"


def parse(text: str) -> Consolidated | None:
    """The JSON object in a reply (code fences and chatter around it allowed), or None."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(text[start : end + 1])
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    facts = data.get("facts")
    if isinstance(facts, list):  # small models sometimes send plain strings
        data["facts"] = [
            {"key": _key_for(f), "content": f} if isinstance(f, str) else f for f in facts
        ]
    try:
        return Consolidated.model_validate(data)
    except ValidationError:
        return None


async def consolidate(
    model: ChatModel,
    memory: Memory,
    user_text: str,
    reply: str,
    now: datetime,
    options: ChatOptions,
    namespace: str = "default",
) -> list[MemoryEntry]:
    """Ask, parse, store; returns what was stored (nothing on any failure)."""
    said, _ = redact(user_text)
    answered, _ = redact(reply[:2000])
    messages = [
        ChatMessage(role="system", content=INSTRUCTIONS),
        ChatMessage(role="user", content=f"User said:\n{said}\n\nAssistant replied:\n{answered}"),
    ]
    try:
        text = "".join([chunk.text async for chunk in model.chat(messages, options=options)])
    except ModelError:
        return []
    result = parse(text)
    if result is None:
        return []
    stored: list[MemoryEntry] = []
    try:
        if result.summary.strip():
            summary, _ = redact(result.summary.strip())
            digest = hashlib.sha256(summary.encode("utf-8", "surrogatepass")).hexdigest()[:8]
            stored.append(
                await memory.store_with_metadata(
                    f"daily/{now:%Y-%m-%d}/{digest}",
                    summary,
                    "daily",
                    None,
                    namespace=namespace,
                    source="consolidation",
                )
            )
        for fact in result.facts:
            content, _ = redact(fact.content.strip())
            stored.append(
                await memory.store_with_metadata(
                    fact.key.strip(),
                    content,
                    "core",
                    None,
                    namespace=namespace,
                    source="consolidation",
                )
            )
    except MemoryStoreError:
        return stored
    return stored
