"""Chat messages as the agent keeps them; providers translate to their own wire format."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memory.entry import RecallScores
from memory.lazy_patterns import lazy_compile

Role = Literal["system", "user", "assistant", "tool"]

_SURROGATE = lazy_compile("[\ud800-\udfff]")


def without_lone_surrogates(text: str) -> str:
    """Text that can be encoded: each surrogate code point becomes U+FFFD.

    A Python string holds a surrogate only unpaired (a JSON escape can carry one, a paste
    too); such text cannot be sent as UTF-8. What the user wrote is kept as it is in the
    chat and in memory; what goes to the model, and what comes from it, is made encodable.
    """
    return _SURROGATE.sub("\ufffd", text)


def encodable(value: dict[str, Any]) -> dict[str, Any]:
    """Tool call arguments with every string made encodable (see `without_lone_surrogates`)."""
    text = json.dumps(value, ensure_ascii=False)
    cleaned = without_lone_surrogates(text)
    return value if cleaned == text else dict(json.loads(cleaned))


class ToolCall(BaseModel):
    """One tool call the model asked for; `arguments` is whatever the model sent."""

    model_config = ConfigDict(extra="forbid")

    id: str
    name: str
    arguments: Any = Field(default_factory=dict)
    """Usually an object; some models send a JSON string or junk, which tools reject."""


class ChatMessage(BaseModel):
    """One message of a conversation, as stored in the session transcript."""

    model_config = ConfigDict(extra="forbid")

    role: Role
    content: str = ""
    thinking: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_name: str | None = None
    """For role "tool": which tool produced this result."""
    tool_call_id: str | None = None
    stopped: bool = False
    """An assistant reply cut short by the user (Esc); what arrived is kept."""
    failed: bool = False
    """An assistant reply cut short by a failure (the server went away): `stopped` too. In
    the session file it is a record of its own after the message (`agent.sessions`): older
    memchat versions refuse a message with a field they do not know."""
    error: bool = False
    """For role "tool": the content is an error the model should correct."""
    model: str | None = None
    """For role "assistant": the model that wrote it (a resumed chat knows whose it was)."""

    @field_validator("model", mode="before")
    @classmethod
    def _model_name_or_unknown(cls, value: object) -> object:
        # A hand-edited file may hold anything here; the message itself still counts.
        return value if isinstance(value, str) or value is None else None


class CommandNote(BaseModel):
    """A slash command (/remember, /recall, /forget) as the chat showed it, with its outcome.

    Never sent to the model: kept in the session file so a reopened chat shows it.
    """

    model_config = ConfigDict(extra="ignore")

    text: str
    """The command as typed."""
    tool: str
    arguments: Any = Field(default_factory=dict)
    result: str = ""
    error: bool = False


class RecalledItem(BaseModel):
    """One memory a recall brought, by reference.

    Its text is read from the store when shown, so a forgotten memory does not live on in
    chat files.
    """

    model_config = ConfigDict(extra="ignore")

    id: str
    key: str
    category: str = ""
    scores: RecallScores | None = None
    reason: str | None = None
    """Why it was not used (below floor, budget …); None when it was injected."""


class RecallNote(BaseModel):
    """What memory contributed to one turn (the ◆ line under a message).

    Kept in the session file, so a reopened chat shows it.
    """

    model_config = ConfigDict(extra="ignore")

    mode: str
    degraded: str | None = None
    items: list[RecalledItem] = Field(default_factory=list)


class ToolExample(BaseModel):
    """A request and the arguments the tool is called with for it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    request: str
    arguments: dict[str, Any]


class ToolSpec(BaseModel):
    """A tool offered to the model: a name, what it does and a JSON schema of its arguments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    description: str
    parameters: dict[str, Any]
    example: ToolExample | None = None
    """Shown to models that call tools by writing JSON (native tool calling has its own
    template); small models follow an example where a schema alone does not move them."""
