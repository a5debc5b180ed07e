"""Session transcripts: one append-only JSON-lines file per session, resumable."""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from agent.messages import ChatMessage
from agent.paths import ensure_private_dir


@dataclass
class Session:
    """A conversation: its id, its transcript, and whether auto-save is off for it."""

    id: str
    created_at: datetime
    messages: list[ChatMessage] = field(default_factory=list)
    title: str = ""
    incognito: bool = False


@dataclass(frozen=True)
class SessionInfo:
    """A line of the session list."""

    id: str
    title: str
    updated_at: datetime
    message_count: int


class SessionStore:
    """Session files under one private directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, session_id: str) -> Path:
        if not session_id or "/" in session_id or session_id.startswith("."):
            raise ValueError(f"invalid session id {session_id!r}")
        return self.directory / f"{session_id}.jsonl"

    def new(self, title: str = "") -> Session:
        """A fresh session; its file appears with the first message."""
        now = datetime.now(UTC)
        return Session(
            id=f"{now:%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:6]}", created_at=now, title=title
        )

    def append(self, session: Session, messages: list[ChatMessage]) -> None:
        """Add messages to the session and its file (one line each, flushed)."""
        if not messages:
            return
        ensure_private_dir(self.directory)
        path = self._path(session.id)
        lines = []
        if not path.exists():
            lines.append(
                json.dumps(
                    {
                        "type": "session",
                        "id": session.id,
                        "created_at": session.created_at.isoformat(),
                    }
                )
            )
        lines.extend(
            json.dumps({"type": "message", **m.model_dump(mode="json")}, ensure_ascii=False)
            for m in messages
        )
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(descriptor, "a", encoding="utf-8") as stream:
            stream.write("\n".join(lines) + "\n")
            stream.flush()
            os.fsync(stream.fileno())
        session.messages.extend(messages)
        if not session.title:
            session.title = _title(session.messages)

    def load(self, session_id: str) -> Session:
        """Read a session back; a torn last line (a crash mid-write) is skipped."""
        path = self._path(session_id)
        created = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        messages: list[ChatMessage] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if record.get("type") == "session":
                created = datetime.fromisoformat(record["created_at"])
            elif record.get("type") == "message":
                record.pop("type")
                try:
                    messages.append(ChatMessage.model_validate(record))
                except ValidationError:
                    continue
        return Session(id=session_id, created_at=created, messages=messages, title=_title(messages))

    def list(self) -> list[SessionInfo]:
        """Every session, most recently used first."""
        if not self.directory.exists():
            return []
        infos = []
        for path in self.directory.glob("*.jsonl"):
            session = self.load(path.stem)
            infos.append(
                SessionInfo(
                    id=session.id,
                    title=session.title or "(empty)",
                    updated_at=datetime.fromtimestamp(path.stat().st_mtime, UTC),
                    message_count=len(session.messages),
                )
            )
        return sorted(infos, key=lambda info: info.updated_at, reverse=True)


def _title(messages: list[ChatMessage]) -> str:
    first = next((m.content for m in messages if m.role == "user" and m.content.strip()), "")
    first = " ".join(first.split())
    return first if len(first) <= 60 else first[:59] + "…"
