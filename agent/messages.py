"""Chat messages as the agent keeps them; providers translate to their own wire format."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Role = Literal["system", "user", "assistant", "tool"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def without_lone_surrogates(text: str) -> str:
    """Text that can be encoded: each surrogate code point becomes U+FFFD.

    A Python string holds a surrogate only unpaired (a server's JSON escape can carry one);
    such text cannot be written as UTF-8, so one in a reply would make every
    later request of the chat, and its file, fail to encode.
    """
    return _SURROGATE.sub("\ufffd", text)


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
    error: bool = False
    """For role "tool": the content is an error the model should correct."""
    model: str | None = None
    """For role "assistant": the model that wrote it (a resumed chat knows whose it was)."""

    @field_validator("content", "thinking")
    @classmethod
    def _encodable(cls, value: str) -> str:
        # Also repairs a chat file saved before this was checked: it can be sent again.
        return without_lone_surrogates(value)

    @field_validator("model", mode="before")
    @classmethod
    def _model_name_or_unknown(cls, value: object) -> object:
        # A hand-edited file may hold anything here; the message itself still counts.
        return value if isinstance(value, str) or value is None else None


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
